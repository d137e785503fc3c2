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

Both sides are compared as redacted text (``loopx_recall_core/redaction.py``): the recall
service stores only redacted snippets, so the proposed step is redacted the same way (a
command holding a password matches its redacted prior), and a snippet from any other
source is redacted here before it is read.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Literal

import attrs

from loopx_recall_core.contracts import EvidenceItem, HistoricalEvidenceRequestV0, result_problems
from loopx_recall_core.contracts.replan import Step
from loopx_recall_core.recall.outcome import RecallOutcome
from loopx_recall_core.recall.replan.routes import (
    Route,
    hypothesis_keywords,
    keyword_overlap,
    near_route,
    same_route,
    step_route,
)
from loopx_recall_core.recall.replan.snippets import parse_snippet
from loopx_recall_core.redaction import redact

__all__ = ["VERDICTS", "Comparison", "RouteMatch", "compare", "item_ref"]

Verdict = Literal[
    "repeats_prior_failure", "similar_to_prior_attempt", "no_prior_match", "undetermined"
]
VERDICTS: tuple[str, ...] = Verdict.__args__
Relation = Literal["same_route_failed", "same_route", "near_miss", "mentioned"]
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
) -> Comparison:
    """Compare ``step`` with the items of an admitted recall ``outcome`` (None: refused).

    With ``request``, the result is re-checked against it and rejected on any problem.
    """
    if outcome is None:
        return Comparison(verdict="undetermined", reason="not_admitted")
    result = outcome.result
    if outcome.status != "succeeded" or result is None:
        reason = "recall_refused" if outcome.status == "refused" else "recall_failed"
        return Comparison(verdict="undetermined", reason=reason)
    if request is not None and result_problems(request, result):
        return Comparison(verdict="undetermined", reason="result_rejected")
    route = step_route(_redacted_step(step), repository_root)
    matches = tuple(
        RouteMatch(ref=item_ref(item), evidence_type=item.evidence_type, relation=relation)
        for item in result.items
        if (relation := _relate(route, item, repository_root)) is not None
    )

    def verdict(verdict: Verdict, reason: str) -> Comparison:
        return Comparison(
            verdict=verdict, reason=reason, freshness=result.freshness, matches=matches
        )

    if any(match.relation == "same_route_failed" for match in matches):
        return verdict("repeats_prior_failure", "prior_failure_found")
    if result.freshness != "fresh":
        return verdict("undetermined", f"index_{result.freshness}")
    if result.truncated:
        return verdict("undetermined", "result_truncated")
    if matches:
        return verdict("similar_to_prior_attempt", "similar_attempt_found")
    return verdict("no_prior_match", "no_match_in_fresh_index")


def _redacted_step(step: Step) -> Step:
    return attrs.evolve(
        step,
        command=None if step.command is None else redact(step.command),
        hypothesis=None if step.hypothesis is None else redact(step.hypothesis),
    )


def _relate(route: Route, item: EvidenceItem, root: str | None) -> Relation | None:
    snippet = redact(item.snippet)  # a no-op for what the recall service stored
    parsed = parse_snippet(snippet, root)
    if parsed.route is None:
        return "mentioned" if _mentions(route, snippet) else None
    if same_route(route, parsed.route):
        # An edit's content is unknown: the same files edited again is never a repeat.
        failed = route.kind == "command" and (
            item.evidence_type == "prior_failure" or parsed.failed is True
        )
        return "same_route_failed" if failed else "same_route"
    if near_route(route, parsed.route):
        return "near_miss"
    return None


def _word(text: str, word: str) -> bool:
    # On word boundaries, except that a path may follow a "/" (an absolute form of it).
    return re.search(rf"(?<![\w.-]){re.escape(word)}(?![\w/-]|\.\w)", text) is not None


def _mentions(route: Route, text: str) -> bool:
    """Headerless text that names the route: program plus every target (or subcommand)."""
    if route.kind == "command":
        for segment in route.segments:
            anchors = [t.partition("::")[0] for t in segment.targets]
            if segment.subcommand is not None:
                anchors.append(segment.subcommand)
            if anchors and _word(text, segment.program) and all(_word(text, a) for a in anchors):
                return True
        return False
    if route.kind == "edit":
        return any(_word(text, path) for path in route.paths)
    words = frozenset(word.casefold() for word in hypothesis_keywords(text))
    return bool(route.text) and (
        route.text in " ".join(text.casefold().split()) or keyword_overlap(route.keywords, words)
    )
