# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall guard claude|codex``: the PreToolUse and PostToolUse command hook (the
hot path; the event is the payload's ``hook_event_name``).

Reached from :func:`loopx_recall_core.cli.main` before click is imported. It reads the
payload, the owner's ``state.json`` (the guard's policy for the agent and project), the
session's prior-outcome set and guard record, what the session's transcript gained since
its last call (for the private marker: :func:`_marked_private`), and answers with the
runtime's documented output (the runtime records: :mod:`loopx_recall_core.runtimes`). No
provider process, no index read, no network: a missing or old set is refreshed by a
DETACHED prefetch (:mod:`.prefetch`); only a call that finds no set at all (a first call,
no session of the agent ever ended) waits for the making in flight, within the runtime's
bound.

No match, guard off, bad payload: it prints nothing and the process exits 0, the guard
never blocks work by failing. It is bounded by what the runtime allows a hook
(:data:`RUNTIME_HOOK_TIMEOUT_S`), not by a deadline of its own: on a busy machine the
answer comes later, but it comes. Each decision leaves one content-free record for
``guard stats``; a call left unanswered for a reason other than its command (no set, a
session not claimed, out of time) leaves one too, naming the reason.

Long because: the hot path reads everything it needs itself (payload, policy, set, the
session ledger's claims, the runtime's own record of a call) with the standard library
only; each piece it imported instead would cost its start-up on every shell call.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from loopx_recall_core import hook_log
from loopx_recall_core.guard import repository_scope, store
from loopx_recall_core.guard.policy import guard_policy
from loopx_recall_core.jsonio import loads
from loopx_recall_core.process import StdinTimeout, read_bounded
from loopx_recall_core.recall.sessions import ledger_file
from loopx_recall_core.runtimes import RECORDS, SHELL_TOOLS, failed

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["DEADLINE_S", "RETRY_WINDOW_S", "SHELL_TOOLS", "decide_payload", "main"]

#: What each runtime allows a command hook before it cancels it, in seconds: ``hook
#: install`` writes no ``timeout`` of its own, so the runtime's default holds (the runtime
#: records' ``hook_timeout_s``, with their sources).
RUNTIME_HOOK_TIMEOUT_S = {
    name: r.hook_timeout_s for name, r in RECORDS.items() if r.hook_timeout_s is not None
}
#: The hook gives up this long before the runtime would cancel it, so that it can say it
#: ran out of time (the hook log, ``guard stats``) before it is killed.
MARGIN_S = 5.0
#: The hook's own bound (issue 39: a 300 ms deadline dropped 52 of 62 warnings at load
#: 5-9; a late warning is worth more than none). ``--deadline-ms`` narrows it for a hook
#: installed with a shorter ``timeout``.
DEADLINE_S = min(RUNTIME_HOOK_TIMEOUT_S.values()) - MARGIN_S
#: How long a session's first call with no set at all waits for the making in flight (the
#: prefetch's recall bound, 30 s, and its start): within the runtime's bound.
WAIT_FOR_SET_S = 45.0
#: A warned route proposed again within this window is the agent's deliberate retry.
RETRY_WINDOW_S = 600.0
_MAX_PAYLOAD = 1_000_000
_PENDING_S = 120.0
#: The events after a call ran (Claude Code: PostToolUse on success, PostToolUseFailure
#: on failure; Codex: PostToolUse), from the runtime records.
_FAILURE = frozenset(r.failure_event for r in RECORDS.values() if r.failure_event)
_AFTER = ("PostToolUse", *sorted(_FAILURE))


class _Deadline(Exception):
    pass


def _alarm(_signum: int, _frame: object) -> None:
    raise _Deadline


def _read_stdin(timeout: float) -> bytes | None:
    """The payload's bytes; None when stdin failed or holds more than the hot path reads
    (:class:`_Deadline` when it did not end within the bound)."""
    try:
        raw = read_bounded(_MAX_PAYLOAD, timeout)
    except StdinTimeout:
        raise _Deadline from None  # the bound passed before the payload ended
    except (OSError, ValueError):
        return None
    return raw if len(raw) <= _MAX_PAYLOAD else None


