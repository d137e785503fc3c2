# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Text renderings of the ``recall`` records (receipts, outcomes, Replan reports)."""

from __future__ import annotations

import shlex
from typing import Any, get_args

from loopx_recall_core.contracts.historical import ProviderId
from loopx_recall_core.recall.replan.comparison import item_ref

__all__ = [
    "behind_line",
    "coverage_line",
    "matched_items",
    "next_step",
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


def next_step(
    reason: object,
    provider_id: object,
    agent_id: str | None,
    project_id: str | None,
    hint: str | None = None,
) -> str | None:
    """One line saying what to do about a refusal or failure ``reason``; None when there is
    nothing for the operator to do. It names only what the operator typed (the agent and
    project ids), public ids and the provider's ``unavailable_hint``, never a path or a
    private value."""
    (v0_provider_id,) = get_args(ProviderId)  # the only provider id the v0 wire allows
    provider = provider_id if isinstance(provider_id, str) and provider_id else v0_provider_id
    ids = f"--agent-id {shlex.quote(agent_id or 'A')} --project-id {shlex.quote(project_id or 'J')}"
    enable = (
        f"loopx-recall capability enable agent-turn-recall --provider {provider} "
        f"--surface replan-history {ids} ..."
    )
    if reason == "not_enabled":
        return (
            f"  next: enable recall for this agent and project: `{enable}` "
            f"(`loopx-recall capability enable --provider {provider} --help` lists the rest)"
        )
    if reason == "trigger_not_admitted_at_stage":
        return (
            "  next: this trigger needs stage 2: qualify the provider "
            f"(`loopx-recall recall qualify`), then `{enable} --stage 2`"
        )
    if reason in ("provider_unavailable", "unsupported_runtime_version"):
        fallback = "`loopx-recall extension list` says what the provider's runtime lacks"
        return f"  next: {hint or fallback}"
    if reason == "provider_not_installed":
        return (
            "  next: install the provider: `loopx-recall extension list --available` "
            "shows the install commands"
        )
    return None


def behind_line(freshness: object, unclaimed: object, hint: object) -> str | None:
    """One line when a succeeded answer's index may not hold the newest sessions
    (``stale``, ``incomplete``, ``unknown``) and no unclaimed session explains it: what to
    do (the provider's ``refresh_hint`` when it gives one), and that absence is no
    evidence until then."""
    if freshness not in ("stale", "incomplete", "unknown") or (
        isinstance(unclaimed, int) and unclaimed > 0
    ):
        return None
    what = hint if isinstance(hint, str) and hint else "refresh the provider's index"
    return f"  next: the index is {freshness}: {what}, then ask again (until then absence is " \
        "not evidence)"


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


def render_replan(data: dict[str, Any]) -> str:
    admission = data["admission"]
    lines = [f"situation {data['situation_id']}"]
    lines.append(
        "  admission: "
        + ("admitted" if admission.get("admitted") else f"refused ({admission.get('reason')})")
    )
    claim_for = data.get("claim_for", (None, None))
    if not admission.get("admitted"):
        hint = next_step(admission.get("reason"), data.get("provider_id"), *claim_for)
        if hint:
            lines.append(hint)
    if data.get("recall"):
        recall_data = data["recall"]
        lines.append(
            f"  recall: {recall_data['status']}"
            + (f" ({recall_data['reason']})" if recall_data["reason"] else "")
            + f", {recall_data['receipt']['result_count']} items, freshness "
            f"{recall_data['receipt']['freshness']}"
        )
        hint = next_step(
            recall_data["reason"],
            recall_data["receipt"].get("provider_id"),
            *claim_for,
            data.get("unavailable_hint"),
        )
        if hint:
            lines.append(hint)
        note = coverage_line(
            recall_data.get("unclaimed_sessions"), *data.get("claim_for", (None, None))
        )
        if note:
            lines.append(note)
        behind = recall_data["status"] == "succeeded" and behind_line(
            recall_data["receipt"].get("freshness"), recall_data.get("unclaimed_sessions"),
            data.get("unavailable_hint"))  # fmt: skip
        if behind:
            lines.append(behind)
    verdict = data["comparison"]["verdict"]
    days = data.get("window_days")
    lines.append(f"  comparison: {verdict}" + (
        f" (within the last {days} days the index holds; nothing older was searched)"
        if verdict == "no_prior_match" and isinstance(days, int) else
        " (within the window the index holds; nothing older was searched)"
        if verdict == "no_prior_match" else ""))  # fmt: skip
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
