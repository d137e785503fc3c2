# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Hand-made per-case records and probes for the measure, verdict and report tests."""

from __future__ import annotations

from typing import Any

from loopx_recall_core.qualification.arms import CaseRecord
from loopx_recall_core.qualification.faults import RUNTIME_FAULTS, FaultProbe
from loopx_recall_core.qualification.guard_arm import GuardRecord, GuardSet, HotRun, LongHistory
from loopx_recall_core.qualification.measures import arm_measures, guard_measures, paired_test


def record(case_id: str, label: str, flagged: bool, **fields: Any) -> CaseRecord:
    family = fields.pop("family", "baseline")
    return CaseRecord(case_id=case_id, family=family, label=label, flagged=flagged, **fields)


def probes(**observed: str) -> list[FaultProbe]:
    """Every probe passing, except those given as ``name=observed`` (then failing)."""
    good = {fault: "failed:malformed_output" for fault in RUNTIME_FAULTS}
    good["inject"] = "failed:scope_violation"
    result = []
    for name, seen in {**good, **observed}.items():
        ok = name not in observed
        result.append(
            FaultProbe(
                name=name,
                surface="runtime_output",
                observed=seen,
                exercised=ok or seen != "succeeded",
                typed=ok,
                fail_open=True,
                provider_calls=1,
            )
        )
    result.append(
        FaultProbe(
            name="provider_bind_unknown_option",
            surface="provider_bind",
            observed="accepted",
            exercised=True,
            typed=False,
            fail_open=True,
            gated=False,
        )
    )
    return result


def passing_records(**b_changes: Any) -> tuple[list[CaseRecord], list[CaseRecord]]:
    """Ten repeats (a flags 1, b flags 9), ten near misses, ten novel steps, two of them
    with the index behind; ``b_changes`` maps case ids to field overrides for arm (b)."""
    a, b = [], []
    for index in range(10):
        for label, prefix in (("repeat", "r"), ("near_miss", "n"), ("novel", "v")):
            case_id = f"{prefix}{index}"
            a.append(record(case_id, label, label == "repeat" and index == 0))
            behind = label == "novel" and index < 2
            fields: dict[str, Any] = {
                "requested": True,
                "provider_calls": 1,
                "context_chars": 1000 + 100 * index,
                "truncated": index == 9,
                "index_behind": behind,
                "freshness": "stale" if behind else "fresh",
                "verdict": "repeats_prior_failure"
                if label == "repeat" and index < 9
                else ("undetermined" if behind else "no_prior_match"),
                "latency_ms": 200.0 + index,
            }
            fields.update(b_changes.get(case_id, {}))
            flagged = fields.pop("flagged", label == "repeat" and index < 9)
            b.append(record(case_id, label, flagged, **fields))
    return a, b


def arms_of(a: list[CaseRecord], b: list[CaseRecord]) -> tuple[dict, dict]:
    c = [record(r.case_id, r.label, r.label == "repeat", requested=True) for r in a]
    arms = {
        "a": arm_measures(a, indexed=False),
        "b": arm_measures(b, indexed=True),
        "c": arm_measures(c, indexed=False),
    }
    return arms, paired_test(a, b)


class GuardRun:
    """What :class:`~loopx_recall_core.qualification.guard_arm.GuardStage` collects, by hand:
    five repeats (four warned; two of those, ``long_ids``, in the long-history family, where
    ``newer_calls`` newer shell calls, half failed, sit in front of them and arm (b) found
    both), three each of near misses, prior successes and bait steps (none warned), two
    sets, four paired hook runs; ``warned`` / ``verdicts`` override the ``warned`` flag /
    the guard's verdict by case id, ``guard_cpu_ms`` every run's CPU; ``long=False``: the
    long-history family did not run."""

    def __init__(
        self,
        *,
        warned: dict[str, bool] | None = None,
        verdicts: dict[str, str] | None = None,
        guard_cpu_ms: float = 80.0,
        guard_ms: float = 120.0,
        bait_rows: int = 0,
        newer_calls: int = 48,
        long: bool = True,
        long_ids: tuple[str, str] = ("repeat2", "repeat3"),
    ) -> None:
        warned, verdicts = warned or {}, verdicts or {}
        renamed = dict(zip(("repeat2", "repeat3"), long_ids, strict=True)) if long else {}
        self.records = []
        for kind, count in (("repeat", 5), ("near_miss", 3), ("prior_success", 3), ("bait", 3)):
            for index in range(count):
                case_id = f"{kind}{index}"
                hit = kind == "repeat" and index < 4
                verdict = "repeats_prior_failure" if hit else "no_prior_match"
                family = "bait" if kind == "bait" else "baseline"
                if case_id in renamed:
                    case_id, family = renamed[case_id], "long_history"
                self.records.append(
                    GuardRecord(
                        case_id=case_id,
                        family=family,
                        kind=kind,
                        warned=warned.get(case_id, hit),
                        verdict=verdicts.get(case_id, verdict),
                        replan_verdict=verdict,
                        set_status="succeeded",
                        decision_ms=2.0 + index,
                    )
                )
        self.sets = [GuardSet(status="succeeded", items=16, bait_rows=bait_rows)] * 2
        run = HotRun(guard_ms=guard_ms, bare_ms=18.0, guard_cpu_ms=guard_cpu_ms, bare_cpu_ms=15.0,
                     answered=False, decided=False)  # fmt: skip
        self.hot = [run] * 4
        self.long = (
            [
                LongHistory(
                    first_attempts=2, newer_calls_min=newer_calls, newer_failed_min=newer_calls // 2
                )
            ]
            if long
            else []
        )
        self.found = set(renamed.values())

    def measures(self) -> dict[str, Any]:
        return guard_measures(self.records, self.hot, self.sets, self.long, self.found)


class _Provider:
    provider_id = "obelisk-session-evidence"
    provider_version = "9.9.9-test"


def synthetic_report(*, passing: bool = True, cases: int = 30) -> dict[str, Any]:
    """A whole report from hand-made records on a real corpus (no provider run)."""
    from loopx_recall_core.qualification.corpus import build_corpus
    from loopx_recall_core.qualification.harness import _report

    corpus = build_corpus(cases=cases)
    records: dict[str, list[CaseRecord]] = {"a": [], "b": [], "c": []}
    for case in corpus.cases:
        repeat = case.label == "repeat"
        records["a"].append(record(case.case_id, case.label, repeat and "in_context" in case.tags))
        b_fields = {"requested": True, "provider_calls": 1, "context_chars": 1200}
        b_fields.update(freshness="fresh", verdict="no_prior_match", latency_ms=250.0)
        # failing, arm (b) still finds the long history's repeats (the guard's gate there
        # reads what it found): repeat_reduction fails alone
        found = repeat and (passing or case.family == "long_history")
        records["b"].append(record(case.case_id, case.label, found, **b_fields))
        c_fields = {"requested": True, "context_chars": 90000}
        records["c"].append(record(case.case_id, case.label, repeat, **c_fields))
    runtime = {"runtime_version": "0.2.4", "template_version": "t/1", "private": "/home/x"}
    long_ids = [c.case_id for c in corpus.cases
                if c.family == "long_history" and c.label == "repeat"]  # fmt: skip
    guard = GuardRun(long_ids=(long_ids * 2)[:2])
    return _report(corpus, _Provider(), runtime, records, probes(), 1.0, guard=guard)
