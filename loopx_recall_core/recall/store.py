# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The owner-local private store: full recall results, mode 0600, bounded retention, and
the owner's receipt key.

Layout: ``<state root>/private/results/<agent key>/<request key>.json`` where both keys are
digests, so file names reveal neither agent ids nor request ids. Only the newest
``RETENTION_PER_AGENT`` records per agent are kept; pruning touches only regular files
named like the store's own records, in its own folders, and never follows a link.
``<state root>/private/receipt.key`` (:func:`loopx_recall_core.state.receipt_key`) holds 32
random bytes (0600) that key every public receipt digest (see
:mod:`loopx_recall_core.recall.receipts`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from pathlib import Path
from typing import Any

from loopx_recall_core.canonical import digest
from loopx_recall_core.jsonio import JsonInputError, loads
from loopx_recall_core.owner_decisions import committing, started
from loopx_recall_core.private_files import (
    StateError,
    check_folder,
    ensure_root,
    ensure_subfolder,
    read_file,
    write_atomic,
)
from loopx_recall_core.state import dump_private_json, receipt_key, state_root

__all__ = ["RETENTION_PER_AGENT", "PrivateStore"]

RETENTION_PER_AGENT = 200
_MAX_RECORD_BYTES = 16_000_000
_FOLDER_NAME = re.compile(r"[0-9a-f]{32}\Z")
_RECORD_NAME = re.compile(r"[0-9a-f]{32}\.json\Z")
_HANDLE = re.compile(r"private:([0-9a-f]{32})\Z")


def _key(value: str) -> str:
    return digest(value).removeprefix("sha256:")[:32]


class PrivateStore:
    """``since``: the owner-decision generation the recall that writes here started under
    (:func:`loopx_recall_core.owner_decisions.started`, read before the state and the
    ledger were); a record is kept only while it holds, under the state lock
    (:func:`~loopx_recall_core.owner_decisions.committing`). Without one, the first
    :meth:`begin` or :meth:`save` reads it."""

    def __init__(
        self,
        root: Path | None = None,
        retention: int = RETENTION_PER_AGENT,
        *,
        since: str | None = None,
    ) -> None:
        self.root = root or state_root()
        self.base = self.root / "private" / "results"
        self.retention = retention
        self.since = since
        #: made for a making that began in an existing state folder: never creates it
        self.making = since is not None

    def begin(self) -> None:
        """A recall starts: the generation it answers to, unless the caller read it first
        (before the state: see the class)."""
        if self.since is None:
            self.since = started(self.root)

    def save(self, agent_id: str, request_id: str, record: dict[str, Any]) -> str:
        """Write one record; returns the private reference (``private:<request key>``).
        :class:`~loopx_recall_core.owner_decisions.Superseded` (a StateError) when an
        owner decision came since :attr:`since`, or the state folder is gone: nothing is
        written, no folder made."""
        payload = dump_private_json(record)
        if not self.making:
            ensure_root(self.root)  # a command of the owner's makes its state folder
        self.begin()
        with committing(self.root, self.since):
            folder = ensure_subfolder(self.root, "private", "results", _key(agent_id))
            write_atomic(
                folder,
                f"{_key(request_id)}.json",
                payload,
                prefix=".r-",
                what="a loopx private record",
            )
            self._prune(folder)
        return f"private:{_key(request_id)}"

    def _prune(self, folder: Path) -> None:
        records = []
        with os.scandir(folder) as entries:
            for entry in entries:
                if _RECORD_NAME.match(entry.name) and entry.is_file(follow_symlinks=False):
                    info = entry.stat(follow_symlinks=False)
                    records.append((info.st_mtime_ns, entry.name))
        records.sort()
        for _mtime, name in records[: max(0, len(records) - self.retention)]:
            try:
                os.unlink(folder / name)
            except FileNotFoundError:
                pass
            except OSError:
                raise StateError("cannot prune old loopx private records") from None

    def load(self, handle: str) -> dict[str, Any] | None:
        """The record for a request id or its ``private:<key>`` reference, or None.

        Reading creates nothing; a record that is not a JSON object is reported as
        corrupt (StateError), never parsed leniently.
        """
        keys = [_key(handle)]
        match = _HANDLE.match(handle)
        if match:
            keys.insert(0, match.group(1))
        what = "a loopx private folder"
        if not (
            check_folder(self.root)
            and check_folder(self.base.parent, what)
            and check_folder(self.base, what)
        ):
            return None
        try:
            with os.scandir(self.base) as entries:
                folders = sorted(
                    entry.name
                    for entry in entries
                    if _FOLDER_NAME.match(entry.name) and entry.is_dir(follow_symlinks=False)
                )
        except OSError:
            raise StateError("cannot list the loopx private records") from None
        for key in keys:
            for name in folders:
                raw = read_file(
                    self.base / name / f"{key}.json", _MAX_RECORD_BYTES, "a loopx private record"
                )
                if raw is None:
                    continue
                try:
                    record = loads(raw)
                except JsonInputError as exc:
                    raise StateError(
                        f"the stored private record is corrupt ({exc}); it was left untouched"
                    ) from None
                if not isinstance(record, dict):
                    raise StateError("the stored private record is corrupt; it was left untouched")
                return record
        return None

    def drop_holding(self, session_ref: str) -> int:
        """Remove every stored record (any agent's) whose result holds an item of the
        session the index names ``session_ref``; a record that cannot be read is removed
        too, as it may hold anything. Returns how many went. The whole record goes (its
        receipt covers every item, so it is never rewritten without some): ``recall show``
        of it then says there is no stored result, naming nothing."""
        needle = json.dumps(session_ref, ensure_ascii=False).encode("utf-8", "surrogatepass")
        what = "a loopx private folder"
        if not (
            check_folder(self.root)
            and check_folder(self.base.parent, what)
            and check_folder(self.base, what)
        ):
            return 0
        count = 0
        with contextlib.suppress(FileNotFoundError, NotADirectoryError):
            for folder in os.scandir(self.base):
                if not (_FOLDER_NAME.match(folder.name) and folder.is_dir(follow_symlinks=False)):
                    continue
                for entry in os.scandir(folder.path):
                    ours = _RECORD_NAME.match(entry.name) and entry.is_file(follow_symlinks=False)
                    if ours and self._holds(Path(entry.path), needle, session_ref):
                        with contextlib.suppress(FileNotFoundError):
                            os.unlink(entry.path)
                            count += 1
        return count

    @staticmethod
    def _holds(path: Path, needle: bytes, session_ref: str) -> bool:
        try:
            raw = read_file(path, _MAX_RECORD_BYTES, "a loopx private record")
        except StateError:
            return True
        if raw is None or needle not in raw:
            return False  # gone meanwhile, or the session is named nowhere in it
        try:
            record = loads(raw)
            items = record["result"]["items"]
            return any(item["session_ref"] == session_ref for item in items)
        except (JsonInputError, KeyError, TypeError):
            return True

    def receipt_key(self) -> bytes:
        """The owner's receipt key (:func:`loopx_recall_core.state.receipt_key`); for a
        making, never a state folder made again."""
        return receipt_key(self.root, create_root=not self.making)
