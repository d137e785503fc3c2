# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""What an operator asks for by hand: a history lookup and a Replan consultation.

The operator gives flags (an agent, a project, terms, a proposed command); these functions
build the v0 request or situation from them and the owner's enablements, pick the provider
when none is named, and run the one :class:`~loopx_recall_core.recall.service.RecallService`.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from loopx_recall_core.catalogue import find_known
from loopx_recall_core.contracts import EVIDENCE_TYPES, ContractError, HistoricalEvidenceRequestV0
from loopx_recall_core.plugins import ProviderNotChosen, load_host
from loopx_recall_core.recall.outcome import RecallOutcome
from loopx_recall_core.recall.replan.flow import ReplanReport
from loopx_recall_core.recall.replan.flow import replan as run_replan
from loopx_recall_core.recall.requests import history_request
from loopx_recall_core.recall.resolver import Host, resolve_provider
from loopx_recall_core.recall.service import DEFAULT_TIMEOUT_S, RecallService
from loopx_recall_core.state import State, StateStore

__all__ = [
    "FLAG_TRIGGERS",
    "OperatorRefused",
    "flag_situation",
    "history",
    "operator_request",
    "replan",
]

#: trigger -> the signal the operator asserts by choosing it
FLAG_TRIGGERS = {
    "operator_requested_history": {"operator_requested": True},
    "replan_repetition": {"repeated_route": True},
}


class OperatorRefused(Exception):
    """The operator's input is refused (an invalid request, an unknown provider, several
    providers to choose from); the message is safe to print."""


def _service(
    state: State,
    host: Host | None,
    provider_id: str | None,
    agent_id: str | None,
    project_id: str | None,
    timeout: float,
    current_sessions: tuple[str, ...],
) -> RecallService:
    """The recall service for one operator command, its provider resolved once
    (:func:`~loopx_recall_core.recall.resolver.resolve_provider`): the one named, else the
    one enabled for the agent and project asked about, else the one installed."""
    host = host if host is not None else load_host  # loaded on the first need
    enabled = (
        e.provider_id
        for e in state.enablements
        if (agent_id is None or e.agent_id == agent_id)
        and (project_id is None or e.project_id == project_id)
    )
    try:
        resolved = resolve_provider(host, provider_id, enabled=enabled)
    except ProviderNotChosen as exc:
        raise OperatorRefused(str(exc)) from None
    return RecallService.of(
        resolved,
        enablements=state.enablements,
        timeout=timeout,
        current_sessions=current_sessions,
    )


def _repository_id(state: State, provider_id: str, agent_id: str, project_id: str) -> str:
    matching = state.find(provider_id=provider_id, agent_id=agent_id, project_id=project_id)
    # The enabled repository; with no enablement admission refuses (not_enabled) anyway.
    return matching[0].repository_id if matching else "not-enabled"


def operator_request(
    state: State,
    *,
    provider_id: str,
    agent_id: str,
    project_id: str,
    terms: Sequence[str],
    evidence_types: Sequence[str] = (),
    limits: Mapping[str, int],
    revision: str | None = None,
) -> HistoricalEvidenceRequestV0:
    """An ``operator_requested_history`` request for the agent's enabled repository
    (``ContractError`` when the flags do not make a valid one)."""
    return history_request(
        trigger="operator_requested_history",
        agent_id=agent_id,
        project_id=project_id,
        repository_id=_repository_id(state, provider_id, agent_id, project_id),
        evidence_types=evidence_types or EVIDENCE_TYPES,
        query_terms=terms,
        limits=limits,
        revision=revision,
        id_prefix="rq-operator-",
    )


def history(
    state: State | None = None,
    host: Host | None = None,
    *,
    provider_id: str | None,
    agent_id: str,
    project_id: str,
    terms: Sequence[str],
    evidence_types: Sequence[str] = (),
    limits: Mapping[str, int],
    revision: str | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
    current_sessions: tuple[str, ...] = (),
) -> RecallOutcome:
    """One operator-requested lookup: a typed outcome whatever the provider did;
    :class:`OperatorRefused` only for input that makes no request. ``state`` defaults to
    the owner's, ``host`` to the installed plugins (loaded on the first need)."""
    state = state if state is not None else StateStore().read()
    service = _service(state, host, provider_id, agent_id, project_id, timeout, current_sessions)
    try:
        request = operator_request(
            state,
            provider_id=service.provider_id,
            agent_id=agent_id,
            project_id=project_id,
            terms=terms,
            evidence_types=evidence_types,
            limits=limits,
            revision=revision,
        )
    except ContractError as exc:
        raise OperatorRefused(f"invalid request: {exc}") from None
    known = find_known(service.provider_id) is not None
    if not known and service.provider() is None:
        raise OperatorRefused(
            "unknown provider: `loopx-recall extension list --available` lists the known ones"
        )
    return service(request)


def flag_situation(
    state: State,
    *,
    provider_id: str,
    proposed_command: str,
    agent_id: str,
    project_id: str,
    trigger: str,
    situation_id: str | None = None,
    revision: str | None = None,
    repository_root: str | None = None,
    outcome: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A ``loopx_replan_situation_v0`` from flags, its repository id from the enablement
    (the situation id defaults to the one ``outcome`` answers)."""
    answered = (outcome or {}).get("situation_id")
    if situation_id is None and isinstance(answered, str):
        situation_id = answered
    situation: dict[str, Any] = {
        "schema_version": "loopx_replan_situation_v0",
        "situation_id": situation_id or "operator-" + uuid.uuid4().hex,
        "agent_id": agent_id,
        "project_id": project_id,
        "repository_id": _repository_id(state, provider_id, agent_id, project_id),
        "trigger": trigger,
        "signals": FLAG_TRIGGERS[trigger],
        "proposed_step": {"kind": "command", "command": proposed_command},
    }
    if revision:
        situation["revision"] = {"current": revision}
    if repository_root:
        situation["repository_root"] = os.path.abspath(repository_root)
    return situation


def replan(
    state: State | None = None,
    host: Host | None = None,
    *,
    situation: Mapping[str, Any] | None,
    flags: Mapping[str, Any] | None = None,
    outcome: Mapping[str, Any] | None = None,
    provider_id: str | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
    current_sessions: tuple[str, ...] = (),
) -> ReplanReport:
    """A Replan consultation for a situation record, or one built from ``flags`` (the
    keyword arguments of :func:`flag_situation` but the state and provider).

    A bad situation or outcome is :class:`OperatorRefused`; everything after admission is
    a typed report (Replan goes on with current evidence). ``state`` and ``host`` default
    as for :func:`history`.
    """
    state = state if state is not None else StateStore().read()
    named = flags if situation is None else situation
    service = _service(
        state,
        host,
        provider_id,
        _text(named, "agent_id"),
        _text(named, "project_id"),
        timeout,
        current_sessions,
    )
    if situation is None:
        situation = flag_situation(
            state, provider_id=service.provider_id, outcome=outcome, **(flags or {})
        )
    try:
        return run_replan(situation, recall=service, outcome=outcome)
    except ContractError as exc:
        raise OperatorRefused(str(exc)) from None


def _text(record: Mapping[str, Any] | None, key: str) -> str | None:
    value = (record or {}).get(key)
    return value if isinstance(value, str) else None
