# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Comparator quality on the labelled corpus, and freshness rules over all of it."""

from __future__ import annotations

import pytest

from loopx_recall_core.contracts import structure
from loopx_recall_core.contracts.replan import ReplanSituationV0
from loopx_recall_core.recall.replan.comparison import compare
from loopx_recall_core.recall.replan.situation_admission import build_request
from tests.recall.replan import helpers
from tests.recall.replan.corpus import CASES, HOLDOUT, ROOT, evaluate, predict
from tests.recall.replan.corpus_routes import ROUTES

ALL = CASES + HOLDOUT + ROUTES


def test_no_false_repeat_anywhere():
    # A false repeat would make a legitimate successor illegal: it must never happen.
    for step, item, label in ALL:
        if label != "repeat":
            assert predict(step, item) != "repeat", (step, item)


def test_development_set_quality():
    report = evaluate(CASES)
    assert report["metrics"]["repeat"]["precision"] == 1.0
    assert report["accuracy"] >= 0.95


def test_held_out_set_quality_does_not_regress():
    report = evaluate(HOLDOUT)
    assert report["metrics"]["repeat"]["precision"] == 1.0
    assert report["metrics"]["repeat"]["recall"] >= 0.9
    assert report["accuracy"] >= 0.85


def test_route_spellings_held_out_goal():
    # Issue 14 item 4: run-in-directory options at the root and documented option aliases.
    report = evaluate(ROUTES)
    assert report["n"] >= 60
    assert report["metrics"]["repeat"]["recall"] >= 0.95
    assert report["metrics"]["repeat"]["precision"] >= 0.98
    assert report["confusion"][("near", "repeat")] == 0


def _verdict(step, item, *, freshness="fresh", omitted=0):
    data = helpers.situation(
        trigger="operator_requested_history",
        signals={"operator_requested": True},
        proposed_step=step,
    )
    situation = structure(data, ReplanSituationV0)
    request = build_request(situation, ("term",))
    evidence_type, snippet = item
    entry = {"session_ref": "s", "message_ref": "m", "evidence_type": evidence_type}
    outcome = helpers.FakeRecall(
        [{**entry, "snippet": snippet}], freshness=freshness, omitted=omitted
    )(request)
    return compare(situation.proposed_step, outcome, request=request, repository_root=ROOT)


@pytest.mark.parametrize(
    ("freshness", "omitted"),
    [("stale", 0), ("incomplete", 0), ("unknown", 0), ("fresh", 2)],
)
def test_absence_in_a_partial_index_is_never_no_prior_match(freshness, omitted):
    for step, item, _label in ALL:
        fresh = _verdict(step, item)
        partial = _verdict(step, item, freshness=freshness, omitted=omitted)
        assert partial.verdict in ("repeats_prior_failure", "undetermined")
        # A repeat found stays a repeat; everything else becomes undetermined.
        assert (partial.verdict == "repeats_prior_failure") == (
            fresh.verdict == "repeats_prior_failure"
        )
        assert partial.matches == fresh.matches  # what was found is still reported
