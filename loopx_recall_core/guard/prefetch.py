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

Long because: the making of a set has one home, from when the hooks ask for one (a
session's start, a turn's or session's end, with the private marker's drop there) through
the detached process, its lock, its bounded retries and the set it writes; split, the
start and the making would each need the other's rules of which set, when and how often.
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
from loopx_recall_core.owner_decisions import Superseded, committing, current, started
from loopx_recall_core.private_files import StateError, locked

__all__ = [
    "GUARD_TERMS",
    "MAX_PAGES",
    "FetchedSet",
    "fetch_set",
    "run_prefetch",
    "start_detached",
    "start_for_hook",
]

GUARD_TERMS = ("command", "cmd")
#: The bound of a set made in pages (PagedRecallProvider): at most this many pages, each
#: within the enablement's limits (by default 16 items: 10,240 entries), and each entry's
#: snippet at most INDEX_SNIPPET_CHARS (the header, the outcome, the first error lines).
MAX_PAGES = 640
INDEX_SNIPPET_CHARS = 400
_LOCK_TIMEOUT_S = 60.0
#: A set made at a session's end from an index that is behind its transcripts is made once
#: more this long after: the real Obelisk refreshes its index at a query only when its last
#: build is at least 30 s old (obelisk_double/README.md, fact 15; seen on 0.2.1, where a
#: session's Stop came seconds after its start's build and its calls were not in the answer).
BEHIND_RETRY_S = 31.0
#: The freshness labels of an index behind the transcripts: a file newer than its row, or
#: one with no row yet (a result's ``freshness``: fresh, stale, incomplete or unknown).
BEHIND = ("stale", "incomplete")
_RECALL_TIMEOUT_S = 30.0


def _set_file(root: Path, facts: dict[str, Any]) -> Path:
    """Where the set these facts ask for is kept (the agent's or the session's), its
    folder made when missing; never the state folder (StateError when it is gone: the
    owner removed it)."""
    if facts.get("scope") == "agent":
        return store.agent_set_path(root, str(facts["runtime"]), str(facts["agent_id"]),
                                    str(facts["project_id"]), create=True,
                                    create_root=False)  # fmt: skip
    return store.set_path(root, str(facts["runtime"]), str(facts["session_id"]), create=True,
                          create_root=False)  # fmt: skip


#: How the making waits before it is made once more (:data:`BEHIND_RETRY_S`): the seam the
#: tests drive an owner decision through, in that wait, without sleeping.
_wait = time.sleep


def start_detached(
    root: Path,
    *,
    runtime: str,
    session_id: str,
    agent_id: str,
    project_id: str,
    requested_at: float,
    pending_s: float = 120.0,
    scope: str = "session",
    again_if_behind: bool = False,
) -> bool:
    """Start the prefetch in a detached process; False when one is already pending.
    ``scope="agent"``: the agent's set for the runtime (``session_id`` unused).
    ``again_if_behind``: made once more, :data:`BEHIND_RETRY_S` later, when the index
    answered ``stale`` or ``incomplete`` (a session's end: its last calls may not be
    indexed yet)."""
    facts = {
        "runtime": runtime,
        "session_id": session_id,
        "agent_id": agent_id,
        "project_id": project_id,
        "requested_at": requested_at,
        "scope": scope,
        "again_if_behind": again_if_behind,
    }
    try:
        marker = _set_file(root, facts).with_suffix(".pending")
    except StateError:
        return False  # the state folder is gone (or unusable): nothing to make
    with contextlib.suppress(FileNotFoundError):
        if time.time() - os.lstat(marker).st_mtime < pending_s:
            return False
        os.unlink(marker)
    try:
        descriptor = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        return False
    os.close(descriptor)
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


