# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Enable and disable agent-turn-recall for one agent+project+surface (reading it back,
``capability status``: :mod:`loopx_recall_core.capability_status`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from loopx_recall_core.contracts.converter import FieldInvalid
from loopx_recall_core.plugin.catalogue import did_you_mean, find_known
from loopx_recall_core.plugin.protocols import RecallProvider
from loopx_recall_core.recall.changes import (
    SCOPE_FIELDS,
    NeedsConfirmation,
    enablement_changes,
    lowered,
)
from loopx_recall_core.recall.stage_gate import stage_two_verdict
from loopx_recall_core.state import Enablement, LimitCeilings, StateStore

__all__ = [
    "AGENT_SESSION_MODES",
    "CapabilityRefused",
    "check_ids",
    "disable",
    "disable_record",
    "enable",
    "enable_record",
]

CAPABILITY = "agent-turn-recall"
SURFACES = ("replan-history",)
#: Which sessions are an agent's history; ``claimed`` is the default for new enablements.
AGENT_SESSION_MODES = ("claimed", "runtime")


class CapabilityRefused(Exception):
    """The operation is refused; the message is safe to print."""


def _refused(exc: FieldInvalid) -> CapabilityRefused:
    # e.g. an --agent-id over 256 UTF-16 units: name the option, never the value
    option = "--" + exc.path.lstrip(".").split(".")[0].split("[")[0].replace("_", "-")
    return CapabilityRefused(f"{option}: {exc.reason}")


def check_ids(**ids: str) -> None:
    """Check ``agent_id=``, ``project_id=`` ... with the :class:`Enablement` fields' own
    validators, the ones ``enable`` meets, so that whatever else names an enablement's
    agent and project (``hook install``) takes exactly the ids ``enable`` takes."""
    fields = attrs.fields_dict(Enablement)
    try:
        for name, value in ids.items():
            validator = fields[name].validator
            if validator is not None:
                validator(None, fields[name], value)
    except FieldInvalid as exc:
        raise _refused(exc) from None


def enable(
    store: StateStore,
    provider: RecallProvider | None,
    *,
    provider_id: str,
    surface: str,
    agent_id: str,
    project_id: str,
    stage: int,
    limits: LimitCeilings,
    provider_options: Mapping[str, Any],
    repository_id: str | None,
    cwd: str,
    agent_sessions: str = "claimed",
    confirmed: bool = False,
) -> tuple[Enablement, bool]:
    """Store one enablement for ``provider`` (None when it is not installed); returns it
    and whether anything changed. Enabling again at stage 2 keeps the guard as it was.
    Replacing an enablement in a way that lowers its stage or changes what it reaches
    (:data:`SCOPE_FIELDS`) needs ``confirmed``: unconfirmed, :class:`NeedsConfirmation`
    lists the changes and nothing is stored."""
    if provider is None:
        known = find_known(provider_id)
        if known is None:
            raise CapabilityRefused(
                f"unknown provider{did_you_mean(provider_id)}: `loopx-recall extension list "
                "--available` lists the known ones"
            )
        where = "" if known.on_package_index else " (in a clone of loopx-recall-core)"
        raise CapabilityRefused(
            f"provider {provider_id!r} is not installed: run `{known.install_command}`{where} first"
        )
    _check_declared(provider, provider_options)
    try:
        binding = dict(provider.bind(provider_options, cwd=cwd))
    except ValueError as exc:
        raise CapabilityRefused(f"provider options rejected: {exc}") from None
    bound_repository = binding.get("repository_id")
    if repository_id and bound_repository and repository_id != bound_repository:
        raise CapabilityRefused("--repository-id differs from the repository the provider bound")
    repository_id = repository_id or bound_repository
    if not repository_id:
        raise CapabilityRefused("no repository identity: pass --repository-id")
    if stage == 2:
        version, identity, verdict = stage_two_verdict(store, provider_id, provider, binding)
        if verdict is None or not verdict.passed:
            runtime = f" on runtime {identity.runtime_version}" if identity else ""
            raise CapabilityRefused(
                f"stage 2 needs a passing Stage 0 qualification verdict for {provider_id} "
                f"{version}{runtime} (the runtime this enablement resolves to now): run "
                f"`loopx-recall recall qualify --provider {provider_id}` with that runtime"
            )
    try:
        enablement = Enablement(
            capability=CAPABILITY,
            provider_id=provider_id,
            surface=surface,
            agent_id=agent_id,
            project_id=project_id,
            repository_id=repository_id,
            stage=stage,
            limits=limits,
            binding=binding,
            agent_sessions=agent_sessions,
        )
    except FieldInvalid as exc:
        raise _refused(exc) from None
    with store.update() as box:
        previous = next((e for e in box[0].enablements if e.key == enablement.key), None)
        if previous is not None and previous.guard is not None and stage == 2:
            enablement = attrs.evolve(enablement, guard=previous.guard)
        if previous is not None and not confirmed:
            changes = enablement_changes(previous, enablement)
            if any(c["field"] in SCOPE_FIELDS or lowered(c) for c in changes):
                raise NeedsConfirmation(changes)
        others = tuple(e for e in box[0].enablements if e.key != enablement.key)
        changed = previous is None or bool(enablement_changes(previous, enablement))
        box[0] = attrs.evolve(box[0], enablements=(*others, enablement))
    return enablement, changed


