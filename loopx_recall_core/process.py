# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A command's process at its two edges: how a stop signal travels, and reading standard
input with a bound and a deadline. Standard library only, nothing imported beyond the
interpreter's start-up modules (and ``select``), so neither the command line's start-up
nor the guard's hot path pays for it.

How a stop signal travels: :class:`Stopped`, which plugin containment never swallows. The
command line turns SIGINT, SIGTERM and SIGHUP into :class:`Stopped` (a
:class:`SystemExit`, so ``finally`` blocks and atexit handlers still run). Plugin
containment catches everything a plugin raises, its own ``sys.exit()`` included, except
:data:`UNCONTAINED`: a signal that arrives while plugin code runs stops the command.

Reading standard input with a size bound and a deadline (:func:`read_bounded`): a writer
that never closes its end (a stuck parent, a terminal left attached) cannot hold a process
forever. The hooks read their payload this way (:mod:`loopx_recall_core.guard.hotpath`,
:mod:`loopx_recall_core.session_hook`); so does the LoopX provider.
"""

from __future__ import annotations

import os
import select
import sys
import time

__all__ = ["UNCONTAINED", "StdinTimeout", "Stopped", "read_bounded"]


class Stopped(SystemExit):
    """The command was stopped by a signal; its code is ``128 + signal number``."""


#: What containment of plugin code re-raises instead of recording the plugin as broken.
UNCONTAINED: tuple[type[BaseException], ...] = (KeyboardInterrupt, Stopped)


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
