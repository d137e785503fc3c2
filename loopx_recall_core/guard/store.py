# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The guard's private files under ``<state root>/private/guard/`` (all 0600 in 0700
folders, written atomically, never through a link; :mod:`loopx_recall_core.private_files`).

* ``sets/<key>.json``: a session's prior-outcome set (the current session excluded), or
  the agent's set for a runtime (``"scope": "agent"``, nothing excluded; made when a
  session's turn ends, so the next session's first call is guarded: :mod:`.prefetch`).
  Line 1 is a JSON header (owner, session, times, freshness, receipt digest, and
  ``index``: program -> the line numbers of its items, as one space-separated string);
  every further line is one item (``ref``, ``type``, ``at``, ``session``, ``snippet``).
  The header also holds ``as_of`` (when its making began: a set older than the owner's
  last decision, in ``state.json`` or ``revoked``, is never used: :func:`outdated`),
  ``sessions`` (the keys of the sessions its items come from) and ``failures`` (failed
  makings in a row: a failed set is retried after 30 s, 60 s, ... not after the TTL).
  It also holds ``offsets`` (where each item line starts), so the hot path maps
  the file, parses the header and cuts only the lines whose programs the proposed command
  names: a large set costs neither a full read nor a split.
* ``sessions/<key>.json``: what the guard did in a session (routes warned, the warning
  awaiting its follow-up); ``sessions/<key>.lock``: held while a call reads, changes and
  writes it (:func:`session_lock`).
* ``revoked``: an empty file whose time is the owner's last forget or release.
* ``decisions/<project key>.jsonl``: one content-free line per guard decision (receipt
  digest, verdict, policy, latency, follow-up) or call left silent for a named reason
  (``kind: silent``: no set, a session not claimed, out of time), read by ``guard stats``.

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
from loopx_recall_core.owner_decisions import decided
from loopx_recall_core.private_files import (
    StateError,
    ensure_subfolder,
    locked,
    open_private,
    read_file,
    state_root,
    write_atomic,
)

__all__ = [
    "DEFAULT_TTL_S",
    "SET_VERSION",
    "agent_set_path",
    "append_decision",
    "decision_lines",
    "drop_holding",
    "drop_sets",
    "key_of",
    "outdated",
    "read_header",
    "read_session",
    "remove_set",
    "retry_after",
    "session_lock",
    "set_path",
    "state_root",
    "write_session",
    "write_set",
]

#: v3: the index keys each item by its programs as the route rules read them now (a
#: program behind a wrapper such as ``ionice`` or ``stdbuf`` is the program it runs)
SET_VERSION = "loopx_guard_set_v3"
DEFAULT_TTL_S = 6 * 3600
#: A set whose recall failed is made again after 30 s, then 60 s, 120 s, ... (at most the TTL).
RETRY_FIRST_S = 30.0
#: Sets whose session was never released are removed once this old (at the next prefetch).
EXPIRE_S = 7 * 24 * 3600
_MAX_SET_BYTES = 64_000_000
_MAX_SESSION_BYTES = 1_000_000
_MAX_DECISION_BYTES = 32_000_000


