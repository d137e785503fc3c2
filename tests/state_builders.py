# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Enablements to put in private state, for tests that count or choose among them."""

from __future__ import annotations

from typing import Any

from loopx_recall_core.state import DEFAULT_CEILINGS, Enablement, LimitCeilings, StateStore


def enablement(provider_id: str, agent_id: str = "agent-a", **overrides: Any) -> Enablement:
    """Agent ``agent_id`` in proj-j / repo-r at stage 1 through ``provider_id``."""
    fields: dict[str, Any] = {
        "capability": "agent-turn-recall",
        "provider_id": provider_id,
        "surface": "replan-history",
        "agent_id": agent_id,
        "project_id": "proj-j",
        "repository_id": "repo-r",
        "stage": 1,
        "limits": LimitCeilings(**DEFAULT_CEILINGS),
        **overrides,
    }
    return Enablement(**fields)


def seed(*enablements: Enablement, store: StateStore | None = None) -> StateStore:
    """Replace the enablements in ``store`` (default: the current state folder's)."""
    store = store or StateStore()
    with store.update() as box:
        box[0] = type(box[0])(schema_version="loopx_state_v0", enablements=enablements)
    return store
