# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""One recall attempt's end: refused, failed or succeeded, each with its public receipt and
the owner-local private record (:class:`Attempt`)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import attrs

from loopx_recall_core.contracts import (
    HistoricalEvidenceReceiptV0,
    HistoricalEvidenceRequestV0,
    HistoricalEvidenceResultV0,
    unstructure,
)
from loopx_recall_core.recall.outcome import RecallOutcome
from loopx_recall_core.recall.receipts import failure_receipt, result_receipt
from loopx_recall_core.recall.store import PrivateStore

__all__ = ["Attempt"]

log = logging.getLogger("loopx_recall_core.recall.service")


@attrs.define(kw_only=True)
class Attempt:
    """One recall attempt after admission: it ends refused, failed or succeeded, each with
    its receipt and the private record (:func:`_outcome`)."""

    request: HistoricalEvidenceRequestV0
    provider_id: str
    store: PrivateStore
    key: bytes
    version: str = "unknown"
    mode: str | None = None  # the enablement's session mode, once it is read

    def refuse(self, reason: str) -> RecallOutcome:
        return self._end("refused", reason)

    def fail(self, reason: str | None, *, hint: str | None = None) -> RecallOutcome:
        outcome = self._end("failed", reason)
        return outcome if hint is None else attrs.evolve(outcome, unavailable_hint=hint)

    def _end(self, status: str, reason: str | None) -> RecallOutcome:
        outcome = _finish(
            self.request, self.provider_id, self.version, status, reason, self.store, self.key
        )
        return outcome if self.mode is None else attrs.evolve(outcome, agent_sessions=self.mode)

    def succeed(self, result: HistoricalEvidenceResultV0, unclaimed: int | None) -> RecallOutcome:
        log.info("recall succeeded: %d items", len(result.items))
        receipt = result_receipt(self.request, result, key=self.key)
        outcome = _outcome(self.store, self.request, "succeeded", None, receipt, result)
        return attrs.evolve(outcome, agent_sessions=self.mode, unclaimed_sessions=unclaimed)


def _finish(
    request: HistoricalEvidenceRequestV0,
    provider_id: str,
    version: str,
    status: str,
    reason: str | None,
    store: PrivateStore,
    key: bytes,
) -> RecallOutcome:
    reason = reason or "provider_failed"
    receipt = failure_receipt(
        request,
        provider_id=provider_id,
        provider_version=version,
        status=status,
        reason=reason,
        key=key,
    )
    log.info("recall %s: %s", status, reason)
    return _outcome(store, request, status, reason, receipt, None)


def _outcome(
    store: PrivateStore,
    request: HistoricalEvidenceRequestV0,
    status: str,
    reason: str | None,
    receipt: HistoricalEvidenceReceiptV0,
    result: HistoricalEvidenceResultV0 | None,
) -> RecallOutcome:
    """Keep the full record owner-local, hand back status, reason, receipt and its ref."""
    record: dict[str, Any] = {
        "schema_version": "loopx_private_recall_v0",
        "stored_at": datetime.now(UTC).isoformat(),
        "status": status,
        "request": unstructure(request),
        "receipt": unstructure(receipt),
    }
    if reason is not None:
        record["reason"] = reason
    if result is not None:
        record["result"] = unstructure(result)
    # A request for an agent and project with no enablement leaves nothing behind: no
    # private record is kept for a scope the owner never opened.
    unopened = status == "refused" and reason == "not_enabled"
    private_ref = (
        None if unopened else store.save(request.scope.agent_id, request.request_id, record)
    )
    return RecallOutcome(
        status=status, reason=reason, receipt=receipt, result=result, private_ref=private_ref
    )
