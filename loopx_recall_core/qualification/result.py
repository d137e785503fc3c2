# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A qualification run's outcome, and its verdict recorded in state (the only write)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import attrs

from loopx_recall_core.state import QualificationVerdict, StateStore

__all__ = ["QualificationResult", "record_verdict"]


@attrs.frozen(kw_only=True)
class QualificationResult:
    report: dict[str, Any]

    @property
    def passed(self) -> bool:
        return bool(self.report["verdict"]["passed"])

    @property
    def failed_gates(self) -> tuple[str, ...]:
        return tuple(self.report["verdict"]["failed_gates"])

    @property
    def report_digest(self) -> str:
        return self.report["report_digest"]


def record_verdict(
    result: QualificationResult, store: StateStore | None = None
) -> QualificationVerdict:
    """Record the verdict for the report's provider id + version + runtime identity
    (replacing an older one for the same three)."""
    store = store or StateStore()
    provider = result.report["provider"]
    runtime = provider.get("runtime", {})
    verdict = QualificationVerdict(
        provider_id=provider["provider_id"],
        provider_version=provider["provider_version"],
        runtime_version=runtime.get("runtime_version") if "binary_digest" in runtime else None,
        binary_digest=runtime.get("binary_digest"),
        passed=result.passed,
        report_digest=result.report_digest,
        recorded_at=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        failed_gates=result.failed_gates,
    )
    with store.update() as box:
        kept = tuple(q for q in box[0].qualifications if q.key != verdict.key)
        box[0] = attrs.evolve(box[0], qualifications=(*kept, verdict))
    return verdict
