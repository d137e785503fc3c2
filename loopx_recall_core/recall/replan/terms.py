# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Query terms from a situation's canonical fields, never from anything else.

Sources, in priority order (the first 8 distinct terms win):

1. the proposed step: each command segment's canonical route
   (:mod:`loopx_recall_core.routes.invocation`):
   its program and the program's other usual names, its positional arguments
   (subcommands with their documented aliases, repository-relative paths, test
   selectors) and the values of its material options; its file paths; the keywords of
   its hypothesis. The prior attempt may be spelled otherwise (``npm t`` for
   ``npm run test``): the canonical words find it where the proposed words would not;
2. error signatures of the attempts, newest first;
3. the attempts' own routes, newest first (as for the proposed step);
4. keywords of the situation's hypotheses.

The proposed command is read once: its words come from the canonical route Replan
compares (:func:`.relation.proposed_route`, made of the command once redacted), given to
:func:`query_terms` by the flow.

Every term is a verbatim substring of the field it came from (a normalized form that is
not, such as ``a//b`` -> ``a/b``, is dropped) and of that field once redacted (a secret,
or a term holding one or a redaction mark, is never searched for:
``loopx_recall_core/redaction.py``), or a
word of the public program tables (:func:`.canonical.vocabulary`: no text of the situation),
non-blank, at most 128 UTF-16 units (a longer error signature is cut at a blank), and
never an absolute or home path, a flag, or an id. Duplicates are dropped
case-insensitively. Terms are alternatives: a provider should match an item containing
any of them and rank items by how many they contain.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

from loopx_recall_core.canonical import js_trim, utf16_len
from loopx_recall_core.contracts.replan import ReplanSituationV0, Step
from loopx_recall_core.recall.replan.relation import proposed_route
from loopx_recall_core.redaction import redact
from loopx_recall_core.routes import Route, Segment, hypothesis_keywords, step_route
from loopx_recall_core.routes.invocation import spellings, vocabulary
from loopx_recall_core.routes.paths import normalize_arg
from loopx_recall_core.routes.toolchains import SCRIPT_RUNNERS

__all__ = ["MAX_TERMS", "MAX_TERM_UNITS", "query_terms"]

MAX_TERMS = 8
MAX_TERM_UNITS = 128
_MIN_TERM_CHARS = 2
_WORDY = re.compile(r"\w")
_VOCABULARY = vocabulary()
_MARK = "[redacted:"  # the redactor's mark (a route read from a redacted command holds it)
_redacted = lru_cache(maxsize=64)(redact)  # one situation's fields, each redacted once
_PUBLIC = "\x00public"  # the source of a spelling read from the public tables or specs


def query_terms(
    situation: ReplanSituationV0,
    proposed: Route | None = None,
    attempt_routes: Sequence[Route] | None = None,
) -> tuple[str, ...]:
    """At most :data:`MAX_TERMS` bounded terms (possibly none) for ``situation``;
    ``proposed`` and ``attempt_routes`` are the routes of its proposed step and of its
    attempts (in their order), when already made (else they are made here)."""
    root = situation.repository_root
    given = situation.signals.attempts
    routes = attempt_routes if attempt_routes is not None else (None,) * len(given)
    attempts = tuple(reversed(given))  # newest first
    routed = tuple(reversed(tuple(zip(given, routes, strict=True))))

    def candidates() -> Iterator[tuple[str, str]]:
        # the routes replan compares: the proposed step redacted and on one line, each
        # attempt as written (attempt_routes), when the caller has none
        mine = proposed if proposed is not None else proposed_route(situation.proposed_step, root)
        yield from _step_terms(situation.proposed_step, root, mine)
        for attempt in attempts:
            if attempt.error_signature is not None:
                yield _clip(attempt.error_signature), attempt.error_signature
        for attempt, route in routed:
            yield from _step_terms(attempt.step, root, route)
        for hypothesis in situation.signals.hypotheses:
            yield from ((word, hypothesis.text) for word in hypothesis_keywords(hypothesis.text))

    terms: list[str] = []
    seen: set[str] = set()
    for candidate, source in candidates():
        term = js_trim(candidate)
        if not _acceptable(term, source) or term.casefold() in seen:
            continue
        seen.add(term.casefold())
        terms.append(term)
        if len(terms) == MAX_TERMS:
            break
    return tuple(terms)


def _step_terms(
    step: Step, root: str | None, route: Route | None = None
) -> Iterator[tuple[str, str]]:
    if step.command is not None:
        made = route is not None and route.kind == "command"
        segments = route.segments if made else step_route(step, root).segments
        for segment in segments:
            for term, public in _route_words(segment):
                yield term, (_PUBLIC if public else step.command)
    for path in step.file_paths:
        yield normalize_arg(path), path
    if step.hypothesis is not None:
        yield from ((word, step.hypothesis) for word in hypothesis_keywords(step.hypothesis))


def _route_words(segment: Segment) -> Iterator[tuple[str, bool]]:
    """The canonical route's words, whatever spelling the step used: program and
    subcommand with their usual spellings (public words: True), targets, then option
    values (``-p core``)."""
    if segment.opaque:
        return
    for spelling in spellings("", segment.program):
        yield spelling, spelling != segment.program
    for index, positional in enumerate(segment.positionals):
        if index == 0 and positional == "run" and segment.program in SCRIPT_RUNNERS:
            continue  # "npm test" is "npm run test": the script's name is the route
        if index < 2:
            for spelling in spellings(segment.program, positional):
                yield spelling, spelling != positional and positional not in spelling
        else:
            yield positional, False
        head = positional.partition("::")[0]
        if head != positional:
            yield head, False
    yield from ((value, False) for _, value in segment.flags if value)


def _acceptable(term: str, source: str) -> bool:
    return (
        len(term) >= _MIN_TERM_CHARS
        and utf16_len(term) <= MAX_TERM_UNITS
        and (
            term in _VOCABULARY
            or source == _PUBLIC
            or (term in source and term in _redacted(source))
        )
        and _MARK not in term
        and _WORDY.search(term) is not None
        and not term.startswith(("-", "/", "~", "|", "cd:"))
    )


def _clip(text: str) -> str:
    """``text`` if short enough, else its longest prefix ending before a blank that is."""
    text = js_trim(text)
    if utf16_len(text) <= MAX_TERM_UNITS:
        return text
    cut = text[:MAX_TERM_UNITS]
    while utf16_len(cut) > MAX_TERM_UNITS:
        cut = cut[:-1]
    blank = cut.rfind(" ")
    return cut[:blank] if blank > 0 else ""
