# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Stage 0's guard families: the corpus's cases through the repetition guard's path.

After a family shard's recall arm, for the cases of :data:`GUARDED_FAMILIES`:

* **the set**: the cases of a shard share one scope, so ONE request per scope is made by
  :func:`loopx_recall_core.guard.prefetch.fetch_set` (the prefetch's own code and call:
  trigger ``resume_or_handoff_gap``, the guard's terms and evidence types, the
  enablement's limits, and the whole window in pages from one provider call, the
  service's :meth:`~loopx_recall_core.recall.service.RecallService.pages`, as
  :func:`~loopx_recall_core.guard.prefetch.run_prefetch` passes them) through the
  qualification's recall service, on the provider's real answer. The set is written for
  each case's own guard session (a session is warned at most once per route), in a
  throw-away state folder whose ``state.json`` has the guard on (``warn``).
* **a long history** (family ``long_history``): each repeat's first attempt sits behind
  newer, unrelated shell calls in the same repository (:class:`LongHistory` counts them in
  the files written: the fewest newer calls, and failed calls, in front of any first
  attempt); a set that held only the newest ``max_items`` calls would not see it.
* **the decision**: a Claude Code ``PreToolUse`` payload (``session_id``,
  ``transcript_path``, ``cwd``, ``hook_event_name``, ``tool_name`` ``Bash``,
  ``tool_input.command``, ``tool_use_id``) goes through
  :func:`loopx_recall_core.guard.hotpath.decide_payload`, the function the hook calls, in
  process (the measure is the decision). The kinds: ``repeat`` (label repeat; it should
  be warned), ``near_miss``, ``novel``, ``bait`` (the bait family's novel steps: the
  command failed only outside the scope) and ``prior_success`` (per repeat case, a
  command an in-scope planted session ran successfully: never warned).
* **replan on the same set**:
  :func:`~loopx_recall_core.recall.replan.comparison.compare_pages` on the same recall
  outcomes (every page); the guard's verdict must agree on ``repeats_prior_failure`` (one
  code path).
