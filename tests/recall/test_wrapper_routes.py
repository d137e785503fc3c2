# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Routes behind the wrappers people type: a time limit or timing prefix, output-only
options, a short option's long spelling and an option set to its default are the same
route; a longer limit after a time-out, another folder, values file or a flag that
changes what runs are not. Measured on the labelled sets of
:mod:`tests.recall.corpus_wrappers` with retrieval (:mod:`tests.recall.replan.retrieval`: the
prior call must be FOUND among newer calls by the proposal's query terms, then related).
The guard gives the same verdicts (tests/guard/test_guard_equivalence.py runs these cases
too); end to end on the Obelisk double: the plugin's tests/guard/test_wrappers_end_to_end.py
and benchmarks/wrapper_routes.py."""

from __future__ import annotations

from typing import Any

import pytest

from loopx_recall_core.recall.replan.relation import proposed_route, relate
from tests.recall.corpus_wrappers import DEV, HELD_OUT, Case
from tests.recall.replan import corpus
from tests.recall.replan.retrieval import ROOT, evaluate


def _as_retrieval(cases: list[Case]) -> list[tuple[dict[str, Any], tuple[str, str, int], str, str]]:
    return [({"kind": "command", "command": proposed}, ("call", prior, code), label, tag)
            for proposed, prior, code, label, tag in cases]  # fmt: skip


def snippet(prior: str, code: int) -> tuple[str, str]:
    """The prior call as the recall service stores it (snippet_rules' header and line 2)."""
    if code == 0:
        return "tool_outcome", f"Bash: {prior}\noutcome: ok\ndone"
    return "prior_failure", f"Bash: {prior}\noutcome: failed (exit {code})\nExit code {code}"


def test_held_out_goal_with_retrieval():
    report = evaluate(_as_retrieval(HELD_OUT))
    assert report["n"] >= 90
    assert report["recall"] >= 0.97, report["misses"]
    assert report["precision"] >= 0.99, report["misses"]
    assert report["bait"] == 0, report["misses"]
    assert report["spurious"] == 0, report["misses"]


def test_development_set_with_retrieval():
    report = evaluate(_as_retrieval(DEV))
    assert report["recall"] == 1.0, report["misses"]
    assert report["precision"] == 1.0, report["misses"]
    assert report["bait"] == 0, report["misses"]


@pytest.mark.parametrize("cases", [DEV, HELD_OUT], ids=["dev", "held-out"])
def test_every_case_gets_its_label_from_the_comparison(cases):
    wrong = []
    for proposed, prior, code, label, _ in cases:
        got = corpus.predict({"kind": "command", "command": proposed}, snippet(prior, code))
        if got != label:
            wrong.append((proposed, prior, code, label, got))
    assert wrong == []


def test_every_class_has_held_out_repeats_and_near_misses():
    tags = {tag for *_, label, tag in HELD_OUT if label == "repeat"}
    assert {"limit", "output", "alias", "default", "chain"} <= tags
    assert sum(1 for *_, tag in HELD_OUT if tag == "bait") >= 15
    assert sum(1 for *_, label, _ in HELD_OUT if label != "repeat") >= 30


@pytest.mark.parametrize("cases", [DEV, HELD_OUT], ids=["dev", "held-out"])
def test_the_cases_are_independent(cases):
    """No proposal repeats another case's prior call (they share one history end to end),
    and a case labelled novel relates to no prior call at all."""
    crossed = []
    for i, (proposed, _, _, label, _) in enumerate(cases):
        route = proposed_route(proposed, ROOT)
        for j, (_, prior, code, _, _) in enumerate(cases):
            if i == j:
                continue
            relation = relate(route, snippet(prior, code or 1)[1], "prior_failure", ROOT)
            if relation == "same_route_failed" or (label == "novel" and relation is not None):
                crossed.append((proposed, prior, relation))
    assert crossed == []
