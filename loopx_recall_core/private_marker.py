# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The owner's private marker, ``loopx-recall:private``: written anywhere in a session (a
user or assistant message, a command, a tool's output, at any offset), it keeps the whole
session out of recall and out of every copy we keep (docs/security-model.md, "Sessions you
mark private").

One home for the word and for reading a transcript file for it: the provider plugin reads
it when it answers (through :mod:`loopx_recall_core.plugin_api`), and the claiming hook at
a turn's or session's end reads the session's own transcript for it, so every copy we
keep of that session (the guard's sets, the stored private results) goes at once, before
any index has taken the marker in, by the path ``session forget`` takes
(:mod:`loopx_recall_core.guard.prefetch`,
:mod:`loopx_recall_core.guard.session_copies`); the guard's own calls in the session
read what its transcript gained too (:mod:`loopx_recall_core.guard.hotpath`). Standard
library only (and, for a hook's transcript, the runtime records, which the hot path
loads anyway: :mod:`loopx_recall_core.runtimes`); files are read as regular files, never
a FIFO, and never through a link, but for a transcript a runtime's hook names whose link
stays inside that runtime's own folders (``~/.claude``, ``~/.codex`` or where their
variables move them).
"""

from __future__ import annotations

import os
import stat
from typing import Any

__all__ = ["PRIVATE_MARKER", "file_holds_marker", "holds_marker", "runtime_folders", "scan_file"]

PRIVATE_MARKER = "loopx-recall:private"
_MARKER = PRIVATE_MARKER.encode()
_BLOCK = 1 << 20


def holds_marker(handle: Any) -> bool:
    """Whether the rest of ``handle`` (binary) holds the marker: read in 1 MiB blocks, each
    joined to the end of the one before so a marker across two blocks is found."""
    tail = b""
    while block := handle.read(_BLOCK):
        if _found(tail, block):
            return True
        tail = block[-(len(_MARKER) - 1) :]
    return False


def _found(tail: bytes, block: bytes) -> bool:
    """The marker in ``block``, or across the end of the block before (``tail``): only
    the join's few bytes are copied, not the block."""
    return _MARKER in block or _MARKER in tail + block[: len(_MARKER) - 1]


def runtime_folders(runtime: str) -> tuple[str, ...]:
    """The real paths of the runtime's own folders (its config folder: ``~/.claude`` or
    ``$CLAUDE_CONFIG_DIR``, which holds ``projects/``; ``~/.codex`` or ``$CODEX_HOME``,
    which holds ``sessions/``): where a transcript the hook names may lead through a link.
    None for a runtime we install no hooks for."""
    from loopx_recall_core.runtimes import config_folder

    try:
        return (os.path.realpath(config_folder(runtime)),)
    except (ValueError, OSError, RuntimeError):
        return ()


def _resolved(path: str, within: tuple[str, ...]) -> str | None:
    """``path`` to open: as it is when no part of it is a link; its real path when one is
    and that real path is inside one of ``within`` (the runtime's own folders: a
    ``~/.claude`` kept elsewhere and linked, a linked project folder); None otherwise (a
    link that leads out of them, to any file of the user's, is never read)."""
    try:
        real = os.path.realpath(path)
        if real == os.path.abspath(path):
            return path
    except (OSError, ValueError):
        return None
    return real if any(real.startswith(folder + os.sep) for folder in within) else None


def _open_regular(path: str, within: tuple[str, ...] = ()) -> int | None:
    try:
        target = _resolved(path, within)
        if target is None:
            return None
        descriptor = os.open(target, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except (OSError, ValueError):
        return None
    try:
        if stat.S_ISREG(os.fstat(descriptor).st_mode):
            return descriptor
    except OSError:
        pass
    os.close(descriptor)
    return None


def file_holds_marker(path: str) -> bool:
    """Whether the regular file at ``path`` holds the marker (no link followed, no FIFO
    opened); False when it cannot be read."""
    descriptor = _open_regular(path)
    if descriptor is None:
        return False
    with os.fdopen(descriptor, "rb") as handle:
        return holds_marker(handle)


def scan_file(
    path: str, start: int, max_bytes: int, runtime: str | None = None
) -> tuple[bool, int] | None:
    """Read the regular file at ``path`` from ``start`` (the end of an earlier scan; from 0
    when the file is now shorter: it was rewritten) for at most ``max_bytes``: ``(found,
    where the next scan starts)``. A scan resumes a marker's length before where the last
    one ended, so a marker cut by the last end is found. None when it cannot be read.
    With ``runtime`` (the transcript a hook of that runtime names) a path through a link
    is followed when it stays inside the runtime's own folders (:func:`runtime_folders`),
    and refused otherwise; without, never."""
    descriptor = _open_regular(path, runtime_folders(runtime) if runtime else ())
    if descriptor is None:
        return None
    with os.fdopen(descriptor, "rb") as handle:
        size = os.fstat(descriptor).st_size
        begin = max(start - (len(_MARKER) - 1), 0) if 0 <= start <= size else 0
        handle.seek(begin)
        read = 0
        tail = b""
        while read < max_bytes and (block := handle.read(min(_BLOCK, max_bytes - read))):
            if _found(tail, block):
                return True, begin + read + len(block)
            read += len(block)
            tail = block[-(len(_MARKER) - 1) :]
        return False, begin + read