def _option(argv: list[str], name: str, env: str) -> str | None:
    for index, arg in enumerate(argv):
        if arg == name and index + 1 < len(argv):
            return argv[index + 1]
        if arg.startswith(name + "="):
            return arg.partition("=")[2]
    return os.environ.get(env) or None


def _deadline(runtime: str, argv: list[str]) -> float:
    """The hook's bound: the runtime's hook timeout less :data:`MARGIN_S`, or ``--deadline-ms
    N`` (50 ms up to that bound) for a hook installed with a shorter ``timeout``."""
    bound = RUNTIME_HOOK_TIMEOUT_S.get(runtime, min(RUNTIME_HOOK_TIMEOUT_S.values())) - MARGIN_S
    try:
        value = float(_option(argv, "--deadline-ms", "") or bound * 1000)
    except ValueError:
        return bound
    return min(max(value, 50.0), bound * 1000) / 1000 if value == value else bound


def _command(payload: dict[str, Any]) -> str | None:
    from loopx_recall_core.snippet_rules import shell_command

    if str(payload.get("tool_name", "")).casefold() not in SHELL_TOOLS:
        return None
    command = shell_command(payload.get("tool_input"))
    return command if command and command.strip() else None


def _output(policy: str, warning: str) -> dict[str, Any]:
    if policy == "deny-once":
        specific = {"permissionDecision": "deny", "permissionDecisionReason": warning}
    else:  # warn: no permissionDecision (allow would skip the user's permission prompt)
        specific = {"additionalContext": warning}
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", **specific}}


class _Call:
    """One shell call the guard answers or records, as the prelude (:func:`_prelude`)
    found it: the payload and its facts, the owner's policy and enablement, the state
    root, and the call's clock and bound."""

    __slots__ = (
        "agent_id", "command", "deadline", "enablement", "event", "now", "payload", "policy",
        "project_id", "refresh", "root", "runtime", "session", "started",
    )  # fmt: skip

    def __init__(self, **fields: Any) -> None:
        for name, value in fields.items():
            setattr(self, name, value)


def decide_payload(
    runtime: str,
    payload: dict[str, Any],
    *,
    agent_id: str,
    project_id: str,
    root: Path,
    now: float,
    started: float,
    deadline: float = DEADLINE_S,
    refresh: bool = True,
) -> dict[str, Any] | None:
    """The hook output for one payload, or None (print nothing); records the decision, or
    why none was given (a ``silent`` record: :func:`_silent`). The prelude shared by both
    events (:func:`_prelude`), then ``PreToolUse`` is answered (:func:`_pre_tool_use`);
    ``PostToolUse`` only records what ran (:func:`_post_tool_use`). ``refresh=False``
    (``recall qualify``, whose sets are made in advance) never starts a prefetch for a
    missing, old or stale set, nor waits for one. The session's record is read, changed
    and written under its lock (:func:`_locked`): parallel calls of one session lose no
    update (issue 39: a deny-once retry was denied again)."""
    call = _prelude(runtime, payload, agent_id=agent_id, project_id=project_id, root=root)
    if call is None:
        return None
    call.now, call.started, call.deadline, call.refresh = now, started, deadline, refresh
    if call.event in _AFTER:
        return _post_tool_use(call)
    return _pre_tool_use(call)


def _prelude(
    runtime: str, payload: dict[str, Any], *, agent_id: str, project_id: str, root: Path
) -> _Call | None:
    """What both events share: a shell call of a session (``session_id``, a command that
    is not blank), an event the guard answers or records, the guard on for the agent and
    project, and the payload's ``cwd`` inside the enablement's repository. None: nothing
    is printed or recorded (a ``cwd`` elsewhere leaves one line in the hook log)."""
    session = payload.get("session_id")
    command = _command(payload)
    event = payload.get("hook_event_name")
    if not isinstance(session, str) or not session or command is None:
        return None
    if event not in (None, "PreToolUse", *_AFTER):
        return None
    found = guard_policy(root, agent_id, project_id)
    if found is None:
        return None
    policy, enablement = found
    outside = repository_scope.verdict(payload.get("cwd"), enablement.get("binding"))
    if outside is not None:  # a user-scope hook in another repository: not ours to answer
        with contextlib.suppress(Exception):
            hook_log.write(root, f"guard {runtime}: {outside}")
        return None
    return _Call(
        runtime=runtime, payload=payload, session=session, command=command, event=event,
        policy=policy, enablement=enablement, agent_id=agent_id, project_id=project_id,
        root=root,
    )  # fmt: skip


