# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The root click group (imported by ``main()`` only when the fast path passes).

Command groups are imported only when invoked; ``--help`` lists them from
:data:`loopx_recall_core.cli.GROUP_HELP` without importing them.
"""

from __future__ import annotations

import importlib
from typing import Any

import click

from loopx_recall_core.cli._argv import check_arguments
from loopx_recall_core.cli._groups import _GROUPS, GROUP_HELP
from loopx_recall_core.runtimes import HOOK_RUNTIMES

__all__ = ["cli"]


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
        if not (args[:1] == ["hook"] and args[1:2] and args[1] in HOOK_RUNTIMES):
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
