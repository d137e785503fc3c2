# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall session claim|candidates|list|release|forget``: the session-claim ledger by
hand.

The runtimes' hooks (``loopx-recall hook``) claim sessions automatically; these commands
are for the owner. Errors never name a session, agent or path.
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

import click

from loopx_recall_core.cli import group_help
from loopx_recall_core.cli._common import (
    Group,
    Rejected,
    emit,
    format_option,
    session_id_help,
)
from loopx_recall_core.recall.sessions.ledger import (
    RUNTIMES,
    ClaimRefused,
    SessionLedger,
    native_session_id,
)

runtime_option = click.option(
    "--runtime", required=True, type=click.Choice(RUNTIMES), help="The agent runtime."
)
session_option = click.option(
    "--session",
    "session_id",
    required=True,
    help=f"The session: {session_id_help()}.",
)


@click.group(cls=Group, help=group_help("session"))
def session() -> None:
    pass


@session.command("claim")
@click.option("--agent-id", required=True)
@click.option("--project-id", required=True)
@click.option("--runtime", type=click.Choice(RUNTIMES), help="The agent runtime.")
@click.option(
    "--session",
    "session_id",
    help=f"The session: {session_id_help()}.",
)
@click.option(
    "--candidates",
    "all_candidates",
    is_flag=True,
    help="Claim every unclaimed session `session candidates` lists (asks first).",
)
@click.option("--force", is_flag=True, help="Claim an id no transcript on disk holds yet.")
@click.option("--yes", is_flag=True, help="Do not ask before claiming the candidates.")
@format_option()
def claim(
    agent_id: str,
    project_id: str,
    runtime: str | None,
    session_id: str | None,
    all_candidates: bool,
    force: bool,
    yes: bool,
    output_format: str,
) -> None:
    """Claim a session for one agent and project (refused when another one holds it), or,
    with --candidates, every session in scope nobody claimed.

    A session id that no transcript of that runtime in the bound repository and window
    holds is refused (a mistyped id would claim nothing), unless --force.
    """
    if all_candidates == bool(runtime or session_id):
        raise click.UsageError("give --runtime R --session S, or --candidates")
    if not all_candidates and not (runtime and session_id):
        raise click.UsageError("--runtime and --session go together")
    ledger = SessionLedger()
    if all_candidates:
        chosen = [(c.runtime, c.session_id) for c in _unclaimed(agent_id, project_id)]
        if not chosen:
            emit({"schema_version": "loopx_session_change_v0", "action": "claim",
                  "changed": False, "claimed": 0}, output_format,
                 lambda d: "no unclaimed session in scope; no change")  # fmt: skip
            return
        if not yes:
            if not sys.stdin.isatty():
                raise Rejected(f"{len(chosen)} session(s) to claim: pass --yes to claim them")
            click.confirm(f"claim {len(chosen)} session(s) for {agent_id}?", abort=True, err=True)
    else:
        chosen = [(runtime, session_id)]  # type: ignore[list-item]
        if not force and not _on_disk(agent_id, project_id, runtime, session_id):
            raise Rejected(
                "no transcript of that runtime in the bound repository and window holds that "
                "session id (mistyped?): `loopx-recall session candidates` lists them; --force "
                "claims it anyway"
            )
    claimed = 0
    try:
        for one_runtime, one_id in chosen:
            claimed += ledger.claim(
                agent_id=agent_id, project_id=project_id, runtime=one_runtime, session_id=one_id
            )
    except ClaimRefused as exc:
        raise Rejected(str(exc)) from None
    emit(
        {"schema_version": "loopx_session_change_v0", "action": "claim",
         "changed": claimed > 0, "claimed": claimed},
        output_format,
        lambda d: (f"{d['claimed']} session(s) claimed" if all_candidates else "session claimed")
        if d["changed"] else "already claimed by you; no change",
    )  # fmt: skip


def _listing(agent_id: str, project_id: str) -> tuple[list[Any], SessionLedger]:
    from loopx_recall_core.recall.coverage import NoListing, sessions_on_disk

    try:
        return sessions_on_disk(agent_id, project_id)
    except NoListing as exc:
        raise Rejected(str(exc)) from None


def _unclaimed(agent_id: str, project_id: str) -> list[Any]:
    from loopx_recall_core.recall.coverage import unclaimed_in

    return unclaimed_in(*_listing(agent_id, project_id))


