# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall hook claude|codex|install|uninstall``: claim sessions from the runtimes'
own hooks.

``hook claude`` and ``hook codex`` are run BY the agent runtimes: whatever happens they
print nothing and exit 0 (a usage problem included), leaving one line in the private hook
log. ``hook install`` and ``hook uninstall`` are run by the owner and behave like every
other command.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from loopx_recall_core import runtimes, session_hook
from loopx_recall_core.cli import group_help
from loopx_recall_core.cli._common import Group, Rejected, confirm
from loopx_recall_core.private_files import StateError, read_file


class _NeverFails(click.Command):
    """A runtime hook: a command line click cannot parse is logged, and exits 0."""

    def make_context(self, info_name: Any, args: list[str], parent: Any = None, **extra: Any):
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError:
            session_hook.run_hook(self.name or "unknown", agent_id=None, project_id=None)
            raise SystemExit(0) from None


_HOOK_SETTINGS = {
    "cls": _NeverFails,
    "context_settings": {"ignore_unknown_options": True, "allow_extra_args": True},
}
agent_option = click.option(
    "--agent-id",
    envvar=session_hook.AGENT_ENV,
    help=f"The agent (default: ${session_hook.AGENT_ENV}).",
)
project_option = click.option(
    "--project-id",
    envvar=session_hook.PROJECT_ENV,
    help=f"The project (default: ${session_hook.PROJECT_ENV}).",
)


@click.group(cls=Group, help=group_help("hook"))
def hook() -> None:
    pass


def _runtime_hook(runtime: str) -> click.Command:
    """``hook <runtime>``, from the runtime's record: a lifecycle hook sends session_id,
    cwd and hook_event_name on stdin; a runtime with a legacy ``notify`` program (Codex)
    may append one JSON argument instead ({"type": "agent-turn-complete", "thread-id",
    "cwd", ...}), read first when present."""
    rec = runtimes.record(runtime)
    notify = "agent-turn-complete" in rec.payload_keys

    def command(ctx: click.Context, agent_id: str | None, project_id: str | None) -> None:
        payload = ctx.args[-1] if notify and ctx.args else None
        # run_hook reads stdin itself (only without a notify payload), so that a stdin
        # left open is logged as stdin_timeout
        session_hook.run_hook(runtime, agent_id=agent_id, project_id=project_id,
                               argv_payload=payload, stdin=session_hook.read_stdin)  # fmt: skip

    command.__doc__ = (
        f"{rec.title} command hook: reads the hook's JSON from stdin (session_id, cwd, "
        "hook_event_name)" + (" or its `notify` JSON argument" if notify else "")
        + " and claims the session. Always exits 0."
    )  # fmt: skip
    decorated = click.pass_context(agent_option(project_option(command)))
    return hook.command(runtime, **_HOOK_SETTINGS)(decorated)


for _runtime in runtimes.HOOK_RUNTIMES:  # one per runtime record with hooks
    _runtime_hook(_runtime)


def _scope_help() -> str:
    """Where each runtime's hooks file is, by scope, from its record."""
    places = []
    for r in map(runtimes.record, runtimes.HOOK_RUNTIMES):
        user = next(f.path for f in r.hook_files if (f.scope, f.form) == ("user", "json"))
        local = [f.path for f in r.hook_files if f.scope == "project-local"]
        place = f"{r.name}: ${r.config_env}/{user} else ~/{r.config_default}/{user}"
        if local:
            place += f" (user) or the repository's git-ignored {local[0]} (project-local)"
        places.append(place if local else place + " (user only)")
    return "; ".join(places) + "."


runtime_argument = click.argument("runtime", type=click.Choice(runtimes.HOOK_RUNTIMES))
scope_option = click.option(
    "--scope",
    type=click.Choice(["user", "project-local"]),
    default="user",
    show_default=True,
    help=_scope_help(),
)
settings_option = click.option(
    "--settings",
    "settings_path",
    type=click.Path(dir_okay=False),
    help="Another hooks file to change (e.g. a repository's shared settings file).",
)


def _target(runtime: str, scope: str, settings_path: str | None) -> tuple[Path, bytes | None]:
    """The hooks file and its bytes (None: no file yet)."""
    from loopx_recall_core.recall import hook_install

    try:
        path = Path(settings_path) if settings_path else hook_install.default_path(runtime, scope)
    except hook_install.InstallRefused as exc:
        raise Rejected(str(exc)) from None
    toml = any(f.form == "toml" for f in runtimes.record(runtime).hook_files)
    if toml and not settings_path and hook_install.config_keeps_hooks(path):
        path = path.parent / "config.toml"  # the user keeps hooks inline there: ours too
    what = hook_install.what_file(runtime, "toml" if path.suffix == ".toml" else "json")
    try:
        return path, read_file(path, 4_000_000, what)
    except StateError as exc:
        raise Rejected(exc.problem) from None  # the user's file, not the state folder


