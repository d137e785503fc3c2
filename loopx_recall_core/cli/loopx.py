# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall loopx manifest``: our LoopX extension manifests, for LoopX's own
``loopx extension install --manifest``."""

from __future__ import annotations

from pathlib import Path

import click

from loopx_recall_core.cli import group_help
from loopx_recall_core.cli._common import Group, Rejected
from loopx_recall_core.loopx_protocol import manifests

__all__ = ["loopx"]


@click.group(cls=Group, help=group_help("loopx"))
def loopx() -> None:
    pass


@loopx.command("manifest")
@click.argument("name", type=click.Choice(sorted(manifests.MANIFESTS)), default="history")
@click.option(
    "--print",
    "mode",
    flag_value="print",
    default=True,
    help="Print the manifest's TOML (the default).",
)
@click.option(
    "--path",
    "mode",
    flag_value="path",
    help="Print the manifest file's path instead (inside the installed package).",
)
@click.option(
    "--into",
    type=click.Path(file_okay=False),
    help="Write a copy (and, for history, its integration profile) into this folder, naming "
    "the provider by absolute path: for a LoopX whose PATH does not reach this environment.",
)
@click.option(
    "--entrypoint",
    help="The provider command the copy names (default with --into: this environment's "
    "loopx-recall-loopx-provider, by absolute path).",
)
def manifest(name: str, mode: str, into: str | None, entrypoint: str | None) -> None:
    """Print a LoopX extension manifest (history: the capability agent-history-recall;
    decision-context: a decision-context advisory provider), or its path.

    Install it with LoopX's own command:
    loopx extension install --manifest "$(loopx-recall loopx manifest --path NAME)" --execute
    """
    if entrypoint is not None and (not entrypoint.strip() or "\x00" in entrypoint):
        raise Rejected("--entrypoint must name a command or a path")
    if into is not None:
        written = manifests.write_copy(
            name, Path(into), entrypoint=entrypoint or manifests.default_entrypoint()
        )
        shown = str(written.resolve()) if mode == "path" else written.read_text("utf-8")
    elif mode == "path":
        if entrypoint is not None:
            raise click.UsageError("--path with --entrypoint needs --into DIR (a copy to point at)")
        shown = str(manifests.manifest_path(name))
    else:
        shown = manifests.manifest_text(name, entrypoint=entrypoint)
    click.echo(shown.rstrip("\n"))
