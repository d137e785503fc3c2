# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The private hook log (``<state root>/private/hooks.log``): one content-free line per
runtime hook run (an outcome code; no id, no path, no payload content).

Standard library and the state-folder rules only: the guard's hot path writes here too.
"""

from __future__ import annotations

import contextlib
import os
import stat
from datetime import UTC, datetime
from pathlib import Path

from loopx_recall_core.private_files import ensure_subfolder

__all__ = ["LOG_NAME", "read", "write"]

LOG_NAME = "hooks.log"
_ROTATE_BYTES = 256 * 1024
_NOFOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC


def write(root: Path, message: str) -> None:
    """Append ``<UTC time> <message>`` (ASCII; rotated once past 256 KiB)."""
    folder = ensure_subfolder(root, "private")
    path = folder / LOG_NAME
    with contextlib.suppress(FileNotFoundError):
        info = os.lstat(path)
        if stat.S_ISREG(info.st_mode) and info.st_size > _ROTATE_BYTES:
            os.replace(path, folder / f"{LOG_NAME}.1")
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW, 0o600)
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
            return
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        os.write(descriptor, f"{stamp} {message}\n".encode("ascii", "replace"))
    finally:
        os.close(descriptor)


def read(root: Path) -> list[str]:
    try:
        return (root / "private" / LOG_NAME).read_text(encoding="ascii").splitlines()
    except FileNotFoundError:
        return []
