# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The guard's decision: does a proposed shell command repeat an unsuperseded failure?

The comparison is replan's (:func:`~loopx_recall_core.recall.replan.relation.relate` per
item, :func:`~loopx_recall_core.recall.replan.relation.verdict_of` over the relations), run
on the session's prior-outcome set. Only items whose header names one of the proposed
command's programs are parsed: any other item can be neither the same route nor a near
miss (both need a shared program), and a headerless item can at most be "mentioned",
which never warns.

On top of replan's ``repeats_prior_failure`` the guard asks two things replan leaves to
its caller: a failure that a later success of the same route superseded is no reason to
warn, and what the failing session ran successfully next on the same program and targets
(a near route, never a step that itself failed) is offered as the way past.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from loopx_recall_core.jsonio import JsonInputError, loads
from loopx_recall_core.recall.replan.relation import relate, verdict_of
from loopx_recall_core.recall.replan.routes import Route, command_route, near_route
from loopx_recall_core.recall.replan.snippets import parse_snippet

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


def _candidates(header: dict[str, Any], lines: list[bytes], programs: list[str]) -> list[dict]:
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
                items.append(item)
    return items


def find_repeat(command: str, header: dict[str, Any], lines: list[bytes]) -> Match:
    """Replan's verdict for ``command`` against the set, and the unsuperseded failure it
    repeats (the most recent one), if any."""
    root = header.get("repository_root") if isinstance(header.get("repository_root"), str) else None
    route = command_route(command, root)
    items = _candidates(header, lines, programs_of(route))
    related = [
        (item, relate(route, item["snippet"], str(item.get("type")), root)) for item in items
    ]
    related = [(item, relation) for item, relation in related if relation is not None]
    verdict, _reason = verdict_of(
        [relation for _, relation in related],
        header.get("freshness"),
        truncated=bool(header.get("truncated")),
    )
    if verdict != "repeats_prior_failure":
        return Match(verdict, None, None)
    successes = [
        _instant(item.get("at"))
        for item, relation in related
        if relation == "same_route" and parse_snippet(item["snippet"], root).failed is False
    ]
    failures = [item for item, relation in related if relation == "same_route_failed"]
    live = []
    for failure in failures:
        failed_at = _instant(failure.get("at"))
        superseded = failed_at is not None and any(
            at is not None and at > failed_at for at in successes
        )
        if not superseded:
            live.append(failure)
    if not live:
        return Match("superseded", None, None)
    failure = max(live, key=lambda item: _instant(item.get("at")) or 0.0)
    return Match(verdict, failure, _next_success(failure, header, lines, root))


def _next_success(
    failure: dict[str, Any], header: dict[str, Any], lines: list[bytes], root: str | None
) -> dict[str, Any] | None:
    """The failing session's first later step on the same surface (a near route: same
    program and targets) that succeeded; a later step that failed is never offered."""
    failed = parse_snippet(failure["snippet"], root).route
    failed_at = _instant(failure.get("at"))
    if failed is None or failed_at is None:
        return None
    best: tuple[float, dict[str, Any]] | None = None
    for item in _candidates(header, lines, programs_of(failed)):
        at = _instant(item.get("at"))
        if item.get("session") != failure.get("session") or at is None or at <= failed_at:
            continue
        parsed = parse_snippet(item["snippet"], root)
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


def _error_lines(snippet: str) -> str:
    """The snippet's output lines (3 and on), joined by `` | ``: for a failure the provider
    put its decisive lines first (:mod:`loopx_recall_core.decisive_lines`); a runtime
    header a snippet from elsewhere still carries is left out, and runs of blanks (pytest's
    ``E       ``) and ``===`` rules are shortened to save the warning's room."""
    from loopx_recall_core.runtimes.output import strip_header

    output = strip_header("\n".join(snippet.split("\n")[2:]))
    lines = (" ".join(line.strip(" =").split()) for line in output.split("\n"))
    return " | ".join(line for line in lines if line)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


def warning_text(match: Match, now: float) -> str:
    """At most :data:`MAX_WARNING_CHARS` characters: how long ago, the failing command,
    the decisive lines of its error (all the room the other parts leave), and what
    succeeded next in that session."""
    failure = match.failure or {}
    at = _instant(failure.get("at"))
    when = _ago(now - at) if at is not None else "earlier"
    snippet = str(failure.get("snippet", ""))
    parts = [
        f"loopx-recall guard: this command repeats one that failed {when} in an earlier "
        "session of this agent in this repository.",
        "Failed: " + _cut(_command_line(snippet), 160),
    ]
    if match.next_success is not None:
        parts.append(
            "Succeeded next in that session: "
            + _cut(_command_line(str(match.next_success.get("snippet", ""))), 120)
        )
    error = _error_lines(snippet)
    room = MAX_WARNING_CHARS - len("\n".join(parts)) - len("\nError: ")
    if error and room > 0:
        parts.insert(2, "Error: " + _cut(error, room))
    return _cut("\n".join(parts), MAX_WARNING_CHARS)
