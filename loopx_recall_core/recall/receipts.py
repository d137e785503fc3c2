# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Public-safe receipts: digests and counts over a recall, never content.

Every digest in a receipt is keyed with the owner's receipt key
(:func:`~loopx_recall_core.canonical.keyed_digest`, HMAC-SHA256 over the canonical JSON):
a plain hash over mostly default values would let anyone holding a receipt confirm a
guess of the query terms, scope, revision or snippets offline. The owner, who holds the
key, recomputes and verifies them (``loopx-recall recall receipt``).
"""

from __future__ import annotations

from collections import Counter

from loopx_recall_core.canonical import keyed_digest
from loopx_recall_core.contracts import (
    EVIDENCE_TYPES,
    HistoricalEvidenceReceiptV0,
    HistoricalEvidenceRequestV0,
    HistoricalEvidenceResultV0,
    result_problems,
    unstructure,
)

__all__ = [
    "ResultMismatch",
    "failure_receipt",
    "owner_receipt",
    "query_digest",
    "result_receipt",
    "scope_digest",
]

_UNKNOWN_REVISION = "unknown"


def scope_digest(request: HistoricalEvidenceRequestV0, key: bytes) -> str:
    return keyed_digest(key, unstructure(request.scope))


def query_digest(request: HistoricalEvidenceRequestV0, key: bytes) -> str:
    """Keyed digest over what was asked: terms, types, limits, revision and trigger."""
    query = unstructure(request)
    return keyed_digest(
        key,
        {
            "query_terms": query["query_terms"],
            "evidence_types": query["evidence_types"],
            "limits": query["limits"],
            "revision": query.get("revision"),
            "trigger": query["trigger"],
        },
    )


def result_receipt(
    request: HistoricalEvidenceRequestV0, result: HistoricalEvidenceResultV0, *, key: bytes
) -> HistoricalEvidenceReceiptV0:
    """The receipt of a verified result. Call only after ``result_problems`` is empty."""
    counts = Counter(item.evidence_type for item in result.items)
    return HistoricalEvidenceReceiptV0(
        schema_version="historical_evidence_receipt_v0",
        request_id=request.request_id,
        provider_id=result.provider_id,
        provider_version=result.provider_version,
        index_revision_digest=keyed_digest(key, result.index_revision),
        scope_digest=scope_digest(request, key),
        query_digest=query_digest(request, key),
        result_digest=keyed_digest(key, unstructure(result)),
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
    key: bytes,
) -> HistoricalEvidenceReceiptV0:
    """The receipt of a typed empty outcome: zero counts, freshness unknown."""
    return HistoricalEvidenceReceiptV0(
        schema_version="historical_evidence_receipt_v0",
        request_id=request.request_id,
        provider_id=provider_id,
        provider_version=provider_version,
        index_revision_digest=keyed_digest(key, _UNKNOWN_REVISION),
        scope_digest=scope_digest(request, key),
        query_digest=query_digest(request, key),
        result_digest=keyed_digest(key, {"status": status, "reason": reason, "items": []}),
        result_count=0,
        evidence_type_counts={},
        freshness="unknown",
        truncated=False,
        omitted_count=0,
        grants_new_action_authority=False,
        external_writes_performed=False,
        raw_content_captured=False,
    )


class ResultMismatch(ValueError):
    """A result that breaks its request (the message lists the contract's problems:
    field paths and rules, never a value)."""


def owner_receipt(
    request: HistoricalEvidenceRequestV0, result: HistoricalEvidenceResultV0
) -> HistoricalEvidenceReceiptV0:
    """The receipt the owner's recall issued for ``result`` (``recall receipt``): the
    result checked against its request (:class:`ResultMismatch`), keyed with the owner's
    receipt key."""
    from loopx_recall_core.recall.store import PrivateStore  # the state folder, when asked

    problems = result_problems(request, result)
    if problems:
        raise ResultMismatch("; ".join(problems))
    return result_receipt(request, result, key=PrivateStore().receipt_key())
