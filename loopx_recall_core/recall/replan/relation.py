# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""How one history item relates to a proposed route, and the verdict the relations give.

The ONE comparison: :func:`~loopx_recall_core.recall.replan.comparison.compare` (what
``recall replan`` runs) and the repetition guard's PreToolUse decision
(:mod:`loopx_recall_core.guard.decide`) both take the proposed route from
:func:`proposed_route` (redacted first, :func:`~loopx_recall_core.redaction.redact_command`),
call :func:`relate` per item (its snippet read as the recall service stored it: redacted)
and :func:`verdict_of` over the relations; the table of relations and verdicts is in
:mod:`.comparison`. Both sides are compared as redacted text: the recall service keeps
only redacted snippets, so a
command that carries a secret (``curl -H 'Authorization: Bearer ...'``) matches its
stored prior. This module imports no contract record (no cattrs), so the guard's hot
path can load it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal

from loopx_recall_core.recall.replan.snippets import ParsedSnippet, parse_snippet
from loopx_recall_core.redaction import redact_command
from loopx_recall_core.routes import (
    Route,
    command_route,
    hypothesis_keywords,
    keyword_overlap,
    near_route,
    same_route,
    step_route,
)
from loopx_recall_core.routes.wrappers import TIMED_OUT
from loopx_recall_core.snippet_rules import one_line_command

if TYPE_CHECKING:
    from loopx_recall_core.contracts.replan import Step

__all__ = ["Relation", "proposed_route", "relate", "relate_parsed", "verdict_of"]

Relation = Literal["same_route_failed", "same_route", "near_miss", "mentioned"]


def proposed_route(step: str | Step, root: str | None) -> Route:
    """The route of a proposed step (a command line, or a replan ``Step``) as it is
    compared: its text redacted first, as every stored snippet is."""
    if isinstance(step, str):
        # on one line, as every stored header is (snippet_rules.one_line_command): a
        # here-document is then read the same way on both sides
        return command_route(_one_line(redact_command(step)), root)
    import attrs  # replan's path only: the guard passes a command line

    return step_route(
        attrs.evolve(
            step,
            command=None if step.command is None else _one_line(redact_command(step.command)),
            hypothesis=None if step.hypothesis is None else redact_command(step.hypothesis),
        ),
        root,
    )


def _one_line(command: str) -> str:
    """``command`` on one line, as a stored header holds it (unchanged when that would
    leave nothing: ``str.strip`` also takes control separators such as U+001F)."""
    return one_line_command(command) or command


def relate(route: Route, snippet: str, evidence_type: str, root: str | None) -> Relation | None:
    """The relation of one item (its snippet and evidence type) to ``route``, or None."""
    return relate_parsed(route, parse_snippet(snippet, root), snippet, evidence_type)


def relate_parsed(
    route: Route, parsed: ParsedSnippet, snippet: str, evidence_type: str
) -> Relation | None:
    """:func:`relate` for a snippet already read (the guard reads each item once)."""
    if parsed.route is None:
        return "mentioned" if _mentions(route, snippet) else None
    if same_route(route, parsed.route):
        # An edit's content is unknown: the same files edited again is never a repeat.
        failed = route.kind == "command" and (
            evidence_type == "prior_failure" or parsed.failed is True
        )
        if failed and parsed.exit in TIMED_OUT and _other_limit(route, parsed.route):
            return "near_miss"  # stopped by its time limit: another limit is another try
        return "same_route_failed" if failed else "same_route"
    if near_route(route, parsed.route):
        return "near_miss"
    return None


def _other_limit(route: Route, prior: Route) -> bool:
    """A prior call with a ``timeout`` limit, proposed with another limit or none."""
    pairs = zip(route.segments, prior.segments, strict=True)
    return any(b.limit and a.limit != b.limit for a, b in pairs)


def verdict_of(
    relations: Iterable[str], freshness: str | None, *, truncated: bool
) -> tuple[str, str]:
    """``(verdict, reason)`` for the relations found in a result of this freshness."""
    found = list(relations)
    if "same_route_failed" in found:
        return "repeats_prior_failure", "prior_failure_found"
    if freshness != "fresh":
        return "undetermined", f"index_{freshness}"
    if truncated:
        return "undetermined", "result_truncated"
    if found:
        return "similar_to_prior_attempt", "similar_attempt_found"
    return "no_prior_match", "no_match_in_fresh_index"


def _word(text: str, word: str) -> bool:
    # On word boundaries, except that a path may follow a "/" (an absolute form of it).
    return re.search(rf"(?<![\w.-]){re.escape(word)}(?![\w/-]|\.\w)", text) is not None


def _mentions(route: Route, text: str) -> bool:
    """Headerless text that names the route: program plus every target (or subcommand)."""
    if route.kind == "command":
        for segment in route.segments:
            anchors = [t.partition("::")[0] for t in segment.targets]
            if segment.subcommand is not None:
                anchors.append(segment.subcommand)
            if anchors and _word(text, segment.program) and all(_word(text, a) for a in anchors):
                return True
        return False
    if route.kind == "edit":
        return any(_word(text, path) for path in route.paths)
    words = frozenset(word.casefold() for word in hypothesis_keywords(text))
    return bool(route.text) and (
        route.text in " ".join(text.casefold().split()) or keyword_overlap(route.keywords, words)
    )