* **the hot path**: a few payloads per shard (:data:`HOT_PATH_RUNS` in all, the first
  shards' share rounded up) run through
  the installed hook command (``loopx-recall guard claude ...``, as ``hook install``
  writes it) as a process, each paired with ``python -c pass`` in alternating order: the
  interpreter's start-up is the yardstick the hot path is judged against.

The stale family is left out: its index is kept behind on purpose, and a real guard
refreshes such a set off the hot path. Records are content-free (ids, kinds, verdicts,
timings).
"""

from __future__ import annotations

import os
import resource
import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from loopx_recall_core.contracts import structure
from loopx_recall_core.contracts.replan import Step
from loopx_recall_core.guard import store
from loopx_recall_core.guard.hotpath import decide_payload
from loopx_recall_core.guard.prefetch import fetch_set
from loopx_recall_core.qualification.corpus import Case
from loopx_recall_core.qualification.materialize import FamilyArchive
from loopx_recall_core.recall.hook_entries import hook_command
from loopx_recall_core.recall.replan.comparison import compare_pages
from loopx_recall_core.recall.service import RecallService
from loopx_recall_core.runtimes import HOOK_RUNTIMES, record
from loopx_recall_core.state import Enablement, State, StateStore

__all__ = [
    "GUARDED_FAMILIES",
    "HOT_PATH_RUNS",
    "KINDS",
    "GuardRecord",
    "GuardStage",
    "HotRun",
    "LongHistory",
    "kind_of",
]

GUARDED_FAMILIES = ("baseline", "bait", "pressure", "unicode", "long_history")
KINDS = ("repeat", "near_miss", "prior_success", "bait", "novel")
#: Hook processes per qualification (each paired with ``python -c pass``).
HOT_PATH_RUNS = 16
#: The runtime whose hook the arm runs: the records' first hook runtime (Claude Code);
#: :func:`_payload` writes its documented PreToolUse input.
RUNTIME = HOOK_RUNTIMES[0]
#: In process the decision is measured, not cut: the hot path's own deadline is judged on
#: the process runs.
_DECISION_DEADLINE_S = 60.0
_PROCESS_TIMEOUT_S = 30.0


@attrs.frozen(kw_only=True)
class GuardRecord:
    """One payload through the guard: ``warned`` (the hook answered), the guard's
    comparison ``verdict``, replan's verdict on the same set, and the decision's time."""

    case_id: str
    family: str
    kind: str
    warned: bool
    verdict: str | None
    replan_verdict: str
    set_status: str
    decision_ms: float


@attrs.frozen(kw_only=True)
class HotRun:
    """One hook process and its paired ``python -c pass`` (wall and CPU time); whether the
    process ``answered`` and whether the in-process decision did (``decided``): a process
    past its 300 ms deadline on a loaded machine is silent where the decision warned."""

    guard_ms: float
    bare_ms: float
    guard_cpu_ms: float
    bare_cpu_ms: float
    answered: bool
    decided: bool


@attrs.frozen(kw_only=True)
class GuardSet:
    """One prefetch: its outcome status, size and rows from planted bait sessions."""

    status: str
    items: int
    bait_rows: int


@attrs.frozen(kw_only=True)
class LongHistory:
    """One long-history shard, counted in its files: in the cases' scope, the fewest shell
    calls (and failed ones) newer than any planted first attempt, over how many first
    attempts."""

    first_attempts: int
    newer_calls_min: int
    newer_failed_min: int


#: The planted events that are shell calls (``transcripts``: a failing and a passing one).
_SHELL_EVENTS = {"prior_failure": True, "tool_outcome": False}


def _long_history(files: FamilyArchive, in_scope: frozenset[str]) -> LongHistory:
    calls = [
        (e.timestamp, _SHELL_EVENTS[e.kind])
        for e in files.archive.events
        if e.kind in _SHELL_EVENTS and e.command is not None and e.session_id in in_scope
    ]
    firsts = [
        e.timestamp
        for spec in files.family.sessions
        if not (spec.filler or spec.bait)
        for e in files.archive.events
        if e.session_id == files.session_ids[spec.key] and e.kind == "prior_failure"
    ]
    newer = [[failed for at, failed in calls if at > first] for first in firsts]
    return LongHistory(
        first_attempts=len(firsts),
        newer_calls_min=min((len(n) for n in newer), default=0),
        newer_failed_min=min((sum(n) for n in newer), default=0),
    )


def kind_of(case: Case) -> str:
    return "bait" if case.family == "bait" and case.label == "novel" else case.label


def _payload(session: str, command: str, cwd: str, n: int) -> dict[str, Any]:
    """:data:`RUNTIME`'s documented PreToolUse input (Claude Code's, code.claude.com/docs/en/hooks;
    the keys its record lists, :mod:`loopx_recall_core.runtimes.claude`), its shell tool
    named as the record's hook matcher names it."""
    return {
        "session_id": session,
        "transcript_path": f"{cwd}/.{RUNTIME}-transcript-{session}.jsonl",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": record(RUNTIME).hook_matcher,
        "tool_input": {"command": command, "description": "qualify"},
        "tool_use_id": f"toolu_q{n:06d}",
    }


def _hook_argv(agent_id: str, project_id: str) -> list[str]:
    argv = shlex.split(hook_command("guard", RUNTIME, agent_id, project_id))
    if not Path(argv[0]).is_absolute():  # no console script beside this interpreter
        argv[:1] = [sys.executable, "-m", "loopx_recall_core"]
    return argv


