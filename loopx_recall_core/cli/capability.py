# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall capability enable|status|disable agent-turn-recall``."""

from __future__ import annotations

import os
from typing import Any

import click

from loopx_recall_core import capabilities
from loopx_recall_core.capabilities import CapabilityRefused
from loopx_recall_core.cli._common import (
    EnvironmentProblem,
    Rejected,
    emit,
    format_option,
    handle_failures,
)
from loopx_recall_core.plugins import load_host
from loopx_recall_core.state import DEFAULT_CEILINGS, LimitCeilings, StateError, StateStore

capability_argument = click.argument("capability", type=click.Choice([capabilities.CAPABILITY]))
provider_option = click.option("--provider", "provider_id", required=True, help="Provider id.")


@click.group()
def capability() -> None:
    """Enable, read back and disable a capability for one agent and project (default off)."""


def _store() -> StateStore:
    return StateStore()


def _parse_provider_options(provider: Any, extra: list[str]) -> dict[str, Any]:
    """Parse the provider's declared enable options from the remaining arguments."""
    params = []
    for option in provider.binding_options():
        kind = click.Choice(option.choices) if option.choices else (int if option.is_int else str)
        params.append(
            click.Option(
                [f"--{option.name}"],
                multiple=option.multiple,
                type=kind,
                help=option.help,
            )
        )
    command = click.Command(f"enable --provider {provider.provider_id}", params=params)
    context = command.make_context(command.name, list(extra), resilient_parsing=False)
    return {k: v for k, v in context.params.items() if v not in (None, ())}


@capability.command(
    "enable",
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
)
@capability_argument
@provider_option
@click.option("--surface", type=click.Choice(capabilities.SURFACES), default="replan-history")
@click.option("--agent-id", required=True, help="The one agent granted read access.")
@click.option("--project-id", required=True, help="The one LoopX project.")
@click.option("--repository-id", help="Repository identity when the provider cannot derive it.")
@click.option(
    "--stage",
    type=click.IntRange(1, 2),
    default=1,
    show_default=True,
    help="1: operator requests only; 2: typed Replan triggers (needs qualification).",
)
@click.option(
    "--max-sessions", type=click.IntRange(1, 50), default=DEFAULT_CEILINGS["max_sessions"]
)
@click.option("--max-items", type=click.IntRange(1, 64), default=DEFAULT_CEILINGS["max_items"])
@click.option(
    "--max-snippet-chars",
    type=click.IntRange(1, 2000),
    default=DEFAULT_CEILINGS["max_snippet_chars"],
)
@click.option(
    "--max-total-chars", type=click.IntRange(1, 32000), default=DEFAULT_CEILINGS["max_total_chars"]
)
@format_option
@click.pass_context
@handle_failures()
def enable(
    ctx: click.Context,
    capability: str,
    provider_id: str,
    surface: str,
    agent_id: str,
    project_id: str,
    repository_id: str | None,
    stage: int,
    max_sessions: int,
    max_items: int,
    max_snippet_chars: int,
    max_total_chars: int,
    output_format: str,
) -> None:
    """Grant one provider read access to one agent's history in one project.

    Enabling never widens scope: there is no option for another agent or project.
    Providers add their own options (e.g. obelisk-session-evidence: --history-source,
    --repository-root, --window-days, --obelisk-bin); see `loopx-recall extension list --available`.
    """
    from loopx_recall_core.recall.service import find_recall_provider  # enable only

    host = load_host()
    provider = find_recall_provider(host, provider_id)
    options = _parse_provider_options(provider, ctx.args) if provider is not None else {}
    if provider is None and ctx.args:
        raise click.UsageError("provider options given for a provider that is not installed")
    try:
        enablement, changed = capabilities.enable(
            _store(),
            provider,
            provider_id=provider_id,
            surface=surface,
            agent_id=agent_id,
            project_id=project_id,
            stage=stage,
            limits=LimitCeilings(
                max_sessions=max_sessions,
                max_items=max_items,
                max_snippet_chars=max_snippet_chars,
                max_total_chars=max_total_chars,
            ),
            provider_options=options,
            repository_id=repository_id,
            cwd=os.getcwd(),
        )
    except CapabilityRefused as exc:
        raise Rejected(str(exc)) from None
    except StateError as exc:
        raise EnvironmentProblem(str(exc)) from None
    data = {
        "schema_version": "loopx_capability_change_v0",
        "action": "enable",
        "changed": changed,
        "capability": capability,
        "provider_id": provider_id,
        "agent_id": agent_id,
        "project_id": project_id,
        "repository_id": enablement.repository_id,
        "surface": surface,
        "stage": stage,
    }
    emit(
        data,
        output_format,
        lambda d: (
            f"enabled {d['capability']} via {d['provider_id']} for agent {d['agent_id']} in "
            f"project {d['project_id']} (stage {d['stage']})"
            + ("" if d["changed"] else " - already enabled, no change")
        ),
    )


def _render_status(d: dict[str, Any]) -> str:
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
    for e in d["enablements"]:
        lines.append(
            f"  agent {e['agent_id']} / project {e['project_id']} / repository "
            f"{e['repository_id']} / {e['surface']} / stage {e['stage']}"
        )
    if not d["enablements"]:
        lines.append("  no enablement (default off)")
    return "\n".join(lines)


@capability.command("status")
@capability_argument
@provider_option
@click.option("--project-id", help="Only this project's enablements.")
@click.option("--agent-id", help="Only this agent's enablements.")
@click.option("--show-private", is_flag=True, help="Also show private binding values (paths).")
@format_option
@handle_failures()
def status(
    capability: str,
    provider_id: str,
    project_id: str | None,
    agent_id: str | None,
    show_private: bool,
    output_format: str,
) -> None:
    """Read back configuration, provider version and readiness, index freshness and scope."""
    try:
        record = capabilities.status_record(
            _store(),
            load_host(),
            provider_id=provider_id,
            project_id=project_id,
            agent_id=agent_id,
            show_private=show_private,
        )
    except StateError as exc:
        raise EnvironmentProblem(str(exc)) from None
    emit(record, output_format, _render_status)


@capability.command("disable")
@capability_argument
@provider_option
@click.option("--project-id", required=True)
@click.option("--agent-id", help="Only this agent (default: every agent of the project).")
@click.option("--surface", type=click.Choice(capabilities.SURFACES))
@format_option
@handle_failures()
def disable(
    capability: str,
    provider_id: str,
    project_id: str,
    agent_id: str | None,
    surface: str | None,
    output_format: str,
) -> None:
    """Remove the enablement; the provider, its index and all other data stay."""
    try:
        removed = capabilities.disable(
            _store(),
            provider_id=provider_id,
            project_id=project_id,
            agent_id=agent_id,
            surface=surface,
        )
    except StateError as exc:
        raise EnvironmentProblem(str(exc)) from None
    data = {
        "schema_version": "loopx_capability_change_v0",
        "action": "disable",
        "changed": bool(removed),
        "capability": capability,
        "provider_id": provider_id,
        "project_id": project_id,
        "removed": [{"agent_id": e.agent_id, "surface": e.surface} for e in removed],
    }
    emit(
        data,
        output_format,
        lambda d: (
            f"disabled {len(d['removed'])} enablement(s); provider data untouched"
            if d["changed"]
            else "nothing was enabled for that scope; no change"
        ),
    )
