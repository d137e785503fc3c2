# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Write a corpus family to disk and resolve its cases against the files written.

One family = one ``HOME`` (transcripts where the runtime records say; a provider keeps
whatever index it builds under that ``HOME`` too). :func:`write_family` writes the background
history and every planted session that exists before the index build; a ``grown``
session is cut to its opening lines. After the caller has built the index,
:meth:`FamilyArchive.write_late` writes the ``new`` sessions and completes the grown ones,
dating both a few seconds after the build, so the index is honestly behind.
"""

from __future__ import annotations

import copy
import os
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import attrs

from loopx_recall_core.qualification.canaries import planted_canaries
from loopx_recall_core.qualification.corpus import Case, Family, SessionSpec
from loopx_recall_core.qualification.templates import ROOT
from loopx_recall_core.qualification.transcripts import (
    Archive,
    Story,
    append_session,
    generate_archive,
)
from loopx_recall_core.runtimes import TRANSCRIPT_RUNTIMES, index_session_name, transcript_glob
from loopx_recall_core.transcript_rules import window_start

__all__ = ["CaseView", "FamilyArchive", "write_family"]

_PREFIX_LINES = 3  # a grown session's opening: before its first tool call
_AFTER_BUILD_S = 5.0  # > the provider's 2 s same-mtime grace


@attrs.frozen(kw_only=True)
class CaseView:
    """A case resolved against its family's files. ``in_scope_sessions``: every session
    the expected scope covers; ``bait_sessions``: the planted out-of-scope ones;
    ``index_behind``: in-scope transcripts were written or grew after the index build."""

    case: Case
    situation: dict[str, Any]
    roots: tuple[str, ...]
    sources: tuple[str, ...]
    window_days: int
    in_scope_sessions: frozenset[str]
    bait_sessions: frozenset[str]
    index_behind: bool


def _resolve(value: Any, root: str) -> Any:
    if isinstance(value, str):
        return value.replace(ROOT, root)
    if isinstance(value, dict):
        return {k: _resolve(v, root) for k, v in value.items()}
    if isinstance(value, list):
        return [_resolve(v, root) for v in value]
    return value


def _transcript_of(home: Path, session_id: str) -> Path:
    """The one transcript under ``home`` of ``session_id`` (the index's name: the runtime's
    own id behind its runtime's prefix), where its runtime's record says it lies."""
    (path,) = [
        found
        for runtime in TRANSCRIPT_RUNTIMES
        if session_id.startswith(prefix := index_session_name(runtime, ""))
        for found in home.glob(transcript_glob(runtime, session_id.removeprefix(prefix)))
    ]
    return path


class FamilyArchive:
    """One family's files: ``home`` holds the transcripts (and the provider's index)."""

    def __init__(self, family: Family, root: Path, now: datetime) -> None:
        self.family = family
        self.home = root / family.key / "home"
        self.now = now
        self.archive: Archive = generate_archive(
            self.home, seed=family.background_seed, now=now, sessions_per_repo=4
        )
        self.session_ids: dict[str, str] = {}
        self._grown: list[tuple[Path, bytes]] = []
        for spec in family.sessions:
            if spec.late != "new":
                self._plant(spec)

    @property
    def repos(self) -> dict[str, Path]:
        return self.archive.repos

    @property
    def canaries(self) -> tuple[str, ...]:
        return self.archive.canaries

    def _plant(self, spec: SessionSpec, at: datetime | None = None) -> Path:
        root = str(self.repos[spec.repo])
        command, line, code = spec.failure
        canaries = planted_canaries() if spec.secrets else ()
        before = len(self.archive.events)
        self.archive = append_session(
            self.archive,
            at=at or self.now - timedelta(minutes=spec.age_min),
            repo=spec.repo,
            runtime=spec.runtime,
            seed=spec.seed,
            index=spec.index,
            story=Story(
                failure=(command.replace(ROOT, root), line, code),
                success=spec.success,
                secrets=tuple(canaries[i].text for i in spec.secrets),
            ),
        )
        session_id = self.archive.events[before].session_id
        self.session_ids[spec.key] = session_id
        path = _transcript_of(self.home, session_id)
        if spec.late == "grown":
            full = path.read_bytes()
            self._grown.append((path, full))
            path.write_bytes(b"".join(full.splitlines(keepends=True)[:_PREFIX_LINES]))
            opened = (self.now - timedelta(minutes=spec.age_min + 30)).timestamp()
            os.utime(path, (opened, opened))
        return path

    def write_late(self) -> None:
        """Write what happened after the index build; call once, right after building it."""
        stamp = time.time() + _AFTER_BUILD_S
        for path, full in self._grown:
            path.write_bytes(full)
            os.utime(path, (stamp, stamp))
        for spec in self.family.sessions:
            if spec.late == "new":
                path = self._plant(spec, at=datetime.now(UTC) - timedelta(seconds=1))
                os.utime(path, (stamp, stamp))

    def view(self, case: Case) -> CaseView:
        """``case`` resolved against the files (call after :meth:`write_late`)."""
        scope = case.scope
        roots = tuple(str(self.repos[name]) for name in scope.repos)
        since = window_start(scope.window_days)
        in_scope = frozenset(
            e.session_id
            for e in self.archive.events
            if e.runtime in scope.sources and e.repo_root in roots and e.timestamp >= since
        )
        bait = frozenset(self.session_ids[s.key] for s in self.family.sessions if s.bait)
        behind = any(
            s.late and s.repo in scope.repos and s.runtime in scope.sources
            for s in self.family.sessions
        )
        home_root = str(self.repos[case.home_repo])
        situation = _resolve(copy.deepcopy(case.situation), home_root)
        situation["repository_root"] = home_root
        return CaseView(
            case=case,
            situation=situation,
            roots=roots,
            sources=scope.sources,
            window_days=scope.window_days,
            in_scope_sessions=in_scope,
            bait_sessions=bait,
            index_behind=behind,
        )


def write_family(family: Family, root: Path, now: datetime) -> FamilyArchive:
    """Write ``family`` under ``root / family.key`` as of ``now`` (late sessions wait)."""
    return FamilyArchive(family, root, now)