def _pre_tool_use(call: _Call) -> dict[str, Any] | None:
    """``PreToolUse``: a repeat of an unsuperseded failure is answered (:func:`_answer`).
    A first call with no set at all waits for the one made now; a set that is missing,
    old, stale or the agent's is made again, detached (:func:`_remake`)."""
    if call.refresh and not _any_set(call.root, call.runtime, call.session, call.agent_id,
                                     call.project_id):  # fmt: skip
        # no set at all (a first call, and no session of this agent ever ended): one is
        # made now, and the call waits for it within the runtime's bound
        _start_prefetch(call.root, call.runtime, call.session, call.agent_id, call.project_id,
                        call.now)  # fmt: skip
        _wait_for_set(call.root, call.runtime, call.session, call.agent_id, call.project_id,
                      call.started, call.deadline)  # fmt: skip
    with _locked(call) as held:
        if not held:
            return None
        record, read, header, lines, why = _session_and_set(call)
        if _remake(call, header):
            _start_prefetch(call.root, call.runtime, call.session, call.agent_id,
                            call.project_id, call.now)  # fmt: skip
        if header is None:
            if read == "read":  # where the next call's read starts (else: at the end)
                store.write_session(call.root, call.runtime, call.session, record)
            _silent(call.root, call.project_id, call.now, call.started, why)
            return None
        return _answer(call, record, header, *_route(call, header, lines))
    return None  # the lock was held past the bound (said: :func:`_locked`)


def _post_tool_use(call: _Call) -> None:
    """``PostToolUse`` (Claude Code: ``PostToolUseFailure`` too): what ran is recorded
    (:func:`_ran`); never an output, never a prefetch."""
    with _locked(call) as held:
        if not held:
            return None
        record, read, header, lines, _why = _session_and_set(call)
        if header is None:
            if read == "read":  # where the next call's read starts (else: at the end)
                store.write_session(call.root, call.runtime, call.session, record)
            return None
        match, route_key, call_key = _route(call, header, lines)
        facts = {"verdict": match.verdict, "failed": _failed(call.runtime, call.event,
                                                             call.payload)}  # fmt: skip
        return _ran(call, record, facts, route_key, call_key, header)
    return None  # the lock was held past the bound (said: :func:`_locked`)


@contextlib.contextmanager
def _locked(call: _Call) -> Iterator[bool]:
    """The session's lock (:func:`store.session_lock`, within what is left of the bound),
    with our own redaction rules alone for the proposed command (no detector): yields
    True while it is held. A lock not taken within the bound yields False (the caller
    answers nothing), and that, or a state error past the bound inside the block, is said
    (:func:`_out_of_time`)."""
    from loopx_recall_core.redaction import cheap_rules_only

    with contextlib.ExitStack() as held:
        try:
            held.enter_context(store.session_lock(
                call.root, call.runtime, call.session,
                max(call.deadline - _spent(call.started), 0.0)))  # fmt: skip
        except store.StateError:
            if not _ran_out(call):
                raise
            yield False
            return
        held.enter_context(cheap_rules_only())  # the proposed command: no detector
        try:
            yield True
        except store.StateError:
            if not _ran_out(call):
                raise


def _ran_out(call: _Call) -> bool:
    """Whether the call is past its bound; if so, that is said (:func:`_out_of_time`)."""
    if _spent(call.started) < call.deadline:
        return False
    _out_of_time(call.root, call.runtime, call.project_id, call.now, call.started)
    return True


