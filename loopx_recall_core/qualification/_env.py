# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Process environment overrides for the duration of a block.

Providers read ``HOME`` and their runtime's variables from ``os.environ`` when they spawn
it, so pointing one at a corpus archive means setting them here and restoring them after.
The harness sets them once per family, around that family's whole (threaded) run.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

__all__ = ["environment"]


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
