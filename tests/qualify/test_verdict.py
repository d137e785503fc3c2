# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The promotion gates on passing inputs and on inputs failing exactly one gate each."""

from __future__ import annotations

import attrs
import pytest

from loopx_recall_core.qualification.verdict import GATES, evaluate
from tests.qualify.builders import arms_of, passing_records, probes

LIMIT = 8000


def failing(arms, paired, faults) -> list[str]:
    gates = evaluate(arms, paired, faults, max_total_chars=LIMIT)
    assert [g.name for g in gates] == list(GATES)
    return [g.name for g in gates if not g.passed]


def test_passing_inputs_pass_every_gate():
    arms, paired = arms_of(*passing_records())
    assert paired["only_treatment"] == 8
    assert failing(arms, paired, probes()) == []


@pytest.mark.parametrize(
    ("changes", "gate"),
    [
        # (b) flags only two of the ten repeats: too little gain, no significance.
        (
            {f"r{i}": {"flagged": False, "verdict": "undetermined"} for i in range(2, 10)},
            "repeat_reduction",
        ),
        ({"n1": {"flagged": True}, "n2": {"flagged": True}}, "no_false_match_regression"),
        ({f"v{i}": {"context_chars": LIMIT + 1} for i in range(10)}, "bounded_context"),
        ({f"v{i}": {"latency_ms": 6000.0} for i in range(10)}, "bounded_latency"),
        ({"v5": {"reason": "provider_timeout"}}, "bounded_latency"),
        ({"v5": {"bait_rows": 1, "out_of_scope_rows": 1}}, "zero_scope_broadening"),
        ({"v6": {"out_of_scope_rows": 1}}, "zero_scope_broadening"),
        ({"v0": {"freshness": "fresh"}}, "honest_freshness"),
        ({"v1": {"verdict": "no_prior_match"}}, "honest_freshness"),
    ],
)
def test_each_gate_fails_alone(changes, gate):
    arms, paired = arms_of(*passing_records(**changes))
    assert failing(arms, paired, probes()) == [gate]


def test_no_gain_over_the_current_context_fails():
    # (a) already catches every repeat in the current context: (b) adds nothing.
    a, b = passing_records()
    a = [attrs.evolve(r, flagged=True) if r.label == "repeat" else r for r in a]
    arms, paired = arms_of(a, b)
    assert arms["a"]["detection"]["recall"] == 1.0
    assert failing(arms, paired, probes()) == ["repeat_reduction"]


def test_faults_must_be_exercised_typed_and_fail_open():
    arms, paired = arms_of(*passing_records())
    assert failing(arms, paired, probes(garbage="succeeded")) == ["typed_faults"]
    assert failing(arms, paired, probes(hang="RuntimeError")) == ["typed_faults"]
    # The foreign rows must be rejected as a scope violation, not merely fail.
    assert failing(arms, paired, probes(inject="failed:malformed_output")) == [
        "zero_scope_broadening",
        "typed_faults",
    ]
    # A non-gated finding never fails the verdict; no probe at all does.
    assert failing(arms, paired, [p for p in probes() if not p.gated]) == [
        "zero_scope_broadening",
        "typed_faults",
    ]


def test_latency_is_judged_against_the_runtime_floor():
    # A runtime whose bare call takes 5 s: 6 s per case is its floor plus 1 s of ours.
    arms, paired = arms_of(*passing_records(**{f"v{i}": {"latency_ms": 6000.0} for i in range(10)}))
    gates = evaluate(arms, paired, probes(), max_total_chars=LIMIT, latency_floor_ms=5000.0)
    assert [g.name for g in gates if not g.passed] == []
    gates = evaluate(arms, paired, probes(), max_total_chars=LIMIT, latency_floor_ms=4000.0)
    assert [g.name for g in gates if not g.passed] == ["bounded_latency"]
