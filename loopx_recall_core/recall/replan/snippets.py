# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Replan's reader of the snippet convention (v0) providers follow: the convention is
written out in :mod:`loopx_recall_core.snippet_rules`, next to its writing side.

``decision`` and ``summary`` items are free text without a header. Replan reads no route
from them: it only looks for the proposed route's program and targets in the text, which
can support a near miss ("mentioned"), never a repeat. The same holds for any item whose
first line does not match the header form.
"""

from __future__ import annotations

import re
import shlex
from typing import NamedTuple

from loopx_recall_core.routes import Route, command_route, edit_route
from loopx_recall_core.snippet_rules import CUT, SHELL_TOOLS

__all__ = ["ParsedSnippet", "outcome_of", "parse_snippet"]

_HEADER = re.compile(r"([A-Za-z_][A-Za-z0-9_.-]{0,63}): (.*)\Z")
_OUTCOME = re.compile(r"outcome: (ok|failed)(?: \(exit (-?\d+)\))?\s*\Z")


class ParsedSnippet(NamedTuple):
    """What a snippet says: the route of its tool call (None without a header),
    whether line 2 reports a failure (None when there is no outcome line) and the exit
    status it names (None when it names none)."""

    tool: str | None
    route: Route | None
    failed: bool | None
    exit: int | None = None


def outcome_of(snippet: str) -> tuple[str | None, bool | None]:
    """The tool a snippet's header names and whether its line 2 reports a failure (None:
    no header, or no outcome line), without reading a route."""
    lines = snippet.split("\n", 2)
    header = _HEADER.match(lines[0].rstrip("\r"))
    if header is None:
        return None, None
    outcome = _OUTCOME.match(lines[1].strip()) if len(lines) > 1 else None
    return header.group(1), None if outcome is None else outcome.group(1) == "failed"


def parse_snippet(snippet: str, root: str | None = None) -> ParsedSnippet:
    """Read the header and outcome lines of a snippet written by the convention
    (:mod:`loopx_recall_core.snippet_rules`)."""
    lines = snippet.split("\n")
    # the header is read as stored: the recall service redacts every result before it
    # stores or compares it (recall/service.py), so redacting it again here would only put
    # the secret detector on the guard's hot path
    header = _HEADER.match(lines[0].rstrip("\r"))
    if header is None:
        return ParsedSnippet(tool=None, route=None, failed=None)
    tool, summary = header.group(1), header.group(2)
    complete = not summary.endswith(CUT)
    if not complete:
        summary = summary[: -len(CUT)]
    failed = exit_status = None
    if len(lines) > 1 and (outcome := _OUTCOME.match(lines[1].strip())) is not None:
        failed = outcome.group(1) == "failed"
        exit_status = None if outcome.group(2) is None else int(outcome.group(2))
    if tool.casefold() in SHELL_TOOLS:
        route = command_route(summary, root, complete=complete)
    else:
        route = edit_route(_paths(summary), root)._replace(complete=complete)
    return ParsedSnippet(tool=tool, route=route, failed=failed, exit=exit_status)


def _paths(summary: str) -> list[str]:
    try:
        return shlex.split(summary)
    except ValueError:
        return summary.split()
