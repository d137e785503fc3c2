# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Arm (c)'s reader: each runtime's raw transcripts, read directly.

This is the cost ceiling of RFC section 10 ("full native history"), never a product path:
no index, no provider, no limits. It lists every transcript under a home folder and
extracts shell tool calls with their outcome, so arm (c) can count the characters a model
would have to read and look for the proposed route among earlier failures.

Where each runtime's files lie is its record's (:func:`loopx_recall_core.runtimes.transcript_glob`);
how each runtime's format reads back is its reader's, in the runtimes' home
(:data:`loopx_recall_core.runtimes.transcripts.READERS`). This module names no runtime.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import attrs

from loopx_recall_core.runtimes import transcript_glob, transcripts_of
from loopx_recall_core.runtimes.transcripts import READERS

__all__ = ["NativeCall", "NativeTranscript", "read_transcripts"]


@attrs.frozen(kw_only=True)
class NativeCall:
    command: str
    failed: bool
    timestamp: str


@attrs.frozen(kw_only=True)
class NativeTranscript:
    runtime: str
    chars: int
    cwd: str | None
    last_timestamp: str
    calls: tuple[NativeCall, ...]


def read_transcripts(home: Path, sources: Sequence[str]) -> list[NativeTranscript]:
    """Every transcript of ``sources`` under ``home`` whose format has a reader, read whole."""
    found: list[NativeTranscript] = []
    for runtime in sources:
        parse = READERS.get(runtime)
        if parse is None or transcripts_of(runtime) is None:
            continue
        for path in sorted(home.glob(transcript_glob(runtime))):
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            cwd, calls, stamps = parse(text)
            found.append(
                NativeTranscript(
                    runtime=runtime,
                    chars=len(text),
                    cwd=cwd,
                    last_timestamp=max(stamps, default=""),
                    calls=tuple(
                        NativeCall(command=command, failed=failed, timestamp=stamp)
                        for command, failed, stamp in calls
                    ),
                )
            )
    return found
