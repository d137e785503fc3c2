# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``guard stats``: what the guard did for one project, from its content-free records."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from loopx_recall_core.guard import store

__all__ = ["STATS_SCHEMA", "guard_stats", "render_text"]

STATS_SCHEMA = "loopx_guard_stats_v0"


def _percentile(values: list[float], fraction: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def guard_stats(root: Path, project_id: str) -> dict[str, Any]:
    records = store.decision_lines(root, project_id)
    decisions = [r for r in records if r.get("kind") == "decision"]
    follow = [r for r in records if r.get("kind") == "follow_up"]
    latencies = [
        float(r["latency_ms"]) for r in decisions if isinstance(r.get("latency_ms"), int | float)
    ]
    p50, p95 = _percentile(latencies, 0.5), _percentile(latencies, 0.95)
    return {
        "schema_version": STATS_SCHEMA,
        "guarded_calls": len(decisions),
        # a repeat already warned about in the session is still a match
        "matches": sum(
            1 for r in decisions if r.get("verdict") in ("repeats_prior_failure", "already_warned")
        ),
        "answered": sum(1 for r in decisions if r.get("answered")),
        "warned_then_avoided": sum(1 for r in follow if r.get("outcome") == "avoided"),
        "warned_then_repeated": sum(1 for r in follow if r.get("outcome") == "repeated"),
        "latency_ms": {"p50": p50, "p95": p95},
    }


def render_text(stats: dict[str, Any]) -> str:
    latency = stats["latency_ms"]

    def ms(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.1f} ms"

    return "\n".join(
        [
            f"guarded calls: {stats['guarded_calls']}",
            f"matches (repeats of a prior failure): {stats['matches']}",
            f"warnings or denials given: {stats['answered']}",
            f"warned, then avoided: {stats['warned_then_avoided']}",
            f"warned, then repeated: {stats['warned_then_repeated']}",
            f"guard latency p50 / p95: {ms(latency['p50'])} / {ms(latency['p95'])}",
        ]
    )
