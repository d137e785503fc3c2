# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""What one recall returns to its caller: status, reason, receipt, private reference.

The seed records stay exact; this wrapper carries everything around them.
"""

from __future__ import annotations

from typing import Literal

import attrs

from loopx_recall_core.contracts import HistoricalEvidenceReceiptV0, HistoricalEvidenceResultV0

__all__ = ["REASON_CODES", "RecallOutcome"]

#: Typed reasons for an empty outcome. Providers may raise ``ProviderFailure`` with any
#: of the provider-level ones; the host adds the rest.
REASON_CODES = (
    "not_admitted",
    "not_enabled",
    "scope_mismatch",
    "trigger_not_admitted_at_stage",
    "provider_not_installed",
    "provider_unavailable",
    "provider_failed",
    "provider_timeout",
    "malformed_output",
    "output_too_large",
    "unsupported_runtime_version",
    "scope_violation",
    "contract_violation",
)


@attrs.frozen(kw_only=True)
class RecallOutcome:
    """``status`` is ``succeeded`` (a verified result, possibly with zero items),
    ``refused`` (admission said no; the provider was not called) or ``failed`` (the
    provider could not answer or its answer was rejected). Only ``succeeded`` has
    ``result``. Every outcome has a receipt.
    """

    status: Literal["succeeded", "refused", "failed"]
    reason: str | None
    receipt: HistoricalEvidenceReceiptV0
    result: HistoricalEvidenceResultV0 | None = None
    private_ref: str | None = None
    #: Whose sessions counted (``claimed`` or ``runtime``), once an answer was checked.
    agent_sessions: str | None = None
    #: With claimed sessions: how many sessions in scope no agent claimed (None: not known).
    unclaimed_sessions: int | None = None
    #: After ``provider_unavailable``: the provider's own sentence on getting its runtime
    #: (its optional ``unavailable_hint``, at most 400 characters); never in public JSON.
    unavailable_hint: str | None = attrs.field(default=None, eq=False, repr=False)

    @property
    def ok(self) -> bool:
        return self.status == "succeeded"

    def public_json(self) -> dict[str, object]:
        """Status, reason and receipt: safe to print, log or publish."""
        from loopx_recall_core.contracts import unstructure

        data: dict[str, object] = {
            "schema_version": "loopx_recall_outcome_v0",
            "status": self.status,
            "reason": self.reason,
            "receipt": unstructure(self.receipt),
        }
        if self.agent_sessions is not None:
            data["agent_sessions"] = self.agent_sessions
        if self.unclaimed_sessions is not None:
            data["unclaimed_sessions"] = self.unclaimed_sessions
        if self.result is not None:
            data["cross_agent_used"] = self.result.scope_applied.cross_agent_used
        return data
