# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The Replan flow: situation -> admission -> recall (once, when admitted) -> comparison
-> legality; see the package docstring."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from loopx_recall_core.contracts import structure
from loopx_recall_core.contracts.replan import ReplanOutcomeV0, ReplanSituationV0
from loopx_recall_core.recall.outcome import RecallOutcome
from loopx_recall_core.recall.receipts import failure_receipt
from loopx_recall_core.recall.replan.comparison import Comparison, compare
from loopx_recall_core.recall.replan.legality import Legality, check_outcome
from loopx_recall_core.recall.replan.relation import proposed_route
from loopx_recall_core.recall.replan.report import ReplanReport
from loopx_recall_core.recall.replan.situation_admission import (
    SituationAdmission,
    admit_situation,
    attempt_routes,
)
from loopx_recall_core.recall.request_admission import Admitted
from loopx_recall_core.state import Enablement, StateError

__all__ = [
    "Comparison",
    "Legality",
    "Recaller",
    "ReplanReport",
    "SituationAdmission",
    "replan",
]

class Recaller(Protocol):
    """What Replan recalls through (:class:`~loopx_recall_core.recall.service.RecallService`):
    the provider and the enablements it admits for, the key of its request ids, and the
    recall of a request Replan has admitted (never admitted a second time)."""

    @property
    def provider_id(self) -> str: ...

    @property
    def enablements(self) -> Sequence[Enablement]: ...

    def id_key(self) -> bytes | None: ...

    def admitted(self, decision: Admitted) -> RecallOutcome: ...


def replan(
    situation: Mapping[str, Any] | ReplanSituationV0,
    *,
    recall: Recaller,
    outcome: Mapping[str, Any] | ReplanOutcomeV0 | None = None,
    request_id: str | None = None,
) -> ReplanReport:
    """Admit ``situation``, recall history if admitted, compare, and judge ``outcome``.

    ``situation`` and ``outcome`` are JSON-like ``loopx_replan_situation_v0`` /
    ``loopx_replan_outcome_v0`` records (or already built ones); both are structured
    strictly before anything else happens, so a bad record raises
    :class:`~loopx_recall_core.contracts.ContractError` and no provider is called. A
    refusal, a provider failure or an exception from ``recall`` is a typed result, never
    an exception: the work lane goes on. The provider, the enablements and the key of the
    request id are ``recall``'s.
    """
    if not isinstance(situation, ReplanSituationV0):
        situation = structure(situation, ReplanSituationV0)
    if outcome is not None and not isinstance(outcome, ReplanOutcomeV0):
        outcome = structure(outcome, ReplanOutcomeV0)
    # each command is read once: the proposed step (redacted, then parsed) for its query
    # terms and its comparison; the attempts for the repetition, their terms and legality
    route = proposed_route(situation.proposed_step, situation.repository_root)
    attempts = attempt_routes(situation)
    admission = admit_situation(
        situation,
        recall.enablements,
        provider_id=recall.provider_id,
        request_id=request_id,
        id_key=recall.id_key(),
        proposed=route,
        attempts=attempts,
    )
    recalled = None
    if admission.decision is not None:
        recalled = _call(recall, admission.decision)
    comparison = compare(
        situation.proposed_step,
        recalled,
        request=admission.request,
        repository_root=situation.repository_root,
        route=route,
    )
    legality = None
    if outcome is not None:
        legality = check_outcome(
            outcome,
            situation=situation,
            comparison=comparison,
            recall=recalled,
            request=admission.request,
            attempt_routes=attempts,
        )
    return ReplanReport(
        situation_id=situation.situation_id,
        agent_id=situation.agent_id,
        project_id=situation.project_id,
        admission=admission,
        outcome=recalled,
        comparison=comparison,
        legality=legality,
    )


def _call(recall: Recaller, decision: Admitted) -> RecallOutcome:
    # The recall service already contains provider failures; this guards its caller too.
    request = decision.request
    try:
        recalled = recall.admitted(decision)
    except StateError:
        raise  # the owner's state folder is unusable: an environment problem, not a provider's
    except Exception:  # noqa: BLE001 - fail open for the work lane, by design
        recalled = None
    if isinstance(recalled, RecallOutcome):
        return recalled
    # No private record and no owner key reach this far: a one-off key keeps the receipt's
    # digests from confirming a guess (nobody needs to recompute a receipt never stored).
    receipt = failure_receipt(
        request,
        provider_id=recall.provider_id,
        provider_version="unknown",
        status="failed",
        reason="provider_failed",
        key=secrets.token_bytes(32),
    )
    return RecallOutcome(status="failed", reason="provider_failed", receipt=receipt)
