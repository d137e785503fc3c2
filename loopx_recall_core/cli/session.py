# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall session claim|list|release``: the session-claim ledger by hand.

The runtimes' hooks (``loopx-recall hook``) claim sessions automatically; these commands
are for the owner. Errors never name a session, agent or path.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import click

from loopx_recall_core.cli._common import Group, Rejected, emit, format_option
from loopx_recall_core.recall.ledger import RUNTIMES, ClaimRefused, SessionLedger

runtime_option = click.option(
    "--runtime", required=True, type=click.Choice(RUNTIMES), help="The agent runtime."
)
session_option = click.option(
    "--session",
    "session_id",
    required=True,
    help="The runtime's session id (Claude sessionId, Codex thread id; codex:<id> accepted).",
)


@click.group(cls=Group)
def session() -> None:
    """Which runtime session belongs to which agent and project (owner-local, private)."""


@session.command("claim")
@click.option("--agent-id", required=True)
@click.option("--project-id", required=True)
@runtime_option
@session_option
@format_option()
def claim(
    agent_id: str, project_id: str, runtime: str, session_id: str, output_format: str
) -> None:
    """Claim a session for one agent and project (refused when another one holds it)."""
    try:
        changed = SessionLedger().claim(
            agent_id=agent_id, project_id=project_id, runtime=runtime, session_id=session_id
        )
    except ClaimRefused as exc:
        raise Rejected(str(exc)) from None
    emit(
        {"schema_version": "loopx_session_change_v0", "action": "claim", "changed": changed},
        output_format,
        lambda d: "session claimed" if d["changed"] else "already claimed by you; no change",
    )


@session.command("release")
@click.option("--agent-id", required=True)
@click.option("--project-id", required=True)
@runtime_option
@session_option
@format_option()
def release(
    agent_id: str, project_id: str, runtime: str, session_id: str, output_format: str
) -> None:
    """Release one of this agent's sessions (its history then no longer counts)."""
    try:
        ledger = SessionLedger()
        changed = ledger.release(
            agent_id=agent_id, project_id=project_id, runtime=runtime, session_id=session_id
        )
        if changed:
            from loopx_recall_core.guard.store import remove_set
            from loopx_recall_core.recall.ledger import native_session_id

            # the session's prior-outcome set goes with its claim
            remove_set(ledger.root, runtime, native_session_id(runtime, session_id))
    except ClaimRefused as exc:
        raise Rejected(str(exc)) from None
    emit(
        {"schema_version": "loopx_session_change_v0", "action": "release", "changed": changed},
        output_format,
        lambda d: "session released" if d["changed"] else "not claimed by you; no change",
    )


def _render_list(d: dict[str, Any]) -> str:
    lines = [f"{d['count']} claimed session(s)"]
    for row in d["by_project_and_runtime"]:
        lines.append(f"  {row['project_id']} / {row['runtime']}: {row['count']}")
    for row in d.get("sessions", []):
        lines.append(f"  {row['runtime']} {row['session_id']} (first seen {row['first_seen']})")
    return "\n".join(lines)


@session.command("list")
@click.option("--agent-id", required=True)
@click.option("--project-id", help="Only this project.")
@click.option("--show-private", is_flag=True, help="Also list the session ids (owner only).")
@format_option()
def list_sessions(
    agent_id: str, project_id: str | None, show_private: bool, output_format: str
) -> None:
    """Count this agent's claimed sessions per project and runtime (ids only with
    --show-private)."""
    claims = SessionLedger().claims(agent_id=agent_id, project_id=project_id)
    counts = Counter((c.project_id, c.runtime) for c in claims)
    data: dict[str, Any] = {
        "schema_version": "loopx_session_list_v0",
        "count": len(claims),
        "by_project_and_runtime": [
            {"project_id": p, "runtime": r, "count": n} for (p, r), n in sorted(counts.items())
        ],
    }
    if show_private:
        data["sessions"] = [
            {
                "project_id": c.project_id,
                "runtime": c.runtime,
                "session_id": c.session_id,
                "first_seen": c.first_seen,
            }
            for c in claims
        ]
    emit(data, output_format, _render_list)
