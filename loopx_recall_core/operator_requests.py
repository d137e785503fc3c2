# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The recalls a person asks for: a history lookup and a Replan consultation.

``loopx-recall recall history|replan`` and the LoopX capability (an operator's or an
agent's explicit request, not the guard's automatic one) call these. The asker gives an
agent, a project, terms or a proposed command; these functions build the v0 request or
situation from them and the owner's enablements, pick the provider when none is named,
and run the one :class:`~loopx_recall_core.recall.service.RecallService`.

A Replan consultation travels as one typed record, :class:`Consultation`, from the
command line's parsing to :func:`replan`; its situation is a contract record or the flag
form (:class:`ProposedCommand`), which :func:`flag_situation` turns into one through the
one strict converter.

A first-level module, above ``recall/`` and ``recall/replan/`` (it calls both, and
``recall/replan/`` stands on ``recall/``), as ``session_hook`` and ``capability_status``
are.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Mapping, Sequence

import attrs

from loopx_recall_core.contracts import (
    EVIDENCE_TYPES,
    ContractError,
    HistoricalEvidenceRequestV0,
    structure,
)
from loopx_recall_core.contracts.replan import ReplanOutcomeV0, ReplanSituationV0
from loopx_recall_core.owner_decisions import started
from loopx_recall_core.plugin.catalogue import find_known
from loopx_recall_core.plugin.manager import ProviderNotChosen, load_host
from loopx_recall_core.recall.outcome import RecallOutcome
from loopx_recall_core.recall.replan.flow import ReplanReport
from loopx_recall_core.recall.replan.flow import replan as run_replan
from loopx_recall_core.recall.requests import history_request
from loopx_recall_core.recall.resolver import Host, resolve_provider
from loopx_recall_core.recall.service import DEFAULT_TIMEOUT_S, RecallService
from loopx_recall_core.recall.store import PrivateStore
from loopx_recall_core.state import State, StateStore, state_root

__all__ = [
    "FLAG_TRIGGERS",
    "Consultation",
    "OperatorRefused",
    "ProposedCommand",
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


@attrs.frozen(kw_only=True)
class ProposedCommand:
    """A Replan situation in its flag form (``recall replan --proposed-command``, the LoopX
    capability's replan input): the command proposed next, for an agent and project.

    :func:`flag_situation` makes the ``loopx_replan_situation_v0`` of it: the repository id
    from the enablement, the signals of ``trigger`` (a key of :data:`FLAG_TRIGGERS`), the
    situation id (default: the one the outcome answers, else a new one)."""

    command: str
    agent_id: str
    project_id: str
    trigger: str = attrs.field(
        default="operator_requested_history", validator=attrs.validators.in_(FLAG_TRIGGERS)
    )
    situation_id: str | None = None
    revision: str | None = None
    repository_root: str | None = None


@attrs.frozen(kw_only=True)
class Consultation:
    """One Replan consultation as asked: the situation (a contract record, or its flag
    form), the outcome to judge, the provider named (None: the one enabled, else the one
    installed), the provider's deadline and the sessions the agent runs now."""

    situation: ReplanSituationV0 | ProposedCommand
    outcome: ReplanOutcomeV0 | None = None
    provider_id: str | None = None
    timeout: float = DEFAULT_TIMEOUT_S
    current_sessions: tuple[str, ...] = ()


def _service(
    state: State,
    host: Host | None,
    provider_id: str | None,
    agent_id: str | None,
    project_id: str | None,
    timeout: float,
    current_sessions: tuple[str, ...],
    store: PrivateStore | None = None,
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
        store=store,
    )


def _owner_state(state: State | None) -> tuple[State, PrivateStore | None]:
    """The state (the owner's when none is given) and, for the owner's, the private store
    that keeps this command's record only if no owner decision came after the state was
    read (:mod:`loopx_recall_core.owner_decisions`: the generation is read first)."""
    if state is not None:
        return state, None
    root = state_root()
    since = started(root)
    return StateStore(root).read(), (PrivateStore(root, since=since) if since else None)


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
    state, store = _owner_state(state)
    service = _service(state, host, provider_id, agent_id, project_id, timeout, current_sessions,
                       store)  # fmt: skip
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
    flags: ProposedCommand,
    *,
    provider_id: str,
    outcome: ReplanOutcomeV0 | None = None,
) -> ReplanSituationV0:
    """The ``loopx_replan_situation_v0`` of ``flags``, its repository id from the enablement
    (the situation id defaults to the one ``outcome`` answers); ``ContractError`` when the
    flags make no valid situation (the converter's message, which names the field)."""
    situation_id = flags.situation_id
    if situation_id is None and outcome is not None:
        situation_id = outcome.situation_id
    situation: dict[str, object] = {
        "schema_version": "loopx_replan_situation_v0",
        "situation_id": situation_id or "operator-" + uuid.uuid4().hex,
        "agent_id": flags.agent_id,
        "project_id": flags.project_id,
        "repository_id": _repository_id(state, provider_id, flags.agent_id, flags.project_id),
        "trigger": flags.trigger,
        "signals": FLAG_TRIGGERS[flags.trigger],
        "proposed_step": {"kind": "command", "command": flags.command},
    }
    if flags.revision:
        situation["revision"] = {"current": flags.revision}
    if flags.repository_root:
        situation["repository_root"] = os.path.abspath(flags.repository_root)
    # the converter is the one strict check of a situation, whatever its source
    return structure(situation, ReplanSituationV0)


def replan(
    consultation: Consultation, state: State | None = None, host: Host | None = None
) -> ReplanReport:
    """A Replan consultation: its situation as given, or made of its flag form.

    A situation the flags cannot make is :class:`OperatorRefused`; everything after
    admission is a typed report (Replan goes on with current evidence). ``state`` and
    ``host`` default as for :func:`history`. The report knows the days back the
    enablement searches, for its text.
    """
    state, store = _owner_state(state)
    asked = consultation.situation
    service = _service(
        state,
        host,
        consultation.provider_id,
        asked.agent_id,
        asked.project_id,
        consultation.timeout,
        consultation.current_sessions,
        store,
    )
    if isinstance(asked, ProposedCommand):
        try:
            asked = flag_situation(
                state, asked, provider_id=service.provider_id, outcome=consultation.outcome
            )
        except ContractError as exc:
            raise OperatorRefused(str(exc)) from None
    report = run_replan(asked, recall=service, outcome=consultation.outcome)
    return attrs.evolve(report, window_days=_window_days(state, asked))


def _window_days(state: State, situation: ReplanSituationV0) -> int | None:
    """The days back the enablement's binding searches (``window_days``), for the text
    that says what ``no_prior_match`` covers; None when it names none or several."""
    found = state.find(agent_id=situation.agent_id, project_id=situation.project_id)
    days = {e.binding.get("window_days") for e in found if isinstance(e.binding, dict)}
    (one,) = days if len(days) == 1 else (None,)
    return one if isinstance(one, int) and not isinstance(one, bool) else None
