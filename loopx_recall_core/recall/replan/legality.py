# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Outcome legality: may a proposed Replan outcome settle this Replan?

Retrieval refines Replan reasoning but never settles it (RFC section 7), so every legal
outcome rests on current evidence, and history may only be cited for what it shows.
Rules in order; the first that applies makes the outcome illegal with its reason:

====================================  =====================================================
``situation_mismatch``                the outcome is for another situation
``verdict_ref_mismatch``              a ``comparison_verdict`` ref is not the verdict the
                                      comparison of the proposed step reached
``unknown_prior_item``                a ``prior_item`` ref names no item of the result
``rationale_only_provider_presence``  every ref is ``provider_result_count`` or
                                      ``provider_no_results`` ("returned (no) results")
``rationale_lacks_current_evidence``  no ``current_evidence`` ref: history alone cannot
                                      settle a Replan
``argued_from_undetermined_``         novelty (``new_surface``, ``new_hypothesis``,
``comparison``                        ``new_probe``, ``grounded_successor``) or
                                      ``coverage_backed_exhaustion`` cites the comparison
                                      or the provider's result count while the comparison
                                      is ``undetermined``
``repeats_current_failed_attempt``    the outcome's step is the same route as a failed
                                      attempt of the situation
``successor_repeats_prior_failure``   a ``grounded_successor`` whose step compares as
                                      ``repeats_prior_failure`` on a fresh index
``novelty_contradicted_by_``          a novelty outcome whose step compares as
``prior_failure``                     ``repeats_prior_failure`` (any freshness: a found
                                      repeat is evidence)
====================================  =====================================================

Otherwise the outcome is ``legal``. A ``grounded_successor`` that repeats a prior failure
found in a stale index stays legal when grounded in current evidence: a stale index may
lack a later success of the same route. An undetermined comparison never blocks an
outcome argued from current evidence alone: basic continuation works without history.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import attrs

from loopx_recall_core.contracts import HistoricalEvidenceRequestV0
from loopx_recall_core.contracts.replan import ReplanOutcomeV0, ReplanSituationV0
from loopx_recall_core.recall.outcome import RecallOutcome
from loopx_recall_core.recall.replan.comparison import Comparison, compare, item_ref
from loopx_recall_core.routes import Route, same_route, step_route

__all__ = ["LEGALITY_REASONS", "Legality", "check_outcome"]

LegalityReason = Literal[
    "legal",
    "situation_mismatch",
    "verdict_ref_mismatch",
    "unknown_prior_item",
    "rationale_only_provider_presence",
    "rationale_lacks_current_evidence",
    "argued_from_undetermined_comparison",
    "repeats_current_failed_attempt",
    "successor_repeats_prior_failure",
    "novelty_contradicted_by_prior_failure",
]
LEGALITY_REASONS: tuple[str, ...] = LegalityReason.__args__

_NOVELTY = frozenset({"new_surface", "new_hypothesis", "new_probe", "grounded_successor"})
_PRESENCE = frozenset({"provider_result_count", "provider_no_results"})
_RETRIEVAL = _PRESENCE | {"comparison_verdict"}


@attrs.frozen(kw_only=True)
class Legality:
    legal: bool
    reason: LegalityReason
    kind: str
    step_comparison: Comparison | None = None

    def public_json(self) -> dict[str, object]:
        step = self.step_comparison
        return {
            "legal": self.legal,
            "reason": self.reason,
            "kind": self.kind,
            "step_verdict": step.verdict if step is not None else None,
        }

    def private_json(self) -> dict[str, object]:
        step = self.step_comparison
        return {
            **self.public_json(),
            "step_comparison": step.private_json() if step is not None else None,
        }


def check_outcome(
    outcome: ReplanOutcomeV0,
    *,
    situation: ReplanSituationV0,
    comparison: Comparison,
    recall: RecallOutcome | None,
    request: HistoricalEvidenceRequestV0 | None = None,
    attempt_routes: Sequence[Route] | None = None,
) -> Legality:
    """Judge ``outcome`` against the comparison of the situation's proposed step.

    ``recall`` is the admitted recall (None when refused); the outcome's own step, if any,
    is compared against the same result. ``attempt_routes`` are the routes of the
    situation's attempts, in their order, when the caller made them already.
    """
    root = situation.repository_root
    step_comparison = (
        compare(outcome.step, recall, request=request, repository_root=root)
        if outcome.step is not None
        else None
    )

    def verdict(reason: LegalityReason) -> Legality:
        return Legality(
            legal=reason == "legal",
            reason=reason,
            kind=outcome.kind,
            step_comparison=step_comparison,
        )

    kinds = [ref.kind for ref in outcome.rationale_refs]
    if outcome.situation_id != situation.situation_id:
        return verdict("situation_mismatch")
    cited = {ref.ref for ref in outcome.rationale_refs if ref.kind == "comparison_verdict"}
    if cited - {comparison.verdict}:
        return verdict("verdict_ref_mismatch")
    known = _item_refs(recall)
    if any(ref.kind == "prior_item" and ref.ref not in known for ref in outcome.rationale_refs):
        return verdict("unknown_prior_item")
    if all(kind in _PRESENCE for kind in kinds):
        return verdict("rationale_only_provider_presence")
    if "current_evidence" not in kinds:
        return verdict("rationale_lacks_current_evidence")
    argues = outcome.kind in _NOVELTY or outcome.kind == "coverage_backed_exhaustion"
    undetermined = comparison.verdict == "undetermined" or (
        step_comparison is not None and step_comparison.verdict == "undetermined"
    )
    if argues and undetermined and any(kind in _RETRIEVAL for kind in kinds):
        return verdict("argued_from_undetermined_comparison")
    if outcome.step is not None and outcome.kind in _NOVELTY:
        route = step_route(outcome.step, root)
        attempts = situation.signals.attempts
        routes = attempt_routes or [step_route(a.step, root) for a in attempts]
        failed = [r for a, r in zip(attempts, routes, strict=True) if a.outcome == "failed"]
        if any(same_route(route, attempt) for attempt in failed):
            return verdict("repeats_current_failed_attempt")
    repeats = step_comparison is not None and step_comparison.verdict == "repeats_prior_failure"
    if repeats and outcome.kind == "grounded_successor":
        if step_comparison.fresh:
            return verdict("successor_repeats_prior_failure")
    elif repeats and outcome.kind in _NOVELTY:
        return verdict("novelty_contradicted_by_prior_failure")
    return verdict("legal")


def _item_refs(recall: RecallOutcome | None) -> frozenset[str]:
    if recall is None or recall.result is None or recall.status != "succeeded":
        return frozenset()
    return frozenset(item_ref(item) for item in recall.result.items)
