# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Runtime hooks that claim sessions as they start, and the settings that install them.

What the runtimes send (facts, with their sources):

* Claude Code runs a command hook with one JSON object on stdin holding ``session_id``,
  ``transcript_path``, ``cwd`` and ``hook_event_name`` (plus event fields such as
  ``source`` for ``SessionStart``); hooks live in ``.claude/settings.json`` as
  ``{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": ...}]}]}}``
  (https://docs.claude.com/en/docs/claude-code/hooks).
* Codex's ``notify = ["prog", "arg", ...]`` in ``~/.codex/config.toml`` runs ``prog`` with
  one JSON argument appended: ``{"type": "agent-turn-complete", "thread-id", "turn-id",
  "cwd", "input-messages", "last-assistant-message"}`` (openai/codex, the legacy notify
  payload; https://developers.openai.com/codex/config-reference). Codex lifecycle hooks
  (``[features] codex_hooks = true``, ``hooks.json``) pass ``session_id``, ``cwd`` and
  ``hook_event_name`` on stdin (https://developers.openai.com/codex/hooks).

A hook never fails the agent's turn: :func:`run_hook` never raises and the CLI exits 0.
Each run appends ONE line to the private hook log (an outcome code, no id, no path, no
payload content). The outcome codes:

* ``claimed``: the session is now this agent's; ``already_claimed``: it was already.
* ``no_payload``: nothing (or only blanks) arrived, or a command line click could not
  parse; ``stdin_timeout``: stdin was still open after its deadline (5 s);
  ``payload_too_large``; ``malformed_payload``: not one UTF-8 JSON object;
  ``not_a_turn_event``: a Codex notify other than ``agent-turn-complete``;
  ``no_session_id``: the payload names no session.
* ``no_agent_configured``: no agent or project id (flags or environment).
* ``claimed_by_another``: another agent or project holds the session (only that);
  ``wrong_runtime``: the id names another runtime's session (``codex:<thread>`` sent to
  the Claude hook); ``forgotten``: the session was forgotten (``session forget``), so it
  is never claimed again; ``ledger_full``; ``invalid_session_or_agent``: an id the ledger
  refuses (blank, too long, spaces or controls in a session id).
* ``state_unusable``: the state folder cannot be used (then there may be no log to
  write); ``internal_error:<exception class>``: a bug, logged instead of failing the turn.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shlex
import stat
import sys
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from loopx_recall_core.jsonio import JsonInputError, loads
from loopx_recall_core.private_files import StateError, ensure_subfolder
from loopx_recall_core.recall.ledger import ClaimRefused, SessionLedger
from loopx_recall_core.state import state_root

__all__ = [
    "AGENT_ENV",
    "PROJECT_ENV",
    "claude_settings_snippet",
    "codex_notify_line",
    "hook_command",
    "read_log",
    "run_hook",
]

AGENT_ENV = "LOOPX_RECALL_AGENT_ID"
PROJECT_ENV = "LOOPX_RECALL_PROJECT_ID"
MAX_PAYLOAD_BYTES = 1_000_000
_STDIN_TIMEOUT_S = 5.0
_LOCK_TIMEOUT_S = 5.0
_LOG_NAME = "hooks.log"
_LOG_ROTATE_BYTES = 256 * 1024
_NOFOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC


class _Skip(Exception):
    """Nothing to claim; the code says why (logged, never shown to the agent)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def read_stdin(timeout: float = _STDIN_TIMEOUT_S) -> bytes | None:
    """stdin's bytes (at most MAX_PAYLOAD_BYTES + 1), None for a terminal, nothing open or
    a read that fails. A writer that never closes its end cannot hold the hook longer than
    ``timeout``: that is ``_Skip("stdin_timeout")``, so call it where :func:`run_hook`
    logs it (pass the function itself as ``stdin``)."""
    stream = sys.stdin
    if stream is None or stream.closed:
        return None
    try:
        descriptor = stream.fileno()
        if os.isatty(descriptor):
            return None
    except (OSError, ValueError):
        return None
    deadline = time.monotonic() + timeout
    chunks: list[bytes] = []
    size = 0
    while size <= MAX_PAYLOAD_BYTES:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise _Skip("stdin_timeout")
        try:
            ready, _, _ = select.select([descriptor], [], [], remaining)
            if not ready:
                raise _Skip("stdin_timeout")
            chunk = os.read(descriptor, 65536)
        except (OSError, ValueError):
            return None  # logged as no_payload: there is nothing to read
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _payload(raw: bytes | str | None) -> Mapping[str, Any]:
    if raw is None or not raw.strip():
        raise _Skip("no_payload")
    if isinstance(raw, str):
        try:
            raw = raw.encode("utf-8")
        except UnicodeEncodeError:
            raise _Skip("malformed_payload") from None
    if len(raw) > MAX_PAYLOAD_BYTES:
        raise _Skip("payload_too_large")
    try:
        value = loads(raw)
    except JsonInputError:
        raise _Skip("malformed_payload") from None
    if not isinstance(value, dict):
        raise _Skip("malformed_payload")
    return value


def _text(payload: Mapping[str, Any], *names: str) -> str | None:
    for name in names:
        value = payload.get(name)
        if isinstance(value, str) and value:
            return value
    return None


Stdin = bytes | Callable[[], bytes | None] | None


def _session_of(
    runtime: str, argv_payload: str | None, stdin: Stdin
) -> tuple[str, str | None, str | None]:
    """``(session id, cwd, hook event)`` from what the runtime sent; ``stdin`` is read
    (when it is a reader) only if the runtime sent nothing on the command line."""
    if runtime == "codex" and argv_payload is not None:
        payload = _payload(argv_payload)
        if payload.get("type") != "agent-turn-complete":
            raise _Skip("not_a_turn_event")
        session = _text(payload, "thread-id", "thread_id")
    else:
        payload = _payload(stdin() if callable(stdin) else stdin)
        session = _text(payload, "session_id")
    if session is None:
        raise _Skip("no_session_id")
    cwd = _text(payload, "cwd")
    return session, cwd, _text(payload, "hook_event_name")


def run_hook(
    runtime: str,
    *,
    agent_id: str | None,
    project_id: str | None,
    argv_payload: str | None = None,
    stdin: Stdin = None,
    root: Path | None = None,
) -> str:
    """Claim the session a runtime hook reports; returns the outcome code. Never raises:
    every outcome (problems included) is one line in the private hook log. ``stdin`` is
    the payload's bytes or a reader such as :func:`read_stdin`, called here so that its
    timeout is logged as ``stdin_timeout``."""
    if root is None:
        try:
            root = state_root()
        except StateError:
            return "state_unusable"  # no private folder to log to; the turn goes on
    try:
        outcome = _claim(runtime, agent_id, project_id, argv_payload, stdin, root)
    except _Skip as skip:
        outcome = skip.code
    except ClaimRefused as refused:
        outcome = refused.code  # the ledger says why; its message is for people
    except StateError:
        outcome = "state_unusable"
    except Exception as exc:  # noqa: BLE001 - a hook never fails the agent's turn
        outcome = f"internal_error:{type(exc).__name__}"
    with contextlib.suppress(Exception):
        _log(root, f"hook {runtime}: {outcome}")
    return outcome


def _claim(
    runtime: str,
    agent_id: str | None,
    project_id: str | None,
    argv_payload: str | None,
    stdin: Stdin,
    root: Path,
) -> str:
    session, cwd, event = _session_of(runtime, argv_payload, stdin)
    if not agent_id or not project_id:
        raise _Skip("no_agent_configured")
    changed = SessionLedger(root).claim(
        agent_id=agent_id,
        project_id=project_id,
        runtime=runtime,
        session_id=session,
        cwd=cwd,
        timeout=_LOCK_TIMEOUT_S,
    )
    if event in ("SessionStart", "Stop"):
        # the repetition guard's prior-outcome set: made (or refreshed) detached, if on
        from loopx_recall_core.guard.prefetch import start_for_hook

        start_for_hook(root, runtime, session, agent_id, project_id)
    return "claimed" if changed else "already_claimed"


def _log(root: Path, message: str) -> None:
    folder = ensure_subfolder(root, "private")
    path = folder / _LOG_NAME
    with contextlib.suppress(FileNotFoundError):
        info = os.lstat(path)
        if stat.S_ISREG(info.st_mode) and info.st_size > _LOG_ROTATE_BYTES:
            os.replace(path, folder / f"{_LOG_NAME}.1")
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW, 0o600)
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
            return
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        os.write(descriptor, f"{stamp} {message}\n".encode("ascii", "replace"))
    finally:
        os.close(descriptor)


def read_log(root: Path | None = None) -> list[str]:
    """The hook log's lines (owner-local; for tests and `session list --show-private`)."""
    path = (root or state_root()) / "private" / _LOG_NAME
    try:
        return path.read_text(encoding="ascii").splitlines()
    except FileNotFoundError:
        return []


# -- installing ------------------------------------------------------------------------


def _executable() -> str:
    """This installation's ``loopx-recall`` (absolute, so the runtime's PATH does not matter)."""
    beside = Path(sys.executable).parent / "loopx-recall"
    return str(beside) if beside.is_file() else "loopx-recall"


def hook_command(runtime: str, agent_id: str, project_id: str) -> list[str]:
    return [
        _executable(),
        "hook",
        runtime,
        "--agent-id",
        agent_id,
        "--project-id",
        project_id,
    ]


def claude_settings_snippet(agent_id: str, project_id: str) -> dict[str, Any]:
    """The ``.claude/settings.json`` fragment: a SessionStart command hook (Claude Code runs
    the command through a shell, so it is quoted as one)."""
    command = shlex.join(hook_command("claude", agent_id, project_id))
    return {"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": command}]}]}}


