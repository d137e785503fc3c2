# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The prior-outcome set's prefetch: ONE admitted request per session start, off the hot
path.

:func:`start_detached` (called by the ``SessionStart``/``Stop`` hook and by a guarded call
that finds no set, or an old or stale one) starts ``python -m loopx_recall_core guard
prefetch`` in its own session and returns at once; the request's facts go over a pipe
(a session id on a command line is visible to other local users). A pending marker keeps
a burst of guarded calls to one start. :func:`run_prefetch` (the detached process) takes
the session's lock, so concurrent starts make one request: whoever comes second finds a
set made after its own start and stops there.

The request: trigger ``resume_or_handoff_gap`` (stage 2), evidence ``prior_failure`` and
``tool_outcome``, the enablement's limits (its ceilings), the current session excluded,
and the query terms ``command`` and ``cmd``: the input keys of the runtimes' shell tools
(Claude ``Bash`` ``{"command": ...}``, Codex ``shell`` ``{"command": [...]}`` and
``exec_command`` ``{"cmd": ...}``), so every shell call in the agent's claimed sessions
is eligible and the provider's ranking (newest first) decides what fits the limits.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from loopx_recall_core.guard import store
from loopx_recall_core.private_files import StateError, locked

__all__ = [
    "GUARD_TERMS",
    "FetchedSet",
    "fetch_set",
    "run_prefetch",
    "start_detached",
    "start_for_hook",
]

GUARD_TERMS = ("command", "cmd")
_LOCK_TIMEOUT_S = 60.0
_RECALL_TIMEOUT_S = 30.0


def _pending(root: Path, runtime: str, session_id: str) -> Path:
    path = store.set_path(root, runtime, session_id, create=True)
    return path.with_suffix(".pending")


def start_detached(
    root: Path,
    *,
    runtime: str,
    session_id: str,
    agent_id: str,
    project_id: str,
    requested_at: float,
    pending_s: float = 120.0,
) -> bool:
    """Start the prefetch in a detached process; False when one is already pending."""
    marker = _pending(root, runtime, session_id)
    with contextlib.suppress(FileNotFoundError):
        if time.time() - os.lstat(marker).st_mtime < pending_s:
            return False
        os.unlink(marker)
    try:
        descriptor = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        return False
    os.close(descriptor)
    facts = {
        "runtime": runtime,
        "session_id": session_id,
        "agent_id": agent_id,
        "project_id": project_id,
        "requested_at": requested_at,
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "loopx_recall_core", "guard", "prefetch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        close_fds=True,
        env={**os.environ, "LOOPX_RECALL_HOME": str(root)},
    )
    assert process.stdin is not None
    with contextlib.suppress(OSError):
        process.stdin.write(json.dumps(facts).encode("utf-8"))
        process.stdin.close()
    return True


def _request(enablement: Any) -> Any:
    from loopx_recall_core.contracts import unstructure
    from loopx_recall_core.recall.requests import history_request

    return history_request(
        trigger="resume_or_handoff_gap",
        agent_id=enablement.agent_id,
        project_id=enablement.project_id,
        repository_id=enablement.repository_id,
        evidence_types=("prior_failure", "tool_outcome"),
        query_terms=GUARD_TERMS,
        limits=unstructure(enablement.limits),
        id_prefix="rq-guard-",
    )


def _repository_root(enablement: Any) -> str | None:
    roots = (enablement.binding.get("private") or {}).get("repository_roots")
    return roots[0] if isinstance(roots, list) and roots and isinstance(roots[0], str) else None


class FetchedSet:
    """One prefetch's answer: the request made, the recall outcome, and the set (its header
    and items) as :func:`~loopx_recall_core.guard.store.write_set` keeps it."""

    __slots__ = ("header", "items", "outcome", "request")

    def __init__(self, request: Any, outcome: Any, header: dict[str, Any], items: list) -> None:
        self.request = request
        self.outcome = outcome
        self.header = header
        self.items = items


