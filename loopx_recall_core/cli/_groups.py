# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The command groups' table: where each group lives and the first line of its help.

Its own module (re-exported by :mod:`loopx_recall_core.cli`) so that the fast path and the
root group read it without importing the package that imports them.
"""

from __future__ import annotations

__all__ = ["GROUPS", "GROUP_HELP", "group_help"]

#: Each command group: its module, the click group there, and the first paragraph of its
#: help. The one source of the groups' own help (:func:`group_help`), the root's ``--help``
#: listing (without importing a group) and the fast path's root help
#: (:data:`loopx_recall_core.cli._fast.ROOT_HELP`). Each is one sentence of at most 55
#: characters, so that the root listing shows it whole (click cuts a longer one).
GROUPS = {
    "capability": (
        "loopx_recall_core.cli.capability",
        "capability",
        "Turn a capability on or off for one agent and project.",
    ),
    "cleanup": (
        "loopx_recall_core.cli.cleanup",
        "cleanup",
        "Everything loopx-recall wrote: list it, or remove it.",
    ),
    "extension": (
        "loopx_recall_core.cli.extension",
        "extension",
        "Install, remove and list provider extensions.",
    ),
    "external-evidence": (
        "loopx_recall_core.cli.external_evidence",
        "external_evidence",
        "External-evidence research, one step per command.",
    ),
    "guard": (
        "loopx_recall_core.cli.guard",
        "guard",
        "Warn before an agent repeats a failed command.",
    ),
    "hook": (
        "loopx_recall_core.cli.hook",
        "hook",
        "Runtime hooks: claim sessions, install, uninstall.",
    ),
    "loopx": (
        "loopx_recall_core.cli.loopx",
        "loopx",
        "Manifests that plug loopx-recall into LoopX.",
    ),
    "recall": (
        "loopx_recall_core.cli.recall",
        "recall",
        "Bounded history recall with public receipts.",
    ),
    "session": (
        "loopx_recall_core.cli.session",
        "session",
        "Which runtime session is which agent's (private).",
    ),
    "state": (
        "loopx_recall_core.cli.state",
        "state",
        "Where loopx-recall keeps its private state.",
    ),
}
_GROUPS = {name: (module, attribute) for name, (module, attribute, _help) in GROUPS.items()}
GROUP_HELP = {name: first for name, (_module, _attribute, first) in GROUPS.items()}


def group_help(name: str, more: str = "") -> str:
    """The help of the group ``name``: its line in :data:`GROUPS`, then ``more`` (a
    docstring's further paragraphs)."""
    import inspect  # a group's module only: click has imported it already

    more = inspect.cleandoc(more)
    return GROUP_HELP[name] + (f"\n\n{more}" if more else "")
