# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A Replan report and how it renders itself. Its text (``recall replan --format text``)
reads the report alone: admission, recall, comparison, what to do next, the stored
result's handle and the outcome's legality; with ``show_private``, the matched items and
what they say."""

from __future__ import annotations

from typing import Any

import attrs

from loopx_recall_core.contracts import unstructure
from loopx_recall_core.recall.next_steps import behind_line, coverage_line, next_step
from loopx_recall_core.recall.outcome import RecallOutcome
from loopx_recall_core.recall.replan.comparison import Comparison, item_ref
from loopx_recall_core.recall.replan.legality import Legality
from loopx_recall_core.recall.replan.situation_admission import SituationAdmission

__all__ = ["REPORT_SCHEMA", "ReplanReport", "matched_items", "render"]

REPORT_SCHEMA = "loopx_replan_report_v0"


@attrs.frozen(kw_only=True)
class ReplanReport:
    """Everything one Replan consultation produced.

    ``public_json`` is safe to print, log or publish (ids, reasons, verdicts, digests and
    counts); ``private_json`` adds the request (query terms) and the matching items'
    private references, and stays owner-local. :meth:`text` is the report for a person.
    ``window_days`` is the days back the enablement searches, when the caller knows them
    (it words what ``no_prior_match`` covers); it is in no JSON.
    """

    situation_id: str
    agent_id: str
    project_id: str
    admission: SituationAdmission
    outcome: RecallOutcome | None
    comparison: Comparison
    legality: Legality | None
    window_days: int | None = None

    def public_json(self) -> dict[str, Any]:
        return {
            "schema_version": REPORT_SCHEMA,
            "situation_id": self.situation_id,
            "admission": self.admission.public_json(),
            "recall": self.outcome.public_json() if self.outcome is not None else None,
            "comparison": self.comparison.public_json(),
            "legality": self.legality.public_json() if self.legality is not None else None,
        }

    def private_json(self) -> dict[str, Any]:
        request = self.admission.request
        return {
            **self.public_json(),
            "request": unstructure(request) if request is not None else None,
            "recall_private_ref": self.outcome.private_ref if self.outcome is not None else None,
            "comparison": self.comparison.private_json(),
            "legality": self.legality.private_json() if self.legality is not None else None,
        }

    def text(self, *, show_private: bool = False, provider_id: str | None = None) -> str:
        """The report for a person (``recall replan --format text``): with
        ``show_private``, also the matched items and what they say (owner only);
        ``provider_id`` is the provider the operator named, for the next steps."""
        return render(self, show_private=show_private, provider_id=provider_id)



def render(report: ReplanReport, *, show_private: bool, provider_id: str | None) -> str:
    """The report as text; ``provider_id`` is the provider the operator named (None: the
    next steps name the v0 wire's provider)."""
    admission, outcome = report.admission, report.outcome
    claim_for = (report.agent_id, report.project_id)
    lines = [f"situation {report.situation_id}"]
    lines.append(
        "  admission: " + ("admitted" if admission.admitted else f"refused ({admission.reason})")
    )
    if not admission.admitted:
        hint = next_step(admission.reason, provider_id, *claim_for)
        if hint:
            lines.append(hint)
    if outcome is not None:
        receipt = outcome.receipt
        lines.append(
            f"  recall: {outcome.status}"
            + (f" ({outcome.reason})" if outcome.reason else "")
            + f", {receipt.result_count} items, freshness {receipt.freshness}"
        )
        hint = next_step(outcome.reason, receipt.provider_id, *claim_for, outcome.unavailable_hint)
        if hint:
            lines.append(hint)
        note = coverage_line(outcome.unclaimed_sessions, *claim_for)
        if note:
            lines.append(note)
        behind = outcome.status == "succeeded" and behind_line(
            receipt.freshness, outcome.unclaimed_sessions, outcome.unavailable_hint
        )
        if behind:
            lines.append(behind)
    verdict, days = report.comparison.verdict, report.window_days
    lines.append(f"  comparison: {verdict}" + (
        f" (within the last {days} days the index holds; nothing older was searched)"
        if verdict == "no_prior_match" and isinstance(days, int) else
        " (within the window the index holds; nothing older was searched)"
        if verdict == "no_prior_match" else ""))  # fmt: skip
    for match in matched_items(report) if show_private else ():
        # what happened: when, the relation, and the first lines of the stored snippet
        lines.append(
            f"  - {match['relation']} [{match['evidence_type']}] {match['observed_at'] or ''}"
        )
        lines.extend(f"      {line}" for line in match["snippet"].splitlines()[:4])
    if outcome is not None and outcome.private_ref:
        lines.append(f"  stored: `loopx-recall recall show {outcome.private_ref}` reads it back")
    if report.legality is not None:
        legality = report.legality
        lines.append(
            "  outcome: " + ("legal" if legality.legal else "ILLEGAL") + f" ({legality.reason})"
        )
    return "\n".join(lines)


def matched_items(report: ReplanReport) -> list[dict[str, Any]]:
    """The recalled items the comparison matched, with what they say (owner only)."""
    result = report.outcome.result if report.outcome is not None else None
    if result is None:
        return []
    by_ref = {item_ref(item): item for item in result.items}
    return [
        {
            "relation": match.relation,
            "evidence_type": match.evidence_type,
            "observed_at": by_ref[match.ref].observed_at,
            "snippet": by_ref[match.ref].snippet,
        }
        for match in report.comparison.matches
        if match.ref in by_ref
    ]
