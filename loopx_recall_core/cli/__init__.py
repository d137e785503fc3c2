# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The ``loopx`` command line: thin click groups over the library.

Command groups are imported only when invoked, so ``loopx-recall capability status`` does
not pay for the external-evidence contracts. ``--help`` lists them from the table below
without importing them (a test checks the table against the groups' own help), and
``--version`` reads the version only when asked: neither imports a group, pluggy, the
contracts or a plugin.
"""

from __future__ import annotations

import importlib
import signal
import sys
from typing import Any

import click

from loopx_recall_core.cli._argv import check_arguments

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

#: The first paragraph of each group's docstring, for the ``--help`` listing (checked
#: against the groups by tests/test_cli_core.py).
GROUP_HELP = {
    "capability": (
        "Enable, read back and disable a capability for one agent and project (default off)."
    ),
    "extension": "Install, remove and list provider extensions.",
    "external-evidence": (
        "External-evidence-research v0: discover -> plan -> receipt -> admit -> retire."
    ),
    "hook": "Claim sessions as agent runtimes start them (Claude Code hooks, Codex notify).",
    "recall": "Agent-turn-recall: bounded, provenance-bearing history with public receipts.",
    "session": "Which runtime session belongs to which agent and project (owner-local, private).",
    "state": "Where loopx-recall keeps enablements, verdicts, private results and the receipt key.",
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

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # click's own listing, fed from GROUP_HELP instead of importing every group.
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            if name in _GROUPS and name not in self.commands:
                # a bare stand-in shortens the text exactly as the group itself would
                stand_in = click.Command(name, help=GROUP_HELP[name])
                rows.append((name, stand_in.get_short_help_str(limit)))
                continue
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from loopx_recall_core import __version__  # a constant: no importlib.metadata

    click.echo(f"loopx-recall, version {__version__}")
    ctx.exit()


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_show_version,
    help="Show the version and exit.",
)
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
