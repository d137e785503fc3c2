# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Text for a terminal and pretty JSON, on the standard library alone: the command line
prints through them (:mod:`loopx_recall_core.cli._render` re-exports them), and so does
``python3 -m loopx_recall_core.cleanup``, which runs where no dependency is installed."""

from __future__ import annotations

import json
import re
from typing import Any

from loopx_recall_core.canonical import escape_lone_surrogates

__all__ = ["dumps", "terminal_text"]

#: What a terminal acts on instead of showing: the C0 controls but newline and tab (ESC
#: starts OSC 52 clipboard writes, title changes, screen clears; CR and BS overwrite what
#: was shown), DEL, the C1 controls (0x9b is a CSI, 0x9d an OSC), the bidi embeddings,
#: overrides and isolates (they reorder the text around them), and lone surrogates (which
#: UTF-8 cannot encode: printing one would fail).
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_text(text: str) -> str:
    """``text`` for a terminal: each character of :data:`_UNSAFE` shown as its escape
    (ESC as the four characters ``\\x1b``, U+202E as ``\\u202e``); newline and tab kept.

    Every text rendering goes through it (:func:`loopx_recall_core.cli._common.emit`,
    :func:`status_output`), since snippets, session refs and other transcript text reach
    the operator's terminal there. JSON output does not: it is for programs, and
    ``json.dumps`` already escapes the C0 controls.
    """
    return _UNSAFE.sub(_visible, text)


def dumps(data: Any) -> str:
    """Pretty JSON; a lone surrogate is escaped as JavaScript does (UTF-8 cannot hold it)."""
    return escape_lone_surrogates(json.dumps(data, ensure_ascii=False, indent=2))