class _Change:
    """One file to write (or, ``new`` None, to take away: one ``hook install`` made from
    nothing): checked, asked about and written together with the others."""

    def __init__(
        self, path: Path, new: bytes | None, existing: bytes | None, backup: bool
    ) -> None:
        self.path, self.new, self.existing, self.backup = path, new, existing, backup


def _removed_line(change: _Change) -> str:
    if change.new is None:
        return f"hooks removed: {change.path} held only ours (hook install made it), so it is gone"
    return f"hooks removed from {change.path} (backup kept beside it)"


def _stale_json(runtime: str, path: Path) -> tuple[_Change | None, list[tuple[str, str]]]:
    """When ours now live in ``config.toml`` (the user keeps hooks there), our entries in
    the ``hooks.json`` beside it, which an earlier install may have written (Codex would
    run both), go: the change and the (agent, project) pairs they named."""
    from loopx_recall_core.recall import hook_install

    if path.suffix != ".toml" or runtimes.hook_file(runtime, "user", "toml") != path:
        return None, []
    other = runtimes.hook_file(runtime, "user", "json")
    try:
        existing = read_file(other, 4_000_000, hook_install.what_file(runtime))
        new, pairs = hook_install.unmerge(existing, runtime)
    except (StateError, hook_install.InstallRefused) as exc:
        raise Rejected(str(exc)) from None
    if new is None:
        return None, []
    if hook_install.made_from_nothing(other, existing, runtime):
        return _Change(other, None, existing, False), pairs
    return _Change(other, new, existing, True), pairs


def _apply(changes: list[_Change], verb: str, runtime: str, yes: bool) -> None:
    """Check every file, ask once, then write them all: a file that cannot be written
    is found before any is changed."""
    from loopx_recall_core.recall import hook_install

    try:
        for change in changes:
            hook_install.check_writable(change.path)
    except hook_install.InstallRefused as exc:
        raise Rejected(str(exc)) from None
    if not yes:
        names = " and ".join(str(change.path) for change in changes)
        confirm(f"{verb} the {runtime} hooks in {names} (a backup of the old file is kept "
                "beside it)?", f"{verb} the {runtime} hooks needs your yes")  # fmt: skip
    try:
        for change in changes:
            if change.new is None:  # and its backup, which holds only ours too
                change.path.unlink()
                hook_install.backup_path(change.path).unlink(missing_ok=True)
                continue
            hook_install.write_with_backup(
                change.path, change.new, change.existing, backup=change.backup
            )
    except OSError as exc:
        raise Rejected(f"cannot remove the hooks file ({exc.strerror})") from None
    except (hook_install.InstallRefused, StateError) as exc:
        raise Rejected(str(exc)) from None


