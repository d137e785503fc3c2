# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The owner-local private store: full recall results, mode 0600, bounded retention.

Layout: ``<state root>/private/results/<agent key>/<request key>.json`` where both keys are
digests, so file names reveal neither agent ids nor request ids. Only the newest
``RETENTION_PER_AGENT`` records per agent are kept.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from loopx_recall_core.canonical import digest
from loopx_recall_core.state import ensure_private_dir, state_root

__all__ = ["RETENTION_PER_AGENT", "PrivateStore"]

RETENTION_PER_AGENT = 200


def _key(value: str) -> str:
    return digest(value).removeprefix("sha256:")[:32]


class PrivateStore:
    def __init__(self, root: Path | None = None, retention: int = RETENTION_PER_AGENT) -> None:
        self.base = (root or state_root()) / "private" / "results"
        self.retention = retention

    def save(self, agent_id: str, request_id: str, record: dict[str, Any]) -> str:
        """Write one record; returns the private reference (``private:<request key>``)."""
        folder = ensure_private_dir(self.base / _key(agent_id))
        target = folder / f"{_key(request_id)}.json"
        descriptor, temp = tempfile.mkstemp(prefix=".r-", dir=folder)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(record, handle, ensure_ascii=False)
        os.chmod(temp, 0o600)
        os.replace(temp, target)
        self._prune(folder)
        return f"private:{_key(request_id)}"

    def _prune(self, folder: Path) -> None:
        records = sorted(folder.glob("*.json"), key=lambda p: (p.stat().st_mtime_ns, p.name))
        for old in records[: max(0, len(records) - self.retention)]:
            old.unlink(missing_ok=True)

    def load(self, request_id: str) -> dict[str, Any] | None:
        """The record of ``request_id`` for any agent of this owner, or None."""
        name = f"{_key(request_id)}.json"
        if not self.base.is_dir():
            return None
        for folder in self.base.iterdir():
            candidate = folder / name
            if candidate.is_file():
                return json.loads(candidate.read_text(encoding="utf-8"))
        return None
