# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``agent-history-recall`` for ``loopx capability invoke``: one LoopX request in, one
result out, through the same library functions as ``loopx-recall recall history`` and
``recall replan --proposed-command`` (:mod:`loopx_recall_core.operator_requests`), so
admission, enablement and scope apply unchanged: an agent and project without an
enablement get the typed ``not_enabled`` refusal, never a wider search.
"""

from __future__ import annotations

from typing import Any

from loopx_recall_core import operator_requests
from loopx_recall_core.contracts import ContractError, structure
from loopx_recall_core.contracts.loopx_protocol import (
    HistoryInput,
    LoopxRecallHistoryRequestV0,
    LoopxRecallReplanRequestV0,
    ReplanInput,
)
from loopx_recall_core.loopx_protocol.errors import ProtocolError
from loopx_recall_core.loopx_protocol.mapping import history_result, replan_result
from loopx_recall_core.operator_requests import (
    Consultation,
    OperatorRefused,
    ProposedCommand,
)
from loopx_recall_core.plugin.manager import load_host
from loopx_recall_core.recall.service import DEFAULT_TIMEOUT_S
from loopx_recall_core.state import DEFAULT_CEILINGS

__all__ = ["RECALL_TIMEOUT_S", "answer"]

#: The recall's own deadline: well inside the manifest's 30 s, so LoopX gets an answer
#: (a typed ``provider_timeout`` at worst) before it kills us.
RECALL_TIMEOUT_S = DEFAULT_TIMEOUT_S

_REQUESTS = {"history": LoopxRecallHistoryRequestV0, "replan": LoopxRecallReplanRequestV0}


def answer(request: Any) -> dict[str, Any]:
    """The result for one LoopX request, or :class:`ProtocolError` when it is not one."""
    if not isinstance(request, dict):
        raise ProtocolError("invalid_request", "the request must be a JSON object")
    operation = request.get("operation")
    record = _REQUESTS.get(operation) if isinstance(operation, str) else None
    if record is None:
        raise ProtocolError("unsupported_operation", "$.operation: expected history | replan")
    try:
        parsed = structure(request, record)
    except ContractError as exc:
        raise ProtocolError("invalid_request", str(exc)) from None
    # The owner's state is read by operator_requests, after the owner-decision generation
    # (owner_decisions): a decision taken after that read is never missed.
    try:
        if isinstance(parsed.input, HistoryInput):
            return history_result(parsed.invocation_id, _history(None, parsed.input))
        return replan_result(parsed.invocation_id, _replan(None, parsed.input))
    except OperatorRefused as exc:
        raise ProtocolError("operator_refused", str(exc)) from None


def _history(state: Any, given: HistoryInput) -> Any:
    asked = given.limits
    limits = {
        name: getattr(asked, name, None) or default for name, default in DEFAULT_CEILINGS.items()
    }
    return operator_requests.history(
        state,
        load_host,
        provider_id=None,
        agent_id=given.agent_id,
        project_id=given.project_id,
        terms=given.terms,
        evidence_types=given.evidence_types or (),
        limits=limits,
        revision=given.revision,
        timeout=RECALL_TIMEOUT_S,
        current_sessions=given.current_sessions or (),
    )


def _replan(state: Any, given: ReplanInput) -> Any:
    asked = ProposedCommand(
        command=given.proposed_command,
        agent_id=given.agent_id,
        project_id=given.project_id,
        trigger=given.trigger,
        revision=given.revision,
    )
    consultation = Consultation(
        situation=asked,
        timeout=RECALL_TIMEOUT_S,
        current_sessions=given.current_sessions or (),
    )
    return operator_requests.replan(consultation, state, load_host)
