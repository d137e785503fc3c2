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
from loopx_recall_core.runtimes import HOOK_RUNTIMES

__all__ = [
    "FIXES",
    "STATS_SCHEMA",
    "fix_for",
    "guard_stats",
    "guard_status",
    "last_silence",
    "render_text",
    "set_summaries",
]

STATS_SCHEMA = "loopx_guard_stats_v0"


def _percentile(values: list[float], fraction: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


#: Why a call was left unanswered (the hot path's ``silent`` records and a decision made
#: from a set whose recall did not succeed), and the command that fixes it. ``{agent}``,
#: ``{project}`` and ``{provider}`` are filled in where they are known (``capability
#: status``); ``{status}`` is ``capability status`` as it runs (it needs its capability and
#: ``--provider``).
_STATUS = "loopx-recall capability status agent-turn-recall --provider {provider}"
FIXES = {
    "no_set": "no prior-outcome set was made in time: `{status} "
    "--agent-id {agent} --project-id {project}` says what the provider lacks; `loopx-recall "
    "hook install " + "|".join(HOOK_RUNTIMES) + " --agent-id {agent} --project-id {project} "
    "--guard` adds the "
    "session hooks that make the sets",
    "session_not_claimed": "the session is not claimed for the agent (agent sessions: "
    "claimed): `loopx-recall hook install " + "|".join(HOOK_RUNTIMES) + " --agent-id {agent} "
    "--project-id "
    "{project} --guard` adds the SessionStart hook that claims each session",
    "set_outdated": "the sets predate the owner's last change and are being made again: "
    "the next call is answered; if not, `{status} --agent-id {agent} "
    "--project-id {project}`",
    "out_of_time": "the hook ran out of the time the runtime allows it (a state folder on a "
    "slow or hung file system?): `loopx-recall state path`, and check that folder's disk",
    "refused": "the set's recall was refused ({reason}): `{status} "
    "--agent-id {agent} --project-id {project}` names what is missing; enable again from "
    "the shell where the provider's runtime runs: `loopx-recall capability enable "
    "agent-turn-recall --provider {provider} --agent-id {agent} --project-id {project} "
    "--stage 2` (a provider pins its runtime there)",
    "failed": "the set's recall failed ({reason}): `{status} "
    "--agent-id {agent} --project-id {project}` names the provider's trouble",
}


def silence_of(record: dict[str, Any]) -> str | None:
    """The reason code a record says the call went unanswered for, or None."""
    if record.get("kind") == "silent":
        return str(record.get("reason") or "unknown")
    status = record.get("set_status")
    if record.get("kind") == "decision" and status not in (None, "succeeded"):
        reason = record.get("set_reason")
        return f"{status}:{reason}" if isinstance(reason, str) and reason else str(status)
    return None


def fix_for(
    reason: str, agent_id: str = "AGENT", project_id: str = "PROJECT", provider: str = "PROVIDER"
) -> str:
    """The command that fixes a silence, with the ids filled in."""
    head, _, detail = reason.partition(":")
    kind = head if head in FIXES else ("refused" if head == "refused" else "failed")
    status = _STATUS.format(provider=provider)
    return FIXES[kind].format(agent=agent_id, project=project_id, provider=provider,
                              status=status, reason=detail or head)  # fmt: skip


def last_silence(
    records: list[dict[str, Any]],
    agent_id: str = "AGENT",
    project_id: str = "PROJECT",
    provider: str = "PROVIDER",
) -> dict[str, Any] | None:
    """The newest call left unanswered for a reason other than its command, with the fix."""
    for record in reversed(records):
        reason = silence_of(record)
        if reason is not None:
            return {"reason": reason, "at": record.get("at"),
                    "fix": fix_for(reason, agent_id, project_id, provider)}  # fmt: skip
    return None


def guard_stats(
    root: Path, project_id: str, agent_id: str = "AGENT", provider: str = "PROVIDER"
) -> dict[str, Any]:
    """The project's counts; the last silence's fix names ``agent_id`` and ``provider``
    (the caller fills them in when the project has one guarded enablement)."""
    records = store.decision_lines(root, project_id)
    decisions = [r for r in records if r.get("kind") == "decision"]
    silences: dict[str, int] = {}
    for record in records:
        reason = silence_of(record)
        if reason is not None:
            silences[reason] = silences.get(reason, 0) + 1
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
        # calls left unanswered for a reason other than their command, by reason, and the
        # newest with the command that fixes it
        "silent": dict(sorted(silences.items())),
        "out_of_time": silences.get("out_of_time", 0),
        "last_silence": last_silence(records, agent_id, project_id, provider),
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
            "left unanswered (not for their command): "
            + (", ".join(f"{n} {reason}" for reason, n in stats["silent"].items()) or "none"),
            *_silence_lines(stats.get("last_silence")),
        ]
    )


