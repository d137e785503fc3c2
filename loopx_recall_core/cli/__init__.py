# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The ``loopx-recall`` command line: thin click groups over the library.

``main()`` first offers the command line to the click-free fast path
(:mod:`loopx_recall_core.cli._fast`: the root help, ``--version`` and ``capability
status``), which answers only what it understands in full; everything else goes to the
root click group (:mod:`loopx_recall_core.cli._root`, also importable as ``cli`` from
here). Command groups are imported only when invoked, so ``loopx-recall capability
status`` does not pay for the external-evidence contracts. ``--help`` lists them from the
table below without importing them (the groups take their help from it too): neither
``--help`` nor ``--version`` imports click, a group, pluggy, the contracts or a plugin.
"""

from __future__ import annotations

import signal
import sys
from typing import Any

from loopx_recall_core.stopping import Stopped

__all__ = ["GROUPS", "cli", "group_help", "main"]

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


def _stop(signum: int, _frame: object) -> None:
    # Unwind instead of dying on the spot: `finally` blocks and atexit handlers then kill
    # provider process groups and remove private scratch files (a bare SIGTERM would not).
    # Stopped, not a plain SystemExit: plugin containment (which keeps a plugin's own
    # sys.exit() from ending the command) re-raises it, so the stop is never swallowed.
    sys.stderr.write(f"loopx-recall: stopped by {signal.Signals(signum).name}\n")
    raise Stopped(128 + signum)


def __getattr__(name: str) -> Any:
    # PEP 562: importing this package (every console script does) imports no click
    if name != "cli":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from loopx_recall_core.cli._root import cli

    return cli


def _hook_runtime(name: str) -> bool:
    # only on `guard ...`: every other command starts without the runtime records
    from loopx_recall_core.runtimes import HOOK_RUNTIMES

    return name in HOOK_RUNTIMES


def main(prog_name: str = "loopx-recall") -> None:
    asks_help = any(arg in ("--help", "-h") for arg in sys.argv[3:])  # the owner, not a hook
    if (sys.argv[1:2] == ["guard"] and sys.argv[2:3] and not asks_help
            and _hook_runtime(sys.argv[2])):  # fmt: skip
        # the PreToolUse hot path: no click, no signal handlers, always exit 0
        from loopx_recall_core.guard import hotpath

        hotpath.main(sys.argv[2], sys.argv[3:])
        raise SystemExit(0)
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        # an inherited SIG_IGN (nohup, a background job's SIGINT) stays: ignored is ignored
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, _stop)
    from loopx_recall_core.cli import _fast, _output

    # before anything is printed: a stream that cannot take the output (a full device, an
    # encoding without one of its characters) is then one line and exit 2, on both paths
    _output.guard()
    try:
        status = _fast.run(sys.argv[1:], prog_name)
        if status is None:
            from loopx_recall_core.cli._root import cli as root

            root(prog_name=prog_name)  # exits (click's standalone mode)
    except _output.OutputFailed as failed:
        raise SystemExit(_output.report(failed)) from None
    raise SystemExit(status)
