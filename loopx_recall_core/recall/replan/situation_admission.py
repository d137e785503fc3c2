# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Situation admission: a typed Replan situation + enablements -> a request, or a refusal.

Pure and in this order, the first failing rule refusing:

1. the trigger's own conditions (RFC section 4):

   * ``replan_repetition``: two or more attempts that are the same route after
     normalization (:func:`.routes.same_route`), or ``signals.repeated_route``;
   * ``hypothesis_history_gap``: at least one hypothesis, all exhausted, and
     ``signals.prior_coverage == "unknown"``;
   * ``resume_or_handoff_gap``: a handoff whose durable state identifies the work and
     which names missing evidence; its source agent, its receiving agent and the
     situation's agent must be one agent (a different receiver cannot search the source
     agent's archive by inheriting a handoff);
   * ``operator_requested_history``: ``signals.operator_requested``;

2. at least one query term derives from the canonical fields (:mod:`.terms`);
3. the host's :func:`loopx_recall_core.recall.request_admission.admit`: an enablement for this
   agent, project and provider, the same repository, the trigger allowed at the
   enablement's stage (only stage 2 admits the three Replan triggers), limits clamped.

The request id is a keyed digest (HMAC, :func:`~loopx_recall_core.canonical.keyed_digest`)
over the situation id and the derived query: the same situation always asks the same
request for one key, and the id printed in a public receipt cannot confirm a guess of the
terms. The CLI keys it with the owner's receipt key; a library caller that gives none gets
a key of this process.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Literal

import attrs

from loopx_recall_core.canonical import keyed_digest
from loopx_recall_core.contracts import HistoricalEvidenceRequestV0, unstructure
from loopx_recall_core.contracts.replan import ReplanSituationV0
from loopx_recall_core.recall.replan.terms import query_terms
from loopx_recall_core.recall.request_admission import Admitted, admit
from loopx_recall_core.recall.requests import history_request
from loopx_recall_core.routes import Route, same_route, step_route
from loopx_recall_core.state import DEFAULT_CEILINGS, Enablement

__all__ = [
    "REFUSAL_REASONS",
    "SituationAdmission",
    "admit_situation",
    "attempt_routes",
    "build_request",
    "evidence_types_for",
    "trigger_refusal",
]

RefusalReason = Literal[
    "repetition_not_evidenced",
    "hypotheses_not_exhausted",
    "prior_coverage_known",
    "no_handoff",
    "work_not_identified",
    "no_missing_evidence",
    "handoff_receiver_not_source",
    "operator_request_missing",
    "no_query_terms",
    # from the host admission
    "not_enabled",
    "scope_mismatch",
    "trigger_not_admitted_at_stage",
]
REFUSAL_REASONS: tuple[str, ...] = RefusalReason.__args__

_DETAILS = {
    "repetition_not_evidenced": "fewer than two materially unchanged attempts and no "
    "repeated-route signal",
    "hypotheses_not_exhausted": "no hypotheses, or not all of them are exhausted",
    "prior_coverage_known": "prior-session coverage is already known",
    "no_handoff": "the situation carries no resume or handoff data",
    "work_not_identified": "durable state does not identify the work",
    "no_missing_evidence": "no decision or failure evidence is missing",
    "handoff_receiver_not_source": "the receiving agent is not the source agent; a handoff "
    "grants no search of another agent's archive",
    "operator_request_missing": "no explicit operator request",
    "no_query_terms": "no query term derives from the situation's canonical fields",
}

_TYPES_BY_TRIGGER = {
    "replan_repetition": ("prior_failure", "tool_outcome", "decision"),
    "hypothesis_history_gap": ("prior_failure", "decision", "summary"),
    "operator_requested_history": (
        "prior_failure",
        "decision",
        "file_history",
        "tool_outcome",
        "summary",
    ),
}
_TYPES_BY_MISSING = {
    "decision": ("decision", "summary"),
    "failure": ("prior_failure", "tool_outcome"),
}
_TYPE_ORDER = ("prior_failure", "decision", "file_history", "tool_outcome", "summary")


@attrs.frozen(kw_only=True)
class SituationAdmission:
    """``request`` is the admitted (clamped) request, None when refused; ``decision`` is
    the host's admission of it (what the recall service runs, not admitting again)."""

    admitted: bool
    trigger: str
    reason: RefusalReason | None = None
    detail: str = ""
    decision: Admitted | None = attrs.field(default=None, eq=False, repr=False)

    @property
    def request(self) -> HistoricalEvidenceRequestV0 | None:
        return self.decision.request if self.decision is not None else None

    def public_json(self) -> dict[str, object]:
        return {
            "admitted": self.admitted,
            "trigger": self.trigger,
            "reason": self.reason,
            "detail": self.detail,
            "request_id": self.request.request_id if self.request is not None else None,
        }


