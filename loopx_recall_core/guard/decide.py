# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The guard's decision: does a proposed shell command repeat an unsuperseded failure?

The comparison is replan's, the one function both call: the proposed command redacted
(:func:`~loopx_recall_core.recall.replan.relation.proposed_route`), each item related
(:func:`~loopx_recall_core.recall.replan.relation.relate_parsed`, its header read
redacted) and :func:`~loopx_recall_core.recall.replan.relation.verdict_of` over the
relations, run on the session's prior-outcome set. Each candidate item is read once.
Only items whose header names one of the proposed command's programs are parsed: any
other item can be neither the same route nor a near miss (both need a shared program),
and a headerless item can at most be "mentioned", which never warns.

On top of replan's ``repeats_prior_failure`` the guard asks two things replan leaves to
its caller: a failure that a later success of the same route superseded is no reason to
warn, and what the failing session ran successfully next on the same program and targets
(a near route, never a step that itself failed) is offered as the way past.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from loopx_recall_core.jsonio import JsonInputError, loads
from loopx_recall_core.recall.replan.relation import proposed_route, relate_parsed, verdict_of
from loopx_recall_core.recall.replan.routes import Route, near_route
from loopx_recall_core.recall.replan.snippets import ParsedSnippet, parse_snippet

__all__ = [
    "MAX_WARNING_CHARS",
    "Match",
    "find_repeat",
    "index_items",
    "programs_of",
    "warning_text",
]

MAX_WARNING_CHARS = 600


def programs_of(route: Route | None) -> list[str]:
    """The programs a command route runs (the set index's keys)."""
    if route is None or route.kind != "command":
        return []
    return sorted({segment.program for segment in route.segments})


def index_items(items: list[dict[str, Any]], root: str | None) -> dict[str, str]:
    """The set's index: program -> the line numbers (1-based; line 0 is the header) of the
    items whose header runs it, as one space-separated string. A string, not a list: the
    hot path reads the header with the strict reader, which checks every JSON integer, and
    only the proposed command's programs are ever split (10,000 items: 5 ms saved)."""
    index: dict[str, list[str]] = {}
    for number, item in enumerate(items, start=1):
        for program in programs_of(parse_snippet(item["snippet"], root).route):
            index.setdefault(program, []).append(str(number))
    return {program: " ".join(numbers) for program, numbers in index.items()}


def _numbers(entry: object) -> set[int]:
    if not isinstance(entry, str):
        return set()
    return {int(word) for word in entry.split(" ") if word.isdigit() and len(word) <= 9}


class Match:
    """A prior failure the proposed command repeats, and what succeeded after it."""

    __slots__ = ("failure", "next_success", "verdict")

    def __init__(
        self, verdict: str, failure: dict[str, Any] | None, next_success: dict[str, Any] | None
    ):
        self.verdict = verdict
        self.failure = failure
        self.next_success = next_success


def _instant(value: object) -> float | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def _candidates(
    header: dict[str, Any], lines: Any, programs: list[str]
) -> list[tuple[int, dict]]:
    index = header.get("index")
    if not isinstance(index, dict):
        return []
    numbers = sorted(set().union(*(_numbers(index.get(p)) for p in programs)))
    items = []
    for number in numbers:
        if 0 < number < len(lines):
            try:
                item = loads(lines[number])
            except JsonInputError:
                continue
            if isinstance(item, dict) and isinstance(item.get("snippet"), str):
                items.append((number, item))
    return items


class _Reader:
    """Each candidate line loaded and its snippet parsed once per decision."""

    def __init__(
        self, header: dict[str, Any], lines: Any, root: str | None, skip: str | None = None
    ) -> None:
        self.header, self.lines, self.root, self.skip = header, lines, root, skip
        self._parsed: dict[int, tuple[dict, ParsedSnippet]] = {}

    def items(self, programs: list[str]) -> list[tuple[dict, ParsedSnippet]]:
        found = []
        for number, item in _candidates(self.header, self.lines, programs):
            if self.skip is not None and item.get("session") == self.skip:
                continue
            if number not in self._parsed:
                self._parsed[number] = (item, parse_snippet(item["snippet"], self.root))
            found.append(self._parsed[number])
        return found