def codex_notify_line(agent_id: str, project_id: str) -> str:
    """The ``~/.codex/config.toml`` line (a top-level key: it must precede every table).

    A JSON array of strings is a TOML array once DEL is escaped: json.dumps escapes the
    quote, the backslash and C0 with escapes TOML shares, but leaves DEL raw, which TOML
    forbids in a string (Codex would then not start).
    """
    array = json.dumps(hook_command("codex", agent_id, project_id), ensure_ascii=False)
    return "notify = " + array.replace("\x7f", "\\u007f")


class InstallRefused(Exception):
    """The settings file cannot be merged safely; the message names no path or id."""


def _is_our_hook(command: object, runtime: str) -> bool:
    return isinstance(command, str) and "loopx-recall" in command and f" hook {runtime} " in command


def merge_claude_settings(existing: bytes | None, agent_id: str, project_id: str) -> bytes | None:
    """The settings file with our SessionStart hook added; None when it is already there."""
    try:
        settings = loads(existing) if existing and existing.strip() else {}
    except JsonInputError as exc:
        # "not valid JSON (line 2, column 1)", "not UTF-8": said once, as jsonio says it
        verb = "is" if str(exc).startswith("not ") else "is refused:"
        raise InstallRefused(f"the Claude Code settings file {verb} {exc}") from None
    group = claude_settings_snippet(agent_id, project_id)["hooks"]["SessionStart"][0]
    ours = group["hooks"][0]["command"]
    if not isinstance(settings, dict):
        raise InstallRefused("the Claude Code settings file must hold a JSON object ({...})")
    hooks = settings.setdefault("hooks", {})
    groups = hooks.setdefault("SessionStart", []) if isinstance(hooks, dict) else None
    if not isinstance(groups, list):
        raise InstallRefused("the Claude Code settings file has an unexpected shape at hooks")
    commands = [
        hook.get("command")
        for entry in groups
        if isinstance(entry, dict) and isinstance(entry.get("hooks"), list)
        for hook in entry["hooks"]
        if isinstance(hook, dict)
    ]
    if ours in commands:
        return None
    if any(_is_our_hook(command, "claude") for command in commands):
        raise InstallRefused(
            "a loopx-recall claude hook for another agent or project is already installed; "
            "edit the settings file by hand (one agent per Claude Code configuration)"
        )
    groups.append(group)
    return (json.dumps(settings, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def merge_codex_config(existing: bytes | None, agent_id: str, project_id: str) -> bytes | None:
    """config.toml with our ``notify`` line first; None when it is already there."""
    import tomllib

    try:
        text = (existing or b"").decode("utf-8")
    except UnicodeDecodeError:
        # replacing the bytes would corrupt the user's file: leave it alone
        raise InstallRefused(
            "the Codex config file is not UTF-8; merge by hand (--print)"
        ) from None
    try:
        parsed = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise InstallRefused("the Codex config file is not valid TOML") from None
    ours = hook_command("codex", agent_id, project_id)
    if "notify" in parsed:
        if parsed["notify"] == ours:
            return None
        raise InstallRefused(
            "the Codex config already has a notify program and Codex runs only one; "
            "combine them by hand (see `loopx-recall hook install codex --print`)"
        )
    # A top-level key must come before the first table: the first line is always safe.
    return (codex_notify_line(agent_id, project_id) + "\n" + text).encode("utf-8")


def install(path: Path, merged: bytes, existing: bytes | None) -> Path | None:
    """Write ``merged`` to ``path`` atomically, keeping ``existing`` as a backup beside it;
    returns the backup's path (None when there was no file)."""
    from loopx_recall_core.private_files import write_atomic

    if path.is_symlink() or path.parent.is_symlink():
        raise InstallRefused(
            "the settings file or its folder is a symbolic link; refusing to write through "
            "it (merge by hand, see --print)"
        )
    mode = path.stat().st_mode & 0o777 if path.exists() else None
    path.parent.mkdir(parents=True, exist_ok=True)
    backup = None
    if existing is not None:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        backup = path.with_name(f"{path.name}.loopx-backup-{stamp}")
        write_atomic(path.parent, backup.name, existing, prefix=".loopx-", what="a backup")
    write_atomic(path.parent, path.name, merged, prefix=".loopx-", what="the settings file")
    if mode is not None:
        os.chmod(path, mode, follow_symlinks=False)  # the user's file keeps its own mode
    return backup
