# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The corpus specification: deterministic, sized, admissible, and honestly labelled."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from loopx_recall_core.canonical import digest, is_digest
from loopx_recall_core.contracts import structure
from loopx_recall_core.contracts.replan import ReplanSituationV0
from loopx_recall_core.qualification.corpus import (
    DEFAULT_CASES,
    FAMILIES,
    LABELS,
    MAX_CASES,
    MIN_CASES,
    SHARD_CASES,
    build_corpus,
)
from loopx_recall_core.qualification.templates import ROOT, TEMPLATES
from loopx_recall_core.recall.replan.situation_admission import trigger_refusal
from loopx_recall_core.recall.replan.terms import query_terms
from loopx_recall_core.routes import command_route, same_route

DEFAULT = build_corpus()


def _root(archive: str, repo: str) -> str:
    return f"/w/{archive}/{repo}"


def _resolved(case) -> ReplanSituationV0:
    data = copy.deepcopy(case.situation)
    root = _root(case.archive, case.home_repo)
    for attempt in data["signals"]["attempts"]:
        attempt["step"]["command"] = attempt["step"]["command"].replace(ROOT, root)
    data["proposed_step"]["command"] = data["proposed_step"]["command"].replace(ROOT, root)
    return structure({**data, "repository_root": root}, ReplanSituationV0)


def test_same_seed_same_digest_and_other_seed_or_size_another():
    assert build_corpus(seed=3, cases=60).digest == build_corpus(seed=3, cases=60).digest
    assert build_corpus(seed=3, cases=60) == build_corpus(seed=3, cases=60)
    assert build_corpus(seed=4, cases=60).digest != build_corpus(seed=3, cases=60).digest
    assert build_corpus(seed=3, cases=61).digest != build_corpus(seed=3, cases=60).digest


def test_digest_is_the_one_canonical_digest_of_the_specification():
    assert is_digest(DEFAULT.digest)
    assert DEFAULT.digest == digest(DEFAULT.as_json())
    assert DEFAULT.as_json()["version"] == DEFAULT.version


@pytest.mark.parametrize("size", [MIN_CASES, 37, DEFAULT_CASES])
def test_size_families_and_shards(size):
    corpus = build_corpus(cases=size)
    assert len(corpus.cases) == size
    assert len({case.case_id for case in corpus.cases}) == size
    assert set(corpus.counts()["families"]) == set(FAMILIES)
    per_archive = Counter(case.archive for case in corpus.cases)
    assert max(per_archive.values()) <= SHARD_CASES
    assert set(per_archive) == {family.key for family in corpus.families}


@pytest.mark.parametrize("size", [MIN_CASES - 1, MAX_CASES + 1])
def test_size_bounds(size):
    with pytest.raises(ValueError, match="cases must be"):
        build_corpus(cases=size)


def test_default_corpus_covers_every_scenario_of_the_issue():
    tags = Counter(tag for case in DEFAULT.cases for tag in case.tags)
    for tag in (
        "bait:other_repository",
        "bait:path_prefix",
        "bait:other_runtime",
        "bait:outside_window",
        "bait:mixed",
        "stale:incomplete",
        "stale:stale",
        "stale:late_only",
        "stale:indexed",
        "pressure",
        "non_ascii",
        "in_context",
        "trigger:replan_repetition",
        "trigger:hypothesis_history_gap",
        "trigger:resume_or_handoff_gap",
    ):
        assert tags[tag] > 0, tag
    assert set(DEFAULT.counts()["labels"]) == set(LABELS)
    assert any(
        not case.situation["proposed_step"]["command"].isascii()
        for case in DEFAULT.cases
        if "non_ascii" in case.tags
    )
    assert {t.name for t in TEMPLATES} <= {
        name for case in DEFAULT.cases for name in [_template_of(case)]
    }


def _template_of(case) -> str:
    command = case.situation["proposed_step"]["command"]
    for template in TEMPLATES:
        slug_free = template.base("SLUG").split("SLUG")[0]
        if command.startswith(slug_free):
            return template.name
    return "?"


def test_every_situation_is_valid_and_admissible():
    for case in DEFAULT.cases:
        situation = _resolved(case)
        assert situation.situation_id == case.case_id
        assert trigger_refusal(situation) is None, case.case_id
        assert query_terms(situation), case.case_id


def test_labels_agree_with_the_planted_history():
    """A repeat has an in-scope planted failure of the same route (a hard spelling only a
    reviewer's); a near miss has none of the same route but an earlier failure of its base
    route; a novel step has none in scope. Checked with Replan's own normalization."""
    sessions = {family.key: family.sessions for family in DEFAULT.families}
    for case in DEFAULT.cases:
        situation = _resolved(case)
        root = situation.repository_root
        proposed = command_route(situation.proposed_step.command, root)
        in_scope, bait = [], []
        for spec in sessions[case.archive]:
            route = command_route(
                spec.failure[0].replace(ROOT, _root(case.archive, spec.repo)), root
            )
            inside = (
                spec.repo in case.scope.repos
                and spec.runtime in case.scope.sources
                and spec.age_min < case.scope.window_days * 1440
                and not spec.bait
            )
            (in_scope if inside else bait).append(route)
        same = any(same_route(proposed, route) for route in in_scope)
        programs = {seg.program for seg in proposed.segments}
        if case.label == "repeat":
            # A hard spelling is the same route only to a reviewer (normalization limits).
            assert same != ("hard_spelling" in case.tags), case.case_id
        elif case.label == "near_miss":
            assert not same, case.case_id
            # The base route failed earlier, on the same program and target.
            assert any(
                case.slug in spec.failure[0]
                and programs & {seg.program for seg in command_route(spec.failure[0]).segments}
                for spec in sessions[case.archive]
                if spec.repo in case.scope.repos and not spec.bait
            ), case.case_id
        else:
            assert not same, case.case_id
        if any(tag.startswith("bait:") for tag in case.tags):
            assert any(same_route(proposed, route) for route in bait), case.case_id


def test_in_context_repeats_are_in_the_current_attempts_and_others_are_not():
    for case in DEFAULT.cases:
        situation = _resolved(case)
        root = situation.repository_root
        proposed = command_route(situation.proposed_step.command, root)
        in_context = any(
            same_route(command_route(a.step.command, root), proposed)
            for a in situation.signals.attempts
        )
        assert in_context == ("in_context" in case.tags), case.case_id
