# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The guard's private files under ``<state root>/private/guard/`` (all 0600 in 0700
folders, written atomically, never through a link; :mod:`loopx_recall_core.private_files`).

* ``sets/<key>.json``: a session's prior-outcome set. Line 1 is a JSON header (owner,
  session, times, freshness, receipt digest, and ``index``: program -> the line numbers of
  its items, as one space-separated string); every further line is one item (``ref``,
  ``type``, ``at``, ``session``, ``snippet``).
  The hot path parses the header and only the lines whose programs the proposed command
  names, so a large set costs a split, not a parse.
* ``sessions/<key>.json``: what the guard did in a session (routes warned, the warning
  awaiting its follow-up).
* ``decisions/<project key>.jsonl``: one content-free line per guard decision (receipt
  digest, verdict, policy, latency, follow-up), read by ``guard stats``.

``<key>`` is 32 hex digits of a SHA-256 over the runtime and session (or the project):
file names say nothing, and the store's pruning rule (32 hex + ``.json``) holds.
Imports only the standard library and the state-folder rules: the hot path loads it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

from loopx_recall_core.jsonio import JsonInputError, loads
from loopx_recall_core.private_files import (
    ensure_subfolder,
    read_file,
    state_root,
    write_atomic,
)

__all__ = [
    "DEFAULT_TTL_S",
    "SET_VERSION",
    "append_decision",
    "decision_lines",
    "key_of",
    "read_header",
    "read_session",
    "remove_set",
    "set_path",
    "state_root",
    "write_session",
    "write_set",
]

SET_VERSION = "loopx_guard_set_v1"
DEFAULT_TTL_S = 6 * 3600
#: Sets whose session was never released are removed once this old (at the next prefetch).
EXPIRE_S = 7 * 24 * 3600
_MAX_SET_BYTES = 64_000_000
_MAX_SESSION_BYTES = 1_000_000
_MAX_DECISION_BYTES = 32_000_000



def key_of(*parts: str) -> str:
    return hashlib.sha256("\x00".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _folder(root: Path, name: str, create: bool) -> Path:
    return (
        ensure_subfolder(root, "private", "guard", name)
        if create
        else (root / "private" / "guard" / name)
    )


def set_path(root: Path, runtime: str, session_id: str, *, create: bool = False) -> Path:
    return _folder(root, "sets", create) / f"{key_of(runtime, session_id)}.json"


def write_set(root: Path, header: dict[str, Any], items: list[dict[str, Any]]) -> Path:
    path = set_path(root, header["runtime"], header["session_id"], create=True)
    lines = [json.dumps(header, ensure_ascii=False)]
    lines += [json.dumps(item, ensure_ascii=False) for item in items]
    data = ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")
    write_atomic(path.parent, path.name, data, prefix=".set-", what="a guard set")
    return path


def read_set_lines(path: Path) -> list[bytes] | None:
    raw = read_file(path, _MAX_SET_BYTES, "a guard set", owner_only=True)
    return None if raw is None else raw.split(b"\n")


def read_header(lines: list[bytes]) -> dict[str, Any] | None:
    try:
        header = loads(lines[0])
    except (JsonInputError, IndexError):
        return None
    if not isinstance(header, dict) or header.get("schema_version") != SET_VERSION:
        return None
    return header


def remove_set(root: Path, runtime: str, session_id: str) -> bool:
    """Drop a session's set and its guard record (on release); True when one existed."""
    removed = False
    for name in ("sets", "sessions"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(_folder(root, name, False) / f"{key_of(runtime, session_id)}.json")
            removed = True
    return removed


def prune_expired(root: Path, now: float | None = None) -> int:
    """Remove sets older than :data:`EXPIRE_S` (only our own file names, never a link)."""
    folder = _folder(root, "sets", False)
    limit = (now or time.time()) - EXPIRE_S
    count = 0
    with contextlib.suppress(FileNotFoundError):
        for entry in os.scandir(folder):
            name = entry.name
            ours = len(name) == 37 and name.endswith(".json")
            if (
                ours
                and entry.is_file(follow_symlinks=False)
                and (entry.stat(follow_symlinks=False).st_mtime < limit)
            ):
                os.unlink(entry.path)
                count += 1
    return count


def read_session(root: Path, runtime: str, session_id: str) -> dict[str, Any]:
    path = _folder(root, "sessions", False) / f"{key_of(runtime, session_id)}.json"
    raw = read_file(path, _MAX_SESSION_BYTES, "a guard session record", owner_only=True)
    try:
        value = loads(raw) if raw else {}
    except JsonInputError:
        return {}
    return value if isinstance(value, dict) else {}


def write_session(root: Path, runtime: str, session_id: str, record: dict[str, Any]) -> None:
    folder = _folder(root, "sessions", True)
    data = json.dumps(record).encode("utf-8")
    # no fsync on the hot path: after a crash the record reads as empty, and the worst
    # that costs is one route warned again
    write_atomic(folder, f"{key_of(runtime, session_id)}.json", data, prefix=".gs-",
                 what="a guard record", durable=False)  # fmt: skip


def append_decision(root: Path, project_id: str, record: dict[str, Any]) -> None:
    """One content-free line for ``guard stats`` (O_APPEND: concurrent hooks interleave
    whole lines)."""
    folder = _folder(root, "decisions", True)
    path = folder / f"{key_of('project', project_id)}.jsonl"
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
    descriptor = os.open(path, flags, 0o600)
    try:
        os.write(descriptor, (json.dumps(record, sort_keys=True) + "\n").encode("ascii"))
    finally:
        os.close(descriptor)


def decision_lines(root: Path, project_id: str) -> list[dict[str, Any]]:
    path = _folder(root, "decisions", False) / f"{key_of('project', project_id)}.jsonl"
    raw = read_file(path, _MAX_DECISION_BYTES, "the guard's decision records", owner_only=True)
    records = []
    for line in (raw or b"").splitlines():
        with contextlib.suppress(JsonInputError):
            value = loads(line)
            if isinstance(value, dict):
                records.append(value)
    return records
