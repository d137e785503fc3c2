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
warn, and what the failing session did next that succeeded (its next one to three
successful steps, whatever their program, never a step that itself failed: the
failure's ``next``, :func:`successors`) is said as what happened.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from loopx_recall_core.jsonio import JsonInputError, loads
from loopx_recall_core.recall.replan.relation import proposed_route, relate_parsed, verdict_of
from loopx_recall_core.recall.replan.snippets import ParsedSnippet, outcome_of, parse_snippet
from loopx_recall_core.routes import Route

__all__ = [
    "MAX_WARNING_CHARS",
    "Match",
    "find_repeat",
    "index_items",
    "programs_of",
    "successors",
    "warning_text",
    "with_successors",
]

#: How many of the failing session's next successful steps a warning names.
NEXT_STEPS = 3

#: What the steps the failing session took next keep of the warning, at least, when it has
#: some (the error takes the rest).
NEXT_ROOM = 160
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


def successors(items: list[dict[str, Any]], root: str | None) -> dict[str, str]:
    """Each failure's ``next``, made with the set (off the hot path) and kept in the
    failure's own line (:func:`with_successors`): by the failure's line number, the line
    numbers of the next :data:`NEXT_STEPS` steps of its session that succeeded, whatever
    their program (a step that itself failed is skipped), as one space-separated string.
    What the failing session did next is what makes a warning useful (issue 28 item 8)."""
    by_session: dict[object, list[tuple[float, int, bool | None, str]]] = {}
    for number, item in enumerate(items, start=1):
        at = _instant(item.get("at"))
        if at is None:
            continue
        tool, failed = outcome_of(item["snippet"])  # no route: 10,000 items in ~0.1 s
        failed = True if item.get("type") == "prior_failure" else failed
        by_session.setdefault(item.get("session"), []).append((at, number, failed, tool or ""))
    table: dict[str, str] = {}
    for steps in by_session.values():
        steps.sort()
        for index, (_at, number, failed, _tool) in enumerate(steps):
            if failed is not True:
                continue
            later = [n for _a, n, f, tool in steps[index + 1 :] if f is False and tool][:NEXT_STEPS]
            if later:
                table[str(number)] = " ".join(str(n) for n in later)
    return table


def with_successors(items: list[dict[str, Any]], root: str | None) -> list[dict[str, Any]]:
    """``items`` with each failure's ``next`` (:func:`successors`) in it."""
    table = successors(items, root)
    return [
        {**item, "next": table[str(n)]} if str(n) in table else item
        for n, item in enumerate(items, start=1)
    ]


def _numbers(entry: object) -> set[int]:
    if not isinstance(entry, str):
        return set()
    return {int(word) for word in entry.split(" ") if word.isdigit() and len(word) <= 9}


class Match:
    """A prior failure the proposed command repeats, and what its session did next that
    succeeded (up to :data:`NEXT_STEPS` items, in order)."""

    __slots__ = ("failure", "next_steps", "verdict")

    def __init__(
        self, verdict: str, failure: dict[str, Any] | None, next_steps: list[dict[str, Any]]
    ):
        self.verdict = verdict
        self.failure = failure
        self.next_steps = next_steps


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
        return Match(verdict, None, [])
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
        return Match("superseded", None, [])
    failure, _parsed = max(live, key=lambda entry: _instant(entry[0].get("at")) or 0.0)
    return Match(verdict, failure, _next_steps(failure, lines))


def _next_steps(failure: dict[str, Any], lines: Any) -> list[dict]:
    """The failing session's next successful steps (the failure's ``next`` lines)."""
    steps = []
    for later in sorted(_numbers(failure.get("next")))[:NEXT_STEPS]:
        if 0 < later < len(lines):
            try:
                item = loads(lines[later])
            except JsonInputError:
                continue
            if isinstance(item, dict) and isinstance(item.get("snippet"), str):
                steps.append(item)
    steps.sort(key=lambda item: _instant(item.get("at")) or 0.0)
    return steps


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
    # the prior outcome first: the error gets the room the next steps leave it, and they
    # keep at least NEXT_ROOM characters when there are some
    steps = [_command_line(str(step.get("snippet", ""))) for step in match.next_steps]
    then = ("Then in that session, succeeded: " + " ; ".join(steps)) if steps else ""
    error = _error_lines(snippet)
    reserve = min(len(then), NEXT_ROOM) + 1 if then else 0
    room = MAX_WARNING_CHARS - len("\n".join(parts)) - len("\nError: ") - reserve
    if error and room > 0:
        parts.append("Error: " + _cut(error, room))
    if then:
        parts.append(_cut(then, max(MAX_WARNING_CHARS - len("\n".join(parts)) - 1, 0)))
    return _cut("\n".join(parts), MAX_WARNING_CHARS)
