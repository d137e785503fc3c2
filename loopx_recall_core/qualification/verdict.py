# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The promotion gates (RFC sections 9 and 10) over the measures; pure.

=========================  ==============================================================
gate                       passes when
=========================  ==============================================================
repeat_reduction           arm (b) flags >= 10 points more repeats than arm (a) (recall),
                           and the exact one-sided McNemar p-value over the repeats is
                           <= 0.05: a measured reduction, not an anecdote
no_false_match_regression  arm (b)'s false-match rate on near misses and on novel steps
                           each exceeds arm (a)'s by at most 5 points
bounded_context            arm (b)'s context chars p95 and max <= max_total_chars
bounded_latency            arm (b)'s latency p95 <= the bare runtime call's p95 (one bare
                           call beside each case's recall, same concurrency, alternating
                           order) + 1500 ms, and no request timed out
zero_scope_broadening      no returned item from a bait or any out-of-scope session, and
                           the injected foreign rows were rejected (``scope_violation``)
honest_freshness           every case whose index is behind was answered as such
                           (stale/incomplete/unknown), and none as ``no_prior_match``
typed_faults               every gated fault probe was exercised, typed and fail-open
guard_zero_bait_warnings   the guard families ran, and the guard warned on no bait step
                           (a command that failed only outside the scope) and its sets
                           held no row from a bait session