@hook.command("install")
@runtime_argument
@click.option("--agent-id", required=True)
@click.option("--project-id", required=True)
@click.option("--guard", is_flag=True, help="Also turn the repetition guard on (PreToolUse).")
@click.option(
    "--policy",
    type=click.Choice(["warn", "deny-once"]),
    default="warn",
    show_default=True,
    help="With --guard: warn (context only) or deny-once (deny; the retry passes).",
)
@scope_option
@settings_option
@click.option("--print", "print_only", is_flag=True, help="Print the snippet; change nothing.")
@click.option("--yes", is_flag=True, help="Change the file without asking.")
def install(
    runtime: str,
    agent_id: str,
    project_id: str,
    guard: bool,
    policy: str,
    scope: str,
    settings_path: str | None,
    print_only: bool,
    yes: bool,
) -> None:
    """Add the lifecycle hooks that make the runtime claim each session for this agent and
    project (SessionStart) and, with --guard, warn before a repeated failure (PreToolUse).
    Replaces an earlier loopx-recall entry; keeps everything else and a backup."""
    from loopx_recall_core.guard.policy_change import GuardRefused, guardable, set_guard
    from loopx_recall_core.plugin.manager import load_host
    from loopx_recall_core.recall import hook_install
    from loopx_recall_core.recall.enablement import CapabilityRefused, check_ids
    from loopx_recall_core.state import StateStore

    try:
        # the ids capability enable takes, no other: checked before anything is read or
        # written (a blank id would install a hook that can never claim)
        check_ids(agent_id=agent_id, project_id=project_id)
    except CapabilityRefused as exc:
        raise Rejected(str(exc)) from None
    if print_only:
        snippet = hook_install.settings_snippet(runtime, agent_id, project_id, guard)
        click.echo(f"# {hook_install.what_file(runtime)} (merge into the existing object)")
        click.echo(json.dumps(snippet, indent=2, ensure_ascii=False))
        return
    path, existing = _target(runtime, scope, settings_path)
    toml = path.suffix == ".toml"
    store = StateStore()
    keys = None
    if guard:
        try:
            keys = guardable(store, load_host(), agent_id, project_id)
        except GuardRefused as exc:
            raise Rejected(str(exc)) from None
    try:
        merged = hook_install.merge(existing, runtime, agent_id, project_id, guard, toml=toml)
        backup = hook_install.needs_backup(path, existing, runtime, toml=toml)
    except hook_install.InstallRefused as exc:
        raise Rejected(str(exc)) from None
    stale, _pairs = (None, []) if settings_path else _stale_json(runtime, path)
    changes = [c for c in (merged and _Change(path, merged, existing, backup), stale) if c]
    if not changes:
        click.echo(f"{path}: already has these hooks; no change")
    else:
        _apply(changes, "add", runtime, yes)
        if merged is not None:
            kept = " (backup kept beside it)" if existing is not None else ""
            click.echo(f"hooks installed in {path}{kept}")
        if stale is not None:
            click.echo(_removed_line(stale))
        local = scope == "project-local" and not settings_path
        if merged is not None and local and hook_install.keep_out_of_git(path):
            named = runtimes.hook_file(runtime, "project-local", root=Path())
            click.echo(f"kept out of git: {named} added to this clone's info/exclude")
        trust = runtimes.record(runtime).trust
        if trust and merged is not None:  # Codex runs a non-managed hook only once trusted
            click.echo(trust)
    if guard:
        set_guard(store, agent_id, project_id, policy, keys)
        click.echo(f"guard on ({policy}) for this agent and project")


@hook.command("uninstall")
@runtime_argument
@scope_option
@settings_option
@click.option("--yes", is_flag=True, help="Change the file without asking.")
def uninstall(runtime: str, scope: str, settings_path: str | None, yes: bool) -> None:
    """Remove the loopx-recall entries `hook install` added (nothing else; a backup is
    kept) and turn the guard off for the agent and project they named."""
    from loopx_recall_core.guard.policy_change import set_guard
    from loopx_recall_core.recall import hook_install
    from loopx_recall_core.state import StateStore

    path, existing = _target(runtime, scope, settings_path)
    toml = path.suffix == ".toml"
    mine = None  # our change to the file: its new bytes, or None to take it away
    try:
        new, pairs = hook_install.unmerge(existing, runtime, toml=toml)
        if new is not None:  # nothing else changed since install: the user's own bytes back
            original = hook_install.original_if_unchanged(path, existing, runtime, toml=toml)
            new = new if original is None else original
            gone = hook_install.made_from_nothing(path, existing, runtime, toml=toml)
            mine = _Change(path, None if gone else new, existing, not gone)
    except hook_install.InstallRefused as exc:
        raise Rejected(str(exc)) from None
    stale, stale_pairs = (None, []) if settings_path else _stale_json(runtime, path)
    changes = [c for c in (mine, stale) if c]
    if not changes:
        click.echo(f"{path}: no loopx-recall {runtime} hook; no change")
        return
    _apply(changes, "remove", runtime, yes)
    for change in changes:
        click.echo(_removed_line(change))
    pairs += [pair for pair in stale_pairs if pair not in pairs]
    store = StateStore()
    if any(set_guard(store, agent, project, None) for agent, project in pairs):
        click.echo("guard off for the agent and project the hooks named")
    _say_what_is_left([change.path for change in changes])


def _say_what_is_left(changed: list[Path]) -> None:
    """What ``hook uninstall`` leaves, each with the command that removes it: the backups
    it just wrote (the file as it was, our hooks included), our other hooks, the rest."""
    import shlex

    from loopx_recall_core import cleanup
    from loopx_recall_core.recall import hook_install

    backups = {hook_install.backup_path(path) for path in changed}
    items = cleanup.inventory()
    for item in items:
        if item.kind == "backup" and item.path in backups:
            remove = f"rm {shlex.quote(str(item.path))}"
            click.echo(f"left: the backup {item.path} holds the file as it was before, our "
                       f"hooks included: `{remove}` deletes it")  # fmt: skip
    for line in cleanup.left([i for i in items if i.path not in backups]):
        click.echo(line)
