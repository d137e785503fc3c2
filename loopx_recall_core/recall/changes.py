# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""What re-enabling changes: the public-safe list of changed fields, and which changes
(a lower stage, another scope) need the owner's confirmation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from loopx_recall_core.state import Enablement, LimitCeilings

__all__ = ["SCOPE_FIELDS", "NeedsConfirmation", "enablement_changes", "lowered"]


#: Changes of what an enablement reaches: made only when confirmed (or ``--yes``).
SCOPE_FIELDS = frozenset(
    {"agent_sessions", "repository_id", "binding.history_sources", "binding.window_days",
     "binding.repository_roots", "binding.exclude_paths"}
)  # fmt: skip
#: Binding fields shown by value; any other binding change is named without its values
#: (paths and executables are private).
_PUBLIC_BINDING = ("history_sources", "window_days", "exclude_path_count")


class NeedsConfirmation(Exception):
    """Re-enabling would lower the stage or change the scope: ``changes`` lists what."""

    def __init__(self, changes: list[dict[str, Any]]) -> None:
        super().__init__("re-enabling would change the stage or the scope")
        self.changes = changes


def lowered(change: Mapping[str, Any]) -> bool:
    return change["field"] == "stage" and change["to"] < change["from"]


def enablement_changes(old: Enablement, new: Enablement) -> list[dict[str, Any]]:
    """What replacing ``old`` with ``new`` changes, public-safe: ``{"field", "from", "to"}``,
    or ``{"field"}`` alone for a private value (a path, an executable)."""
    changes: list[dict[str, Any]] = []
    for field, name in (("stage", "stage"), ("session_mode", "agent_sessions"),
                        ("repository_id", "repository_id")):  # fmt: skip
        before, after = getattr(old, field), getattr(new, field)
        if before != after:
            changes.append({"field": name, "from": before, "to": after})
    if old.guard != new.guard:
        changes.append({"field": "guard", "from": old.guard or "off", "to": new.guard or "off"})
    for field in attrs.fields(LimitCeilings):
        before, after = getattr(old.limits, field.name), getattr(new.limits, field.name)
        if before != after:
            changes.append({"field": f"limits.{field.name}", "from": before, "to": after})
    for key in sorted({*old.binding, *new.binding} - {"private"}):
        before, after = old.binding.get(key), new.binding.get(key)
        if before != after:
            shown = {"from": before, "to": after} if key in _PUBLIC_BINDING else {}
            changes.append({"field": f"binding.{key}", **shown})
    old_private, new_private = old.binding.get("private") or {}, new.binding.get("private") or {}
    if old_private.get("repository_roots") != new_private.get("repository_roots"):
        changes.append({"field": "binding.repository_roots"})
    # The user's exclusions: dropping one widens the scope (absent before they existed).
    if (old_private.get("exclude_paths") or []) != (new_private.get("exclude_paths") or []):
        changes.append({"field": "binding.exclude_paths"})
    rest = {*old_private, *new_private} - {"repository_roots", "exclude_paths"}
    if any(old_private.get(k) != new_private.get(k) for k in rest - {"escapes_scanned_at"}):
        changes.append({"field": "binding.private"})
    return changes
