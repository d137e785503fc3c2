# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The lines a recall's text adds after a refusal, a failure or an incomplete index: what
to do next, in the operator's own ids and public names only (never a path or a private
value). Used by ``recall history``'s text and by a Replan report's
(:meth:`~loopx_recall_core.recall.replan.flow.ReplanReport.text`)."""

from __future__ import annotations

import shlex
from typing import get_args

from loopx_recall_core.contracts.historical import ProviderId

__all__ = ["BEHIND_FALLBACK", "behind_line", "coverage_line", "next_step"]


def coverage_line(count: object, agent_id: str | None, project_id: str | None) -> str | None:
    """One line when sessions in scope are claimed by no one: how many, and how to claim."""
    if not isinstance(count, int) or count <= 0:
        return None
    ids = f" --agent-id {agent_id} --project-id {project_id}" if agent_id and project_id else ""
    return (
        f"  coverage incomplete: {count} session(s) in scope are claimed by no agent, so "
        f"absence is not evidence; `loopx-recall session candidates{ids}` lists them, "
        f"`loopx-recall session claim{ids} --candidates` claims them"
    )


def next_step(
    reason: object,
    provider_id: object,
    agent_id: str | None,
    project_id: str | None,
    hint: str | None = None,
) -> str | None:
    """One line saying what to do about a refusal or failure ``reason``; None when there is
    nothing for the operator to do. It names only what the operator typed (the agent and
    project ids), public ids and the provider's ``unavailable_hint``, never a path or a
    private value."""
    (v0_provider_id,) = get_args(ProviderId)  # the only provider id the v0 wire allows
    provider = provider_id if isinstance(provider_id, str) and provider_id else v0_provider_id
    ids = f"--agent-id {shlex.quote(agent_id or 'A')} --project-id {shlex.quote(project_id or 'J')}"
    enable = (
        f"loopx-recall capability enable agent-turn-recall --provider {provider} "
        f"--surface replan-history {ids} ..."
    )
    if reason == "not_enabled":
        return (
            f"  next: enable recall for this agent and project: `{enable}` "
            f"(`loopx-recall capability enable --provider {provider} --help` lists the rest)"
        )
    if reason == "trigger_not_admitted_at_stage":
        return (
            "  next: this trigger needs stage 2: qualify the provider "
            f"(`loopx-recall recall qualify`), then `{enable} --stage 2`"
        )
    if reason in ("provider_unavailable", "unsupported_runtime_version"):
        fallback = "`loopx-recall extension list` says what the provider's runtime lacks"
        return f"  next: {hint or fallback}"
    if reason == "provider_not_installed":
        return (
            "  next: install the provider: `loopx-recall extension list --available` "
            "shows the install commands"
        )
    return None


#: what to do when the index is behind and the provider names no way to refresh it
BEHIND_FALLBACK = "refresh the provider's index"


def behind_line(freshness: object, unclaimed: object, hint: object) -> str | None:
    """One line when a succeeded answer's index may not hold the newest sessions
    (``stale``, ``incomplete``, ``unknown``): what to do (``hint``: the provider's
    ``refresh_hint``, set on a succeeded answer only when the provider itself said its
    index is behind), and that absence is no evidence until then. When unclaimed sessions
    lowered the freshness and the provider's index was not behind, the coverage line
    says it all and this one is left out."""
    hinted = isinstance(hint, str) and bool(hint)
    if freshness not in ("stale", "incomplete", "unknown") or (
        isinstance(unclaimed, int) and unclaimed > 0 and not hinted
    ):
        return None
    what = hint if hinted else BEHIND_FALLBACK
    return f"  next: the index is {freshness}: {what}, then ask again (until then absence is " \
        "not evidence)"
