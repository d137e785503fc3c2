# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Changing the guard's policy: turning the guard on and off (``hook install --guard``,
``hook uninstall``).

The guard's policy is the ``guard`` field of the agent's stage-2 enablement in the
project (read by :func:`loopx_recall_core.guard.policy.guard_policy`). It is turned on
only where stage 2 holds now: a stage-2 enablement and a passing Stage 0 verdict for the
runtime its binding resolves to (:func:`~loopx_recall_core.recall.stage_gate.stage_two_verdict`,
the gate ``capability enable --stage 2`` uses).
"""

from __future__ import annotations

from typing import Any

import attrs

from loopx_recall_core.state import StateStore

__all__ = ["GuardRefused", "guardable", "set_guard"]


class GuardRefused(Exception):
    """One line saying what is missing (no id, no path)."""


def guardable(store: StateStore, host: Any, agent_id: str, project_id: str) -> list[tuple]:
    """The keys of the enablements the guard may be turned on for; GuardRefused (saying
    what is missing) when there is none."""
    from loopx_recall_core.recall.resolver import resolve_provider
    from loopx_recall_core.recall.stage_gate import stage_two_verdict

    stage_two = [e for e in store.read().find(agent_id=agent_id, project_id=project_id)
                 if e.stage == 2]  # fmt: skip
    if not stage_two:
        raise GuardRefused(
            "--guard needs a stage-2 enablement for this agent and project "
            "(`loopx-recall capability enable agent-turn-recall ... --stage 2`)"
        )
    keys = []
    missing = None
    for enablement in stage_two:
        provider = resolve_provider(host, enablement.provider_id).provider
        if provider is None:
            missing = f"--guard: provider {enablement.provider_id} is not installed"
            continue
        _version, _identity, verdict = stage_two_verdict(
            store, enablement.provider_id, provider, enablement.binding
        )
        if verdict is None or not verdict.passed:
            missing = (
                "--guard needs a passing Stage 0 verdict for the runtime the enablement "
                f"resolves to now (`loopx-recall recall qualify --provider "
                f"{enablement.provider_id}`)"
            )
            continue
        keys.append(enablement.key)
    if not keys:
        raise GuardRefused(missing or "--guard: no enablement qualifies")
    return keys


def set_guard(
    store: StateStore,
    agent_id: str,
    project_id: str,
    policy: str | None,
    keys: list[tuple] | None = None,
) -> int:
    """Set (or, with ``policy`` None, clear, dropping the agent's guard sets in the project)
    the guard on the agent's enablements in the project (only ``keys`` when given);
    returns how many changed."""
    changed = 0
    with store.update() as box:
        enablements = []
        for enablement in box[0].enablements:
            ours = enablement.agent_id == agent_id and enablement.project_id == project_id
            if ours and (keys is None or enablement.key in keys) and enablement.guard != policy:
                enablement = attrs.evolve(enablement, guard=policy)
                changed += 1
            enablements.append(enablement)
        box[0] = attrs.evolve(box[0], enablements=tuple(enablements))
    if policy is None:  # guard off (hook uninstall): its sets go before the command returns
        from loopx_recall_core.guard.store import drop_sets

        drop_sets(store.root, agent_id=agent_id, project_id=project_id)
    return changed
