# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
# Seeded randomness makes reproducible fixtures here, never secrets:
# ruff: noqa: S311
"""Deterministic Claude Code / Codex transcript archives (tests and the Stage 0 corpus).

``generate_archive(home, seed=..., now=...)`` writes a small but realistic agent history
under ``home`` (``.claude/projects/...`` and ``.codex/sessions/...``), creates the
repository directories the sessions ran in, and returns an :class:`Archive` listing
every *planted* event, i.e. what a history query is expected to be able to find.
Output depends only on ``seed``, ``now`` and the paths passed in: no wall clock.

Layout (``repos_root`` defaults to ``home / "src"``)::

    alpha      <repos_root>/alpha               claude + codex sessions
    beta       <repos_root>/beta                claude + codex sessions
    alpha-wt   <repos_root>/worktrees/alpha-wt  a worktree of alpha at another path
    alpha2     <repos_root>/alpha2              ONE claude session; shares the prefix
                                                "<repos_root>/alpha" (path-boundary trap)

For alpha, beta and alpha-wt, ``sessions_per_repo`` sessions alternate runtimes, and
the last one (when there are >= 2) started 35-60 days before ``now`` (outside a 30 day
window); old sessions exist for both runtimes. Every session plants, in order: a
failing shell command (``prior_failure``), an assistant decision ("I'll switch to X
because Y", ``decision``), a file edit (``file_history``), a passing command
(``tool_outcome``) and a summary (``summary``: a Claude ``away_summary`` system line; a
Codex session writes a ``compacted`` line instead, which the index does not hold and which
is not planted). Session #0 of each repo adds non-ASCII
text ("naïve café 東京 🚀") to the prompt and the decision, #1 a hidden decision, #2 a
canary secret in the user prompt and, for Claude, an inactive decision. Every failing
output carries a canary secret (``env: STAGING_API_TOKEN=CANARY-SECRET-<16 hex>``).
Claude sessions also hold an ``isMeta`` caveat message, a ``Read`` call and one message
whose cwd is ``<repo>/src``; Codex sessions repeat chat text as ``response_item``
messages (as the real CLI does) and use ``shell`` (even index) or ``exec_command``.

``PlantedEvent`` field conventions:

* ``text``: for ``prior_failure``, ``tool_outcome`` and ``file_history`` the tool result
  exactly as written (what the index stores in ``tool_results.content``); for
  ``decision`` the assistant message text; for ``summary`` the summary text.
* ``command``: Claude ``Bash`` ``input.command``; Codex the script passed as
  ``["bash", "-lc", SCRIPT]``. ``None`` for other kinds.
* ``file_path``: as written in the transcript: absolute for Claude ``Edit``/``Write``,
  repo-relative as in the ``*** Update File:`` line of a Codex ``apply_patch``.
* ``timestamp``: the transcript line's timestamp (for a summary, the ``away_summary``
  line's own).

A :class:`Story` passed to :func:`append_session` fixes the failing command, its first
output line and exit code, and the passing command, instead of drawing them from the
seed (everything else still comes from the seed). The qualification corpus
(:mod:`loopx_recall_core.qualification.corpus`) plants its cases this way.

Codex sessions alternate between the two shell tools and their output forms: even-numbered
ones call ``shell`` and write the older ``Exit code: N`` head (and, in every other one of
them, ``is_error: true``: upstream indexes is_error only when the transcript says so);
odd-numbered ones call ``exec_command`` and write Codex 0.169's ``Chunk ID .. Process
exited with code N .. Output:`` header, the status in the text alone.
Each transcript's mtime is set to its last event time.

Which runtimes, in which order, is :data:`RUNTIMES`: those whose format has a writer, in
the runtime records' order, so "claude" and "codex" above are its first and second. Each
runtime's file format has its writer in the runtimes' home,
:data:`loopx_recall_core.runtimes.transcripts.WRITERS` (chosen by the session's runtime);
the records and the seeded session story they share are in
:mod:`loopx_recall_core.runtimes.transcripts.session`. This module names no runtime.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

from loopx_recall_core.runtimes import index_session_name
from loopx_recall_core.runtimes.transcripts import WRITERS
from loopx_recall_core.runtimes.transcripts.session import (
    EPOCH,
    FILES,
    OLD_DAYS,
    RECENT_DAYS,
    Archive,
    Plan,
    PlantedEvent,
    Session,
    Story,
    new_uuid,
)

__all__ = ["RUNTIMES", "Archive", "PlantedEvent", "Story", "append_session", "generate_archive"]


#: The runtimes an archive's sessions alternate between: those whose transcript format has
#: a writer, in the runtime records' order.
RUNTIMES: tuple[str, ...] = tuple(WRITERS)


def _build_session(home: Path, plan: Plan) -> tuple[Session, Path]:
    own_id = new_uuid(plan.rng)  # the runtime's own session id
    write = WRITERS.get(plan.runtime)
    if write is None:
        raise ValueError(f"unknown runtime {plan.runtime!r}")
    s = Session(plan, index_session_name(plan.runtime, own_id))
    return s, write(s, home)


def _write_session(home: Path, plan: Plan) -> Session:
    s, path = _build_session(home, plan)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        for entry in s.lines:
            fh.write(json.dumps(entry, ensure_ascii=False) + "\n")
    # Freshness logic compares transcript mtimes with the index: make them meaningful.
    last_ns = (s.clock - EPOCH) // timedelta(milliseconds=1) * 1_000_000
    os.utime(path, ns=(last_ns, last_ns))
    return s


def _make_repos(repos_root: Path) -> dict[str, Path]:
    repos = {
        "alpha": repos_root / "alpha",
        "beta": repos_root / "beta",
        "alpha-wt": repos_root / "worktrees" / "alpha-wt",
        "alpha2": repos_root / "alpha2",
    }
    for root in repos.values():
        for rel in FILES:
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).touch()
    return {name: root.resolve() for name, root in repos.items()}


def generate_archive(
    home: Path,
    *,
    seed: int = 7,
    now: datetime,
    repos_root: Path | None = None,
    sessions_per_repo: int = 4,
) -> Archive:
    """Write a transcript archive under ``home``; see the module docstring for its content."""
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    if sessions_per_repo < 1:
        raise ValueError("sessions_per_repo must be >= 1")
    home = Path(home).resolve()
    home.mkdir(parents=True, exist_ok=True)
    repos = _make_repos(Path(repos_root) if repos_root is not None else home / "src")
    rng = random.Random(seed)

    plans: list[Plan] = []
    for repo_index, name in enumerate(("alpha", "beta", "alpha-wt")):
        for i in range(sessions_per_repo):
            old = sessions_per_repo >= 2 and i == sessions_per_repo - 1
            days = rng.uniform(*(OLD_DAYS if old else RECENT_DAYS))
            plans.append(
                Plan(
                    runtime=RUNTIMES[(i + repo_index) % len(RUNTIMES)],
                    repo_root=repos[name],
                    start=now - timedelta(days=days),
                    index=i,
                    rng=rng,
                )
            )
    plans.append(
        Plan(
            runtime=RUNTIMES[0],
            repo_root=repos["alpha2"],
            start=now - timedelta(days=rng.uniform(*RECENT_DAYS)),
            index=0,
            rng=rng,
        )
    )

    events: list[PlantedEvent] = []
    canaries: list[str] = []
    for plan in plans:
        s = _write_session(home, plan)
        events.extend(s.events)
        canaries.extend(s.canaries)
    return Archive(home=home, repos=repos, events=tuple(events), canaries=tuple(canaries))


def append_session(
    archive: Archive,
    *,
    at: datetime,
    repo: str = "alpha",
    runtime: str | None = None,
    seed: int = 1000,
    index: int = 3,
    story: Story | None = None,
) -> Archive:
    """Write one more session that ends at ``at`` and return the grown Archive.

    The new transcript's last timestamp and its mtime are ``at`` (cut to milliseconds):
    pass a time after the last index build (e.g. ``datetime.now(UTC)``) to make an
    existing index stale. The added events are ``new.events[len(archive.events):]``;
    ``index`` picks the special cases described in the module docstring (the default 3
    adds none; odd indexes make Codex failures carry ``is_error``). Use distinct seeds
    for several calls: the seed fixes the session id. ``story`` fixes what it runs.
    ``runtime``: one of :data:`RUNTIMES`, the first of them by default.
    """
    if at.tzinfo is None:
        raise ValueError("at must be timezone-aware")
    root = archive.repos[repo]
    runtime = runtime or RUNTIMES[0]
    # Dry run with the same seed to learn the session's length (durations come from the
    # rng, not from the start time), then write it for real so it ends exactly at ``at``.
    probe, _ = _build_session(
        archive.home, Plan(runtime, root, at, index, random.Random(seed), story)
    )
    plan = Plan(runtime, root, at - (probe.clock - at), index, random.Random(seed), story)
    s = _write_session(archive.home, plan)
    return replace(
        archive,
        events=archive.events + tuple(s.events),
        canaries=archive.canaries + tuple(s.canaries),
    )

