# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The corpus records (:class:`Corpus`, :class:`Family`, :class:`Case`, :class:`Scope`,
:class:`SessionSpec`) and the constants they share; see
:mod:`loopx_recall_core.qualification.corpus`."""

from __future__ import annotations

from typing import Any

import attrs

from loopx_recall_core.canonical import digest

__all__ = [
    "AGENT_ID",
    "CORPUS_VERSION",
    "FAMILIES",
    "LABELS",
    "SHARD_CASES",
    "SUCCESS",
    "WINDOW_DAYS",
    "Case",
    "Corpus",
    "Family",
    "Scope",
    "SessionSpec",
]

CORPUS_VERSION = "loopx-qualify-corpus/2"
LABELS = ("repeat", "near_miss", "novel")
FAMILIES = ("baseline", "bait", "stale", "pressure", "unicode", "long_history")
SHARD_CASES = 24

AGENT_ID = "agent-q"
WINDOW_DAYS = 30
#: What a planted session runs after its failure, unless told otherwise.
SUCCESS = ("git diff --stat", " 2 files changed, 14 insertions(+), 3 deletions(-)")


@attrs.frozen(kw_only=True)
class SessionSpec:
    """One planted session: where, which runtime, when, and the failing command it ran.

    ``late``: ``""`` (on disk before the index build), ``"new"`` (written after it) or
    ``"grown"`` (only its opening lines exist at build time, the rest after it).
    ``bait``: planted out of every case's scope on purpose. ``secrets``: indexes into the
    canary corpus (:func:`~loopx_recall_core.qualification.canaries.planted_canaries`)
    whose secrets this session's command, output and messages carry. ``filler``: one of
    the newer, unrelated sessions a long history puts in front of the repeats.
    """

    key: str
    repo: str
    runtime: str
    age_min: int
    seed: int
    index: int
    failure: tuple[str, str, int]
    success: tuple[str, str] = SUCCESS
    late: str = ""
    bait: bool = False
    secrets: tuple[int, ...] = ()
    filler: bool = False


@attrs.frozen(kw_only=True)
class Scope:
    sources: tuple[str, ...]
    repos: tuple[str, ...]
    window_days: int = WINDOW_DAYS


@attrs.frozen(kw_only=True)
class Case:
    """``situation`` is a ``loopx_replan_situation_v0`` without ``repository_root`` (added
    when materialized: the root of ``home_repo``). ``archive`` names its family shard;
    ``slug`` the target name its commands share (synthetic, for audits)."""

    case_id: str
    family: str
    archive: str
    label: str
    slug: str
    tags: tuple[str, ...]
    scope: Scope
    home_repo: str
    situation: dict[str, Any]


@attrs.frozen(kw_only=True)
class Family:
    """One shard of a family: one archive (``key``), its background and planted sessions."""

    name: str
    shard: int
    background_seed: int
    sessions: tuple[SessionSpec, ...]

    @property
    def key(self) -> str:
        return f"{self.name}-{self.shard}"


@attrs.frozen(kw_only=True)
class Corpus:
    version: str
    seed: int
    families: tuple[Family, ...]
    cases: tuple[Case, ...]

    def as_json(self) -> dict[str, Any]:
        return attrs.asdict(self)

    @property
    def digest(self) -> str:
        return digest(self.as_json())

    def counts(self) -> dict[str, dict[str, int]]:
        by_family: dict[str, int] = {}
        by_label: dict[str, int] = {}
        for case in self.cases:
            by_family[case.family] = by_family.get(case.family, 0) + 1
            by_label[case.label] = by_label.get(case.label, 0) + 1
        return {"families": by_family, "labels": by_label}
