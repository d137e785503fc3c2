# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall extension``: what provider extensions exist, are installed, and are ready."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from loopx_recall_core.cli import group_help
from loopx_recall_core.cli._common import (
    EnvironmentProblem,
    Group,
    Rejected,
    confirm,
    emit,
    format_option,
)
from loopx_recall_core.plugin import distributions as provider_distributions
from loopx_recall_core.plugin.distributions import ExtensionRefused, PipFailed


@click.group(cls=Group, help=group_help("extension"))
def extension() -> None:
    pass


def _render_list(data: dict[str, Any]) -> str:
    lines = []
    for row in data["extensions"]:
        if row["status"] == "broken":
            state = f"BROKEN ({row['error_class']}: {row['error']})"
        elif row["status"] == "not_loaded":
            state = "not loaded (LOOPX_RECALL_LOAD_PLUGINS)"
        elif row["ready"]:
            state = "ready"
        else:
            reasons = {p["unavailable_reason"] for p in row["providers"]} - {None}
            state = "not ready: " + ("; ".join(sorted(reasons)) or "no providers")
        lines.append(f"{row['name']} ({row['distribution']} {row['version']}): {state}")
    if not lines:
        lines.append(
            "no extensions installed (`loopx-recall extension list --available` shows the "
            "known ones and how to install each)"
        )
    for known in data.get("available", []):
        if known["installed"]:
            mark = "installed"
        elif known["on_package_index"]:
            mark = "available"
        else:
            mark = "from source only"
        lines.append(f"[{mark}] {known['name']} -> {known['distribution']}: {known['privacy']}")
        if not known["installed"]:
            lines.append(f"    install: {known['install_command']}")
    return "\n".join(lines)


@extension.command("list")
@click.option("--available", is_flag=True, help="Also list the catalogue of known extensions.")
@format_option()
def list_extensions(available: bool, output_format: str) -> None:
    """List installed extensions with their readiness; broken ones are listed too."""
    emit(provider_distributions.extension_list(available=available), output_format, _render_list)


def _render_installed(data: dict[str, Any]) -> str:
    arrived_rows = data["arrived"]
    if arrived_rows:
        head = "installed " + ", ".join(
            f"{row['distribution']} {row['version']}" for row in arrived_rows
        )
    else:
        head = "already installed, nothing changed"
    return head + ".\n" + _render_list(data)


@extension.command("install")
@click.argument("spec")
@click.option("--upgrade", is_flag=True, help="Upgrade the extension if already installed.")
@click.option("--editable", is_flag=True, help="Install a local path in editable mode.")
@format_option()
def install(spec: str, upgrade: bool, editable: bool, output_format: str) -> None:
    """Install an extension by catalogue NAME, pip REQUIREMENT or local PATH.

    An extension that is not on the package index yet is installed from its PATH in a
    clone of loopx-recall-core (`loopx-recall extension list --available` shows the
    command).

    Runs `python -m pip` for this interpreter with the running loopx-recall-core version
    pinned, so an extension never up- or downgrades the host. pip options (-r, -i,
    --index-url, ...) are refused, and the command fails (exit 1) when pip succeeded but
    no distribution registering loopx providers arrived.
    """
    try:
        provider_distributions.check_install_spec(spec)
        if editable and not Path(spec).exists():
            raise click.UsageError("--editable needs a local path")
        record = provider_distributions.install(spec, upgrade=upgrade, editable=editable)
    except ExtensionRefused as exc:
        raise Rejected(str(exc)) from None
    except PipFailed as exc:
        raise EnvironmentProblem(str(exc)) from None
    emit(record, output_format, _render_installed)


@extension.command("uninstall")
@click.argument("name")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
def uninstall(name: str, yes: bool) -> None:
    """Remove an extension's distribution only.

    Only a distribution that registers loopx provider entry points can be removed (pip,
    click or loopx-recall-core itself are refused before pip runs). Never deletes a
    provider's index or any provider data, and keeps enablements (status then shows the
    provider as not installed). Only the extension's own plugins are imported (to count
    its enablements), isolated and for a few seconds at most: a plugin that fails or
    hangs is counted by its entry-point and catalogue names, so a broken one can always be
    removed.
    """
    try:
        target = provider_distributions.uninstall_target(name)
        if not yes:
            confirm(f"Uninstall {target.distribution}? Provider data is kept.",
                    f"uninstalling {target.distribution}")  # fmt: skip
        kept = provider_distributions.uninstall(target)
    except ExtensionRefused as exc:
        raise Rejected(str(exc)) from None
    except PipFailed as exc:
        raise EnvironmentProblem(str(exc)) from None
    click.echo(
        f"uninstalled {target.distribution}; {len(kept)} enablement(s) kept, "
        "provider data untouched"
    )
    click.echo("\n".join(_left_behind(kept)))


def _left_behind(kept: list[Any]) -> list[str]:
    """What uninstalling a provider leaves, each with the command that removes it (issue
    31 item 16): its ``kept`` enablements (the disable command of each provider and
    project, as it runs), our hooks, the rest loopx-recall wrote."""
    from loopx_recall_core import cleanup

    lines = []
    if kept:
        scopes = sorted({(e.capability, e.provider_id, e.project_id) for e in kept})
        commands = ", ".join(
            f"`loopx-recall capability disable {capability} --provider {provider} "
            f"--project-id {project}`"
            for capability, provider, project in scopes
        )
        lines.append(f"left: {len(kept)} enablement(s) naming its providers: {commands} "
                     f"remove{'s' if len(scopes) == 1 else ''} them")  # fmt: skip
    return lines + cleanup.left(cleanup.inventory())
