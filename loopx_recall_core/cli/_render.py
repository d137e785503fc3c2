# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Output text without click: pretty JSON, text safe for a terminal, and the ``capability
status`` rendering.

Kept apart from the click commands so that the fast path (:mod:`loopx_recall_core.cli._fast`)
and ``capability status`` print through the very same function.
"""

from __future__ import annotations

from typing import Any

# one home below the command line, so that the click-free cleanup (loopx_recall_core.cleanup)
# prints through them too; the command line's modules keep importing them from here
from loopx_recall_core.terminal import dumps, terminal_text

__all__ = ["dumps", "render_status", "status_output", "terminal_text"]

def _render_qualification(q: dict[str, Any], provider_id: str) -> str:
    if q["runtime_version"] is None:
        return "stage 0 verdict: none (no runtime resolved: stage 2 closed)"
    runtime = f"runtime {q['runtime_version']} {q['binary_digest']}"
    # closed for the runtime resolved now (a first run, or Obelisk upgraded since the last
    # pass): the command that runs Stage 0 on it
    closed = f"stage 2 closed: `loopx-recall recall qualify --provider {provider_id}` runs it"
    verdict = q["verdict"]
    if verdict is None:
        return f"stage 0 verdict: none for {runtime} ({closed})"
    result = "PASS" if verdict["passed"] else "FAIL"
    opened = "stage 2 open" if q["stage_2_allowed"] else closed
    return f"stage 0 verdict: {result} for {runtime}, recorded {verdict['recorded_at']} ({opened})"


def render_status(d: dict[str, Any]) -> str:
    """The text form of a ``loopx_capability_status_v0`` record."""
    p = d["provider"]
    state = "ready" if p["ready"] else f"not ready ({p['unavailable_reason']})"
    lines = [
        f"{d['capability']} via {p['provider_id']} {p['version'] or ''}".rstrip(),
        f"  installed: {str(p['installed']).lower()}, "
        f"enabled: {str(p['enabled']).lower()}, {state}",
    ]
    runtime = {k: v for k, v in d["runtime"].items() if v is not None}
    if runtime:
        lines.append("  runtime: " + ", ".join(f"{k}={v}" for k, v in runtime.items()))
    qualification = d.get("qualification")
    if qualification is not None:
        lines.append("  " + _render_qualification(qualification, p["provider_id"]))
    for e in d["enablements"]:
        sessions = e["agent_sessions"]
        lines.append(
            f"  agent {e['agent_id']} / project {e['project_id']} / {e['surface']} / "
            f"stage {e['stage']}"
        )
        # A Replan situation must name this exact id, or replan answers scope_mismatch.
        lines.append(f"    repository_id: {e['repository_id']}")
        lines.append(
            f"    agent sessions: {sessions['mode']} ({sessions['claimed_sessions']} claimed, "
            f"{sessions.get('forgotten_sessions', 0)} forgotten): "
            f"{sessions['identity']}"
        )
        if "mode_source" in sessions:
            lines.append(f"    {sessions['mode_source']}")
        if "hint" in sessions:
            lines.append(f"    {sessions['hint']}")
        # --show-private: the binding's private values (repository roots, executable)
        for key, value in sorted((e.get("private") or {}).items()):
            shown = ", ".join(map(str, value)) if isinstance(value, list) else value
            lines.append(f"    {key}: {shown}")
        if "guard" in e:
            from loopx_recall_core.guard.stats import render_status_line

            lines.append(f"    {render_status_line(e['guard'])}")
    if not d["enablements"]:
        lines.append("  no enablement (default off)")
    for h in d.get("hooks_without_enablement", ()):
        lines.append(
            f"  {h['runtime']} hooks for agent {h['agent_id']} / project {h['project_id']} still "
            f"run at every session, with no enablement: `{h['remove_with']}` removes them"
        )
    if "private" in d:
        lines.append(f"  state folder: {d['private']['state_folder']}")
    else:
        lines.append("  state folder: `loopx-recall state path` (or --show-private)")
    return "\n".join(lines)


def status_output(record: dict[str, Any], output_format: str) -> str:
    """What ``capability status`` prints for ``record`` (``json`` or ``text``), for the
    click command and the fast path alike."""
    return dumps(record) if output_format == "json" else terminal_text(render_status(record))
