# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A provider's small private cache: JSON values kept between runs under the state root.

``<state root>/providers/<provider id>/<name>.json``, written and read by the same rules as
all state (owner-only folders, ``O_NOFOLLOW``, atomic 0600 writes). A cache only saves
work, so it never fails the caller: a missing, damaged or refused file reads as a miss, a
write that cannot happen is dropped, and nothing is created unless the state root exists
already (a fresh machine's ``capability status`` creates nothing).
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from loopx_recall_core.jsonio import JsonInputError, loads
from loopx_recall_core.private_files import StateError, check_folder, read_file, write_atomic
from loopx_recall_core.private_files import ensure_subfolder as _ensure_subfolder
from loopx_recall_core.state import StateStore, dump_private_json, state_root

__all__ = ["ProviderCache", "enabled_bindings"]

_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,63}\Z")
_MAX_BYTES = 16 * 1024 * 1024
_TEMP = ".c-"
#: A temp file this old belongs to a writer that died (a provider thread cut off at exit).
_ORPHAN_AGE_S = 60.0


def _sweep_orphans(folder: Path) -> None:
    now = time.time()
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            if not entry.name.startswith(_TEMP):
                continue
            with contextlib.suppress(OSError):
                info = entry.stat(follow_symlinks=False)
                if stat.S_ISREG(info.st_mode) and now - info.st_mtime > _ORPHAN_AGE_S:
                    os.unlink(entry.path)


class ProviderCache:
    """Named JSON values private to one provider; every problem is a miss, never an error."""

    def __init__(self, provider_id: str, root: Path | None = None) -> None:
        if not _NAME.match(provider_id):
            raise ValueError("a provider id for a cache is lower-case letters, digits and '-'")
        self._root = root
        self._provider_id = provider_id

    def _folder(self) -> Path:
        return (self._root or state_root()) / "providers" / self._provider_id

    def load(self, name: str) -> Any | None:
        """The value stored under ``name``, or None."""
        path = self._folder() / f"{self._checked(name)}.json"
        try:
            for folder in (path.parent.parent.parent, path.parent.parent, path.parent):
                if not check_folder(folder, "a loopx private folder"):
                    return None
            data = read_file(path, _MAX_BYTES, "a provider cache file", owner_only=True)
            return None if data is None else loads(data)
        except (StateError, JsonInputError):
            return None

    def store(self, name: str, value: Any) -> None:
        """Keep ``value`` under ``name`` (dropped silently when it cannot be written)."""
        name = self._checked(name)
        root = self._root or state_root()
        try:
            if not check_folder(root):
                return
            # never the state folder itself: one removed meanwhile stays removed
            folder = _ensure_subfolder(root, "providers", self._provider_id, create_root=False)
            _sweep_orphans(folder)
            write_atomic(
                folder, f"{name}.json", dump_private_json(value), prefix=_TEMP, what="a cache"
            )
        except StateError:
            return

    @staticmethod
    def _checked(name: str) -> str:
        if not _NAME.match(name):
            raise ValueError("a cache name is lower-case letters, digits and '-'")
        return name


def enabled_bindings(provider_id: str) -> list[Mapping[str, Any]]:
    """The bindings stored for this provider's enablements, oldest first; ``[]`` when
    there are none or the state cannot be read. For commands that run a provider without
    an enablement at hand (``extension list``, qualification) and want its configuration.
    """
    try:
        state = StateStore().read()
    except StateError:
        return []
    return [e.binding for e in state.enablements if e.provider_id == provider_id]
