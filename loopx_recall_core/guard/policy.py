# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The guard's policy for an agent and project, read straight from the owner's
``state.json``: the hot path (:mod:`.hotpath`) and the claiming hook's prefetch start
(:func:`.prefetch.start_for_hook`) both ask it. Setting the policy:
:mod:`.policy_change`. Standard library only (and the state file's bounded reader): the
hot path imports it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from loopx_recall_core.jsonio import loads
from loopx_recall_core.private_files import read_file

__all__ = ["guard_policy"]


def guard_policy(root: Path, agent_id: str, project_id: str) -> tuple[str, dict[str, Any]] | None:
    """The guard's policy and the enablement, read straight from ``state.json`` (the
    records' reader pulls in cattrs; this path only looks up one key)."""
    raw = read_file(root / "state.json", 16_000_000, "the loopx state file")
    state = loads(raw) if raw else None
    for entry in (state or {}).get("enablements", ()):
        if (
            isinstance(entry, dict)
            and entry.get("agent_id") == agent_id
            and entry.get("project_id") == project_id
            and entry.get("stage") == 2
            and entry.get("guard") in ("warn", "deny-once")
        ):
            return entry["guard"], entry
    return None
