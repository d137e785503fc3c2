# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Public-safe receipts: digests and counts over a recall, never content."""

from __future__ import annotations

from collections import Counter

from loopx_recall_core.canonical import digest
from loopx_recall_core.contracts import (
    EVIDENCE_TYPES,
    HistoricalEvidenceReceiptV0,
    HistoricalEvidenceRequestV0,
    HistoricalEvidenceResultV0,
    unstructure,
)

__all__ = ["failure_receipt", "query_digest", "result_receipt", "scope_digest"]

_UNKNOWN_REVISION = "unknown"


def scope_digest(request: HistoricalEvidenceRequestV0) -> str:
    return digest(unstructure(request.scope))


def query_digest(request: HistoricalEvidenceRequestV0) -> str:
    """Digest over what was asked: terms, types, limits, revision and trigger."""
    query = unstructure(request)
    return digest(
        {
            "query_terms": query["query_terms"],
            "evidence_types": query["evidence_types"],
            "limits": query["limits"],
            "revision": query.get("revision"),
            "trigger": query["trigger"],
        }
    )


def result_receipt(
    request: HistoricalEvidenceRequestV0, result: HistoricalEvidenceResultV0
) -> HistoricalEvidenceReceiptV0:
    """The receipt of a verified result. Call only after ``result_problems`` is empty."""
    counts = Counter(item.evidence_type for item in result.items)
    return HistoricalEvidenceReceiptV0(
        schema_version="historical_evidence_receipt_v0",
        request_id=request.request_id,
        provider_id=result.provider_id,
        provider_version=result.provider_version,
        index_revision_digest=digest(result.index_revision),
        scope_digest=scope_digest(request),
        query_digest=query_digest(request),
        result_digest=digest(unstructure(result)),
        result_count=len(result.items),
        evidence_type_counts={t: counts[t] for t in EVIDENCE_TYPES if t in counts},
        freshness=result.freshness,
        truncated=result.truncated,
        omitted_count=result.omitted_count,
        grants_new_action_authority=False,
        external_writes_performed=False,
        raw_content_captured=False,
    )


def failure_receipt(
    request: HistoricalEvidenceRequestV0,
    *,
    provider_id: str,
    provider_version: str,
    status: str,
    reason: str,
) -> HistoricalEvidenceReceiptV0:
    """The receipt of a typed empty outcome: zero counts, freshness unknown."""
    return HistoricalEvidenceReceiptV0(
        schema_version="historical_evidence_receipt_v0",
        request_id=request.request_id,
        provider_id=provider_id,
        provider_version=provider_version,
        index_revision_digest=digest(_UNKNOWN_REVISION),
        scope_digest=scope_digest(request),
        query_digest=query_digest(request),
        result_digest=digest({"status": status, "reason": reason, "items": []}),
        result_count=0,
        evidence_type_counts={},
        freshness="unknown",
        truncated=False,
        omitted_count=0,
        grants_new_action_authority=False,
        external_writes_performed=False,
        raw_content_captured=False,
    )
