# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Route comparison: does the proposed step repeat what history shows?

Each result item is read by the snippet convention (:mod:`.snippets`) and related to the
proposed route (:mod:`.routes`):

=====================  =================================================================
``same_route_failed``  header route equals the proposed command route and the call
                       failed (``prior_failure`` item, or ``outcome: failed``)
``same_route``         header route equals the proposed route and the call did not fail,
                       or the same files were edited (edit content is unknown)
``near_miss``          header route has the same program and targets, materially changed
``mentioned``          no header; the text names the proposed program and its targets
=====================  =================================================================

Verdict, first row that applies:

=====================  =================================================================
``undetermined``       not admitted, recall refused or failed, or result rejected
``repeats_prior``      any ``same_route_failed`` item, whatever the freshness: a found
``_failure``           repeat is evidence even in a stale index; only absence is not
``undetermined``       freshness is not ``fresh``, or the result is truncated (a repeat
                       may be among what is missing)
``similar_to_prior``   any other related item
``_attempt``
``no_prior_match``     a fresh, complete result with no related item
=====================  =================================================================

The matches (private references of the related items) are kept with every verdict.

Both sides are compared as redacted text (``loopx_recall_core/redaction.py``), by the one
comparison the guard runs too (:mod:`.relation`): the recall service stores only redacted
snippets, so the proposed step is redacted the same way (a command holding a password
matches its redacted prior), and a snippet header from any other source is redacted
before it is read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

import attrs

from loopx_recall_core.contracts import EvidenceItem, HistoricalEvidenceRequestV0, result_problems
from loopx_recall_core.contracts.replan import Step
from loopx_recall_core.recall.outcome import RecallOutcome
from loopx_recall_core.recall.replan.relation import Relation, proposed_route, relate, verdict_of
from loopx_recall_core.redaction import redact
from loopx_recall_core.routes import Route

__all__ = ["VERDICTS", "Comparison", "RouteMatch", "compare", "compare_pages", "item_ref"]

Verdict = Literal[
    "repeats_prior_failure", "similar_to_prior_attempt", "no_prior_match", "undetermined"
]
VERDICTS: tuple[str, ...] = Verdict.__args__
ComparisonReason = Literal[
    "not_admitted",
    "recall_refused",
    "recall_failed",
    "result_rejected",
    "prior_failure_found",
    "index_stale",
    "index_incomplete",
    "index_unknown",
    "result_truncated",
    "similar_attempt_found",
    "no_match_in_fresh_index",
]


def item_ref(item: EvidenceItem) -> str:
    """The private reference of an item: ``session_ref`` or ``session_ref#message_ref``."""
    return (
        item.session_ref if item.message_ref is None else f"{item.session_ref}#{item.message_ref}"
    )


@attrs.frozen(kw_only=True)
class RouteMatch:
    ref: str
    evidence_type: str
    relation: Relation


@attrs.frozen(kw_only=True)
class Comparison:
    verdict: Verdict
    reason: ComparisonReason
    freshness: str | None = None
    matches: tuple[RouteMatch, ...] = ()

    @property
    def fresh(self) -> bool:
        return self.freshness == "fresh"

    def public_json(self) -> dict[str, object]:
        """Verdict, reason and counts: no reference, snippet or term."""
        relations = Counter(match.relation for match in self.matches)
        return {
            "verdict": self.verdict,
            "reason": self.reason,
            "freshness": self.freshness,
            "match_count": len(self.matches),
            "relation_counts": dict(sorted(relations.items())),
        }

    def private_json(self) -> dict[str, object]:
        return {
            **self.public_json(),
            "matches": [attrs.asdict(match) for match in self.matches],
        }


def compare(
    step: Step,
    outcome: RecallOutcome | None,
    *,
    request: HistoricalEvidenceRequestV0 | None = None,
    repository_root: str | None = None,
    route: Route | None = None,
) -> Comparison:
    """Compare ``step`` with the items of an admitted recall ``outcome`` (None: refused).

    With ``request``, the result is re-checked against it and rejected on any problem.
    ``route`` is the step's route when the caller made it already
    (:func:`~.relation.proposed_route`): a command is read once per consultation.
    """
    return compare_pages(step, [(request, outcome)], repository_root=repository_root, route=route)


def compare_pages(
    step: Step,
    pages: Sequence[tuple[HistoricalEvidenceRequestV0 | None, RecallOutcome | None]],
    *,
    repository_root: str | None = None,
    route: Route | None = None,
) -> Comparison:
    """:func:`compare` over a set made in pages (``(request, outcome)`` each, as the guard's
    prefetch asks :meth:`~loopx_recall_core.recall.service.RecallService.pages`): one
    verdict over every page's items, the first page's status and freshness, the last
    page's truncation; any page that fails or breaks its request rejects the whole."""
    outcome = pages[0][1] if pages else None
    if outcome is None:
        return Comparison(verdict="undetermined", reason="not_admitted")
    result = outcome.result
    if outcome.status != "succeeded" or result is None:
        reason = "recall_refused" if outcome.status == "refused" else "recall_failed"
        return Comparison(verdict="undetermined", reason=reason)
    if route is None:
        route = proposed_route(step, repository_root)
    matches: list[RouteMatch] = []
    for request, page in pages:
        answer = page.result if page is not None and page.status == "succeeded" else None
        if answer is None or (request is not None and result_problems(request, answer)):
            return Comparison(verdict="undetermined", reason="result_rejected")
        matches.extend(
            RouteMatch(ref=item_ref(item), evidence_type=item.evidence_type, relation=relation)
            for item in answer.items
            # what the recall service returned is redacted already; a result from anywhere
            # else is redacted here (off the guard's hot path, whose set the service redacted)
            if (
                relation := relate(
                    route, redact(item.snippet), item.evidence_type, repository_root
                )
            )
            is not None
        )
    last = pages[-1][1]
    truncated = last.result.truncated if last is not None and last.result is not None else False
    verdict, reason = verdict_of(
        [match.relation for match in matches], result.freshness, truncated=truncated
    )
    return Comparison(
        verdict=verdict,  # type: ignore[arg-type]  # verdict_of answers in these vocabularies
        reason=reason,  # type: ignore[arg-type]
        freshness=result.freshness,
        matches=tuple(matches),
    )

