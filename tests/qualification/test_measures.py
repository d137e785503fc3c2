# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Each measure on a tiny corpus whose numbers are worked out by hand below."""

from __future__ import annotations

import pytest

from loopx_recall_core.qualification.measures import (
    arm_measures,
    context,
    detection,
    false_match,
    freshness,
    latency,
    paired_test,
    percentile,
    scope,
)
from tests.qualification.builders import record

# Three repeats, one near miss, two novel steps.
A = [
    record("r1", "repeat", True),  # in the current context
    record("r2", "repeat", False),
    record("r3", "repeat", False),
    record("n1", "near_miss", False),
    record("v1", "novel", False),
    record("v2", "novel", False),
]
B = [
    record("r1", "repeat", True, requested=True, provider_calls=1, context_chars=1000,
           latency_ms=200.0, freshness="fresh", verdict="repeats_prior_failure"),
    record("r2", "repeat", True, requested=True, provider_calls=1, context_chars=3000,
           truncated=True, latency_ms=300.0, freshness="fresh", verdict="repeats_prior_failure"),
    record("r3", "repeat", False, requested=True, provider_calls=1, context_chars=0,
           index_behind=True, freshness="stale", verdict="undetermined", latency_ms=100.0),
    record("n1", "near_miss", True, requested=True, provider_calls=1, context_chars=500,
           freshness="unknown", verdict="repeats_prior_failure", latency_ms=250.0),
    record("v1", "novel", False, requested=True, provider_calls=1, context_chars=0,
           index_behind=True, freshness="fresh", verdict="no_prior_match", latency_ms=150.0,
           bait_rows=1, out_of_scope_rows=2),
    record("v2", "novel", False, reason="not_enabled", latency_ms=1.0),
]  # fmt: skip


def test_detection():
    # tp r1 r2, fn r3, fp n1, tn v1 v2.
    assert detection(B) == {
        "tp": 2,
        "fp": 1,
        "fn": 1,
        "tn": 2,
        "precision": 0.6667,
        "recall": 0.6667,
        "f1": 0.6667,  # 2*2 / (2*2 + 1 + 1)
        "dead_end_rate": 0.3333,
    }
    assert detection(A)["precision"] == 1.0
    assert detection(A)["recall"] == 0.3333
    assert detection(A)["f1"] == 0.5  # 2 / (2 + 0 + 2)


def test_detection_without_flags_or_repeats_is_not_a_number():
    quiet = [record("v", "novel", False)]
    assert detection(quiet)["precision"] is None
    assert detection(quiet)["recall"] is None
    assert detection(quiet)["f1"] is None
    assert detection([record("r", "repeat", False)])["f1"] == 0.0


def test_false_match_rates():
    assert false_match(B, "near_miss") == {"cases": 1, "flagged": 1, "rate": 1.0}
    assert false_match(B, "novel") == {"cases": 2, "flagged": 0, "rate": 0.0}
    assert false_match(A, "near_miss")["rate"] == 0.0
    assert false_match([], "novel")["rate"] is None


def test_context_over_requests_only():
    # Requests r1 r2 r3 n1 v1: sizes 0 0 500 1000 3000; nearest rank p50 = 3rd, p95 = 5th.
    assert context(B) == {
        "requests": 5,
        "chars_p50": 500,
        "chars_p95": 3000,
        "chars_max": 3000,
        "truncation_rate": 0.2,
    }
    assert context(A)["chars_p95"] is None


def test_latency_and_calls():
    # 1 100 150 200 250 300: p50 = 3rd, p95 = 6th.
    assert latency(B) == {"p50_ms": 150.0, "p95_ms": 300.0}
    assert arm_measures(B, indexed=True)["provider_calls_per_case"] == 0.8333
    assert arm_measures(A, indexed=False)["provider_calls_per_case"] == 0.0


def test_freshness_detection():
    assert freshness(B) == {
        "cases": 2,  # r3, v1
        "detected": 1,  # r3 said stale; v1 said fresh
        "rate": 0.5,
        "absence_claims": 1,  # v1: no_prior_match on an index that was behind
        "fresh_cases_reported_behind": 1,  # n1 said unknown
    }
    assert arm_measures(A, indexed=False)["freshness"] is None


def test_scope_rows_and_reason_counts():
    assert scope(B) == {"bait_rows": 1, "out_of_scope_rows": 2}
    measures = arm_measures(B, indexed=True)
    assert measures["reasons"] == {"not_enabled": 1}
    assert measures["verdicts"] == {
        "no_prior_match": 1,
        "repeats_prior_failure": 3,
        "undetermined": 1,
    }


@pytest.mark.parametrize(
    ("values", "q", "expected"),
    [([], 50, None), ([7], 95, 7), ([3, 1, 2], 50, 2), (list(range(1, 21)), 95, 19)],
)
def test_percentile_is_nearest_rank(values, q, expected):
    assert percentile(values, q) == expected


def test_paired_test_is_an_exact_one_sided_mcnemar():
    assert paired_test(A, B) == {"only_treatment": 1, "only_baseline": 0, "p_value": 0.5}

    def pairs(only_b: int, only_a: int):
        a = [record(f"x{i}", "repeat", i >= only_b) for i in range(only_b + only_a)]
        b = [record(f"x{i}", "repeat", i < only_b) for i in range(only_b + only_a)]
        return paired_test(a, b)["p_value"]

    assert pairs(5, 0) == 0.03125  # 1/32
    assert pairs(4, 1) == 0.1875  # (5 + 1)/32
    assert pairs(0, 0) == 1.0
