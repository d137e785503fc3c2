# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Request admission, the host's: may this request reach a provider at all, and with which
limits? (A Replan situation is admitted before it makes a request:
:mod:`.replan.situation_admission`.)

Pure: the same request and enablements always give the same decision. A refused request
never reaches a provider.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import attrs

from loopx_recall_core.contracts import HistoricalEvidenceRequestV0, Limits
from loopx_recall_core.state import Enablement

__all__ = ["STAGE_TRIGGERS", "Admitted", "Refused", "admit"]

#: Which triggers each enablement stage admits (RFC section 9).
STAGE_TRIGGERS: dict[int, frozenset[str]] = {
    1: frozenset({"operator_requested_history"}),
    2: frozenset(
        {
            "operator_requested_history",
            "replan_repetition",
            "hypothesis_history_gap",
            "resume_or_handoff_gap",
        }
    ),
}

RefusalReason = Literal["not_enabled", "scope_mismatch", "trigger_not_admitted_at_stage"]


@attrs.frozen
class Admitted:
    request: HistoricalEvidenceRequestV0
    enablement: Enablement


@attrs.frozen
class Refused:
    reason: RefusalReason
    detail: str


def admit(
    request: HistoricalEvidenceRequestV0,
    enablements: Sequence[Enablement],
    *,
    provider_id: str,
    surface: str = "replan-history",
) -> Admitted | Refused:
    """Admit ``request`` for ``provider_id`` under exactly one matching enablement.

    The enablement must exist for the request's agent, project and surface; the request's
    repository must be the enabled one (the cross flags are false by construction); the
    trigger must be allowed at the enablement's stage. Limits are clamped to its ceilings.
    """
    scope = request.scope
    matching = [
        e
        for e in enablements
        if e.capability == "agent-turn-recall"
        and e.provider_id == provider_id
        and e.surface == surface
        and e.agent_id == scope.agent_id
        and e.project_id == scope.project_id
    ]
    if not matching:
        return Refused("not_enabled", "no enablement for this agent, project and surface")
    (enablement,) = matching  # the state keys enablements by exactly these fields
    if scope.repository_id != enablement.repository_id:
        return Refused("scope_mismatch", "the repository is not the enabled repository")
    if request.trigger not in STAGE_TRIGGERS[enablement.stage]:
        return Refused(
            "trigger_not_admitted_at_stage",
            f"trigger {request.trigger} is not admitted at stage {enablement.stage}",
        )
    ceilings = enablement.limits
    asked = request.limits
    clamped = Limits(
        max_sessions=min(asked.max_sessions, ceilings.max_sessions),
        max_items=min(asked.max_items, ceilings.max_items),
        max_snippet_chars=min(asked.max_snippet_chars, ceilings.max_snippet_chars),
        max_total_chars=min(asked.max_total_chars, ceilings.max_total_chars),
    )
    return Admitted(attrs.evolve(request, limits=clamped), enablement)