def find_repeat(
    command: str, header: dict[str, Any], lines: Any, *, current_session: str | None = None
) -> Match:
    """Replan's verdict for ``command`` against the set, and the unsuperseded failure it
    repeats (the most recent one), if any. Items of ``current_session`` are skipped (the
    agent's set holds every session; the session's own set never holds its own)."""
    root = header.get("repository_root") if isinstance(header.get("repository_root"), str) else None
    route = proposed_route(command, root)
    reader = _Reader(header, lines, root, current_session)
    related = [
        (item, parsed, relate_parsed(route, parsed, item["snippet"], str(item.get("type"))))
        for item, parsed in reader.items(programs_of(route))
    ]
    related = [entry for entry in related if entry[2] is not None]
    verdict, _reason = verdict_of(
        [relation for _, _, relation in related],
        header.get("freshness"),
        truncated=bool(header.get("truncated")),
    )
    if verdict != "repeats_prior_failure":
        return Match(verdict, None, None)
    successes = [
        _instant(item.get("at"))
        for item, parsed, relation in related
        if relation == "same_route" and parsed.failed is False
    ]
    failures = [(item, parsed) for item, parsed, relation in related
                if relation == "same_route_failed"]  # fmt: skip
    live = []
    for failure in failures:
        failed_at = _instant(failure[0].get("at"))
        superseded = failed_at is not None and any(
            at is not None and at > failed_at for at in successes
        )
        if not superseded:
            live.append(failure)
    if not live:
        return Match("superseded", None, None)
    failure, parsed = max(live, key=lambda entry: _instant(entry[0].get("at")) or 0.0)
    return Match(verdict, failure, _next_success(failure, parsed, reader))


def _next_success(
    failure: dict[str, Any], failed_parsed: ParsedSnippet, reader: _Reader
) -> dict[str, Any] | None:
    """The failing session's first later step on the same surface (a near route: same
    program and targets) that succeeded; a later step that failed is never offered."""
    failed = failed_parsed.route
    failed_at = _instant(failure.get("at"))
    if failed is None or failed_at is None:
        return None
    best: tuple[float, dict[str, Any]] | None = None
    for item, parsed in reader.items(programs_of(failed)):
        at = _instant(item.get("at"))
        if item.get("session") != failure.get("session") or at is None or at <= failed_at:
            continue
        if item.get("type") == "prior_failure" or parsed.failed is not False:
            continue
        near = parsed.route is not None and near_route(failed, parsed.route)
        if near and (best is None or at < best[0]):
            best = (at, item)
    return best[1] if best else None


def _ago(seconds: float) -> str:
    if seconds < 3600:
        return f"{max(int(seconds // 60), 1)} min ago"
    if seconds < 2 * 86400:
        return f"{int(seconds // 3600)} h ago"
    return f"{int(seconds // 86400)} days ago"


def _command_line(snippet: str) -> str:
    header = snippet.split("\n", 1)[0]
    return header.partition(": ")[2] or header


def _error_lines(snippet: str, count: int = 3) -> str:
    lines = [line for line in snippet.split("\n")[2:] if line.strip()]
    return " | ".join(line.strip() for line in lines[:count])


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


def warning_text(match: Match, now: float) -> str:
    """At most :data:`MAX_WARNING_CHARS` characters: how long ago, the failing command,
    the first lines of its error, and what succeeded next in that session."""
    failure = match.failure or {}
    at = _instant(failure.get("at"))
    when = _ago(now - at) if at is not None else "earlier"
    snippet = str(failure.get("snippet", ""))
    parts = [
        f"loopx-recall guard: this command repeats one that failed {when} in an earlier "
        "session of this agent in this repository.",
        "Failed: " + _cut(_command_line(snippet), 200),
    ]
    error = _error_lines(snippet)
    if error:
        parts.append("Error: " + _cut(error, 180))
    if match.next_success is not None:
        parts.append(
            "Succeeded next in that session: "
            + _cut(_command_line(str(match.next_success.get("snippet", ""))), 140)
        )
    return _cut("\n".join(parts), MAX_WARNING_CHARS)
