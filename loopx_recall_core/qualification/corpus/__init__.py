# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
# Seeded randomness makes a reproducible corpus here, never secrets:
# ruff: noqa: S311
"""The matched qualification corpus: seeded, deterministic, public-safe, synthetic.

:func:`build_corpus` returns a :class:`Corpus` *specification* (nothing is written):
families of cases that share one transcript archive each. A case is

* the archive state it is judged against (its family's planted sessions on top of the
  generator's background history, see :mod:`..transcripts`),
* a ``loopx_replan_situation_v0`` (the trigger, the current-context attempts and the
  proposed step),
* a label for the proposed step: ``repeat`` (the same route failed in an earlier, in-scope
  session), ``near_miss`` (same program and targets, materially changed, after the base
  route failed) or ``novel`` (no in-scope history of that route),
* the expected scope (runtimes, repositories, window) the provider is bound to.

Families (shares of ``--cases``; each split into shards of at most ``SHARD_CASES`` cases,
one archive per shard, so an archive's density does not grow with ``--cases``):

==========  ====  =========================================================================
baseline    35%   repeats, near misses and novel steps in one repository and its worktree,
                  Claude Code and Codex; a quarter of the repeats are also in the current
                  context (two failed attempts), the rest only in earlier sessions
bait        20%   the proposed command failed only outside the scope: in another
                  repository, a repository sharing the path prefix, another runtime, or
                  before the window (label ``novel``); and in-scope repeats with such bait
                  copies next to them (label ``repeat``)
stale       15%   sessions written or completed after the last index build (freshness
                  ``incomplete`` for new transcripts, ``stale`` for grown ones); repeats
                  found only in that late content, repeats in indexed content, controls
pressure    15%   24 failing ``pytest`` sessions per archive: every request matches more
                  items than the limits allow (truncation)
unicode     15%   non-ASCII slugs, paths, output and error signatures
long_       15%   each repeat's or near miss's first attempt 10-26 days back, behind 24
history           newer sessions of unrelated shell calls in the same repository (48
                  calls, half failed); 12 more, 27-29 days back, carry the canary
                  corpus's 300 made-up secrets in their commands, outputs and messages
==========  ====  =========================================================================

(Shares are weights: they add up to 115.)

Times are minutes before the corpus clock (materialized against the wall clock, because
providers compute their window from it); commands hold ``{root}`` for the repository
root. So the specification, and :attr:`Corpus.digest` over it, depend only on the seed
and the size.

The records are in :mod:`.records`; how each family is drawn, in :mod:`.families`.
"""

from __future__ import annotations

import random

from loopx_recall_core.qualification import DEFAULT_CASES, DEFAULT_SEED, MAX_CASES, MIN_CASES
from loopx_recall_core.qualification.canaries import planted_canaries
from loopx_recall_core.qualification.corpus.families import (
    Builder,
    allocate,
    plant_bait,
    plant_baseline,
    plant_long_history,
    plant_pressure,
    plant_stale,
)
from loopx_recall_core.qualification.corpus.records import (
    CORPUS_VERSION,
    FAMILIES,
    LABELS,
    SHARD_CASES,
    Case,
    Corpus,
    Family,
    Scope,
    SessionSpec,
)
from loopx_recall_core.qualification.templates import ASCII_SLUGS, NON_ASCII_SLUGS

__all__ = [
    "CORPUS_VERSION",
    "DEFAULT_CASES",
    "DEFAULT_SEED",
    "FAMILIES",
    "LABELS",
    "MAX_CASES",
    "MIN_CASES",
    "SHARD_CASES",
    "Case",
    "Corpus",
    "Family",
    "Scope",
    "SessionSpec",
    "build_corpus",
]

_SHARES = {
    "baseline": 35,
    "bait": 20,
    "stale": 15,
    "pressure": 15,
    "unicode": 15,
    "long_history": 15,
}


def build_corpus(*, seed: int = DEFAULT_SEED, cases: int = DEFAULT_CASES) -> Corpus:
    """The corpus specification for ``seed`` and ``cases`` (``MIN_CASES``..``MAX_CASES``)."""
    if not MIN_CASES <= cases <= MAX_CASES:
        raise ValueError(f"cases must be {MIN_CASES}..{MAX_CASES}")
    families: list[Family] = []
    all_cases: list[Case] = []
    for name, total in allocate(cases, _SHARES).items():
        shards = -(-total // SHARD_CASES)
        sizes = allocate(total, dict.fromkeys(range(shards), 1)) if total else {}
        for shard, count in sizes.items():
            rng = random.Random(f"{CORPUS_VERSION}:{seed}:{name}:{shard}")
            builder = Builder(name, shard, rng)
            background_seed = rng.getrandbits(31)
            if name == "baseline":
                plant_baseline(builder, count, words=ASCII_SLUGS, tag=None)
            elif name == "unicode":
                plant_baseline(builder, count, words=NON_ASCII_SLUGS, tag="non_ascii")
            elif name == "bait":
                plant_bait(builder, count)
            elif name == "stale":
                plant_stale(builder, count)
            elif name == "long_history":
                plant_long_history(builder, count, canaries=len(planted_canaries()))
            else:
                plant_pressure(builder, count)
            families.append(
                Family(
                    name=name,
                    shard=shard,
                    background_seed=background_seed,
                    sessions=tuple(builder.sessions),
                )
            )
            all_cases.extend(builder.cases)
    return Corpus(
        version=CORPUS_VERSION, seed=seed, families=tuple(families), cases=tuple(all_cases)
    )
