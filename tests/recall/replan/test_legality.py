# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The legality table: which Replan outcomes history may support, and which it may not."""

from __future__ import annotations

from typing import Any

import pytest

from loopx_recall_core.recall.replan.flow import replan
from loopx_recall_core.recall.replan.legality import LEGALITY_REASONS
from tests.recall.replan.helpers import FakeRecall, bound, enablement, failure, item, situation

API = "pytest tests/test_api.py -x"
CLI = "pytest tests/test_cli.py -x"

# An operator-requested situation without attempts: history alone speaks about the step.
OPERATOR = situation(trigger="operator_requested_history", signals={"operator_requested": True})
REPEATED = situation()  # two failed API attempts in the current packet


def ref(kind: str, value: str = "ev-1") -> dict[str, str]:
    return {"kind": kind, "ref": value}


EVIDENCE = ref("current_evidence", "loopx-ev-42")


def outcome(
    kind: str,
    refs: list[dict[str, str]],
    step: dict[str, Any] | None = None,
    situation_id: str = "sit-1",
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "schema_version": "loopx_replan_outcome_v0",
        "situation_id": situation_id,
        "kind": kind,
        "rationale_refs": refs,
    }
    if step is not None:
        data["step"] = step
    return data


def cmd(text: str, kind: str = "command") -> dict[str, Any]:
    return {"kind": kind, "command": text}


REPEAT = [item(failure(API), session="s-9", message="m-3")]

