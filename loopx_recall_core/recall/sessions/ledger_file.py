# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The session ledger's file, the one statement of its format: where it lies under the
state root, its size bound, its schema version, and the raw read of its claims.

Standard library only (and :mod:`loopx_recall_core.private_files`,
:mod:`loopx_recall_core.jsonio`): both :mod:`.ledger`, which owns the file (attrs
records, the lock, the writes), and the guard's hot path, which only asks whether a
session is claimed and must not pay attrs' start-up on every shell call, import it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from loopx_recall_core.jsonio import loads
from loopx_recall_core.private_files import read_file

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["FOLDER", "MAX_BYTES", "NAME", "VERSION", "WHAT", "holds_claim", "path"]

#: The ledger's folder under the state root, and its file name there.
FOLDER = ("private", "sessions")
NAME = "ledger.json"
#: The most a ledger file may hold (bytes); a larger one is refused, never read.
MAX_BYTES = 64_000_000
VERSION = "loopx_session_ledger_v0"
#: What messages call it.
WHAT = "the loopx session ledger"


def path(root: Path) -> Path:
    """The ledger's file under the state root ``root``."""
    return root.joinpath(*FOLDER, NAME)


def holds_claim(root: Path, runtime: str, session: str, agent_id: str, project_id: str) -> bool:
    """Whether the agent holds the session's claim, the file read raw (no records, no
    lock). A ledger that cannot be read, a corrupt or foreign one, holds no claim: a
    caller that answers only claimed sessions stays silent (fail closed)."""
    try:
        raw = read_file(path(root), MAX_BYTES, WHAT, owner_only=True)
        data = loads(raw) if raw is not None else None
    except Exception:  # noqa: BLE001 - unreadable, corrupt, foreign: no claim
        return False
    if not isinstance(data, dict) or data.get("schema_version") != VERSION:
        return False
    rows = data.get("claims")
    wanted: dict[str, Any] = {"runtime": runtime, "session_id": session,
                              "agent_id": agent_id, "project_id": project_id}  # fmt: skip
    return isinstance(rows, list) and any(
        isinstance(row, dict) and all(row.get(k) == v for k, v in wanted.items()) for row in rows
    )
