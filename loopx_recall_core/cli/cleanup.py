# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall cleanup [--remove]``: list everything loopx-recall wrote; remove it on
request, hooks first (:mod:`loopx_recall_core.cleanup`)."""

from __future__ import annotations

import click

from loopx_recall_core.cli import group_help
from loopx_recall_core.cli._common import Rejected, confirm, emit, format_option

__all__ = ["cleanup"]


@click.command("cleanup", help=group_help("cleanup", """
    Lists our hooks in the runtimes' hook files, the one backup beside each, copies of
    our LoopX manifests, and the state folder (enablements, private results, the receipt
    key, the session ledger, the guard's sets, the hook log, reports), and what is not
    ours to remove with the command that removes it (LoopX's own record, the git
    exclude line). --remove removes them in that order: the hooks first, so that no
    runtime runs a hook into a state folder or an environment that is gone; the state
    folder last. Then `pip uninstall loopx-recall-core` removes the package itself. When
    the environment is gone first (every hook then fails), `python3 -m
    loopx_recall_core.cleanup [--remove --yes]` does the same from a clone of loopx-recall-core
    with the standard library alone.
    """))  # fmt: skip
@click.option("--remove", is_flag=True, help="Remove what is listed as removable.")
@click.option("--yes", is_flag=True, help="Remove without asking.")
@format_option()
def cleanup(remove: bool, yes: bool, output_format: str) -> None:
    from loopx_recall_core import cleanup as inventory_module
    from loopx_recall_core.private_files import StateError
    from loopx_recall_core.recall.hook_install import InstallRefused

    items = inventory_module.inventory()
    removed: list = []
    removable = [item for item in items if item.action]
    if remove and removable:
        if not yes:
            confirm(f"remove {len(removable)} item(s) listed above?",
                    f"removing {len(removable)} item(s)")  # fmt: skip
        try:
            removed = inventory_module.remove(items)
        except (InstallRefused, StateError, OSError) as exc:
            message = exc.strerror if isinstance(exc, OSError) else str(exc)
            raise Rejected(f"cleanup stopped: {message}") from None
    emit(inventory_module.record(items, removed, remove), output_format, inventory_module.render)
