# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``guard stats``: what the guard did for one project, from its content-free records."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Any

from loopx_recall_core.guard import store

__all__ = ["STATS_SCHEMA", "guard_stats", "guard_status", "render_text", "set_summaries"]

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
    ran = [r for r in records if r.get("kind") == "ran"]
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
        # PostToolUse: shell calls seen after they ran, and where each follow-up was seen
        # (a record made before PostToolUse existed was seen at PreToolUse)
        "ran": len(ran),
        "ran_warned_route": sum(1 for r in ran if r.get("warned_route")),
        "ran_failed": sum(1 for r in ran if r.get("failed")),
        "follow_ups_seen_at": {
            event: sum(1 for r in follow if r.get("seen_at", "PreToolUse") == event)
            for event in ("PreToolUse", "PostToolUse")
        },
        "latency_ms": {"p50": p50, "p95": p95},
    }


def render_text(stats: dict[str, Any]) -> str:
    latency, seen = stats["latency_ms"], stats["follow_ups_seen_at"]

    def ms(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.1f} ms"

    return "\n".join(
        [
            f"guarded calls: {stats['guarded_calls']}",
            f"matches (repeats of a prior failure): {stats['matches']}",
            f"warnings or denials given: {stats['answered']}",
            f"warned, then avoided: {stats['warned_then_avoided']}",
            f"warned, then repeated: {stats['warned_then_repeated']}",
            f"shell calls seen after they ran (PostToolUse): {stats['ran']}"
            f" ({stats['ran_warned_route']} on a warned route, {stats['ran_failed']} failed)",
            f"follow-ups seen at PreToolUse / PostToolUse: {seen['PreToolUse']} /"
            f" {seen['PostToolUse']}",
            f"guard latency p50 / p95: {ms(latency['p50'])} / {ms(latency['p95'])}",
        ]
    )


def set_summaries(root: Path) -> dict[tuple[str, str], list[tuple[float, float, str]]]:
    """Every prior-outcome set's header, read once: ``{(agent, project): [(age in s, TTL,
    freshness), ...]}`` (counts and ages only; no content, no id)."""
    now = time.time()
    found: dict[tuple[str, str], list[tuple[float, float, str]]] = {}
    folder = root / "private" / "guard" / "sets"
    with contextlib.suppress(FileNotFoundError, NotADirectoryError):
        for entry in os.scandir(folder):
            if not (len(entry.name) == 37 and entry.name.endswith(".json")):
                continue
            with contextlib.suppress(Exception):  # an unreadable set is no set
                lines = store.read_set_lines(Path(entry.path))
                header = store.read_header(lines) if lines else None
                if header is None:
                    continue
                age = max(now - float(header.get("created_at", 0)), 0.0)
                label = str(header.get("freshness") or "unknown")
                key = (header.get("agent_id"), header.get("project_id"))
                found.setdefault(key, []).append((age, float(header.get("ttl_s", 0)), label))
    return found


def guard_status(
    sets: dict[tuple[str, str], list[tuple[float, float, str]]],
    agent_id: str,
    project_id: str,
    policy: str | None,
) -> dict:
    """``capability status``'s guard row for one enablement: on/off, the policy, and its
    sessions' prior-outcome sets (:func:`set_summaries`) as counts and ages only."""
    mine = sets.get((agent_id, project_id), [])
    ages = [age for age, _ttl, _label in mine]
    freshness: dict[str, int] = {}
    for _age, _ttl, label in mine:
        freshness[label] = freshness.get(label, 0) + 1
    return {
        "on": policy is not None,
        "policy": policy,
        "sets": {
            "count": len(ages),
            "newest_age_s": round(min(ages)) if ages else None,
            "oldest_age_s": round(max(ages)) if ages else None,
            "past_ttl": sum(age > ttl for age, ttl, _label in mine),
            "freshness": dict(sorted(freshness.items())),
        },
    }


def render_status_line(guard: dict) -> str:
    sets = guard["sets"]
    head = f"guard: {guard['policy']}" if guard["on"] else "guard: off"
    if not sets["count"]:
        line = head + " (no session set)"
    else:
        fresh = ", ".join(f"{n} {label}" for label, n in sets["freshness"].items())
        line = (
            f"{head} ({sets['count']} session set(s), newest {sets['newest_age_s']} s old, "
            f"oldest {sets['oldest_age_s']} s, {sets['past_ttl']} past their TTL; {fresh})"
        )
    return line + "".join(_hook_line(runtime, state) for runtime, state in
                          sorted(guard.get("hooks", {}).items()))  # fmt: skip


def _hook_line(runtime: str, state: str) -> str:
    from loopx_recall_core.runtimes import record

    if state == "ok":
        return f"\n    hooks ({runtime}): installed"
    if state == "trust_recorded":
        return (f"\n    hooks ({runtime}): installed and trusted once (whether that trust "
                "still covers them as written: unknown; it re-asks after a change)")  # fmt: skip
    if state == "no_session_end":
        return (f"\n    hooks ({runtime}): installed without the session-end hooks (Stop, "
                "SessionEnd), so a new session's first call is not guarded from the one "
                f"that just ended: run `loopx-recall hook install {runtime} ... --guard` "
                "again")  # fmt: skip
    if state in ("not_trusted", "trust_unknown"):
        said = "not trusted yet" if state == "not_trusted" else "trust unknown"
        return f"\n    hooks ({runtime}): installed, {said}: {record(runtime).trust}"
    return (
        f"\n    hooks ({runtime}): the hook command points nowhere (the loopx-recall that "
        f"installed it is gone): run `loopx-recall hook install {runtime} ...` again "
        "from the environment you use now"
    )