# (id, situation, recall, enabled, outcome, expected reason)
CASES = [
    (
        "successor-novel-grounded",
        REPEATED,
        FakeRecall(REPEAT),
        True,
        outcome(
            "grounded_successor",
            [EVIDENCE, ref("comparison_verdict", "repeats_prior_failure")],
            cmd(CLI),
        ),
        "legal",
    ),
    (
        "successor-near-miss-grounded",
        OPERATOR,
        FakeRecall([item(failure("pytest tests/test_api.py"))]),
        True,
        outcome("grounded_successor", [EVIDENCE], cmd(API)),
        "legal",
    ),
    (
        "only-provider-returned-results",
        OPERATOR,
        FakeRecall(REPEAT),
        True,
        outcome("new_surface", [ref("provider_result_count", "1")]),
        "rationale_only_provider_presence",
    ),
    (
        "only-provider-returned-nothing",
        OPERATOR,
        FakeRecall([]),
        True,
        outcome("coverage_backed_exhaustion", [ref("provider_no_results", "0")]),
        "rationale_only_provider_presence",
    ),
    (
        "only-both-presence-refs",
        OPERATOR,
        FakeRecall([]),
        True,
        outcome(
            "grounded_successor",
            [ref("provider_no_results"), ref("provider_result_count")],
            cmd(CLI),
        ),
        "rationale_only_provider_presence",
    ),
    (
        "verdict-alone-is-not-evidence",
        OPERATOR,
        FakeRecall([]),
        True,
        outcome("grounded_successor", [ref("comparison_verdict", "no_prior_match")], cmd(CLI)),
        "rationale_lacks_current_evidence",
    ),
    (
        "prior-item-alone-is-not-evidence",
        OPERATOR,
        FakeRecall(REPEAT),
        True,
        outcome("newly_evidenced_blocker", [ref("prior_item", "s-9#m-3")]),
        "rationale_lacks_current_evidence",
    ),
    (
        "verdict-ref-misquoted",
        OPERATOR,
        FakeRecall(REPEAT),
        True,
        outcome("new_surface", [EVIDENCE, ref("comparison_verdict", "no_prior_match")]),
        "verdict_ref_mismatch",
    ),
    (
        "prior-item-unknown",
        OPERATOR,
        FakeRecall(REPEAT),
        True,
        outcome("newly_evidenced_blocker", [EVIDENCE, ref("prior_item", "s-9#m-4")]),
        "unknown_prior_item",
    ),
    (
        "prior-item-without-result",
        OPERATOR,
        FakeRecall(REPEAT),
        False,
        outcome("newly_evidenced_blocker", [EVIDENCE, ref("prior_item", "s-9#m-3")]),
        "unknown_prior_item",
    ),
    (
        "other-situation",
        OPERATOR,
        FakeRecall([]),
        True,
        outcome("new_surface", [EVIDENCE], situation_id="sit-other"),
        "situation_mismatch",
    ),
    (
        "successor-repeats-prior-failure-fresh",
        OPERATOR,
        FakeRecall(REPEAT),
        True,
        outcome("grounded_successor", [EVIDENCE], cmd("python -m pytest -x ./tests/test_api.py")),
        "successor_repeats_prior_failure",
    ),
    (
        "successor-repeats-prior-failure-stale-grounded",
        OPERATOR,
        FakeRecall(REPEAT, freshness="stale"),
        True,
        outcome("grounded_successor", [EVIDENCE], cmd(API)),
        "legal",
    ),
    (
        "successor-repeats-current-attempt",
        REPEATED,
        FakeRecall([]),
        True,
        outcome("grounded_successor", [EVIDENCE], cmd("NO_COLOR=1 pytest -x tests/test_api.py")),
        "repeats_current_failed_attempt",
    ),
    (
        "probe-repeats-prior-failure-fresh",
        OPERATOR,
        FakeRecall(REPEAT),
        True,
        outcome("new_probe", [EVIDENCE], cmd(API, "probe")),
        "novelty_contradicted_by_prior_failure",
    ),
    (
        "probe-repeats-prior-failure-stale",
        OPERATOR,
        FakeRecall(REPEAT, freshness="incomplete"),
        True,
        outcome("new_probe", [EVIDENCE], cmd(API, "probe")),
        "novelty_contradicted_by_prior_failure",
    ),
    (
        "probe-novel",
        OPERATOR,
        FakeRecall(REPEAT),
        True,
        outcome("new_probe", [EVIDENCE], cmd("python tools/bisect_cache.py --seed 3", "probe")),
        "legal",
    ),
    (
        "surface-repeats-prior-failure",
        OPERATOR,
        FakeRecall(REPEAT),
        True,
        outcome("new_surface", [EVIDENCE], cmd(API)),
        "novelty_contradicted_by_prior_failure",
    ),
    (
        "exhaustion-from-undetermined-verdict",
        OPERATOR,
        FakeRecall([], freshness="stale"),
        True,
        outcome(
            "coverage_backed_exhaustion", [EVIDENCE, ref("comparison_verdict", "undetermined")]
        ),
        "argued_from_undetermined_comparison",
    ),
    (
        "exhaustion-from-no-results-in-stale-index",
        OPERATOR,
        FakeRecall([], freshness="stale"),
        True,
        outcome("coverage_backed_exhaustion", [EVIDENCE, ref("provider_no_results")]),
        "argued_from_undetermined_comparison",
    ),
    (
        "exhaustion-from-no-results-provider-down",
        OPERATOR,
        FakeRecall(fail="provider_timeout"),
        True,
        outcome("coverage_backed_exhaustion", [EVIDENCE, ref("provider_no_results")]),
        "argued_from_undetermined_comparison",
    ),
    (
        "exhaustion-current-coverage-only",
        OPERATOR,
        FakeRecall([], freshness="stale"),
        True,
        outcome("coverage_backed_exhaustion", [EVIDENCE]),
        "legal",
    ),
    (
        "exhaustion-fresh-coverage",
        OPERATOR,
        FakeRecall([]),
        True,
        outcome(
            "coverage_backed_exhaustion", [EVIDENCE, ref("comparison_verdict", "no_prior_match")]
        ),
        "legal",
    ),
    (
        "exhaustion-confirmed-by-prior-failure",
        OPERATOR,
        FakeRecall(REPEAT, freshness="stale"),
        True,
        outcome(
            "coverage_backed_exhaustion",
            [
                EVIDENCE,
                ref("comparison_verdict", "repeats_prior_failure"),
                ref("prior_item", "s-9#m-3"),
            ],
        ),
        "legal",
    ),
    (
        "novelty-from-undetermined-verdict",
        OPERATOR,
        FakeRecall([], freshness="unknown"),
        True,
        outcome(
            "new_hypothesis",
            [EVIDENCE, ref("comparison_verdict", "undetermined")],
            {"kind": "hypothesis", "hypothesis": "the fixture leaks global state"},
        ),
        "argued_from_undetermined_comparison",
    ),
    (
        "novelty-claims-no-match-in-stale-index",
        OPERATOR,
        FakeRecall([], freshness="stale"),
        True,
        outcome("new_surface", [EVIDENCE, ref("comparison_verdict", "no_prior_match")]),
        "verdict_ref_mismatch",
    ),
    (
        "successor-without-provider",
        OPERATOR,
        FakeRecall([]),
        False,
        outcome("grounded_successor", [EVIDENCE], cmd(CLI)),
        "legal",
    ),
    (
        "successor-without-provider-cites-no-results",
        OPERATOR,
        FakeRecall([]),
        False,
        outcome("grounded_successor", [EVIDENCE, ref("provider_no_results")], cmd(CLI)),
        "argued_from_undetermined_comparison",
    ),
    (
        "hypothesis-grounded-fresh",
        OPERATOR,
        FakeRecall([item("We chose an iterative parser: recursion overflows.", "decision")]),
        True,
        outcome(
            "new_hypothesis",
            [EVIDENCE, ref("comparison_verdict", "no_prior_match")],
            {"kind": "hypothesis", "hypothesis": "the tokenizer drops a trailing newline"},
        ),
        "legal",
    ),
    (
        "blocker-with-history-and-evidence",
        OPERATOR,
        FakeRecall(REPEAT, freshness="stale"),
        True,
        outcome("newly_evidenced_blocker", [EVIDENCE, ref("prior_item", "s-9#m-3")]),
        "legal",
    ),
]


@pytest.mark.parametrize(
    ("situation_data", "recall", "enabled", "outcome_data", "expected"),
    [pytest.param(*case[1:], id=case[0]) for case in CASES],
)
def test_legality_table(situation_data, recall, enabled, outcome_data, expected):
    report = replan(
        situation_data,
        recall=bound(recall, [enablement()] if enabled else []),
        outcome=outcome_data,
    )
    legality = report.legality
    assert legality is not None
    assert (legality.legal, legality.reason) == (expected == "legal", expected)
    assert legality.public_json()["kind"] == outcome_data["kind"]


def test_every_reason_is_in_the_table():
    assert {case[-1] for case in CASES} == set(LEGALITY_REASONS)
