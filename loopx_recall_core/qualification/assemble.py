# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Assemble the Stage 0 report record from the per-case records, the probes and the
runtime facts (the gates are judged here; :mod:`.report` renders and writes it)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import attrs

from loopx_recall_core import __version__
from loopx_recall_core.canonical import digest
from loopx_recall_core.plugin.records import RuntimeIdentity
from loopx_recall_core.qualification.arms import ARMS, CaseRecord
from loopx_recall_core.qualification.corpus import FAMILIES, Corpus
from loopx_recall_core.qualification.faults import FaultProbe
from loopx_recall_core.qualification.measures import (
    arm_measures,
    detection,
    guard_measures,
    paired_test,
)
from loopx_recall_core.qualification.verdict import THRESHOLDS, evaluate
from loopx_recall_core.state import DEFAULT_CEILINGS

__all__ = ["REPORT_SCHEMA", "build_report"]

REPORT_SCHEMA = "loopx_qualification_report_v0"
_RUNTIME_KEYS = ("runtime_version", "template_version", "template_digest")


def _family_summary(records: dict[str, list[CaseRecord]], family: str) -> dict[str, Any]:
    summary = {}
    for arm in ARMS:
        rows = [r for r in records[arm] if r.family == family]
        found = detection(rows)

        def rate(label: str, rows: list[CaseRecord] = rows) -> float | None:
            cases = [r for r in rows if r.label == label]
            return None if not cases else round(sum(r.flagged for r in cases) / len(cases), 4)

        summary[arm] = {
            "cases": len(rows),
            "recall": found["recall"],
            "precision": found["precision"],
            "false_match_near_miss": rate("near_miss"),
            "false_match_novel": rate("novel"),
        }
    return summary


def _case_rows(records: dict[str, list[CaseRecord]]) -> list[dict[str, Any]]:
    rows = []
    for a, b, c in zip(records["a"], records["b"], records["c"], strict=True):
        rows.append(
            {
                "case_id": a.case_id,
                "family": a.family,
                "label": a.label,
                "tags": list(a.tags),
                "index_behind": a.index_behind,
                "a": {"flagged": a.flagged},
                "b": {
                    "flagged": b.flagged,
                    "verdict": b.verdict,
                    "reason": b.reason,
                    "freshness": b.freshness,
                    "truncated": b.truncated,
                    "context_chars": b.context_chars,
                    "provider_calls": b.provider_calls,
                    "latency_ms": b.latency_ms,
                },
                "c": {"flagged": c.flagged, "context_chars": c.context_chars},
            }
        )
    return rows


def build_report(
    corpus: Corpus,
    provider: Any,
    runtime: dict[str, Any],
    records: dict[str, list[CaseRecord]],
    probes: list[FaultProbe],
    duration_s: float,
    *,
    identity: RuntimeIdentity | None = None,
    floor: dict[str, Any] | None = None,
    guard: Any = None,
    request_timeout_s: float,
    workers: int,
) -> dict[str, Any]:
    """The whole ``report.json`` record (public-safe), its digest included. ``guard``: the
    run's :class:`~loopx_recall_core.qualification.guard_arm.GuardStage` (None: not run)."""
    floor = floor or {"calls": 0, "p95_ms": 0.0}
    found = {r.case_id for r in records["b"] if r.flagged}
    guarded = (
        guard_measures(guard.records, guard.hot, guard.sets, guard.long, found)
        if guard is not None
        else None
    )
    arms = {arm: arm_measures(records[arm], indexed=arm == "b") for arm in ARMS}
    paired = paired_test(records["a"], records["b"])
    gates = evaluate(
        arms,
        paired,
        probes,
        max_total_chars=DEFAULT_CEILINGS["max_total_chars"],
        latency_floor_ms=float(floor["p95_ms"]),
        guard=guarded,
    )
    tags: dict[str, int] = {}
    for case in corpus.cases:
        for tag in case.tags:
            tags[tag] = tags.get(tag, 0) + 1
    facts = {k: runtime[k] for k in _RUNTIME_KEYS if k in runtime}
    if identity is not None:
        facts.update(runtime_version=identity.runtime_version, binary_digest=identity.binary_digest)
    report: dict[str, Any] = {
        "schema_version": REPORT_SCHEMA,
        "provider": {
            "provider_id": str(provider.provider_id),
            "provider_version": str(getattr(provider, "provider_version", "unknown")),
            "runtime": facts,
        },
        "host": {"loopx_recall_core": __version__},
        "corpus": {
            "version": corpus.version,
            "seed": corpus.seed,
            "cases": len(corpus.cases),
            "digest": corpus.digest,
            **corpus.counts(),
            "tags": dict(sorted(tags.items())),
        },
        "settings": {
            "limits": dict(DEFAULT_CEILINGS),
            "window_days": corpus.cases[0].scope.window_days,
            "request_timeout_s": request_timeout_s,
            "workers": workers,
            "latency_floor": dict(floor),
            "thresholds": dict(THRESHOLDS),
        },
        "arms": arms,
        "paired_test": paired,
        "guard": guarded,
        "by_family": {name: _family_summary(records, name) for name in FAMILIES},
        "faults": [{**attrs.asdict(p), "passed": p.passed} for p in probes],
        "gates": [attrs.asdict(g) for g in gates],
        "verdict": {
            "passed": all(g.passed for g in gates),
            "failed_gates": [g.name for g in gates if not g.passed],
        },
        "cases": _case_rows(records),
        "guard_cases": [attrs.asdict(r) for r in guard.records] if guard is not None else [],
        "duration_s": round(duration_s, 1),
        "generated_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    report["report_digest"] = digest(json.dumps(report, sort_keys=True, ensure_ascii=False))
    return report