def _spent(started: float) -> float:
    return time.monotonic() - started


def _session_and_set(
    call: _Call,
) -> tuple[dict[str, Any], str, dict[str, Any] | None, Any, str]:
    """Under the lock: the session's record, what its transcript gained read for the
    private marker (:func:`_marked_private`; written at once when found), and the set that
    answers it with why there is none (:func:`_usable_set`)."""
    record = store.read_session(call.root, call.runtime, call.session)
    read = _marked_private(call.root, call.runtime, call.session,
                           call.payload.get("transcript_path"), record)  # fmt: skip
    if read == "found":
        store.write_session(call.root, call.runtime, call.session, record)
    header, lines, why = _usable_set(call.root, call.runtime, call.session, call.agent_id,
                                     call.project_id, call.enablement)  # fmt: skip
    return record, read, header, lines, why


def _remake(call: _Call, header: dict[str, Any] | None) -> bool:
    """Whether a ``PreToolUse`` starts a making of the session's set: none of its own yet
    (the first call of a session) or one made before the owner's last decision (the
    agent's set answers meanwhile), past its TTL, or one the index answered stale (once per
    window, not at every call). Never with ``refresh=False``."""
    if header is None or header.get("scope") == "agent":
        return call.refresh
    age = call.now - float(header.get("created_at", 0))
    stale = header.get("freshness") == "stale" and age > _PENDING_S
    return call.refresh and (age > float(header.get("ttl_s", 0)) or stale)


def _route(call: _Call, header: dict[str, Any], lines: Any) -> tuple[Any, str | None, str | None]:
    """The call held against the set (:func:`loopx_recall_core.guard.decide.find_repeat`):
    the match, the key of the failed route it repeats (None: none) and the key of the
    runtime's call id (None: the payload has none)."""
    from loopx_recall_core.guard.decide import find_repeat

    command = call.command
    roots = repository_scope.repository_roots(call.enablement.get("binding"))
    folder = repository_scope.folder_in(call.payload["cwd"], roots)
    if folder not in (None, "."):
        # the folder it runs in is part of the route, as a "cd" in the command is
        import shlex

        command = f"cd {shlex.quote(folder)} && {command}"
    match = find_repeat(command, header, lines, current_session=call.session)
    route_key = store.key_of(str(match.failure.get("ref"))) if match.failure else None
    tool_call = call.payload.get("tool_use_id")
    call_key = store.key_of(tool_call) if isinstance(tool_call, str) and tool_call else None
    return match, route_key, call_key


def _answer(
    call: _Call,
    record: dict[str, Any],
    header: dict[str, Any],
    match: Any,
    route_key: str | None,
    call_key: str | None,
) -> dict[str, Any] | None:
    """The ``PreToolUse`` answer: a repeated route is warned once per route per session (a
    deny-once retry passes), in the policy's output (:func:`_output`); a warning awaiting
    its follow-up is settled (:func:`_follow_up`). One decision record, then the session's
    record; None past the bound."""
    from loopx_recall_core.guard.decide import warning_text

    warned = record.setdefault("warned", {})
    _follow_up(call.root, call.project_id, record, route_key, call.now, "PreToolUse")
    output = None
    verdict = match.verdict
    if route_key is not None and route_key in warned:
        verdict = "already_warned"  # once per route per session; a deny-once retry passes
    elif route_key is not None:
        output = _output(call.policy, warning_text(match, call.now))
        warned[route_key] = call.now
        record["pending"] = {"route": route_key, "at": call.now, "policy": call.policy,
                             "call": call_key}  # fmt: skip
    if _spent(call.started) > call.deadline:
        _out_of_time(call.root, call.runtime, call.project_id, call.now, call.started)
        return None
    decision = {
        "kind": "decision",
        "at": round(call.now, 3),
        "receipt_digest": header.get("receipt_digest"),
        "verdict": verdict,
        "policy": call.policy,
        "answered": output is not None,
        "latency_ms": round(_spent(call.started) * 1000, 2),
    }
    if header.get("status") not in (None, "succeeded"):
        # a set made of a refused or failed recall answers nothing: say why (guard stats)
        decision["set_status"] = str(header.get("status"))
        decision["set_reason"] = header.get("reason") if isinstance(header.get("reason"),
                                                                    str) else None  # fmt: skip
    store.append_decision(call.root, call.project_id, decision)
    # the session record last: it marks the route as warned, so once it is written the
    # warning is printed (main prints what returns), never lost to a late deadline
    store.write_session(call.root, call.runtime, call.session, record)
    return output