def _request(enablement: Any, *, compact: bool = False) -> Any:
    from loopx_recall_core.contracts import unstructure
    from loopx_recall_core.recall.requests import history_request

    limits = unstructure(enablement.limits)
    if compact:
        limits["max_snippet_chars"] = min(limits["max_snippet_chars"], INDEX_SNIPPET_CHARS)
    return history_request(
        trigger="resume_or_handoff_gap",
        agent_id=enablement.agent_id,
        project_id=enablement.project_id,
        repository_id=enablement.repository_id,
        evidence_types=("prior_failure", "tool_outcome"),
        query_terms=GUARD_TERMS,
        limits=limits,
        id_prefix="rq-guard-",
    )


def _repository_root(enablement: Any) -> str | None:
    roots = (enablement.binding.get("private") or {}).get("repository_roots")
    return roots[0] if isinstance(roots, list) and roots and isinstance(roots[0], str) else None


class FetchedSet:
    """One prefetch's answer: the request made, the recall outcome (the first page's),
    ``pages`` (every page's ``(request, outcome)``), and the set (its header and items) as
    :func:`~loopx_recall_core.guard.store.write_set` keeps it."""

    __slots__ = ("header", "items", "outcome", "pages", "request")

    def __init__(
        self, pages: list[tuple[Any, Any]], header: dict[str, Any], items: list
    ) -> None:
        self.pages = pages
        self.request, self.outcome = pages[0]
        self.header = header
        self.items = items


def fetch_set(
    recall: Callable[[Any], Any],
    enablement: Any,
    *,
    runtime: str,
    session_id: str,
    scope: str = "session",
    as_of: float | None = None,
    failures: int = 0,
    pages: Callable[[list[Any]], list[Any]] | None = None,
) -> FetchedSet:
    """ONE admitted request in the session's scope through ``recall`` (a
    :class:`~loopx_recall_core.recall.service.RecallService`) and the set made from the
    provider's answer. The prefetch and ``recall qualify``'s guard families both call it.
    ``failures``: failed makings in a row before this one (a failed set is retried soon,
    :func:`~loopx_recall_core.guard.store.retry_after`). With ``pages`` (the service's
    :meth:`~loopx_recall_core.recall.service.RecallService.pages`) the set covers the
    whole window: up to :data:`MAX_PAGES` compact pages from one provider call, each
    verified and recorded with its receipt; the header's digest is over all receipts."""
    as_of = time.time() if as_of is None else as_of
    from loopx_recall_core.canonical import digest
    from loopx_recall_core.contracts import unstructure
    from loopx_recall_core.guard.decide import index_items, with_successors

    if pages is not None:  # the whole window, in pages made by one provider process
        requests = [_request(enablement, compact=True) for _ in range(MAX_PAGES)]
        outcomes = pages(requests) or [recall(requests[0])]
    else:
        requests = [_request(enablement)]
        outcomes = [recall(requests[0])]
    outcome = outcomes[0]
    repository_root = _repository_root(enablement)
    result = outcomes[-1].result
    items = [
        {
            "ref": f"{item.session_ref}#{item.message_ref or ''}",
            "session": item.session_ref,
            "type": item.evidence_type,
            "at": item.observed_at,
            "snippet": item.snippet,
        }
        for page in outcomes
        for item in (page.result.items if page.result is not None else ())
    ]
    items = with_successors(items, repository_root)
    failed = outcome.status != "succeeded"
    failures = failures + 1 if failed else 0
    header = {
        "schema_version": store.SET_VERSION,
        "scope": scope,
        "agent_id": enablement.agent_id,
        "project_id": enablement.project_id,
        "runtime": runtime,
        "session_id": session_id,
        "as_of": as_of,
        "created_at": time.time(),
        "ttl_s": store.retry_after(failures) if failed else store.DEFAULT_TTL_S,
        "failures": failures,
        "sessions": " ".join(sorted({store.key_of(str(i["session"]))[:16] for i in items})),
        "status": outcome.status,
        "reason": outcome.reason,
        "freshness": result.freshness if result is not None else None,
        "truncated": bool(result.truncated) if result is not None else False,
        "receipt_digest": digest([unstructure(page.receipt) for page in outcomes])
        if pages is not None
        else digest(unstructure(outcome.receipt)),
        "pages": len(outcomes),
        "repository_root": repository_root,
        "count": len(items),
        "index": index_items(items, repository_root),
    }
    return FetchedSet(list(zip(requests, outcomes, strict=False)), header, items)


