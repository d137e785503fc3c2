# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Process environment overrides for the duration of a block (the harness is single-threaded).

Providers read ``HOME`` and their runtime's variables from ``os.environ`` when they spawn
it, so pointing one at a corpus archive means setting them here and restoring them after.
The Obelisk protocol double takes its fault switch from a settings file under that
``HOME`` instead (the product forwards no test-only variable to the binary):
:func:`double_fault` writes it for a block.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

__all__ = ["DOUBLE_SETTINGS_FILE", "double_fault", "environment"]

#: The protocol double's settings file, relative to the HOME it runs with. A real
#: Obelisk never reads it, so a fault set here changes nothing for a real runtime.
DOUBLE_SETTINGS_FILE = ".obelisk-double.json"


@contextlib.contextmanager
def environment(**values: str | None) -> Iterator[None]:
    """Set (``None``: remove) each variable, restore every one afterwards."""
    saved = {name: os.environ.get(name) for name in values}
    try:
        for name, value in values.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextlib.contextmanager
def double_fault(home: Path, fault: str | None) -> Iterator[None]:
    """Set the double's fault (``None``: none) under ``home``; restore the file afterwards."""
    path = home / DOUBLE_SETTINGS_FILE
    try:
        saved: bytes | None = path.read_bytes()
    except FileNotFoundError:
        saved = None
    try:
        if fault is None:
            path.unlink(missing_ok=True)
        else:
            path.write_text(json.dumps({"fault": [fault]}), encoding="utf-8")
        yield
    finally:
        if saved is None:
            path.unlink(missing_ok=True)
        else:
            path.write_bytes(saved)