def _silence_lines(last: dict[str, Any] | None) -> list[str]:
    if not last:
        return []
    return [f"last left unanswered: {last['reason']}: {last['fix']}"]


def set_summaries(root: Path) -> dict[tuple[str, str], list[tuple[float, float, str, str]]]:
    """Every prior-outcome set's header, read once: ``{(agent, project): [(age in s, TTL,
    freshness, outcome), ...]}`` (counts, ages and the recall's outcome code: ``succeeded``,
    else ``status:reason`` such as ``refused:trigger_not_admitted_at_stage``; no content,
    no id)."""
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
                outcome = silence_of({"kind": "decision", "set_status": header.get("status"),
                                      "set_reason": header.get("reason")})  # fmt: skip
                found.setdefault(key, []).append(
                    (age, float(header.get("ttl_s", 0)), label, outcome or "succeeded")
                )
    return found


def guard_status(
    sets: dict[tuple[str, str], list[tuple[float, float, str, str]]],
    agent_id: str,
    project_id: str,
    policy: str | None,
    root: Path | None = None,
    provider: str = "PROVIDER",
) -> dict:
    """``capability status``'s guard row for one enablement: on/off, the policy, its
    sessions' prior-outcome sets (:func:`set_summaries`) as counts and ages only, and
    (with ``root``) why the last call was left unanswered, with the command that fixes it."""
    mine = sets.get((agent_id, project_id), [])
    ages = [age for age, *_rest in mine]
    freshness: dict[str, int] = {}
    for _age, _ttl, label, *_outcome in mine:
        freshness[label] = freshness.get(label, 0) + 1
    # the newest set whose recall was not answered: why, and the command that fixes it
    unanswered = sorted((entry for entry in mine if entry[3:] and entry[3] != "succeeded"),
                        key=lambda entry: entry[0])  # fmt: skip
    refused = None
    if unanswered:
        refused = {"reason": unanswered[0][3],
                   "fix": fix_for(unanswered[0][3], agent_id, project_id, provider)}  # fmt: skip
    silence = None
    if root is not None and policy is not None:
        with contextlib.suppress(Exception):  # unreadable records: nothing to say
            records = store.decision_lines(root, project_id)
            silence = last_silence(records, agent_id, project_id, provider)
    return {
        "on": policy is not None,
        "policy": policy,
        "last_silence": silence,
        "sets": {
            "count": len(ages),
            "newest_age_s": round(min(ages)) if ages else None,
            "oldest_age_s": round(max(ages)) if ages else None,
            "past_ttl": sum(age > ttl for age, ttl, *_rest in mine),
            "freshness": dict(sorted(freshness.items())),
            "last_unanswered": refused,
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
    refused = sets.get("last_unanswered")
    if refused:
        line += f"\n    newest set not answered: {refused['reason']}: {refused['fix']}"
    last = guard.get("last_silence")
    if last:
        line += f"\n    last call left unanswered: {last['reason']}: {last['fix']}"
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