def _silent(root: Path, project_id: str, now: float, started: float, reason: str) -> None:
    """A PreToolUse call answered by silence for a reason other than its command (no set,
    a session not claimed, out of time): one content-free record, so that ``guard stats``
    and ``capability status`` name the reason and what fixes it (issue 39)."""
    store.append_decision(root, project_id, {
        "kind": "silent", "at": round(now, 3), "reason": reason,
        "latency_ms": round(_spent(started) * 1000, 2),
    })  # fmt: skip


def _out_of_time(root: Path, runtime: str, project_id: str, now: float, started: float) -> None:
    """The run passed its bound (the runtime's hook timeout less :data:`MARGIN_S`): said
    in the hook log and in ``guard stats``, never silently."""
    with contextlib.suppress(Exception):
        hook_log.write(root, f"guard {runtime}: out_of_time")
    with contextlib.suppress(Exception):
        _silent(root, project_id, now, started, "out_of_time")


def _any_set(root: Path, runtime: str, session: str, agent_id: str, project_id: str) -> bool:
    """Is there a set file, the session's or the agent's (two ``stat`` calls)?"""
    return any(
        os.path.exists(path)
        for path in (
            store.set_path(root, runtime, session),
            store.agent_set_path(root, runtime, agent_id, project_id),
        )
    )


#: How often a first call looks for the set it waits for (a file appearing: no event the
#: standard library can wait on).
POLL_S = 0.05


def _pause(seconds: float) -> None:
    time.sleep(seconds)


def _wait_for_set(
    root: Path,
    runtime: str,
    session: str,
    agent_id: str,
    project_id: str,
    started: float,
    deadline: float,
) -> None:
    """Wait, within :data:`WAIT_FOR_SET_S` and the hook's bound, while a making is in
    flight (a pending marker, empty: the prefetch writes its outcome into it when it ends
    without a set, and removes it when it made one) and no set has appeared."""
    paths = (store.set_path(root, runtime, session),
             store.agent_set_path(root, runtime, agent_id, project_id))  # fmt: skip
    until = min(deadline - 1.0, WAIT_FOR_SET_S)  # a second left to decide
    while _spent(started) < until:
        if any(os.path.exists(path) for path in paths):
            return
        in_flight = False
        for path in paths:
            try:
                info = os.stat(path.with_suffix(".pending"))
            except OSError:
                continue
            in_flight = in_flight or (info.st_size == 0 and time.time() - info.st_mtime
                                      < _PENDING_S)  # fmt: skip
        if not in_flight:
            return
        _pause(POLL_S)


#: How much of the session's transcript one guarded call reads for the private marker
#: (from where the last call's read stopped; the rest at the next call): ~1 ms a MiB.
MARKER_READ_BYTES = 2 * 1024 * 1024


def _marked_private(
    root: Path, runtime: str, session: str, transcript: object, record: dict[str, Any]
) -> str:
    """Read what the session's transcript gained since the last guarded call (at most
    :data:`MARKER_READ_BYTES`, from ``record["hot_scan"]``) for the private marker. Found:
    every guard set holding this session, of any agent (another live session's too), goes
    now (:func:`store.drop_holding`, stdlib only), so no other session is warned with its
    content until the claiming hook at this turn's end takes the rest of the same path
    (:func:`loopx_recall_core.guard.session_copies.drop_session_copies`). Returns
    ``"found"`` (the record is written at once), ``"read"`` (the record holds where the
    next read starts; written with the call's record) or ``""`` (nothing read)."""
    from loopx_recall_core.private_marker import scan_file
    from loopx_recall_core.runtimes import index_session_name

    if not isinstance(transcript, str) or not transcript:
        return ""
    start = record.get("hot_scan")
    scanned = scan_file(transcript, start if isinstance(start, int) else 0, MARKER_READ_BYTES,
                        runtime)  # fmt: skip
    if scanned is None or scanned[1] == start:
        return ""
    found, record["hot_scan"] = scanned
    if found and not record.get("marked_private"):
        store.drop_holding(root, index_session_name(runtime, session))
        record["marked_private"] = True
        return "found"
    return "read"


