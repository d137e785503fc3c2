# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The one place our records become LoopX's.

* A recall outcome or a Replan report becomes a ``loopx_recall_*_result_v0``: LoopX public
  state. It carries the receipt (:class:`LoopxReceipt`: ``raw_content_captured`` is
  ``content_captured`` there, LoopX refusing any key named ``raw_*``), the typed status
  and reason, whose sessions counted, the verdict and the private handle; never a snippet,
  a term, a session id or a path.
* A recall's private items become decision-context advisory items, within LoopX's bounds
  (:data:`MAX_ADVISORY_ITEMS` items, :data:`MAX_CONTENT_CHARS` content characters,
  :data:`MAX_REF_CHARS`-character references). Their ``content`` is the redacted snippet
  (LoopX shows it as untrusted advisory content and keeps it out of its state); the
  ``summary`` and ``resource_ref`` are public-safe.

A recall that was refused or failed is ``no_change`` with its reason code: LoopX's
read-only result knows only ``succeeded`` and ``no_change``, and a provider answer with
``"ok": false`` reaches LoopX's caller as an untyped "provider reported failure".
"""

from __future__ import annotations

from typing import Any

import attrs

from loopx_recall_core.contracts import HistoricalEvidenceReceiptV0, unstructure
from loopx_recall_core.contracts.loopx_protocol import (
    HistoryObservation,
    LoopxRecallHistoryResultV0,
    LoopxRecallReplanResultV0,
    LoopxReceipt,
    ReplanObservation,
)
from loopx_recall_core.recall.outcome import RecallOutcome
from loopx_recall_core.recall.replan.flow import ReplanReport

__all__ = [
    "MAX_ADVISORY_ITEMS",
    "MAX_CONTENT_CHARS",
    "MAX_REF_CHARS",
    "advisory_items",
    "history_result",
    "loopx_receipt",
    "replan_result",
]

#: LoopX 2.1.1's decision-context bounds (capabilities/decision_context/extension_provider.py).
MAX_ADVISORY_ITEMS = 8
MAX_CONTENT_CHARS = 16_000
MAX_REF_CHARS = 512


def loopx_receipt(receipt: HistoricalEvidenceReceiptV0) -> LoopxReceipt:
    """Our v0 receipt as LoopX public state: the same record and values, written with
    LoopX's names (:class:`LoopxReceipt`)."""
    return LoopxReceipt(**attrs.asdict(receipt, recurse=False))


def _observation(outcome: RecallOutcome) -> HistoryObservation:
    return HistoryObservation(
        kind="historical_evidence_lookup",
        recall_status=outcome.status,
        reason_code=outcome.reason,
        agent_sessions=outcome.agent_sessions,  # type: ignore[arg-type]
        cross_agent_used=(
            outcome.result.scope_applied.cross_agent_used if outcome.result is not None else None
        ),
        private_ref=outcome.private_ref,
        receipt=loopx_receipt(outcome.receipt),
    )


def history_result(invocation_id: str, outcome: RecallOutcome) -> dict[str, Any]:
    """A ``loopx_recall_history_result_v0`` for one lookup (JSON-like)."""
    return unstructure(
        LoopxRecallHistoryResultV0(
            schema_version="loopx_recall_history_result_v0",
            invocation_id=invocation_id,
            status="succeeded" if outcome.ok else "no_change",
            observations=(_observation(outcome),),
            domain_state_mutations=(),
            domain_transition_receipts=(),
            transition_proposals=(),
            effect_receipt=None,
            follow_up=None,
        )
    )


def replan_result(invocation_id: str, report: ReplanReport) -> dict[str, Any]:
    """A ``loopx_recall_replan_result_v0`` for one consultation (JSON-like)."""
    lookup = report.outcome
    observation = ReplanObservation(
        kind="replan_consultation",
        situation_id=report.situation_id,
        admitted=report.admission.admitted,
        admission_reason=report.admission.reason,
        verdict=report.comparison.verdict,
        comparison_reason=report.comparison.reason,
        match_count=len(report.comparison.matches),
        lookup=_observation(lookup) if lookup is not None else None,
    )
    return unstructure(
        LoopxRecallReplanResultV0(
            schema_version="loopx_recall_replan_result_v0",
            invocation_id=invocation_id,
            status="succeeded" if lookup is not None and lookup.ok else "no_change",
            observations=(observation,),
            domain_state_mutations=(),
            domain_transition_receipts=(),
            transition_proposals=(),
            effect_receipt=None,
            follow_up=None,
        )
    )


def advisory_items(outcome: RecallOutcome, *, max_results: int) -> list[dict[str, Any]]:
    """A succeeded recall's items as decision-context advisory items, bounded.

    ``resource_ref`` is ``loopx-recall:<private handle>#<n>`` (the owner reads the item back
    with ``loopx-recall recall show <private handle>``); items are cut, never split, to the
    content budget.
    """
    if outcome.result is None:
        return []
    freshness = outcome.receipt.freshness
    items: list[dict[str, Any]] = []
    budget = MAX_CONTENT_CHARS
    for index, item in enumerate(outcome.result.items[: min(max_results, MAX_ADVISORY_ITEMS)]):
        content = item.snippet.strip()
        if not content:
            continue
        if len(content) > budget:
            break
        budget -= len(content)
        ref = f"loopx-recall:{outcome.private_ref or 'unstored'}#{index}"
        items.append(
            {
                "resource_ref": ref[:MAX_REF_CHARS],
                "summary": (
                    f"{item.evidence_type} from an earlier session of this agent in this "
                    f"project ({freshness} index)"
                ),
                "content": content,
                "score": None,
            }
        )
    return items