def run_prefetch(root: Path, facts: dict[str, Any], host: Any = None) -> str:
    """Make the session's set, or the agent's (``facts["scope"] == "agent"``), in the
    detached process; returns an outcome code. With ``facts["again_if_behind"]`` a set the
    index answered ``stale`` or ``incomplete`` is made once more :data:`BEHIND_RETRY_S`
    later (the lock is not held meanwhile)."""
    try:
        since = started(root)  # before the state and the ledger are read (owner_decisions)
    except StateError:
        since = None
    outcome = _run_once(root, facts, host, since)
    if outcome != "made" or not facts.get("again_if_behind"):
        return outcome
    try:
        lines = store.read_set_lines(_set_file(root, facts))
    except StateError:
        return outcome
    header = store.read_header(lines) if lines else None
    if header is None or header.get("freshness") not in BEHIND:
        return outcome
    _wait(BEHIND_RETRY_S)
    # the retry belongs to this making: an owner decision since it began (a cleanup that
    # removed the state folder included) ends it here, without a file written or made
    if current(root) != since:
        return "superseded"
    again = {**facts, "again_if_behind": False, "requested_at": time.time()}
    return _run_once(root, again, host, since)


def _run_once(root: Path, facts: dict[str, Any], host: Any, since: str | None) -> str:
    requested_at = float(facts.get("requested_at") or time.time())
    if since is None:
        return "state_gone"
    try:
        path = _set_file(root, facts)
    except StateError:
        return "state_gone"
    outcome = "failed"
    try:
        with locked(path.with_suffix(".lock"), _LOCK_TIMEOUT_S, "a guard set lock"):
            outcome = _prefetch_locked(root, path, facts, requested_at, host, since)
            return outcome
    except StateError:
        outcome = "state_gone" if not os.path.isdir(root) else "state_unusable"
        return outcome
    finally:
        # no set made (not claimed, guard off, a failure): the marker stays, so the next
        # guarded calls do not each start another prefetch before its window has passed;
        # it holds the outcome code, so a first call waiting for this making stops waiting
        # (hotpath._wait_for_set: an empty marker is a making in flight); a making an owner
        # decision superseded takes it away too, so the next call makes the set the
        # decision dropped at once
        if outcome in ("made", "already_made", "superseded"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path.with_suffix(".pending"))
        else:
            _mark_ended(path.with_suffix(".pending"), outcome)