def key_of(*parts: str) -> str:
    return hashlib.sha256("\x00".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _folder(root: Path, name: str, create: bool, create_root: bool = True) -> Path:
    return (
        ensure_subfolder(root, "private", "guard", name, create_root=create_root)
        if create
        else (root / "private" / "guard" / name)
    )


def set_path(
    root: Path, runtime: str, session_id: str, *, create: bool = False, create_root: bool = True
) -> Path:
    """``create``: its folder made when missing (and the state folder too, unless
    ``create_root`` is False: the prefetch never makes one the owner removed)."""
    return _folder(root, "sets", create, create_root) / f"{key_of(runtime, session_id)}.json"


def agent_set_path(
    root: Path,
    runtime: str,
    agent_id: str,
    project_id: str,
    *,
    create: bool = False,
    create_root: bool = True,
) -> Path:
    """The agent's set for a runtime in a project (every claimed session, none excluded)."""
    name = f"{key_of('agent', runtime, agent_id, project_id)}.json"
    return _folder(root, "sets", create, create_root) / name


def retry_after(failures: int) -> float:
    """How long a set whose recall failed ``failures`` times in a row is kept."""
    return min(RETRY_FIRST_S * 2 ** max(failures - 1, 0), DEFAULT_TTL_S)


def _revoked(root: Path) -> Path:
    return root / "private" / "guard" / "revoked"


def outdated(root: Path, header: dict[str, Any]) -> bool:
    """Was this set's making begun before the owner's last decision? That is a write of
    ``state.json`` (an exclusion, a disable, a scope change, the guard turned off) or a
    :func:`drop_sets` (a forget, a release), whose stamp file's time is checked: two
    ``stat`` calls. A new claim narrows nothing, so the ledger is not read. A set without
    ``as_of`` is outdated."""
    as_of = header.get("as_of")
    if not isinstance(as_of, (int, float)):
        return True
    for path in (root / "state.json", _revoked(root)):
        try:
            if os.stat(path).st_mtime > as_of:
                return True
        except OSError:
            continue
    return False


def drop_sets(root: Path, *, agent_id: str, project_id: str) -> int:
    """Remove every set (the sessions' and the agent's) made for the agent in the project,
    and stamp the time (a making under way when the owner decided is then never used:
    :func:`outdated`); the owner's decision reaches the copies we keep before the command
    returns. First, under the state lock, the owner-decision generation moves on: a making
    under way writes nothing after this (:mod:`loopx_recall_core.owner_decisions`)."""
    with decided(root):  # the generation moves on first: a making under way keeps nothing
        return _drop_sets(root, agent_id, project_id)


def _drop_sets(root: Path, agent_id: str, project_id: str) -> int:
    folder = _folder(root, "sets", False)
    if not folder.is_dir():
        return 0
    stamp = _revoked(root)
    descriptor = os.open(stamp, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    os.close(descriptor)
    os.utime(stamp)
    count = 0
    with contextlib.suppress(FileNotFoundError):
        for entry in os.scandir(folder):
            if not (len(entry.name) == 37 and entry.name.endswith(".json")):
                continue
            with contextlib.suppress(OSError, StateError):
                lines = read_set_lines(Path(entry.path))
                header = read_header(lines) if lines else None
                ours = header is None or (
                    header.get("agent_id") == agent_id and header.get("project_id") == project_id
                )
                if ours:  # an unreadable set is dropped too: it may hold anything
                    os.unlink(entry.path)
                    count += 1
    return count


def drop_holding(root: Path, session_name: str) -> list[dict[str, Any]]:
    """Remove every set (any agent, project or scope) whose items include the session the
    index names ``session_name``, and stamp the time (a making under way, which may hold
    it too, is then never used: :func:`outdated`): the private marker reaching the copies
    we keep. Returns the removed sets' headers (an unreadable set is removed too). As in
    :func:`drop_sets`, the owner-decision generation moves on first, under the state lock."""
    with decided(root):  # the generation moves on first: a making under way keeps nothing
        return _drop_holding(root, session_name)


def _drop_holding(root: Path, session_name: str) -> list[dict[str, Any]]:
    key = key_of(session_name)[:16]
    stamp = _revoked(root)
    with contextlib.suppress(FileNotFoundError):
        os.close(os.open(stamp, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600))
        os.utime(stamp)
    dropped: list[dict[str, Any]] = []
    with contextlib.suppress(FileNotFoundError):
        for entry in os.scandir(_folder(root, "sets", False)):
            if not (len(entry.name) == 37 and entry.name.endswith(".json")):
                continue
            with contextlib.suppress(OSError, StateError):
                lines = read_set_lines(Path(entry.path))
                header = read_header(lines) if lines else None
                if header is None or key in str(header.get("sessions", "")).split(" "):
                    os.unlink(entry.path)
                    dropped.append(header or {})
    return dropped


def write_set(root: Path, header: dict[str, Any], items: list[dict[str, Any]]) -> Path:
    """Write a set: the header line, then one line per item. The header's ``offsets`` is
    where each item line starts after the header line (8 hex digits an item), so the hot
    path reads the header and the few candidate lines, never the whole file."""
    if header.get("scope") == "agent":
        path = agent_set_path(root, header["runtime"], header["agent_id"], header["project_id"],
                              create=True)  # fmt: skip
    else:
        path = set_path(root, header["runtime"], header["session_id"], create=True)
    body = [(json.dumps(item, ensure_ascii=False) + "\n").encode("utf-8", "surrogatepass")
            for item in items]  # fmt: skip
    offsets, at = [], 0
    for line in body:
        offsets.append(f"{at:08x}")
        at += len(line)
    head = json.dumps({**header, "offsets": "".join(offsets)}, ensure_ascii=False)
    data = (head + "\n").encode("utf-8", "surrogatepass") + b"".join(body)
    write_atomic(path.parent, path.name, data, prefix=".set-", what="a guard set")
    return path


class SetLines:
    """A set file's lines by number (0: the header) over a read-only map of the file:
    item ``n`` is cut at the header's ``offsets`` entry, so a 10,000-item set costs its
    header and the lines asked for, not a read and split of every line."""

    def __init__(self, view: Any, size: int) -> None:
        self._view, self._size = view, size
        end = view.find(b"\n")
        self._head = bytes(view[: end if end >= 0 else size])
        self._body = len(self._head) + 1
        self._header: object = None
        self._offsets: str | None = None

    def header(self) -> object:
        """The header line parsed (once: :func:`read_header` and the offsets share it);
        raises :class:`JsonInputError` when it is not JSON."""
        if self._header is None:
            self._header = loads(self._head)
        return self._header

    def _table(self) -> str:
        if self._offsets is None:
            try:
                header = self.header()
            except JsonInputError:
                header = None
            table = header.get("offsets") if isinstance(header, dict) else None
            self._offsets = table if isinstance(table, str) and len(table) % 8 == 0 else ""
        return self._offsets

    def __len__(self) -> int:
        return 1 + len(self._table()) // 8

    def __getitem__(self, number: int) -> bytes:
        if number == 0:
            return self._head
        if not 0 < number < len(self):
            raise IndexError(number)
        try:
            start = self._body + int(self._table()[8 * (number - 1) : 8 * number], 16)
        except ValueError:
            return b""
        end = self._view.find(b"\n", start) if start < self._size else -1
        return bytes(self._view[start : end if end >= 0 else start])


def read_set_lines(path: Path) -> SetLines | None:
    """The set at ``path`` (None when missing), never through a link, private to you."""
    import mmap

    view = open_private(path, _MAX_SET_BYTES, "a guard set")
    if view is None:
        return None
    descriptor, size = view
    try:
        if size == 0:
            return SetLines(b"", 0)
        return SetLines(mmap.mmap(descriptor, size, access=mmap.ACCESS_READ), size)
    except (OSError, ValueError) as exc:
        raise StateError("a guard set could not be read") from exc
    finally:
        os.close(descriptor)


def read_header(lines: SetLines | list[bytes]) -> dict[str, Any] | None:
    try:
        header = lines.header() if isinstance(lines, SetLines) else loads(lines[0])
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
    with contextlib.suppress(FileNotFoundError):
        os.unlink(_folder(root, "sessions", False) / f"{key_of(runtime, session_id)}.lock")
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


def session_lock(root: Path, runtime: str, session_id: str, timeout: float) -> Any:
    """The session record's lock (``sessions/<key>.lock``, an exclusive ``flock``): a
    guarded call holds it from its read of the record to its write, so parallel calls of
    one session lose no update (issue 39). Raises :class:`StateError` after ``timeout``."""
    folder = _folder(root, "sessions", True)
    return locked(folder / f"{key_of(runtime, session_id)}.lock", timeout, "a guard record lock")


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