def evidence_types_for(situation: ReplanSituationV0) -> tuple[str, ...]:
    """The evidence types a trigger asks for (a handoff: those its missing evidence names)."""
    if situation.trigger == "resume_or_handoff_gap":
        handoff = situation.signals.handoff
        missing = handoff.missing_evidence if handoff is not None else ()
        wanted = {t for m in missing for t in _TYPES_BY_MISSING[m]}
    else:
        wanted = set(_TYPES_BY_TRIGGER[situation.trigger])
    return tuple(t for t in _TYPE_ORDER if t in wanted)


def trigger_refusal(
    situation: ReplanSituationV0, attempts: Sequence[Route] | None = None
) -> RefusalReason | None:
    """The first unmet condition of the situation's trigger, or None when all hold
    (``attempts``: the routes of its attempts, when the caller made them already)."""
    signals, trigger = situation.signals, situation.trigger
    if trigger == "replan_repetition":
        repeated = signals.repeated_route or _repeated(situation, attempts)
        return None if repeated else "repetition_not_evidenced"
    if trigger == "hypothesis_history_gap":
        if not signals.hypotheses or not all(h.exhausted for h in signals.hypotheses):
            return "hypotheses_not_exhausted"
        return "prior_coverage_known" if signals.prior_coverage == "known" else None
    if trigger == "resume_or_handoff_gap":
        handoff = signals.handoff
        if handoff is None:
            return "no_handoff"
        if not handoff.durable_state_identifies_work:
            return "work_not_identified"
        if not handoff.missing_evidence:
            return "no_missing_evidence"
        agents = {handoff.source_agent_id, handoff.receiving_agent_id, situation.agent_id}
        return "handoff_receiver_not_source" if len(agents) != 1 else None
    return None if signals.operator_requested else "operator_request_missing"


def _repeated(situation: ReplanSituationV0, routes: Sequence[Route] | None) -> bool:
    if routes is None:
        routes = attempt_routes(situation)
    return any(
        same_route(routes[i], routes[j])
        for i in range(len(routes))
        for j in range(i + 1, len(routes))
    )


def attempt_routes(situation: ReplanSituationV0) -> tuple[Route, ...]:
    """The route of each attempt of ``situation``, in its order (each read once)."""
    root = situation.repository_root
    return tuple(step_route(attempt.step, root) for attempt in situation.signals.attempts)


#: Keys request ids when the caller has no owner key (ids then differ between processes).
_PROCESS_KEY = secrets.token_bytes(32)


def build_request(
    situation: ReplanSituationV0,
    terms: tuple[str, ...],
    *,
    request_id: str | None = None,
    id_key: bytes | None = None,
) -> HistoricalEvidenceRequestV0:
    """The request a situation asks (limits: the host defaults, clamped by admission)."""
    evidence_types = evidence_types_for(situation)
    if request_id is None:
        request_id = keyed_digest(
            id_key or _PROCESS_KEY,
            {
                "situation_id": situation.situation_id,
                "trigger": situation.trigger,
                "evidence_types": list(evidence_types),
                "query_terms": list(terms),
            },
        )
    return history_request(
        trigger=situation.trigger,
        agent_id=situation.agent_id,
        project_id=situation.project_id,
        repository_id=situation.repository_id,
        revision=None if situation.revision is None else unstructure(situation.revision),
        evidence_types=evidence_types,
        query_terms=terms,
        limits=DEFAULT_CEILINGS,
        request_id=request_id,
        situation_id=situation.situation_id,
    )


def admit_situation(
    situation: ReplanSituationV0,
    enablements: Sequence[Enablement],
    *,
    provider_id: str,
    request_id: str | None = None,
    id_key: bytes | None = None,
    proposed: Route | None = None,
    attempts: Sequence[Route] | None = None,
) -> SituationAdmission:
    """Admit ``situation`` for ``provider_id`` or refuse it with a typed reason
    (``proposed``, ``attempts``: the routes of its proposed step and its attempts
    (:func:`attempt_routes`), when the caller made them already)."""
    trigger = situation.trigger
    refusal = trigger_refusal(situation, attempts)
    if refusal is None and not (terms := query_terms(situation, proposed, attempts)):
        refusal = "no_query_terms"
    if refusal is not None:
        return SituationAdmission(
            admitted=False, trigger=trigger, reason=refusal, detail=_DETAILS[refusal]
        )
    request = build_request(situation, terms, request_id=request_id, id_key=id_key)
    decision = admit(request, enablements, provider_id=provider_id)
    if isinstance(decision, Admitted):
        return SituationAdmission(admitted=True, trigger=trigger, decision=decision)
    return SituationAdmission(
        admitted=False, trigger=trigger, reason=decision.reason, detail=decision.detail
    )
