# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The promotion gates on passing inputs and on inputs failing exactly one gate each."""

from __future__ import annotations

import attrs
import pytest

from loopx_recall_core.qualification.verdict import GATES, evaluate
from tests.qualification.builders import GuardRun, arms_of, passing_records, probes

LIMIT = 8000


def failing(arms, paired, faults, guard=None) -> list[str]:
    guard = (guard or GuardRun()).measures()
    gates = evaluate(arms, paired, faults, max_total_chars=LIMIT, guard=guard)
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
    gates = evaluate(
        arms, paired, probes(), max_total_chars=LIMIT, latency_floor_ms=5000.0,
        guard=GuardRun().measures(),
    )  # fmt: skip
    assert [g.name for g in gates if not g.passed] == []
    gates = evaluate(
        arms, paired, probes(), max_total_chars=LIMIT, latency_floor_ms=4000.0,
        guard=GuardRun().measures(),
    )  # fmt: skip
    assert [g.name for g in gates if not g.passed] == ["bounded_latency"]


@pytest.mark.parametrize(
    ("guard", "gate"),
    [
        # one warning on a step whose command failed only outside the scope
        (GuardRun(warned={"bait1": True}), "guard_zero_bait_warnings"),
        # a row from a bait session in a prefetched set
        (GuardRun(bait_rows=1), "guard_zero_bait_warnings"),
        # the hook process spends 250 ms of CPU: over 10 x python -c pass's 15
        (GuardRun(guard_cpu_ms=250.0), "guard_hot_path"),
        # the guard's comparison says repeat where replan's, on the same set, does not
        (GuardRun(verdicts={"near_miss0": "repeats_prior_failure"}), "guard_agrees_with_replan"),
        # a repeat arm (b) found behind the long history, not warned (1 of 2 < 0.95)
        (GuardRun(warned={"repeat2": False}), "guard_long_history"),
        # the set saw only the newest calls: neither repeat arm (b) found is warned
        (GuardRun(warned={"repeat2": False, "repeat3": False}), "guard_long_history"),
        # the history in front of the repeats is short: the family would not test the set
        (GuardRun(newer_calls=16), "guard_long_history"),
        # the long-history family did not run
        (GuardRun(long=False), "guard_long_history"),
    ],
)
def test_each_guard_gate_fails_alone(guard, gate):
    arms, paired = arms_of(*passing_records())
    assert failing(arms, paired, probes(), guard) == [gate]


def test_the_guard_gates_read_cpu_time_and_need_the_guard_families():
    arms, paired = arms_of(*passing_records())
    # a loaded machine: 900 ms of wall time, but the guard's own work unchanged
    assert failing(arms, paired, probes(), GuardRun(guard_ms=900.0)) == []
    measures = GuardRun(guard_ms=900.0).measures()
    assert measures["hot_path"]["target_met"] is False
    assert GuardRun().measures()["hot_path"]["target_met"] is False  # 120 ms > 100
    assert GuardRun(guard_ms=90.0).measures()["hot_path"]["target_met"] is True
    # no guard measures at all: the four guard gates fail, nothing else
    gates = evaluate(arms, paired, probes(), max_total_chars=LIMIT)
    assert [g.name for g in gates if not g.passed] == list(GATES[-4:])
    assert {g.detail for g in gates if not g.passed} == {"the guard families did not run"}


def test_superseded_and_near_miss_warnings_are_reported_not_gated():
    arms, paired = arms_of(*passing_records())
    guard = GuardRun(
        warned={"near_miss0": True, "prior_success0": True},
        verdicts={"repeat0": "superseded"},
    )
    measures = guard.measures()
    assert measures["kinds"]["near_miss"]["warned"] == 1
    assert measures["kinds"]["prior_success"]["warned"] == 1
    assert measures["agreement"] == {"compared": 14, "disagreements": 0}
    assert failing(arms, paired, probes(), guard) == []
