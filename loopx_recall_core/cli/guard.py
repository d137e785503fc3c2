# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall guard claude|codex|stats|prefetch``: the repetition guard.

``guard claude`` and ``guard codex`` are the runtimes' PreToolUse command hooks. They are
answered by :mod:`loopx_recall_core.guard.hotpath` before click is imported (see
:func:`loopx_recall_core.cli.main`); the commands here document them and catch the rare
command line the fast dispatch leaves to click. ``guard prefetch`` is the detached
process a session start launches (its facts arrive on stdin).
"""

from __future__ import annotations

import sys

import click

from loopx_recall_core.cli import group_help
from loopx_recall_core.cli._common import Group, emit, format_option
from loopx_recall_core.runtimes import HOOK_RUNTIMES, record


@click.group(cls=Group, help=group_help("guard"))
def guard() -> None:
    pass


def _hook(runtime: str) -> None:
    from loopx_recall_core.guard import hotpath

    hotpath.main(runtime, sys.argv)


_SETTINGS = {"context_settings": {"ignore_unknown_options": True, "allow_extra_args": True}}


def _hook_command(runtime: str) -> click.Command:
    title = record(runtime).title

    def command(**_options: object) -> None:
        _hook(runtime)

    command.__doc__ = (
        f"{title} PreToolUse/PostToolUse hook, run by the runtime (`hook install --guard` "
        "writes it): the hook's JSON on stdin; prints the hook's answer or nothing. Always "
        "exits 0; bounded by the runtime's hook timeout (600 s less a margin): out of time "
        "it prints nothing and says so in the hook log and `guard stats`."
    )
    options = (
        click.option("--agent-id", help="The agent (default: $LOOPX_RECALL_AGENT_ID)."),
        click.option("--project-id", help="The project (default: $LOOPX_RECALL_PROJECT_ID)."),
        click.option("--deadline-ms", metavar="N",
                     help="Answer within N ms (from 50; default and most: the runtime's hook "
                     "timeout, 600 s, less 5 s), for a hook installed with a shorter timeout."),
    )  # fmt: skip
    for option in reversed(options):
        command = option(command)
    return guard.command(runtime, **_SETTINGS)(command)


for _runtime in HOOK_RUNTIMES:  # one per runtime record with hooks
    _hook_command(_runtime)


@guard.command("prefetch", hidden=True)
def prefetch() -> None:
    """Make a session's prior-outcome set (run detached by a session start)."""
    from loopx_recall_core.guard.prefetch import run_prefetch
    from loopx_recall_core.guard.store import state_root
    from loopx_recall_core.jsonio import loads

    try:
        facts = loads(sys.stdin.buffer.read(100_000))
        if isinstance(facts, dict):
            run_prefetch(state_root(), facts)
    except Exception:  # noqa: BLE001 - detached: nobody reads an error; the set stays absent
        sys.exit(0)


@guard.command("stats")
@click.option("--project-id", required=True)
@format_option()
def stats(project_id: str, output_format: str) -> None:
    """Guarded calls, matches, warned-then-avoided, warned-then-repeated and the guard's
    latency for one project (counts only)."""
    from loopx_recall_core.guard.stats import guard_stats, render_text
    from loopx_recall_core.guard.store import state_root
    from loopx_recall_core.state import StateError, StateStore

    # the fix a silence names runs as printed when one enablement of the project guards
    try:
        guarded = {(e.agent_id, e.provider_id) for e in StateStore().read().enablements
                   if e.project_id == project_id and e.guard is not None}  # fmt: skip
    except StateError:
        guarded = set()
    ids = next(iter(guarded)) if len(guarded) == 1 else ("AGENT", "PROVIDER")
    emit(guard_stats(state_root(), project_id, *ids), output_format, render_text)
