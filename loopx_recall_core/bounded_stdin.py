# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Read standard input with a size bound and a deadline: a writer that never closes its
end (a stuck parent, a terminal left attached) cannot hold a process forever. The hooks
read their payload this way (:mod:`loopx_recall_core.guard.hotpath`,
:mod:`loopx_recall_core.session_hook`); so does the LoopX provider.

Standard library only, nothing imported beyond the interpreter's start-up modules.
"""

from __future__ import annotations

import os
import select
import sys
import time

__all__ = ["StdinTimeout", "read_bounded"]


class StdinTimeout(Exception):
    """Standard input did not reach its end before the deadline."""


def read_bounded(limit: int, timeout: float) -> bytes:
    """At most ``limit + 1`` bytes of stdin (a caller refuses more than ``limit``), read
    until its end; :class:`StdinTimeout` when the end does not come within ``timeout``
    seconds. A terminal or a closed stdin reads as empty."""
    try:
        descriptor = sys.stdin.fileno()
        if os.isatty(descriptor):
            return b""
    except (AttributeError, OSError, ValueError):
        return b""
    deadline = time.monotonic() + timeout
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([descriptor], [], [], remaining)[0]:
            raise StdinTimeout
        chunk = os.read(descriptor, min(65536, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)