def _usable_set(
    root: Path,
    runtime: str,
    session: str,
    agent_id: str,
    project_id: str,
    enablement: dict[str, Any] | None = None,
) -> tuple[dict[str, Any] | None, Any, str]:
    """The session's own set, else the agent's set for the runtime (its items of this
    session are skipped by the decision): with claimed agent sessions only for a session
    the agent has claimed (fail closed: another agent's session is never answered from
    this agent's history); with runtime sessions (every session of the bound runtimes in
    the repository is the agent's, and the payload's ``cwd`` was checked) for any.
    Either only when made for this agent and project and not before the owner's last
    decision (:func:`store.outdated`). The third value says why there is none
    (``no_set``, ``session_not_claimed``, ``set_outdated``)."""
    mode = (enablement or {}).get("agent_sessions") or "runtime"
    why = "no_set"
    for path, session_id in (
        (store.set_path(root, runtime, session), session),
        (store.agent_set_path(root, runtime, agent_id, project_id), ""),
    ):
        lines = store.read_set_lines(path)
        header = store.read_header(lines) if lines else None
        if header is None:
            continue
        if (
            session_id == ""
            and mode != "runtime"
            and not ledger_file.holds_claim(root, runtime, session, agent_id, project_id)
        ):
            return None, None, "session_not_claimed"
        if (
            header.get("agent_id") == agent_id
            and header.get("project_id") == project_id
            and header.get("session_id") == session_id
        ):
            if not store.outdated(root, header):
                return header, lines, ""
            why = "set_outdated"
    return None, None, why


def _failed(runtime: str, event: str, payload: dict[str, Any]) -> bool:
    """Whether the call that ran failed: the runtime's failure event (Claude Code), else
    what the runtime wrote about the call before the hook ran (Codex, whose
    ``tool_response`` is the output alone: its rollout, the record's
    ``post_tool_status``), else an exit status its ``tool_response`` carries in any output
    form (the one rule, :func:`loopx_recall_core.runtimes.failed`). Unknown counts as not
    failed, as before."""
    if event in _FAILURE:
        return True
    response = payload.get("tool_response")
    if isinstance(response, dict):  # Claude Code's {stdout, stderr, ...} after a success
        return False
    read = RECORDS[runtime].post_tool_status if runtime in RECORDS else None
    status = read(payload.get("transcript_path"), payload.get("tool_use_id")) if read else None
    if status is not None:
        return status != 0
    return failed(response) is True


def _ran(
    call: _Call,
    record: dict[str, Any],
    facts: dict[str, Any],
    route_key: str | None,
    call_key: str | None,
    header: dict[str, Any],
) -> None:
    """``PostToolUse`` (Claude Code: ``PostToolUseFailure`` too): a shell call ran. Its
    record (content-free: the set's receipt digest, the verdict of what ran, whether it
    failed, whether it was a warned route) is kept, and a warning
    still awaiting its follow-up is settled here unless this is the warned call itself
    completing (``warn`` lets it run; the follow-up is what the agent does next)."""
    pending = record.get("pending")
    settled = None
    if isinstance(pending, dict) and (call_key is None or pending.get("call") != call_key):
        settled = _follow_up(call.root, call.project_id, record, route_key, call.now,
                             "PostToolUse")  # fmt: skip
    if _spent(call.started) > call.deadline:
        _out_of_time(call.root, call.runtime, call.project_id, call.now, call.started)
        return None
    if settled is not None:
        store.write_session(call.root, call.runtime, call.session, record)
    store.append_decision(
        call.root,
        call.project_id,
        {
            "kind": "ran",
            "at": round(call.now, 3),
            "receipt_digest": header.get("receipt_digest"),
            **facts,
            "warned_route": route_key is not None and route_key in record.get("warned", {}),
            "follow_up": settled,
            "latency_ms": round((time.monotonic() - call.started) * 1000, 2),
        },
    )
    return None