def _timed(argv: list[str], stdin: bytes, env: dict[str, str]) -> tuple[float, float, bytes]:
    """``(wall ms, CPU ms, stdout)`` of one process. The CPU time (user + system, from the
    children's resource usage: the harness has no other child at this point) is what the
    gate reads: a loaded machine stretches the wall time of a process that imports more
    far more than that of ``python -c pass``, but hardly its CPU time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    try:
        done = subprocess.run(
            argv, input=stdin, env=env, capture_output=True, timeout=_PROCESS_TIMEOUT_S,
            check=False,
        )  # fmt: skip
        out = done.stdout
    except (OSError, subprocess.SubprocessError):
        out = b""
    wall = (time.perf_counter() - started) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return round(wall, 1), round(cpu, 1), out


class GuardStage:
    """The guard families of one qualification run (records accumulate over shards)."""

    def __init__(self, root: Path, shards: int) -> None:
        self.root = root
        self.records: list[GuardRecord] = []
        self.hot: list[HotRun] = []
        self.sets: list[GuardSet] = []
        self.long: list[LongHistory] = []
        self._quota = -(-HOT_PATH_RUNS // max(shards, 1))
        self._payloads = 0

    def family(
        self,
        files: FamilyArchive,
        cases: list[Case],
        enablements: dict[str, Enablement],
        recall_for: Callable[[Enablement], RecallService],
    ) -> None:
        """Prefetch once per scope, then decide every payload of the shard."""
        family = files.family
        if family.name not in GUARDED_FAMILIES or not cases:
            return
        home = self.root / family.key
        home.mkdir(mode=0o700)
        guarded = {c.case_id: attrs.evolve(enablements[c.case_id], guard="warn") for c in cases}
        with StateStore(home).update() as box:
            box[0] = State(schema_version="loopx_state_v0", enablements=tuple(guarded.values()))
        fetched: dict[tuple, Any] = {}
        successes = sorted({s.success[0] for s in family.sessions if not s.bait})
        if family.name == "long_history":
            self.long.append(_long_history(files, files.view(cases[0]).in_scope_sessions))
        hot_left = min(self._quota, HOT_PATH_RUNS - len(self.hot))
        for index, case in enumerate(cases):
            enablement = guarded[case.case_id]
            view = files.view(case)
            key = (case.scope, case.home_repo, enablement.project_id, enablement.repository_id)
            if key not in fetched:
                service = recall_for(enablement)
                fetched[key] = fetch_set(
                    service, enablement, runtime=RUNTIME, session_id="-", pages=service.pages
                )
                items = fetched[key].items
                self.sets.append(
                    GuardSet(
                        status=fetched[key].outcome.status,
                        items=len(items),
                        bait_rows=sum(1 for i in items if i["session"] in view.bait_sessions),
                    )
                )
            answer = fetched[key]
            session = f"qualify-{case.case_id}"
            header = {**answer.header, "session_id": session, "created_at": time.time()}
            store.write_set(home, header, answer.items)
            cwd = str(view.situation["repository_root"])
            steps = []
            if case.label == "repeat" and successes:
                steps.append(("prior_success", successes[index % len(successes)]))
            steps.append((kind_of(case), view.situation["proposed_step"]["command"]))
            for kind, command in steps:
                payload = _payload(session, command, cwd, self._payloads)
                self._payloads += 1
                record = self._decide(home, case, enablement, kind, payload, answer)
                self.records.append(record)
                if hot_left > 0 and kind == kind_of(case):
                    hot_left -= 1
                    self._hot_run(home, enablement, header, answer.items, payload, record)

    def _decide(
        self, home: Path, case: Case, enablement: Enablement, kind: str, payload: dict, answer: Any
    ) -> GuardRecord:
        recorded = len(store.decision_lines(home, enablement.project_id))
        started = time.monotonic()
        output = decide_payload(
            RUNTIME, payload, agent_id=enablement.agent_id, project_id=enablement.project_id,
            root=home, now=time.time(), started=started, deadline=_DECISION_DEADLINE_S,
            refresh=False,
        )  # fmt: skip
        elapsed = round((time.monotonic() - started) * 1000, 3)
        # the decision's own record (none when it stopped before deciding)
        decisions = store.decision_lines(home, enablement.project_id)[recorded:]
        verdict = decisions[-1].get("verdict") if decisions else None
        step = structure({"kind": "command", "command": payload["tool_input"]["command"]}, Step)
        replan = compare_pages(
            step, answer.pages, repository_root=answer.header.get("repository_root")
        )
        return GuardRecord(
            case_id=case.case_id,
            family=case.family,
            kind=kind,
            warned=output is not None,
            verdict=verdict if isinstance(verdict, str) else None,
            replan_verdict=replan.verdict,
            set_status=str(answer.outcome.status),
            decision_ms=elapsed,
        )

    def _hot_run(
        self,
        home: Path,
        enablement: Enablement,
        header: dict[str, Any],
        items: list,
        payload: dict[str, Any],
        record: GuardRecord,
    ) -> None:
        """The same payload in a fresh session, through the hook process, paired."""
        import json

        session = f"{header['session_id']}-hot"
        store.write_set(home, {**header, "session_id": session}, items)
        stdin = json.dumps({**payload, "session_id": session}).encode("utf-8")
        env = {**os.environ, "LOOPX_RECALL_HOME": str(home)}
        argv = _hook_argv(enablement.agent_id, enablement.project_id)
        bare_argv = [sys.executable, "-c", "pass"]
        if len(self.hot) % 2:
            bare = _timed(bare_argv, b"", env)
            guard = _timed(argv, stdin, env)
        else:
            guard = _timed(argv, stdin, env)
            bare = _timed(bare_argv, b"", env)
        run = HotRun(
            guard_ms=guard[0], bare_ms=bare[0], guard_cpu_ms=guard[1], bare_cpu_ms=bare[1],
            answered=bool(guard[2].strip()), decided=record.warned,
        )  # fmt: skip
        self.hot.append(run)