def _on_disk(agent_id: str, project_id: str, runtime: str, session_id: str) -> bool:
    try:  # a session of the other runtime (claude with codex:<id>) is refused in one line
        wanted = native_session_id(runtime, session_id)
    except ClaimRefused as exc:
        raise Rejected(str(exc)) from None
    found, _ledger = _listing(agent_id, project_id)
    return any(c.runtime == runtime and c.session_id == wanted for c in found)


@session.command("candidates")
@click.option("--agent-id", required=True)
@click.option("--project-id", required=True)
@format_option()
def candidates(agent_id: str, project_id: str, output_format: str) -> None:
    """The sessions of the bound runtimes in the bound repository and window that no agent
    claimed: they may be this agent's, and until they are claimed (or claimed by another,
    or forgotten) a recall's coverage is incomplete. On your terminal, each shows the first
    words of its first prompt; `session claim --candidates` claims them all."""
    rows = _unclaimed(agent_id, project_id)
    terminal = sys.stdout.isatty()
    data = {
        "schema_version": "loopx_session_candidates_v0",
        "count": len(rows),
        "sessions": [
            {
                "runtime": c.runtime,
                "session_id": c.session_id,
                "started_at": c.started_at,
                "last_activity": c.last_activity,
                **({"first_words": c.first_words} if terminal else {}),
            }
            for c in rows
        ],
    }
    emit(data, output_format, _render_candidates)


def _render_candidates(d: dict[str, Any]) -> str:
    lines = [f"{d['count']} unclaimed session(s) in scope"]
    for row in d["sessions"]:
        words = f"  {row['first_words']!r}" if row.get("first_words") else ""
        lines.append(
            f"  {row['runtime']} {row['session_id']} started {row['started_at'] or '?'}, "
            f"last active {row['last_activity'] or '?'}{words}"
        )
    return "\n".join(lines)


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
            from loopx_recall_core.guard.store import drop_sets, remove_set
            from loopx_recall_core.recall.sessions.ledger import native_session_id

            # the session's prior-outcome set goes with its claim, and every set of the
            # agent in the project that may hold its items
            remove_set(ledger.root, runtime, native_session_id(runtime, session_id))
            drop_sets(ledger.root, agent_id=agent_id, project_id=project_id)
    except ClaimRefused as exc:
        raise Rejected(str(exc)) from None
    emit(
        {"schema_version": "loopx_session_change_v0", "action": "release", "changed": changed},
        output_format,
        lambda d: "session released" if d["changed"] else "not claimed by you; no change",
    )


@session.command("forget")
@click.option("--agent-id", required=True)
@click.option("--project-id", required=True)
@runtime_option
@session_option
@format_option()
def forget(
    agent_id: str, project_id: str, runtime: str, session_id: str, output_format: str
) -> None:
    """Forget a session: it is never returned to any agent again, and never claimed again
    (its claim goes; refused when another agent or project holds it). Obelisk's own data
    is not touched."""
    try:
        ledger = SessionLedger()
        changed = ledger.forget(
            agent_id=agent_id, project_id=project_id, runtime=runtime, session_id=session_id
        )
    except ClaimRefused as exc:
        raise Rejected(str(exc)) from None
    from loopx_recall_core.guard.session_copies import drop_session_copies
    from loopx_recall_core.guard.store import drop_sets, remove_set
    from loopx_recall_core.recall.sessions.ledger import native_session_id

    # every copy of its content (the path the private marker takes too), then, as its claim
    # goes, its own set and every set of the agent
    drop_session_copies(ledger.root, runtime, session_id)
    remove_set(ledger.root, runtime, native_session_id(runtime, session_id))
    drop_sets(ledger.root, agent_id=agent_id, project_id=project_id)
    emit(
        {"schema_version": "loopx_session_change_v0", "action": "forget", "changed": changed},
        output_format,
        lambda d: "session forgotten" if d["changed"] else "already forgotten; no change",
    )


def _render_list(d: dict[str, Any]) -> str:
    lines = [f"{d['count']} claimed session(s); {d['forgotten']} forgotten (all agents)"]
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
    claims, forgotten = SessionLedger().view(agent_id=agent_id, project_id=project_id)
    counts = Counter((c.project_id, c.runtime) for c in claims)
    data: dict[str, Any] = {
        "schema_version": "loopx_session_list_v0",
        "count": len(claims),
        "forgotten": len(forgotten),
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