def _follow_up(
    root: Path,
    project_id: str,
    record: dict[str, Any],
    route: str | None,
    now: float,
    seen_at: str,
) -> str | None:
    """Settle the last warning at the session's next shell call, seen at its
    ``PreToolUse`` or ``PostToolUse``: the warned route again (``repeated``) or anything
    else (``avoided``); returns the outcome (None: nothing was awaiting one)."""
    pending = record.pop("pending", None)
    if not isinstance(pending, dict) or now - float(pending.get("at", 0)) > RETRY_WINDOW_S:
        return None
    outcome = "repeated" if route == pending.get("route") else "avoided"
    store.append_decision(
        root,
        project_id,
        {
            "kind": "follow_up",
            "at": round(now, 3),
            "outcome": outcome,
            "policy": pending.get("policy"),
            "seen_at": seen_at,
        },
    )
    return outcome


def _start_prefetch(
    root: Path, runtime: str, session: str, agent_id: str, project_id: str, now: float
) -> None:
    from loopx_recall_core.guard.prefetch import start_detached

    start_detached(
        root, runtime=runtime, session_id=session, agent_id=agent_id,
        project_id=project_id, requested_at=now, pending_s=_PENDING_S,
    )  # fmt: skip


def main(runtime: str, argv: list[str]) -> None:
    """Run the hook; never raises, prints at most one JSON object. Past its bound (the
    runtime's hook timeout less :data:`MARGIN_S`) it says so (:func:`_out_of_time`); any
    other failure leaves one ``internal_error`` line in the hook log."""
    started = time.monotonic()
    deadline = _deadline(runtime, argv)
    previous = None
    with contextlib.suppress(Exception):
        previous = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, deadline)
    output = None
    failure: BaseException | None = None
    root = agent_id = project_id = None
    try:
        agent_id = _option(argv, "--agent-id", "LOOPX_RECALL_AGENT_ID")
        project_id = _option(argv, "--project-id", "LOOPX_RECALL_PROJECT_ID")
        if agent_id and project_id:
            root = store.state_root()
        raw = _read_stdin(deadline)
        payload = loads(raw) if raw and raw.strip() else None
        if root is not None and isinstance(payload, dict):
            output = decide_payload(
                runtime, payload, agent_id=agent_id, project_id=project_id,
                root=root, now=time.time(), started=started, deadline=deadline,
            )  # fmt: skip
    except BaseException as exc:  # noqa: BLE001 - the bound, any error: exit 0, said below
        output, failure = None, exc
    finally:
        with contextlib.suppress(Exception):
            signal.setitimer(signal.ITIMER_REAL, 0)
            if previous is not None:
                signal.signal(signal.SIGALRM, previous)
    if failure is not None and root is not None and project_id and root.is_dir():
        if isinstance(failure, _Deadline):
            _out_of_time(root, runtime, project_id, time.time(), started)
        elif not isinstance(failure, KeyboardInterrupt | SystemExit):
            with contextlib.suppress(Exception):
                hook_log.write(root, f"guard {runtime}: internal_error:{type(failure).__name__}")
    if output is not None:  # decided and recorded within the bound (decide_payload)
        # straight to the descriptor, not through sys.stdout's buffer: a reader that is
        # gone (EPIPE) or a full device fails here, where it is suppressed, instead of in
        # the interpreter's last flush, which would exit 120
        data = (json.dumps(output) + "\n").encode("utf-8")
        with contextlib.suppress(Exception):
            while data:
                data = data[os.write(1, data) :]
