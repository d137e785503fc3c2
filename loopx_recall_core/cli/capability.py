# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall capability enable|status|disable agent-turn-recall``."""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from loopx_recall_core.capability_status import status_record
from loopx_recall_core.cli import group_help
from loopx_recall_core.cli._common import (
    Command,
    Group,
    Rejected,
    emit,
    format_option,
    limit_options,
)
from loopx_recall_core.cli._render import status_output
from loopx_recall_core.plugin.manager import load_host
from loopx_recall_core.recall import enablement as recall_enablement
from loopx_recall_core.recall.enablement import CapabilityRefused
from loopx_recall_core.state import DEFAULT_CEILINGS, LimitCeilings, StateStore

capability_argument = click.argument(
    "capability", type=click.Choice([recall_enablement.CAPABILITY])
)
provider_option = click.option("--provider", "provider_id", required=True, help="Provider id.")


@click.group(cls=Group, help=group_help("capability"))
def capability() -> None:
    pass


def _store() -> StateStore:
    return StateStore()


def _named_provider(args: list[str]) -> str | None:
    """The value of ``--provider`` on a command line, before click parses it (the last
    one wins, as in click)."""
    found = None
    skip = False
    for index, arg in enumerate(args):
        if skip:
            skip = False
        elif arg == "--":
            break
        elif arg == "--provider" and index + 1 < len(args):
            found, skip = args[index + 1], True
        elif arg.startswith("--provider="):
            found = arg.partition("=")[2]
    return found


def _provider_params(provider: Any, taken: set[str]) -> list[click.Parameter]:
    """click options for the provider's declared enable options (a name the host already
    uses is never overridden)."""
    params: list[click.Parameter] = []
    for option in provider.binding_options():
        if option.name in taken:
            continue
        kind = click.Choice(option.choices) if option.choices else (int if option.is_int else str)
        params.append(
            click.Option(
                [f"--{option.name}"], multiple=option.multiple, type=kind, help=option.help
            )
        )
    return params


