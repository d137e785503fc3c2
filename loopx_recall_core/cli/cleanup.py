# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall cleanup [--remove]``: list everything loopx-recall wrote; remove it on
request, hooks first (:mod:`loopx_recall_core.cleanup`)."""

from __future__ import annotations

import click

from loopx_recall_core.cli import group_help
from loopx_recall_core.cli._common import Rejected, confirm, emit, format_option

__all__ = ["cleanup"]


def _text(data: dict) -> str:
    if not data["items"]:
        return "nothing of loopx-recall's is left (hooks, backups, manifests, state folder)"
    lines = []
    for item in data["items"]:
        then = (item["removed"] and "removed") or item["action"] or item["how"]
        lines.append(f"{item['kind']:<9} {item['path']}\n          {item['what']}: {then}")
    if not data["removing"]:
        lines.append("`loopx-recall cleanup --remove` does what each line says (hooks first, "
                     "the state folder last)")  # fmt: skip
    return "\n".join(lines)


@click.command("cleanup", help=group_help("cleanup", """
    Lists our hooks in the runtimes' hook files, the one backup beside each, copies of
    our LoopX manifests, and the state folder (enablements, private results, the receipt
    key, the session ledger, the guard's sets, the hook log, reports), and what is not
    ours to remove with the command that removes it (LoopX's own record, the git
    exclude line). --remove removes them in that order: the hooks first, so that no
    runtime runs a hook into a state folder or an environment that is gone; the state
    folder last. Then `pip uninstall loopx-recall-core` removes the package itself.
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
    data = {
        "schema_version": "loopx_recall_cleanup_v0",
        "removing": remove,
        "items": [
            {"kind": i.kind, "path": str(i.path), "what": i.what, "action": i.action,
             "how": i.how, "removed": i in removed}
            for i in items
        ],
    }  # fmt: skip
    emit(data, output_format, _text)
