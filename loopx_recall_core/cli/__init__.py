# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The ``loopx`` command line: thin click groups over the library.

Command groups are imported only when invoked (or listed in ``--help``), so
``loopx-recall capability status`` does not pay for the external-evidence contracts.
"""

from __future__ import annotations

import importlib
import signal
import sys
from typing import Any

import click

from loopx_recall_core import __version__
from loopx_recall_core.cli._common import check_arguments

__all__ = ["cli", "main"]

_GROUPS = {
    "capability": ("loopx_recall_core.cli.capability", "capability"),
    "extension": ("loopx_recall_core.cli.extension", "extension"),
    "external-evidence": ("loopx_recall_core.cli.external_evidence", "external_evidence"),
    "hook": ("loopx_recall_core.cli.hook", "hook"),
    "recall": ("loopx_recall_core.cli.recall", "recall"),
    "session": ("loopx_recall_core.cli.session", "session"),
    "state": ("loopx_recall_core.cli.state", "state"),
}


class _LazyGroup(click.Group):
    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        # The root sees the whole command line: one check covers every option and argument.
        # A runtime hook is the exception: it must never fail the agent's turn, so it
        # takes whatever it is given and logs a problem instead (cli/hook.py).
        if args[:2] not in (["hook", "claude"], ["hook", "codex"]):
            check_arguments(list(args))
        return super().make_context(info_name, args, parent=parent, **extra)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *_GROUPS})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in _GROUPS and name not in self.commands:
            module, attribute = _GROUPS[name]
            self.add_command(getattr(importlib.import_module(module), attribute), name)
        return super().get_command(ctx, name)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="loopx-recall")
def cli() -> None:
    """LoopX recall core: agent-turn-recall and external-evidence-research.

    Exit status: 0 ok, 1 rejected input or refused operation, 2 usage or environment
    problem (including a command-line argument that is not UTF-8).
    """


def _stop(signum: int, _frame: object) -> None:
    # Unwind instead of dying on the spot: `finally` blocks and atexit handlers then kill
    # provider process groups and remove private scratch files (a bare SIGTERM would not).
    sys.stderr.write(f"loopx-recall: stopped by {signal.Signals(signum).name}\n")
    raise SystemExit(128 + signum)


def main(prog_name: str = "loopx-recall") -> None:
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, _stop)
    cli(prog_name=prog_name)