guard_hot_path             the hook process (``loopx-recall guard claude``, as installed)
                           CPU time p95 <= 10 x the paired ``python -c pass`` CPU time p95,
                           over at least one run. CPU time, not wall time: under load the
                           wall time of a process that imports more stretches far more
                           than the yardstick's (measured: 590 vs 133 ms with the test
                           suite beside it), its CPU time hardly, and in step with the
                           yardstick's (100 vs 15 ms idle, 137 vs 21 ms at load 14: 6.5x
                           both times). A ratio, as the CLI's start-up standard (3x
                           ``python -c pass``), so the bound follows the machine; 10x
                           catches a guard grown by half (click or cattrs imported on the
                           hot path would). The wall-time p50/p95 and the issue's target
                           (p95 <= 100 ms; the 10,000-item figure is
                           ``benchmarks/guard_hotpath.py``'s) are reported, not gated
guard_agrees_with_replan   on every guarded payload, the guard's verdict and replan's
                           comparison on the same set agree on ``repeats_prior_failure``
guard_long_history         on the ``long_history`` family, where every first attempt sits
                           behind >= 40 newer shell calls (>= 20 failed) in the same
                           repository, counted in the files, the guard warned >= 0.95 of
                           the repeats arm (b) found (and arm (b) found one at least): a set
                           that held only the newest ``max_items`` calls warns on none
=========================  ==============================================================
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from loopx_recall_core.qualification.faults import FaultProbe

__all__ = ["GATES", "THRESHOLDS", "Gate", "evaluate"]

THRESHOLDS = {
    "min_recall_gain": 0.10,
    "max_p_value": 0.05,
    "false_match_slack": 0.05,
    #: What the host may add to the runtime's own floor: transcript scan, parsing, host
    #: verification, the private store and Replan, under the run's concurrency.
    "latency_allowance_ms": 1500.0,
    #: The guard's hook process's CPU time over ``python -c pass``'s (paired runs), at most.
    "guard_cpu_ratio": 10.0,
    #: The long-history family: the guard's share of the repeats arm (b) found (issue 28's
    #: benchmark asks the same of the guard against replan), and the history in front of
    #: each first attempt (issue 28: 40 newer calls, half failed).
    "guard_long_history_share": 0.95,
    "long_history_newer_calls": 40,
    "long_history_newer_failed": 20,
}
GATES = (
    "repeat_reduction",
    "no_false_match_regression",
    "bounded_context",
    "bounded_latency",
    "zero_scope_broadening",
    "honest_freshness",
    "typed_faults",
    "guard_zero_bait_warnings",
    "guard_hot_path",
    "guard_agrees_with_replan",
    "guard_long_history",
)
_GUARD_GATES = GATES[-4:]


@attrs.frozen(kw_only=True)
class Gate:
    name: str
    passed: bool
    detail: str


def _num(value: float | None) -> float:
    return 0.0 if value is None else value


def evaluate(
    arms: Mapping[str, Mapping[str, Any]],
    paired: Mapping[str, Any],
    probes: Sequence[FaultProbe],
    *,
    max_total_chars: int,
    latency_floor_ms: float = 0.0,
    guard: Mapping[str, Any] | None = None,
) -> list[Gate]:
    """One :class:`Gate` per name in :data:`GATES`, in that order; ``guard``:
    :func:`~loopx_recall_core.qualification.measures.guard_measures` (None: the guard
    families did not run, and their gates fail)."""
    a, b = arms["a"], arms["b"]
    return [
        _repeat_reduction(a, b, paired),
        _no_false_match_regression(a, b),
        _bounded_context(b, max_total_chars),
        _bounded_latency(b, latency_floor_ms),
        _zero_scope_broadening(b, probes),
        _honest_freshness(b),
        _typed_faults(probes),
        *_guard_gates(guard),
    ]


def _repeat_reduction(
    a: Mapping[str, Any], b: Mapping[str, Any], paired: Mapping[str, Any]
) -> Gate:
    t = THRESHOLDS
    recall_a, recall_b = a["detection"]["recall"], b["detection"]["recall"]
    gain = _num(recall_b) - _num(recall_a)
    return Gate(
        name="repeat_reduction",
        passed=recall_b is not None
        and gain >= t["min_recall_gain"]
        and paired["p_value"] <= t["max_p_value"],
        detail=f"recall (b) {_num(recall_b):.3f} vs (a) {_num(recall_a):.3f} "
        f"(gain {gain:+.3f}, needs >= {t['min_recall_gain']:.2f}); McNemar p "
        f"{paired['p_value']:.4g} (needs <= {t['max_p_value']})",
    )


def _no_false_match_regression(a: Mapping[str, Any], b: Mapping[str, Any]) -> Gate:
    t = THRESHOLDS
    worse = []
    for label in ("near_miss", "novel"):
        rate_a = _num(a["false_match"][label]["rate"])
        rate_b = _num(b["false_match"][label]["rate"])
        if rate_b > rate_a + t["false_match_slack"]:
            worse.append(f"{label} {rate_b:.3f} > {rate_a:.3f} + {t['false_match_slack']}")
    return Gate(
        name="no_false_match_regression",
        passed=not worse,
        detail="; ".join(worse) or "false-match rates of (b) within (a) + 0.05",
    )


def _bounded_context(b: Mapping[str, Any], max_total_chars: int) -> Gate:
    context = b["context"]
    p95, largest = _num(context["chars_p95"]), _num(context["chars_max"])
    return Gate(
        name="bounded_context",
        passed=p95 <= max_total_chars and largest <= max_total_chars,
        detail=f"context chars p95 {p95:.0f}, max {largest:.0f} "
        f"(max_total_chars {max_total_chars})",
    )


def _bounded_latency(b: Mapping[str, Any], latency_floor_ms: float) -> Gate:
    t = THRESHOLDS
    timeouts = b["reasons"].get("provider_timeout", 0)
    latency_p95 = _num(b["latency"]["p95_ms"])
    ceiling = latency_floor_ms + t["latency_allowance_ms"]
    return Gate(
        name="bounded_latency",
        passed=latency_p95 <= ceiling and timeouts == 0,
        detail=f"latency p95 {latency_p95:.0f} ms (needs <= bare runtime call p95 "
        f"{latency_floor_ms:.0f} + {t['latency_allowance_ms']:.0f}); {timeouts} timeouts",
    )


def _zero_scope_broadening(b: Mapping[str, Any], probes: Sequence[FaultProbe]) -> Gate:
    rows = b["scope"]
    inject = next((p for p in probes if p.name == "inject"), None)
    injected_rejected = inject is not None and inject.observed == "failed:scope_violation"
    return Gate(
        name="zero_scope_broadening",
        passed=rows["bait_rows"] == 0 and rows["out_of_scope_rows"] == 0 and injected_rejected,
        detail=f"bait rows {rows['bait_rows']}, out-of-scope rows "
        f"{rows['out_of_scope_rows']}; injected foreign rows "
        + ("rejected" if injected_rejected else "NOT rejected"),
    )


def _honest_freshness(b: Mapping[str, Any]) -> Gate:
    fresh = b["freshness"]
    honest = fresh["absence_claims"] == 0 and fresh["detected"] == fresh["cases"]
    return Gate(
        name="honest_freshness",
        passed=honest,
        detail=f"{fresh['detected']}/{fresh['cases']} behind-index cases reported as "
        f"such; {fresh['absence_claims']} absence claims",
    )


def _typed_faults(probes: Sequence[FaultProbe]) -> Gate:
    failed = [p.name for p in probes if p.gated and not p.passed]
    gated = sum(1 for p in probes if p.gated)
    return Gate(
        name="typed_faults",
        passed=gated > 0 and not failed,
        detail=f"{gated - len(failed)}/{gated} gated probes typed and fail-open"
        + (f"; failing: {', '.join(failed)}" if failed else ""),
    )


def _guard_gates(guard: Mapping[str, Any] | None) -> list[Gate]:
    if not guard or not guard["payloads"]:
        return [
            Gate(name=name, passed=False, detail="the guard families did not run")
            for name in _GUARD_GATES
        ]
    bait, rows = guard["kinds"]["bait"], guard["sets"]["bait_rows"]
    hot = guard["hot_path"]
    runs, cpu, floor = hot["runs"], _num(hot["cpu_p95_ms"]), _num(hot["yardstick_cpu_p95_ms"])
    ratio = THRESHOLDS["guard_cpu_ratio"]
    target = "met" if hot["target_met"] else "missed"
    agreement = guard["agreement"]
    return [
        Gate(
            name="guard_zero_bait_warnings",
            passed=bait["cases"] > 0 and bait["warned"] == 0 and rows == 0,
            detail=f"{bait['warned']} warnings on {bait['cases']} bait steps; "
            f"{rows} bait rows in {guard['sets']['requests']} sets",
        ),
        Gate(
            name="guard_hot_path",
            passed=runs > 0 and 0 < cpu <= floor * ratio,
            detail=f"hook process CPU p95 {cpu:.0f} ms over {runs} runs (needs <= {ratio:.0f} x "
            f"python -c pass CPU p95 {floor:.0f}); wall p95 {_num(hot['p95_ms']):.0f} ms, "
            f"issue target <= {hot['target_p95_ms']:.0f} ms {target}",
        ),
        Gate(
            name="guard_agrees_with_replan",
            passed=agreement["compared"] > 0 and agreement["disagreements"] == 0,
            detail=f"{agreement['disagreements']} disagreements on repeats in "
            f"{agreement['compared']} payloads",
        ),
        _guard_long_history(guard.get("long_history")),
    ]


def _guard_long_history(long: Mapping[str, Any] | None) -> Gate:
    t = THRESHOLDS
    if not long or not long["shards"]:
        return Gate(name="guard_long_history", passed=False,
                    detail="the long-history family did not run")  # fmt: skip
    found, warned = long["found_by_replan"], long["warned_of_found"]
    calls, failed = _num(long["newer_calls_min"]), _num(long["newer_failed_min"])
    share = warned / found if found else 0.0
    return Gate(
        name="guard_long_history",
        passed=found > 0
        and share >= t["guard_long_history_share"]
        and calls >= t["long_history_newer_calls"]
        and failed >= t["long_history_newer_failed"],
        detail=f"guard warned {warned}/{found} repeats replan (b) found behind >= "
        f"{calls:.0f} newer shell calls ({failed:.0f} failed) (needs >= "
        f"{t['guard_long_history_share']:.2f}, behind >= {t['long_history_newer_calls']} "
        f"calls, {t['long_history_newer_failed']} failed); {long['warned']}/{long['repeats']} "
        "labelled repeats warned",
    )