def fetch_set(
    recall: Callable[[Any], Any], enablement: Any, *, runtime: str, session_id: str
) -> FetchedSet:
    """ONE admitted request in the session's scope through ``recall`` (a
    :class:`~loopx_recall_core.recall.service.RecallService`) and the set made from the
    provider's answer. The prefetch and ``recall qualify``'s guard families both call it."""
    from loopx_recall_core.canonical import digest
    from loopx_recall_core.contracts import unstructure
    from loopx_recall_core.guard.decide import index_items

    request = _request(enablement)
    outcome = recall(request)
    repository_root = _repository_root(enablement)
    result = outcome.result
    items = [
        {
            "ref": f"{item.session_ref}#{item.message_ref or ''}",
            "session": item.session_ref,
            "type": item.evidence_type,
            "at": item.observed_at,
            "snippet": item.snippet,
        }
        for item in (result.items if result is not None else ())
    ]
    header = {
        "schema_version": store.SET_VERSION,
        "agent_id": enablement.agent_id,
        "project_id": enablement.project_id,
        "runtime": runtime,
        "session_id": session_id,
        "created_at": time.time(),
        "ttl_s": store.DEFAULT_TTL_S,
        "status": outcome.status,
        "reason": outcome.reason,
        "freshness": result.freshness if result is not None else None,
        "truncated": bool(result.truncated) if result is not None else False,
        "receipt_digest": digest(unstructure(outcome.receipt)),
        "repository_root": repository_root,
        "count": len(items),
        "index": index_items(items, repository_root),
    }
    return FetchedSet(request, outcome, header, items)


def run_prefetch(root: Path, facts: dict[str, Any], host: Any = None) -> str:
    """Make the session's set (the detached process); returns an outcome code."""
    runtime, session = str(facts["runtime"]), str(facts["session_id"])
    agent_id, project_id = str(facts["agent_id"]), str(facts["project_id"])
    requested_at = float(facts.get("requested_at") or time.time())
    path = store.set_path(root, runtime, session, create=True)
    outcome = "failed"
    try:
        with locked(path.with_suffix(".lock"), _LOCK_TIMEOUT_S, "a guard set lock"):
            outcome = _prefetch_locked(
                root, path, runtime, session, agent_id, project_id, requested_at, host
            )
            return outcome
    finally:
        # no set made (not claimed, guard off, a failure): the marker stays, so the next
        # guarded calls do not each start another prefetch before its window has passed
        if outcome in ("made", "already_made"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path.with_suffix(".pending"))


def _prefetch_locked(
    root: Path,
    path: Path,
    runtime: str,
    session: str,
    agent_id: str,
    project_id: str,
    requested_at: float,
    host: Any,
) -> str:
    from loopx_recall_core.recall.service import RecallService
    from loopx_recall_core.recall.sessions.ledger import SessionLedger
    from loopx_recall_core.recall.store import PrivateStore
    from loopx_recall_core.state import StateStore

    lines = store.read_set_lines(path)
    header = store.read_header(lines) if lines else None
    if header is not None and float(header.get("created_at", 0)) >= requested_at:
        return "already_made"  # a concurrent start made it after this one was asked for
    state = StateStore(root).read()
    enablement = next(
        (e for e in state.find(agent_id=agent_id, project_id=project_id) if e.guard), None
    )
    if enablement is None or enablement.stage != 2:
        return "guard_off"
    claims = SessionLedger(root).claims(agent_id=agent_id, project_id=project_id)
    if not any(c.runtime == runtime and c.session_id == session for c in claims):
        return "not_claimed"
    store.prune_expired(root)
    if host is None:
        from loopx_recall_core.plugins import load_host

        host = load_host
    service = RecallService(
        provider_id=enablement.provider_id,
        host=host,
        enablements=state.enablements,
        store=PrivateStore(root),
        timeout=_RECALL_TIMEOUT_S,
        current_sessions=(session,),
    )
    fetched = fetch_set(service, enablement, runtime=runtime, session_id=session)
    try:
        store.write_set(root, fetched.header, fetched.items)
    except StateError:
        return "state_unusable"
    return "made"


def start_for_hook(root: Path, runtime: str, session: str, agent_id: str, project_id: str) -> bool:
    """From the claiming hook (``SessionStart``, ``Stop``): start a prefetch when the guard
    is on for this agent and project (``state.json`` read as the hot path reads it)."""
    from loopx_recall_core.guard.hotpath import guard_policy
    from loopx_recall_core.recall.sessions.ledger import native_session_id

    if guard_policy(root, agent_id, project_id) is None:
        return False
    return start_detached(
        root,
        runtime=runtime,
        session_id=native_session_id(runtime, session),
        agent_id=agent_id,
        project_id=project_id,
        requested_at=time.time(),
        pending_s=5.0,
    )
