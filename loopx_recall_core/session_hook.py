# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The session hook (``loopx-recall hook claude|codex``): it claims a session as it starts
in the session ledger (:mod:`loopx_recall_core.recall.sessions.ledger`) and starts the
guard's prefetch (:func:`loopx_recall_core.guard.prefetch.start_for_hook`); installing it:
:mod:`loopx_recall_core.recall.hook_install`. It stands above both, as the hot path
(:mod:`loopx_recall_core.guard.hotpath`) is the guard's own hook.

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
  (on by default; ``hooks.json`` or ``[hooks]`` tables in ``config.toml``) pass
  ``session_id``, ``cwd`` and ``hook_event_name`` on stdin
  (https://developers.openai.com/codex/hooks).

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
* ``outside_repository``: the payload's ``cwd`` (symlinks resolved) is outside every
  repository root the agent's enablements in the project bind (a user-scope hook runs in
  every repository); nothing is claimed and no guard set is made.
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
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from loopx_recall_core import hook_log
from loopx_recall_core.jsonio import JsonInputError, loads
from loopx_recall_core.private_files import StateError
from loopx_recall_core.process import StdinTimeout, read_bounded
from loopx_recall_core.recall.sessions.ledger import ClaimRefused, SessionLedger
from loopx_recall_core.runtimes import RECORDS
from loopx_recall_core.state import state_root

__all__ = [
    "AGENT_ENV",
    "PROJECT_ENV",
    "read_log",
    "run_hook",
]

AGENT_ENV = "LOOPX_RECALL_AGENT_ID"
PROJECT_ENV = "LOOPX_RECALL_PROJECT_ID"
MAX_PAYLOAD_BYTES = 1_000_000
_STDIN_TIMEOUT_S = 5.0
_LOCK_TIMEOUT_S = 5.0


class _Skip(Exception):
    """Nothing to claim; the code says why (logged, never shown to the agent)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def read_stdin(timeout: float = _STDIN_TIMEOUT_S) -> bytes | None:
    """stdin's bytes (at most MAX_PAYLOAD_BYTES + 1; empty for a terminal or nothing open,
    None for a read that fails: both are logged as ``no_payload``). A writer that never
    closes its end cannot hold the hook longer than ``timeout``: that is
    ``_Skip("stdin_timeout")``, so call it where :func:`run_hook` logs it (pass the
    function itself as ``stdin``)."""
    try:
        return read_bounded(MAX_PAYLOAD_BYTES, timeout)
    except StdinTimeout:
        raise _Skip("stdin_timeout") from None
    except (OSError, ValueError):
        return None  # logged as no_payload: there is nothing to read


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
) -> tuple[str, str | None, str | None, str | None]:
    """``(session id, cwd, hook event, transcript path)`` from what the runtime sent;
    ``stdin`` is read (when it is a reader) only if the runtime sent nothing on the
    command line."""
    notify = RECORDS.get(runtime)  # a runtime with a legacy `notify` program (Codex)
    if notify and "agent-turn-complete" in notify.payload_keys and argv_payload is not None:
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
    return session, cwd, _text(payload, "hook_event_name"), _text(payload, "transcript_path")


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
    session, cwd, event, transcript = _session_of(runtime, argv_payload, stdin)
    if not agent_id or not project_id:
        raise _Skip("no_agent_configured")
    _check_repository(root, agent_id, project_id, cwd)
    changed = SessionLedger(root).claim(
        agent_id=agent_id,
        project_id=project_id,
        runtime=runtime,
        session_id=session,
        cwd=cwd,
        timeout=_LOCK_TIMEOUT_S,
    )
    if event in ("SessionStart", "Stop", "SessionEnd"):
        # the repetition guard's prior-outcome sets: dropped at once when the session's
        # transcript holds the private marker; made (or refreshed) detached, if on
        from loopx_recall_core.guard.prefetch import start_for_hook

        start_for_hook(root, runtime, session, agent_id, project_id, event, transcript)
    return "claimed" if changed else "already_claimed"


def _check_repository(root: Path, agent_id: str, project_id: str, cwd: str | None) -> None:
    """A user-scope hook runs in every repository: a session whose ``cwd`` is outside the
    repository the agent's enablement in the project binds is not claimed (nor its guard
    set made). Without an enablement recording its roots, or without a ``cwd``, nothing
    can be checked and the claim goes on as before."""
    from loopx_recall_core.guard import repository_scope
    from loopx_recall_core.state import StateStore

    if not cwd:
        return
    try:
        enablements = StateStore(root).read().find(agent_id=agent_id, project_id=project_id)
    except StateError:
        return  # the claim itself reports an unusable state folder
    roots = [path for e in enablements for path in repository_scope.repository_roots(e.binding)]
    if roots and not repository_scope.inside(cwd, roots):
        raise _Skip(repository_scope.OUTSIDE)


def _log(root: Path, message: str) -> None:
    hook_log.write(root, message)


def read_log(root: Path | None = None) -> list[str]:
    """The hook log's lines (owner-local; for tests and `session list --show-private`)."""
    return hook_log.read(root or state_root())
