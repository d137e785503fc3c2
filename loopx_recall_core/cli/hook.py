# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall hook claude|codex|install``: claim sessions from the runtimes' own hooks.

``hook claude`` and ``hook codex`` are run BY the agent runtimes: whatever happens they
print nothing and exit 0 (a usage problem included), leaving one line in the private hook
log. ``hook install`` is run by the owner and behaves like every other command.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click

from loopx_recall_core.cli._common import Group, Rejected
from loopx_recall_core.private_files import StateError, read_file
from loopx_recall_core.recall import hooks


class _NeverFails(click.Command):
    """A runtime hook: a command line click cannot parse is logged, and exits 0."""

    def make_context(self, info_name: Any, args: list[str], parent: Any = None, **extra: Any):
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError:
            hooks.run_hook(self.name or "unknown", agent_id=None, project_id=None)
            raise SystemExit(0) from None


_HOOK_SETTINGS = {
    "cls": _NeverFails,
    "context_settings": {"ignore_unknown_options": True, "allow_extra_args": True},
}
agent_option = click.option(
    "--agent-id", envvar=hooks.AGENT_ENV, help=f"The agent (default: ${hooks.AGENT_ENV})."
)
project_option = click.option(
    "--project-id", envvar=hooks.PROJECT_ENV, help=f"The project (default: ${hooks.PROJECT_ENV})."
)


@click.group(cls=Group)
def hook() -> None:
    """Claim sessions as agent runtimes start them (Claude Code hooks, Codex notify)."""


@hook.command("claude", **_HOOK_SETTINGS)
@agent_option
@project_option
@click.pass_context
def claude(ctx: click.Context, agent_id: str | None, project_id: str | None) -> None:
    """Claude Code command hook: reads the hook's JSON from stdin (session_id, cwd,
    hook_event_name) and claims the session. Always exits 0."""
    # run_hook reads stdin itself, so that a stdin left open is logged as stdin_timeout
    hooks.run_hook("claude", agent_id=agent_id, project_id=project_id, stdin=hooks.read_stdin)


@hook.command("codex", **_HOOK_SETTINGS)
@agent_option
@project_option
@click.pass_context
def codex(ctx: click.Context, agent_id: str | None, project_id: str | None) -> None:
    """Codex: `notify` appends one JSON argument ({"type": "agent-turn-complete",
    "thread-id", "cwd", ...}); a lifecycle hook sends session_id/cwd on stdin. Both
    claim the session. Always exits 0."""
    payload = ctx.args[-1] if ctx.args else None
    # stdin is read only without a notify payload (run_hook reads it, as for claude)
    hooks.run_hook(
        "codex",
        agent_id=agent_id,
        project_id=project_id,
        argv_payload=payload,
        stdin=hooks.read_stdin,
    )


def _default_settings(runtime: str) -> Path:
    if runtime == "claude":
        return Path.cwd() / ".claude" / "settings.json"
    codex_home = os.environ.get("CODEX_HOME")
    return (
        Path(codex_home) / "config.toml" if codex_home else Path.home() / ".codex" / "config.toml"
    )


@hook.command("install")
@click.argument("runtime", type=click.Choice(["claude", "codex"]))
@click.option("--agent-id", required=True)
@click.option("--project-id", required=True)
@click.option("--print", "print_only", is_flag=True, help="Print the snippet; change nothing.")
@click.option(
    "--settings",
    "settings_path",
    type=click.Path(dir_okay=False),
    help="The file to merge into (default: ./.claude/settings.json, or "
    "$CODEX_HOME/config.toml else ~/.codex/config.toml).",
)
@click.option("--yes", is_flag=True, help="Merge without asking.")
def install(
    runtime: str,
    agent_id: str,
    project_id: str,
    print_only: bool,
    settings_path: str | None,
    yes: bool,
) -> None:
    """Print, or merge with a backup and a confirmation, the settings that make the
    runtime claim each session for this agent and project."""
    from loopx_recall_core.recall.enablement import CapabilityRefused, check_ids

    try:
        # the ids capability enable takes, no other: checked before anything is read or
        # written (a blank id would install a hook that can never claim)
        check_ids(agent_id=agent_id, project_id=project_id)
    except CapabilityRefused as exc:
        raise Rejected(str(exc)) from None
    if print_only:
        if runtime == "claude":
            click.echo("# .claude/settings.json (merge into the existing object)")
            click.echo(json.dumps(hooks.claude_settings_snippet(agent_id, project_id), indent=2))
        else:
            click.echo("# ~/.codex/config.toml (a top-level key: before the first [table])")
            click.echo(hooks.codex_notify_line(agent_id, project_id))
        return
    path = Path(settings_path) if settings_path else _default_settings(runtime)
    what = "the Claude Code settings file" if runtime == "claude" else "the Codex config file"
    try:
        existing = read_file(path, 4_000_000, what)
    except StateError as exc:
        raise Rejected(str(exc)) from None
    merge = hooks.merge_claude_settings if runtime == "claude" else hooks.merge_codex_config
    try:
        merged = merge(existing, agent_id, project_id)
        if merged is None:
            click.echo(f"{what} already has this hook; no change")
            return
        if not yes:  # "n" is click's Aborted!, exit 1, as everywhere
            click.confirm(
                f"merge the {runtime} hook into {what} (a backup of the old file is kept "
                "beside it)?",
                abort=True,
            )
        backup = hooks.install(path, merged, existing)
    except hooks.InstallRefused as exc:
        raise Rejected(str(exc)) from None
    click.echo(f"hook installed in {what}" + (" (backup kept beside it)" if backup else ""))
