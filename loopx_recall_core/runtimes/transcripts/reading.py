# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""What the per-runtime transcript readers (``read_*`` in :mod:`.claude`, :mod:`.codex`)
share: a transcript's JSON object lines, a tool output's text, whether a shell call
failed, and the shape they return (:data:`Read`). Standard library only."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from loopx_recall_core.runtimes import failed

__all__ = ["Call", "Read", "call_failed", "json_lines", "output_text"]

#: One shell call read back: ``(command, failed, the call's timestamp)``.
Call = tuple[str, bool, str]
#: What a reader returns: ``(the session's working folder or None, its shell calls in
#: order, every line timestamp)``.
Read = tuple[str | None, list[Call], list[str]]


def json_lines(text: str) -> Iterator[dict[str, Any]]:
    """The lines of ``text`` that are JSON objects (others are skipped)."""
    for raw in text.splitlines():
        try:
            value = json.loads(raw)
        except ValueError:
            continue
        if isinstance(value, dict):
            yield value


def output_text(content: object) -> str:
    """A tool output as text: a list of blocks joins their ``text``."""
    if isinstance(content, list):
        return "\n".join(str(block.get("text", "")) for block in content if isinstance(block, dict))
    return str(content or "")


def call_failed(output: str, is_error: object) -> bool:
    """Failed: the transcript's ``is_error`` is true, or the output carries a non-zero
    exit status in any runtime's form (:func:`loopx_recall_core.runtimes.failed`)."""
    return failed(output, is_error is True) is True
