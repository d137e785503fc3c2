# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Text renderings of the ``recall`` records (receipts, outcomes); a Replan report
renders itself (:meth:`~loopx_recall_core.recall.replan.flow.ReplanReport.text`)."""

from __future__ import annotations

from typing import Any

from loopx_recall_core.recall.next_steps import behind_line, coverage_line, next_step

__all__ = ["render_outcome", "render_receipt"]


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


def render_outcome(data: dict[str, Any]) -> str:
    lines = [f"recall {data['status']}" + (f": {data['reason']}" if data["reason"] else "")]
    lines.append(render_receipt(data["receipt"]))
    hint = next_step(
        data["reason"],
        data["receipt"].get("provider_id"),
        *data.get("claim_for", (None, None)),
        data.get("unavailable_hint"),
    )
    if hint:
        lines.append(hint)
    note = coverage_line(data.get("unclaimed_sessions"), *data.get("claim_for", (None, None)))
    if note:
        lines.append(note)
    behind = data["status"] == "succeeded" and behind_line(
        data["receipt"].get("freshness"), data.get("unclaimed_sessions"),
        data.get("unavailable_hint"))  # fmt: skip
    if behind:
        lines.append(behind)
    if data.get("private_ref"):
        lines.append(f"  stored: `loopx-recall recall show {data['private_ref']}` reads it back")
    for item in data.get("items", []):
        lines.append(f"- [{item['evidence_type']}] {item['session_ref']}: {item['snippet']}")
    return "\n".join(lines)