class _EnableCommand(Command):
    """``capability enable`` with the named provider's own options as real options.

    ``--provider P`` is read before parsing, so P's options are parsed, checked and listed
    in ``--help`` like the host's (in their own section), and a usage error names this
    command.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        provider_id = _named_provider(args)
        extra: list[click.Parameter] = []
        if provider_id is not None:
            from loopx_recall_core.recall.resolver import resolve_provider

            resolved = resolve_provider(load_host, provider_id)
            ctx.meta["loopx_recall.resolved"] = resolved  # the command reads it: one host
            provider = resolved.provider
            if provider is not None:
                taken = {name.lstrip("-") for p in self.params for name in p.opts}
                try:
                    extra = _provider_params(provider, taken)
                except Exception:  # noqa: BLE001 - a broken provider must not break parsing
                    extra = []  # its options are then unknown: a usage error, no traceback
            ctx.meta["loopx_recall.provider"] = (provider_id, provider is not None)
        ctx.meta["loopx_recall.provider_params"] = extra
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as exc:
            if provider_id is not None and not ctx.meta["loopx_recall.provider"][1]:
                from loopx_recall_core.plugin.catalogue import did_you_mean

                raise click.UsageError(
                    f"provider {provider_id!r} is not installed{did_you_mean(provider_id)}, "
                    f"so its options ({exc.option_name}) are unknown: `loopx-recall extension "
                    "list --available` lists the providers there are",
                    ctx,
                ) from None
            raise

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        params = super().get_params(ctx)
        return [*params[:-1], *ctx.meta.get("loopx_recall.provider_params", []), params[-1]]

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        extra = ctx.meta.get("loopx_recall.provider_params", [])
        own = [p for p in self.get_params(ctx) if isinstance(p, click.Option) and p not in extra]
        rows = [r for r in (p.get_help_record(ctx) for p in own) if r is not None]
        with formatter.section("Options"):
            formatter.write_dl(rows)
        named = ctx.meta.get("loopx_recall.provider")
        if named is None:
            with formatter.section("Provider options"):
                formatter.write_text(
                    "Each provider adds its own options: run `loopx-recall capability enable "
                    "agent-turn-recall --provider P --help` to list P's."
                )
        elif not named[1]:
            with formatter.section("Provider options"):
                formatter.write_text(
                    f"provider {named[0]!r} is not installed: "
                    "`loopx-recall extension list --available` shows how to install it."
                )
        else:
            rows = [r for r in (p.get_help_record(ctx) for p in extra) if r is not None]
            with formatter.section(f"Options of provider {named[0]}"):
                if rows:
                    formatter.write_dl(rows)
                else:
                    formatter.write_text("(none)")


@capability.command("enable", cls=_EnableCommand)
@capability_argument
@provider_option
@click.option(
    "--surface",
    type=click.Choice(recall_enablement.SURFACES),
    default="replan-history",
    show_default=True,
    help="Where the recall is used.",
)
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
@limit_options(DEFAULT_CEILINGS, bounded=True)
@click.option(
    "--agent-sessions",
    type=click.Choice(recall_enablement.AGENT_SESSION_MODES),
    default="claimed",
    show_default=True,
    help="claimed: only sessions claimed for this agent+project (hooks or `session claim`); "
    "runtime: every session of the bound runtimes in the repository counts as this agent.",
)
@click.option(
    "--yes",
    is_flag=True,
    help="Apply a re-enable that lowers the stage or changes the scope without asking.",
)
@format_option()
def enable(
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
    agent_sessions: str,
    yes: bool,
    output_format: str,
    **provider_options: Any,
) -> None:
    """Grant one provider read access to one agent's history in one project.

    Enabling never widens scope: there is no option for another agent or project.
    Re-enabling reports every field it changed (``stage 2 -> 1``), and asks first (or
    needs --yes) when it lowers the stage or changes the scope.
    """
    from loopx_recall_core.recall.resolver import resolve_provider  # enable only

    resolved = click.get_current_context().meta.get("loopx_recall.resolved")
    if resolved is None or resolved.provider_id != provider_id:
        resolved = resolve_provider(load_host, provider_id)
    provider = resolved.provider
    options = {k: v for k, v in provider_options.items() if v not in (None, ())}
    store = _store()
    key = (capability, provider_id, agent_id, project_id, surface)
    previous = next((e for e in store.read().enablements if e.key == key), None)
    request = dict(
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
        agent_sessions=agent_sessions,
    )
    def apply(confirmed: bool) -> tuple[Any, bool]:
        return recall_enablement.enable(store, provider, **request, confirmed=confirmed)

    try:
        try:
            enablement, changed = apply(yes)
        except recall_enablement.NeedsConfirmation as question:
            for line in _change_lines(question.changes):
                click.echo(line, err=True)
            if not sys.stdin.isatty():
                raise Rejected(
                    "re-enabling would lower the stage or change the scope (above): "
                    "pass --yes to apply it"
                ) from None
            click.confirm("apply these changes?", abort=True, err=True)
            enablement, changed = apply(True)
    except CapabilityRefused as exc:
        raise Rejected(str(exc)) from None
    changes = (
        recall_enablement.enablement_changes(previous, enablement) if previous is not None else []
    )
    if changes:
        _drop_guard_sets(agent_id, project_id)  # made under the scope that just changed
    record = recall_enablement.enable_record(enablement, changed, changes)
    record["ready"], record["unavailable_reason"] = _readiness(resolved, enablement.binding)
    if not record["ready"]:  # enabled all the same: the runtime may come later
        click.echo(f"warning: {provider_id} is not ready, so recall answers "
                   f"provider_unavailable until it is: {record['unavailable_reason']}",
                   err=True)  # fmt: skip
    emit(
        record,
        output_format,
        lambda d: "\n".join(
            [
                f"enabled {d['capability']} via {d['provider_id']} for agent {d['agent_id']} in "
                f"project {d['project_id']} (stage {d['stage']}, {d['agent_sessions']} sessions)"
                + ("" if d["changed"] else " - already enabled, no change"),
                *_change_lines(d["changes"]),
            ]
        ),
    )


def _readiness(resolved: Any, binding: Any) -> tuple[bool, str | None]:
    """The provider's readiness for the binding just stored, as ``capability status``
    reads it (its bound: an unanswering runtime is named, not waited for)."""
    from loopx_recall_core.capability_status import STATUS_READBACK_S
    from loopx_recall_core.plugin.manager import safe_readback

    entry = resolved.entry()
    if entry is None:
        return False, "provider not installed"
    readback = safe_readback(resolved.host(), *entry, binding, deadline=STATUS_READBACK_S)
    return bool(readback.ready), readback.unavailable_reason


def _drop_guard_sets(agent_id: str, project_id: str) -> None:
    """The owner's decision reaches the guard's copies before the command returns."""
    from loopx_recall_core.guard.store import drop_sets

    drop_sets(_store().root, agent_id=agent_id, project_id=project_id)


def _change_lines(changes: list[dict[str, Any]]) -> list[str]:
    """One line per changed field: ``  stage 2 -> 1`` (a private value only named)."""
    return [
        f"  {c['field']} {c['from']} -> {c['to']}" if "from" in c else f"  {c['field']} changed"
        for c in changes
    ]


@capability.command("status")
@capability_argument
@provider_option
@click.option("--project-id", help="Only this project's enablements.")
@click.option("--agent-id", help="Only this agent's enablements.")
@click.option("--show-private", is_flag=True, help="Also show private binding values (paths).")
@format_option()
def status(
    capability: str,
    provider_id: str,
    project_id: str | None,
    agent_id: str | None,
    show_private: bool,
    output_format: str,
) -> None:
    """Read back configuration, provider version and readiness, index freshness and scope."""
    record = status_record(
        provider_id=provider_id,
        project_id=project_id,
        agent_id=agent_id,
        show_private=show_private,
    )
    # the fast path (cli/_fast.py) prints the same record through the same function
    click.echo(status_output(record, output_format))


@capability.command("disable")
@capability_argument
@provider_option
@click.option("--project-id", required=True)
@click.option("--agent-id", help="Only this agent (default: every agent of the project).")
@click.option("--surface", type=click.Choice(recall_enablement.SURFACES))
@format_option()
def disable(
    capability: str,
    provider_id: str,
    project_id: str,
    agent_id: str | None,
    surface: str | None,
    output_format: str,
) -> None:
    """Remove the enablement; the provider, its index and all other data stay."""
    removed = recall_enablement.disable(
        _store(),
        provider_id=provider_id,
        project_id=project_id,
        agent_id=agent_id,
        surface=surface,
    )
    for agent in sorted({e.agent_id for e in removed}):
        _drop_guard_sets(agent, project_id)
    from loopx_recall_core import cleanup

    # what stays, with the command that removes it: above all the hooks of the agents left
    # with no enablement here, which still run at every session
    items = cleanup.inventory()
    enabled = {(e.agent_id, e.project_id) for e in _store().read().enablements}
    pairs = {p for item in items for p in item.pairs
             if p[1] == project_id and agent_id in (None, p[0]) and p not in enabled}  # fmt: skip
    record = recall_enablement.disable_record(provider_id, project_id, removed)
    if not removed:  # a slip for a known or enabled provider's name says which was meant
        from loopx_recall_core.plugin.catalogue import did_you_mean

        others = {e.provider_id for e in _store().read().enablements}
        record["hint"] = did_you_mean(provider_id, others).strip(" ()") or None
    record["left"] = cleanup.left(items, pairs)
    emit(record, output_format, _render_disable)


def _render_disable(d: dict) -> str:
    done = (
        f"disabled {len(d['removed'])} enablement(s); provider data untouched"
        if d["changed"]
        else "nothing was enabled for that scope"
        + (f" ({d['hint']})" if d.get("hint") else "") + "; no change"
    )
    return "\n".join([done, *d["left"]])
