# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The ``loopx-recall`` command line: thin click groups over the library.

``main()`` first offers the command line to the click-free fast path
(:mod:`loopx_recall_core.cli._fast`: the root help, ``--version`` and ``capability
status``), which answers only what it understands in full; everything else goes to the
root click group (:mod:`loopx_recall_core.cli._root`, also importable as ``cli`` from
here). Command groups are imported only when invoked, so ``loopx-recall capability
status`` does not pay for the external-evidence contracts. ``--help`` lists them from the
table in :mod:`._groups` without importing them (the groups take their help from it too):
neither ``--help`` nor ``--version`` imports click, a group, pluggy, the contracts or a plugin.
"""

from __future__ import annotations

import signal
import sys
from typing import Any

from loopx_recall_core.cli._groups import _GROUPS as _GROUPS  # the tests read the table here
from loopx_recall_core.cli._groups import GROUP_HELP, GROUPS, group_help
from loopx_recall_core.process import Stopped

__all__ = ["GROUPS", "GROUP_HELP", "cli", "group_help", "main"]


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


def foreign_home() -> str | None:
    """The one-line refusal when root runs with another user's HOME (``sudo -E``): what
    loopx-recall creates there (``~/.local/state``, ``~/.claude``, their files) would be
    root's, and that user could no longer change their own folders. None otherwise (HOME
    unset or missing, or the user's own, or a process that cannot write there anyway)."""
    import os

    home = os.environ.get("HOME")
    if not home or os.geteuid() != 0:
        return None
    try:
        owner = os.stat(home).st_uid
    except (OSError, ValueError):
        return None
    if owner == 0:
        return None
    return (
        f"error: HOME belongs to another user (uid {owner}) and this runs as root (sudo -E?): "
        "what loopx-recall writes there would be root's; run it as that user "
        "(`sudo -u USER -H loopx-recall ...`); nothing was written"
    )


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

    # before anything is read or printed: a closed stdin or stdout, or a stream that cannot
    # take the output (a full device, an encoding without one of its characters) is then
    # one line and an exit code, on both paths
    _output.closed_streams()
    _output.guard()
    try:
        status = _fast.run(sys.argv[1:], prog_name)
        if status is None:
            helps = any(arg in ("--help", "-h", "--version") for arg in sys.argv[1:])
            refusal = None if helps else foreign_home()
            if refusal is not None:
                # a runtime's hook never fails and never speaks: it writes nothing either
                hook = sys.argv[1:3] == ["guard", "prefetch"] or (
                    sys.argv[1:2] == ["hook"] and len(sys.argv) > 2 and _hook_runtime(sys.argv[2])
                )
                if not hook:
                    sys.stderr.write(refusal + "\n")
                raise SystemExit(0 if hook else 2)
            from loopx_recall_core.cli._root import cli as root

            root(prog_name=prog_name)  # exits (click's standalone mode)
    except _output.OutputFailed as failed:
        raise SystemExit(_output.report(failed)) from None
    raise SystemExit(status)
