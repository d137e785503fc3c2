# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The route model: when are two steps the same attempt, and when merely close? The one
model replan and the guard compare with.

A command step's route is its attempts (:mod:`.chain`: each program it runs, with its
folder, environment, inputs and what the earlier steps of the chain changed, read by a
shell grammar, :mod:`.grammar`, and normalized by the program's spec, :mod:`.invocation`),
an edit's is its set of paths (:mod:`.paths`), a hypothesis's is its case-folded,
blank-collapsed text and keywords.

* **Same route**: commands whose attempts are pairwise the same (every part equal after
  normalization; a part that cannot be modelled is never equal); edits with equal path
  sets; hypotheses with equal normalized text. A route read from a cut snippet header is
  never the same.
* **Near miss**: commands where some pair of segments has the same program and
  subcommand (the first positional, unless it is a path or the program is in
  ``TARGETS_ONLY``) and overlapping targets (the remaining positionals): the same file
  (``tests/a.py::test_x`` and ``tests/a.py::test_y`` overlap), a folder and a file in it,
  ``.`` and anything; or no targets on either side. Edits sharing a path. Hypotheses
  sharing at least two keywords and at least 60% of the smaller keyword set.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from loopx_recall_core.routes.chain import Segment, command_segments
from loopx_recall_core.routes.paths import multiset_equal, norm_path, same_path

if TYPE_CHECKING:  # the guard's hot path imports routes without the contracts (cattrs)
    from loopx_recall_core.contracts.replan import Step

__all__ = [
    "Route",
    "Segment",
    "command_route",
    "differences",
    "edit_route",
    "hypothesis_keywords",
    "hypothesis_route",
    "keyword_overlap",
    "near_route",
    "same_route",
    "step_route",
]

_WORD = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_./:-]*[A-Za-z0-9_])?")
_STOPWORD_TEXT = (
    "the and that this with from have has had because when then than into should would "
    "could will does did not but are was were been being its they their there which what "
    "about after before again also only some more most other such very just may might must "
    "can cannot while where why how our out all any each for per via using use used maybe "
    "probably likely still yet over under same"
)
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def hypothesis_keywords(text: str) -> tuple[str, ...]:
    """Distinctive words of a hypothesis as they appear in it (not case-folded), in order."""
    seen: set[str] = set()
    words: list[str] = []
    for match in _WORD.finditer(text):
        word = match.group()
        key = word.casefold()
        if len(word) < 4 or key in _STOPWORDS or key in seen or word.isdigit():
            continue
        seen.add(key)
        words.append(word)
    return tuple(words)


def _folded(text: str) -> str:
    return " ".join(text.casefold().split())


class Route(NamedTuple):
    """A step normalized for comparison. ``complete`` is False for a cut snippet line."""

    kind: str  # "command" | "edit" | "hypothesis"
    segments: tuple[Segment, ...] = ()
    paths: tuple[str, ...] = ()
    text: str = ""
    keywords: frozenset[str] = frozenset()
    complete: bool = True


def edit_route(paths: Iterable[str], root: str | None = None) -> Route:
    return Route(kind="edit", paths=tuple(sorted({norm_path(p, root) for p in paths})))


def command_route(
    command: str, root: str | None = None, *, complete: bool = True, cwd: str = "."
) -> Route:
    """The route of a command line run from ``cwd`` (repository-relative)."""
    return Route(kind="command", segments=command_segments(command, root, cwd), complete=complete)


def hypothesis_route(text: str) -> Route:
    words = frozenset(word.casefold() for word in hypothesis_keywords(text))
    return Route(kind="hypothesis", text=_folded(text), keywords=words)


def step_route(step: Step, root: str | None = None) -> Route:
    """The route of a situation or outcome step."""
    if step.kind in ("command", "probe") and step.command is not None:
        return command_route(step.command, root)
    if step.kind == "edit":
        return edit_route(step.file_paths, root)
    return hypothesis_route(step.hypothesis or "")


def same_route(a: Route, b: Route) -> bool:
    """Materially the same route (trivial differences normalized away)."""
    if a.kind != b.kind or not (a.complete and b.complete):
        return False
    if a.kind == "command":
        return (
            bool(a.segments)
            and len(a.segments) == len(b.segments)
            and all(x.same(y) for x, y in zip(a.segments, b.segments, strict=True))
        )
    if a.kind == "edit":
        return bool(a.paths) and multiset_equal(a.paths, b.paths, same_path)
    return bool(a.text) and a.text == b.text


def differences(a: Route, b: Route) -> tuple[str, ...]:
    """What makes ``b`` another attempt than ``a``, by part (``folder``, ``environment``,
    ``inputs``, ``earlier steps``, ``options``, ``arguments``, ``unmodelled``, ...); empty
    when they are the same route."""
    if a.kind != b.kind:
        return ("kind",)
    if not (a.complete and b.complete):
        return ("cut",)
    if a.kind != "command":
        return () if same_route(a, b) else ("paths" if a.kind == "edit" else "text",)
    if len(a.segments) != len(b.segments) or not a.segments:
        return ("steps",)
    found: list[str] = []
    for x, y in zip(a.segments, b.segments, strict=True):
        found.extend(part for part in x.differences(y) if part not in found)
    return tuple(found)


def near_route(a: Route, b: Route) -> bool:
    """Same program and targets, or overlapping edits or hypotheses, but not the same."""
    if a.kind != b.kind or same_route(a, b):
        return False
    if a.kind == "command":
        return any(x.near(y) for x in a.segments for y in b.segments)
    if a.kind == "edit":
        return any(same_path(x, y) for x in a.paths for y in b.paths)
    return keyword_overlap(a.keywords, b.keywords)


def keyword_overlap(mine: frozenset[str], theirs: frozenset[str]) -> bool:
    """At least two keywords, and >= 60% of the smaller set shared."""
    if len(mine) < 2 or len(theirs) < 2:
        return False
    shared = len(mine & theirs)
    return shared >= 2 and shared * 5 >= 3 * min(len(mine), len(theirs))