def _mark_ended(marker: Path, outcome: str) -> None:
    with contextlib.suppress(OSError):
        descriptor = os.open(marker, os.O_WRONLY | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            os.write(descriptor, outcome.encode("ascii", "replace")[:64])
        finally:
            os.close(descriptor)


def _prefetch_locked(
    root: Path, path: Path, facts: dict[str, Any], requested_at: float, host: Any, since: str
) -> str:
    from loopx_recall_core.recall.service import RecallService
    from loopx_recall_core.recall.sessions.ledger import SessionLedger
    from loopx_recall_core.recall.store import PrivateStore
    from loopx_recall_core.state import StateStore

    runtime, session = str(facts["runtime"]), str(facts["session_id"])
    agent_id, project_id = str(facts["agent_id"]), str(facts["project_id"])
    scope = "agent" if facts.get("scope") == "agent" else "session"
    as_of = time.time()  # before the state and the ledger are read (store.outdated)
    lines = store.read_set_lines(path)
    header = store.read_header(lines) if lines else None
    if header is not None and float(header.get("created_at", 0)) >= requested_at:
        return "already_made"  # a concurrent start made it after this one was asked for
    failures = int(header.get("failures", 0)) if header is not None else 0
    state = StateStore(root).read()
    enablement = next(
        (e for e in state.find(agent_id=agent_id, project_id=project_id) if e.guard), None
    )
    if enablement is None or enablement.stage != 2:
        return "guard_off"
    claims = SessionLedger(root).claims(agent_id=agent_id, project_id=project_id)
    if scope == "agent":
        if not any(c.runtime == runtime for c in claims):
            return "not_claimed"
    elif not any(c.runtime == runtime and c.session_id == session for c in claims):
        return "not_claimed"
    store.prune_expired(root)
    if host is None:
        from loopx_recall_core.plugin.manager import load_host

        host = load_host
    service = RecallService(
        provider_id=enablement.provider_id,
        host=host,
        enablements=state.enablements,
        store=PrivateStore(root, since=since),  # its records are kept as the set is
        timeout=_RECALL_TIMEOUT_S,
        current_sessions=() if scope == "agent" else (session,),
    )
    try:
        fetched = fetch_set(service, enablement, runtime=runtime, session_id=session,
                            scope=scope, as_of=as_of, failures=failures,
                            pages=service.pages)  # fmt: skip
        # under the state lock, and only when no owner decision came since this began
        with committing(root, since):
            store.write_set(root, fetched.header, fetched.items)
            if scope == "session" and fetched.header["status"] == "succeeded":
                # the same answer is the agent's set for the next session's first call
                # until a session's end makes it again (an end hook may not run: a killed
                # runtime, an install from before the end hooks); only this session's
                # items are missing
                _keep_as_agent_set(root, fetched)
    except Superseded:
        return "superseded"
    except StateError:
        return "state_unusable"
    return "made"


def _keep_as_agent_set(root: Path, fetched: FetchedSet) -> None:
    header = fetched.header
    path = store.agent_set_path(root, header["runtime"], header["agent_id"], header["project_id"])
    lines = store.read_set_lines(path)
    held = store.read_header(lines) if lines else None
    if held is None or float(held.get("as_of", 0)) < float(header["as_of"]):
        store.write_set(root, {**header, "scope": "agent", "session_id": ""}, fetched.items)


#: The end events of the runtime records (``Stop``, ``SessionEnd``): a turn or a session ended.
END_EVENTS = ("Stop", "SessionEnd")
#: How much of a session's transcript one hook run reads for the private marker (the rest
#: at the next one): a hook never reads a whole long transcript again.
MARKER_SCAN_BYTES = 64 * 1024 * 1024


def start_for_hook(
    root: Path,
    runtime: str,
    session: str,
    agent_id: str,
    project_id: str,
    event: str | None = None,
    transcript: str | None = None,
) -> bool:
    """From the claiming hook. First, wherever sets are kept: when the session's transcript
    (the payload's ``transcript_path``) holds the private marker, every set holding the
    session is dropped before the hook returns, whatever the index has taken in
    (:func:`_drop_if_private`). Then, when the guard is on for this agent and project
    (``state.json`` read as the hot path reads it): at ``SessionStart`` the session's own
    set; when a turn or session ends (``Stop``, ``SessionEnd``) the agent's set (so the
    next session's first call is guarded, this session's calls included) and every other
    session's set that holds this session's items (its history just grew), unless the
    transcript is as it was when this session's last end started them (``SessionEnd``
    right after ``Stop``). Each making is detached and bounded (one pending at a time per
    set, :func:`start_detached`; the making's own lock and timeouts)."""
    from loopx_recall_core.guard.policy import guard_policy
    from loopx_recall_core.recall.sessions.ledger import native_session_id
    from loopx_recall_core.runtimes import index_session_name

    native = native_session_id(runtime, session)
    named = index_session_name(runtime, native)
    record = None
    if transcript and _any_copy(root):
        record = store.read_session(root, runtime, native)
        dropped = _drop_if_private(root, runtime, native, transcript, record)
    else:
        dropped = []
    if guard_policy(root, agent_id, project_id) is None:
        if record is not None:
            store.write_session(root, runtime, native, record)
        return False
    now = time.time()
    ids = {"agent_id": agent_id, "project_id": project_id, "requested_at": now, "pending_s": 5.0}
    if event not in END_EVENTS:
        if record is not None:
            store.write_session(root, runtime, native, record)
        return start_detached(root, runtime=runtime, session_id=native, **ids)
    if record is None:
        record = store.read_session(root, runtime, native)
    stamp = _stamp(transcript)
    if stamp is not None and record.get("ended") == stamp and not dropped:
        return False  # nothing happened since this session's last end started the makings
    others = _sets_holding(root, named, agent_id, project_id)
    others += [(str(h["runtime"]), str(h["session_id"])) for h in dropped
               if h.get("scope") == "session" and h.get("agent_id") == agent_id
               and h.get("project_id") == project_id and (h["runtime"], h["session_id"])
               not in others]  # fmt: skip
    started = start_detached(root, runtime=runtime, session_id="", scope="agent",
                             again_if_behind=True, **ids)  # fmt: skip
    for other_runtime, other in others:
        started = start_detached(root, runtime=other_runtime, session_id=other, **ids) or started
    if stamp is not None:
        record["ended"] = stamp
    store.write_session(root, runtime, native, record)
    return started


def _any_copy(root: Path) -> bool:
    """Is there any copy the private marker would reach (a guard set, a stored result), or
    a set's making under way (its pending marker: what it writes is refused once the
    marker's drop moves the generation on, :mod:`loopx_recall_core.owner_decisions`)?
    Without one, no transcript is read."""
    with contextlib.suppress(OSError), os.scandir(root / "private" / "guard" / "sets") as entries:
        if any(e.name.endswith((".json", ".pending")) for e in entries):
            return True
    with contextlib.suppress(OSError), os.scandir(root / "private" / "results") as entries:
        return any(True for _ in entries)
    return False


def _stamp(transcript: str | None) -> list[int] | None:
    """The transcript's size and modification time (None: none named or unreadable)."""
    if not transcript:
        return None
    try:
        info = os.stat(transcript)
    except (OSError, ValueError):
        return None
    return [info.st_size, info.st_mtime_ns]


def _drop_if_private(
    root: Path, runtime: str, native: str, transcript: str, record: dict[str, Any]
) -> list[dict[str, Any]]:
    """Read the session's transcript for the private marker from where the last hook run
    stopped (``record["marker_scan"]``, at most :data:`MARKER_SCAN_BYTES` a run); when it
    is there, every copy of the session we keep goes at once, by the one path ``session
    forget`` takes (:func:`~loopx_recall_core.guard.session_copies.drop_session_copies`:
    the sets holding it, the stored results holding it); returns the dropped sets'
    headers."""
    from loopx_recall_core.guard.session_copies import drop_session_copies
    from loopx_recall_core.private_marker import scan_file

    start = record.get("marker_scan")
    scanned = scan_file(transcript, start if isinstance(start, int) else 0, MARKER_SCAN_BYTES,
                        runtime)  # fmt: skip
    if scanned is None:
        return []
    found, record["marker_scan"] = scanned
    return drop_session_copies(root, runtime, native) if found else []


def _sets_holding(
    root: Path, session: str, agent_id: str, project_id: str
) -> list[tuple[str, str]]:
    """(runtime, session) of the agent's session sets whose items include ``session`` (as
    the index names it: ``codex:<thread>``, a Claude id as is)."""
    key = store.key_of(session)[:16]
    found = []
    folder = root / "private" / "guard" / "sets"
    with contextlib.suppress(FileNotFoundError):
        for entry in os.scandir(folder):
            if not (len(entry.name) == 37 and entry.name.endswith(".json")):
                continue
            with contextlib.suppress(OSError, StateError):
                lines = store.read_set_lines(Path(entry.path))
                header = store.read_header(lines) if lines else None
                if (
                    header is not None
                    and header.get("scope") != "agent"
                    and header.get("agent_id") == agent_id
                    and header.get("project_id") == project_id
                    and key in str(header.get("sessions", "")).split(" ")
                ):
                    found.append((str(header["runtime"]), str(header["session_id"])))
    return found