def _check_declared(provider: RecallProvider, options: Mapping[str, Any]) -> None:
    """Refuse an option the provider does not declare (``binding_options``), whatever its
    ``bind`` would do with it: a library caller gets the same answer as the command line,
    whose parser knows only the declared options."""
    if not options:
        return
    try:
        declared = {option.name.replace("-", "_") for option in provider.binding_options()}
    except Exception as exc:  # noqa: BLE001 - a provider's failure, reported by class only
        raise CapabilityRefused(
            f"provider options rejected: the provider's options are unreadable "
            f"({type(exc).__name__})"
        ) from None
    if any(name.replace("-", "_") not in declared for name in options):
        # the name is not echoed: it is the caller's input
        raise CapabilityRefused(
            "provider options rejected: an option the provider does not declare"
        )


def enable_record(
    enablement: Enablement, changed: bool, changes: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The ``loopx_capability_change_v0`` record of an :func:`enable`."""
    return {
        "schema_version": "loopx_capability_change_v0",
        "action": "enable",
        "changed": changed,
        "changes": changes or [],
        "capability": enablement.capability,
        "provider_id": enablement.provider_id,
        "agent_id": enablement.agent_id,
        "project_id": enablement.project_id,
        "repository_id": enablement.repository_id,
        "surface": enablement.surface,
        "stage": enablement.stage,
        "agent_sessions": enablement.session_mode,
    }


def disable_record(provider_id: str, project_id: str, removed: list[Enablement]) -> dict[str, Any]:
    """The ``loopx_capability_change_v0`` record of a :func:`disable`."""
    return {
        "schema_version": "loopx_capability_change_v0",
        "action": "disable",
        "changed": bool(removed),
        "capability": CAPABILITY,
        "provider_id": provider_id,
        "project_id": project_id,
        "removed": [{"agent_id": e.agent_id, "surface": e.surface} for e in removed],
    }


def disable(
    store: StateStore,
    *,
    provider_id: str,
    project_id: str,
    agent_id: str | None,
    surface: str | None,
) -> list[Enablement]:
    """Remove matching enablements (all agents of the project unless one is named)."""
    removed: list[Enablement] = []

    def matches(e: Enablement) -> bool:
        return (
            (e.capability, e.provider_id, e.project_id) == (CAPABILITY, provider_id, project_id)
            and (agent_id is None or e.agent_id == agent_id)
            and (surface is None or e.surface == surface)
        )

    if not any(matches(e) for e in store.read().enablements):
        return []  # nothing to do: touch nothing (no folder, lock or file is created)
    with store.update() as box:
        removed = [e for e in box[0].enablements if matches(e)]
        if removed:
            kept = tuple(e for e in box[0].enablements if not matches(e))
            box[0] = attrs.evolve(box[0], enablements=kept)
    return removed
