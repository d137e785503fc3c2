# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Text renderings of the ``recall`` records (receipts, outcomes, Replan reports)."""

from __future__ import annotations

from typing import Any

from loopx_recall_core.recall.replan.comparison import item_ref

__all__ = [
    "coverage_line",
    "matched_items",
    "render_outcome",
    "render_receipt",
    "render_replan",
]


def render_receipt(receipt: dict[str, Any]) -> str:
    counts = ", ".join(f"{k}={v}" for k, v in receipt["evidence_type_counts"].items()) or "none"
    return "\n".join(
        [
            f"receipt for {receipt['request_id']} ({receipt['provider_id']} "
            f"{receipt['provider_version']})",
            f"  results: {receipt['result_count']} ({counts}); freshness {receipt['freshness']}"
            f"; truncated {str(receipt['truncated']).lower()}, omitted {receipt['omitted_count']}",
            f"  result_digest {receipt['result_digest']}",
        ]
    )


def coverage_line(count: object, agent_id: str | None, project_id: str | None) -> str | None:
    """One line when sessions in scope are claimed by no one: how many, and how to claim."""
    if not isinstance(count, int) or count <= 0:
        return None
    ids = f" --agent-id {agent_id} --project-id {project_id}" if agent_id and project_id else ""
    return (
        f"  coverage incomplete: {count} session(s) in scope are claimed by no agent, so "
        f"absence is not evidence; `loopx-recall session candidates{ids}` lists them, "
        f"`loopx-recall session claim{ids} --candidates` claims them"
    )


def render_outcome(data: dict[str, Any]) -> str:
    lines = [f"recall {data['status']}" + (f": {data['reason']}" if data["reason"] else "")]
    lines.append(render_receipt(data["receipt"]))
    note = coverage_line(data.get("unclaimed_sessions"), *data.get("claim_for", (None, None)))
    if note:
        lines.append(note)
    if data.get("private_ref"):
        lines.append(f"  stored: `loopx-recall recall show {data['private_ref']}` reads it back")
    for item in data.get("items", []):
        lines.append(f"- [{item['evidence_type']}] {item['session_ref']}: {item['snippet']}")
    return "\n".join(lines)


def render_replan(data: dict[str, Any]) -> str:
    admission = data["admission"]
    lines = [f"situation {data['situation_id']}"]
    lines.append(
        "  admission: "
        + ("admitted" if admission.get("admitted") else f"refused ({admission.get('reason')})")
    )
    if data.get("recall"):
        recall_data = data["recall"]
        lines.append(
            f"  recall: {recall_data['status']}"
            + (f" ({recall_data['reason']})" if recall_data["reason"] else "")
            + f", {recall_data['receipt']['result_count']} items, freshness "
            f"{recall_data['receipt']['freshness']}"
        )
        note = coverage_line(
            recall_data.get("unclaimed_sessions"), *data.get("claim_for", (None, None))
        )
        if note:
            lines.append(note)
    lines.append(f"  comparison: {data['comparison']['verdict']}")
    for match in data.get("matched_items", []):
        # what happened: when, the relation, and the first lines of the stored snippet
        lines.append(
            f"  - {match['relation']} [{match['evidence_type']}] {match['observed_at'] or ''}"
        )
        lines.extend(f"      {line}" for line in match["snippet"].splitlines()[:4])
    if data.get("handle"):
        lines.append(f"  stored: `loopx-recall recall show {data['handle']}` reads it back")
    if data.get("legality"):
        legality = data["legality"]
        lines.append(
            "  outcome: "
            + ("legal" if legality["legal"] else "ILLEGAL")
            + f" ({legality['reason']})"
        )
    return "\n".join(lines)


def matched_items(report: Any) -> list[dict[str, Any]]:
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
