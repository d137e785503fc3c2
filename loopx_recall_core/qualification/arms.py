# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The three arms of RFC section 10, run on one resolved case each.

* (a) ``current_context``: no provider. The step is flagged when one of the situation's
  own failed attempts is the same route (Replan's route normalization).
* (b) ``provider``: the product path. :func:`~loopx_recall_core.recall.replan.replan` with
  the real recall service (admission, provider call with a deadline, host verification,
  private store) under a stage-2 enablement; flagged when the comparison verdict is
  ``repeats_prior_failure``.
* (c) ``native_history``: the cost ceiling, never a product path. Every in-scope raw
  transcript is read whole (:mod:`.native`); its characters are the context a model would
  have to read; flagged on an exact normalized route match with an earlier failed call.

Each returns a :class:`CaseRecord`: content-free facts the measures are computed from.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import attrs

from loopx_recall_core.contracts import structure
from loopx_recall_core.contracts.replan import ReplanSituationV0
from loopx_recall_core.qualification.materialize import CaseView
from loopx_recall_core.qualification.native_transcripts import read_transcripts
from loopx_recall_core.recall.outcome import RecallOutcome
from loopx_recall_core.recall.replan.flow import Recaller, replan
from loopx_recall_core.recall.request_admission import Admitted
from loopx_recall_core.routes import command_route, same_route, step_route
from loopx_recall_core.transcript_rules import under, window_start

__all__ = [
    "ARMS",
    "CaseRecord",
    "Counted",
    "current_context",
    "native_history",
    "provider_arm",
]

ARMS = ("a", "b", "c")


@attrs.frozen(kw_only=True)
class CaseRecord:
    """What one arm did on one case: counts, flags and reason codes, never content.

    ``requested``: the arm looked at history (b: a provider call, c: transcripts read);
    ``index_behind``: ground truth that the index lacks in-scope transcripts;
    ``reason``: why there was no result (recall failure or admission refusal), if so;
    ``bait_rows`` / ``out_of_scope_rows``: returned items from planted bait sessions /
    from any session outside the expected scope.
    """

    case_id: str
    family: str
    label: str
    tags: tuple[str, ...] = ()
    flagged: bool
    requested: bool = False
    provider_calls: int = 0
    context_chars: int = 0
    truncated: bool = False
    index_behind: bool = False
    freshness: str | None = None
    verdict: str | None = None
    reason: str | None = None
    bait_rows: int = 0
    out_of_scope_rows: int = 0
    latency_ms: float = 0.0


def _base(view: CaseView) -> dict[str, Any]:
    case = view.case
    return {
        "case_id": case.case_id,
        "family": case.family,
        "label": case.label,
        "tags": case.tags,
        "index_behind": view.index_behind,
    }


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)


def current_context(view: CaseView) -> CaseRecord:
    """Arm (a): the situation's own failed attempts, nothing else."""
    started = time.perf_counter()
    situation = structure(view.situation, ReplanSituationV0)
    root = situation.repository_root
    proposed = step_route(situation.proposed_step, root)
    flagged = any(
        attempt.outcome == "failed" and same_route(step_route(attempt.step, root), proposed)
        for attempt in situation.signals.attempts
    )
    return CaseRecord(**_base(view), flagged=flagged, latency_ms=_ms(started))


@attrs.define
class Counted:
    """A recaller (the recall service) that counts the recalls Replan runs through it:
    ``calls`` as they start, ``outcomes`` as they return."""

    recall: Recaller
    calls: int = 0
    outcomes: list[RecallOutcome] = attrs.Factory(list)

    @property
    def provider_id(self) -> str:
        return self.recall.provider_id

    @property
    def enablements(self) -> Any:
        return self.recall.enablements

    def id_key(self) -> bytes | None:
        return self.recall.id_key()

    def admitted(self, decision: Admitted) -> RecallOutcome:
        self.calls += 1
        outcome = self.recall.admitted(decision)
        self.outcomes.append(outcome)
        return outcome


def provider_arm(view: CaseView, *, recall: Recaller) -> CaseRecord:
    """Arm (b): Replan with the real recall path; ``recall`` is the service bound to the
    provider, a host and the case's stage-2 enablement."""
    counted = Counted(recall)
    started = time.perf_counter()
    report = replan(view.situation, recall=counted)
    latency = _ms(started)
    calls = sum(
        1
        for o in counted.outcomes
        if o.status != "refused" and o.reason != "provider_not_installed"
    )
    outcome = report.outcome
    result = outcome.result if outcome is not None else None
    items = result.items if result is not None else ()
    return CaseRecord(
        **_base(view),
        flagged=report.comparison.verdict == "repeats_prior_failure",
        requested=calls > 0,
        provider_calls=calls,
        context_chars=sum(len(item.snippet) for item in items),
        truncated=bool(result is not None and result.truncated),
        freshness=result.freshness if result is not None else None,
        verdict=report.comparison.verdict,
        reason=outcome.reason if outcome is not None else report.admission.reason,
        bait_rows=sum(1 for item in items if item.session_ref in view.bait_sessions),
        out_of_scope_rows=sum(
            1 for item in items if item.session_ref not in view.in_scope_sessions
        ),
        latency_ms=latency,
    )


def native_history(view: CaseView, home: Path) -> CaseRecord:
    """Arm (c): read every in-scope transcript whole; exact normalized route match."""
    started = time.perf_counter()
    situation = structure(view.situation, ReplanSituationV0)
    root = situation.repository_root
    proposed = step_route(situation.proposed_step, root)
    since = window_start(view.window_days)
    chars = 0
    flagged = False
    for transcript in read_transcripts(home, view.sources):
        if not under(transcript.cwd, view.roots) or transcript.last_timestamp < since:
            continue
        chars += transcript.chars
        flagged = flagged or any(
            call.failed
            and call.timestamp >= since
            and same_route(command_route(call.command, root), proposed)
            for call in transcript.calls
        )
    return CaseRecord(
        **_base(view), flagged=flagged, requested=True, context_chars=chars, latency_ms=_ms(started)
    )
