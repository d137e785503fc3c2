# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall external-evidence``: the five lifecycle steps over local JSON files."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from loopx_recall_core.cli import group_help
from loopx_recall_core.cli._common import (
    Command,
    EvidenceError,
    Group,
    Rejected,
    emit,
    format_option,
    json_file_option,
    read_json_object,
)
from loopx_recall_core.external_evidence import (
    EvidenceRejected,
    admit,
    collect_inventory,
    discover,
    observe_receipt,
    plan,
    presented_receipt,
    retire,
)
from loopx_recall_core.plugin.manager import load_host

__all__ = ["external_evidence"]

json_format_option = format_option(
    default="json", help="json: the contract record (the wire format). text: a short summary."
)
inventory_options = [
    click.option(
        "--provider-inventory-json",
        metavar="PATH",
        help='Explicit provider rows: {"providers": [...]} (lifecycle readback).',
    ),
    click.option(
        "--connector-registry",
        metavar="PATH",
        help="Connector registry (connector_registry_v1): inventory-only rows, never ready.",
    ),
]


def _with_inventory_options(command: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed(inventory_options):
        command = option(command)
    return command


class _EvidenceCommand(Command):
    """A rejection, the contract's or the input's, prints the contract's error record."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except EvidenceError:
            raise
        except (Rejected, EvidenceRejected) as exc:
            raise EvidenceError(str(exc)) from None


class _EvidenceGroup(Group):
    command_class = _EvidenceCommand


def _inventory(provider_inventory_json: str | None, connector_registry: str | None) -> list[Any]:
    inventory = (
        None
        if provider_inventory_json is None
        else read_json_object(provider_inventory_json, "--provider-inventory-json")
    )
    registry = (
        None
        if connector_registry is None
        else read_json_object(connector_registry, "--connector-registry")
    )
    return collect_inventory(inventory=inventory, registry=registry, host=load_host())


def _receipt(path: str) -> dict[str, Any]:
    return presented_receipt(read_json_object(path, "--receipt-json"), "--receipt-json")


@click.group(
    "external-evidence",
    cls=_EvidenceGroup,
    help=group_help(
        "external-evidence",
        """
    Each step reads local JSON, prints one contract record (JSON by default) and is
    wire-compatible with LoopX: ids are canonical digests that every later step
    verifies again, so an edited plan or admission fails closed. A provider's own
    execution stays with its owner; these commands never run a provider.

    Errors exit 1 and print {"ok": false, "schema_version":
    "loopx_external_evidence_error_v0", "status": "invalid_request", "error": ...} on
    stdout. Input files are capped at 1,000,000 bytes and must hold a JSON object.
    """,
    ),
)
def external_evidence() -> None:
    pass


@external_evidence.command("discover")
@_with_inventory_options
@json_format_option
def discover_command(
    provider_inventory_json: str | None, connector_registry: str | None, output_format: str
) -> None:
    """Step 1: list providers and what is ready now.

    Rows come from installed plugins (their live readback), --provider-inventory-json
    and --connector-registry (inventory only). Prints a discovery record: status
    empty | inventory_only | ready, counts, ready ids, and a truth contract saying that
    neither execution nor evidence coverage was observed.
    """
    record = discover(_inventory(provider_inventory_json, connector_registry))
    emit(record, output_format, _render_discovery)


def _request_from_flags(
    objective: str | None,
    user_activity: str | None,
    decision: str | None,
    evidence_kinds: tuple[str, ...],
    constraints: tuple[str, ...],
    source_refs: tuple[str, ...],
    search_terms: tuple[str, ...],
) -> dict[str, Any]:
    missing = [
        name
        for name, value in (
            ("--objective", objective),
            ("--user-activity", user_activity),
            ("--decision", decision),
        )
        if value is None
    ]
    if not evidence_kinds:
        missing.append("--evidence-kind")
    if missing:
        raise click.UsageError(f"give --request-json, or all of: {', '.join(missing)}")
    request: dict[str, Any] = {
        "objective": objective,
        "user_activity": user_activity,
        "decision": decision,
        "evidence_kinds": list(evidence_kinds),
        "constraints": list(constraints),
    }
    if source_refs:
        request["source_refs"] = list(source_refs)
    if search_terms:
        request["search_terms"] = list(search_terms)
    return request


@external_evidence.command("plan")
@json_file_option("request", "The request as a JSON object.", required=False)
@click.option("--objective", metavar="TEXT", help="What the research is for.")
@click.option("--user-activity", metavar="TEXT", help="What the user is doing.")
@click.option("--decision", metavar="TEXT", help="The decision the evidence serves.")
@click.option(
    "--evidence-kind", "evidence_kinds", multiple=True, metavar="KIND", help="Repeatable (1..8)."
)
@click.option(
    "--constraint", "constraints", multiple=True, metavar="TEXT", help="Repeatable (0..16)."
)
@click.option(
    "--source-ref",
    "source_refs",
    multiple=True,
    metavar="URI",
    help="Repeatable (1..8): known provenance URIs to start from (never file://).",
)
@click.option(
    "--search-term",
    "search_terms",
    multiple=True,
    metavar="TEXT",
    help="Repeatable (1..8). An explicit empty list needs --request-json.",
)
@_with_inventory_options
@click.option(
    "--preferred-provider-id",
    metavar="ID",
    help="Select only this provider (it must be in the inventory; not ready -> blocked).",
)
@json_format_option
def plan_command(
    request_json: str | None,
    objective: str | None,
    user_activity: str | None,
    decision: str | None,
    evidence_kinds: tuple[str, ...],
    constraints: tuple[str, ...],
    source_refs: tuple[str, ...],
    search_terms: tuple[str, ...],
    provider_inventory_json: str | None,
    connector_registry: str | None,
    preferred_provider_id: str | None,
    output_format: str,
) -> None:
    """Step 2: seal a request and a ready provider into a content-addressed plan.

    The request comes from --request-json or from the flags (not both). The plan
    selects the preferred provider if it is ready, else (with no preference) the first
    ready provider; with none it is "blocked" with a blocker. plan_id digests the whole
    plan, so any later edit of it fails verification.
    """
    texts = (objective, user_activity, decision)
    lists = (evidence_kinds, constraints, source_refs, search_terms)
    if request_json is not None:
        if any(value is not None for value in texts) or any(lists):
            raise click.UsageError("--request-json cannot be combined with request flags")
        request = read_json_object(request_json, "--request-json")
    else:
        request = _request_from_flags(*texts, *lists)
    providers = _inventory(provider_inventory_json, connector_registry)
    record = plan(request, providers, preferred_provider_id)
    emit(record, output_format, _render_plan)


@external_evidence.command("receipt")
@json_file_option("plan", "A ready plan.")
@json_file_option("receipt", 'The provider receipt, bare or under "receipt" (e.g. an observation).')
@json_format_option
def receipt_command(plan_json: str, receipt_json: str, output_format: str) -> None:
    """Step 3: observe a caller-presented provider receipt for the exact plan.

    The plan is re-verified and the receipt must echo its plan_id, request_id,
    provider_id and provider_kind. The observation attests no provider execution,
    coverage, admission or promotion.
    """
    plan_record = read_json_object(plan_json, "--plan-json")
    receipt = _receipt(receipt_json)
    record = observe_receipt(plan_record, receipt)
    emit(record, output_format, _render_observation)


@external_evidence.command("admit")
@json_file_option("plan", "The ready plan.")
@json_file_option("receipt", 'The provider receipt, bare or under "receipt".')
@click.option(
    "--decision",
    "disposition",
    required=True,
    type=click.Choice(["admit", "reject"]),
    help="The parent agent's explicit decision.",
)
@click.option("--reason", required=True, metavar="TEXT", help="Why (<= 2048 UTF-16 units).")
@click.option(
    "--admit-source",
    "admit_sources",
    multiple=True,
    metavar="REF",
    help="Repeatable: a receipt source_ref to admit (admit needs >= 1; reject takes none).",
)
@json_format_option
def admit_command(
    plan_json: str,
    receipt_json: str,
    disposition: str,
    reason: str,
    admit_sources: tuple[str, ...],
    output_format: str,
) -> None:
    """Step 4: bind the parent's admit/reject decision to the plan and receipt.

    Admitted refs must be unique receipt sources. Prints the admission with its
    downstream projection (admitted findings only, no raw content) and admission_id.
    """
    plan_record = read_json_object(plan_json, "--plan-json")
    receipt = _receipt(receipt_json)
    decision = {
        "disposition": disposition,
        "reason": reason,
        "admitted_source_refs": list(admit_sources),
    }
    record = admit(plan_record, receipt, decision)
    emit(record, output_format, _render_admission)


@external_evidence.command("retire")
@json_file_option("admission", "An admission record.")
@click.option(
    "--downstream-source",
    "downstream_sources",
    multiple=True,
    metavar="REF",
    help="Repeatable: a source_ref a downstream consumer was observed to hold.",
)
@json_format_option
def retire_command(
    admission_json: str, downstream_sources: tuple[str, ...], output_format: str
) -> None:
    """Step 5: decide whether an admission can retire.

    The admission is re-validated and its admission_id recomputed (an edited field
    fails). A rejection is retire_ready; an admission is retained until every admitted
    source is among the --downstream-source refs.
    """
    admission = read_json_object(admission_json, "--admission-json")
    record = retire(admission, list(downstream_sources))
    emit(record, output_format, _render_retirement)


# ---- text renderings: ids, status and counts only -----------------------------------


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _render_discovery(record: dict[str, Any]) -> str:
    summary = record["summary"]
    lines = [
        f"discovery: {record['status']} ({_count(summary['provider_count'], 'provider')}: "
        f"{summary['method_count']} method, {summary['connector_count']} connector; "
        f"{summary['ready_count']} ready, {summary['unavailable_count']} unavailable)"
    ]
    for row in record["providers"]:
        state = "ready" if row["ready"] else f"unavailable ({row['unavailable_reason']})"
        lines.append(f"  {row['provider_id']} [{row['provider_kind']}]: {state}")
    lines.append("  execution observed: no; evidence coverage observed: no")
    return "\n".join(lines)


def _render_plan(record: dict[str, Any]) -> str:
    lines = [
        f"plan {record['plan_id']}: {record['status']}",
        f"  request_id {record['request']['request_id']}",
    ]
    selected = record["selected_provider"]
    if selected is None:
        lines.append(f"  blocker: {record['blocker']}")
    else:
        lines.append(
            f"  selected provider: {selected['provider_id']} [{selected['provider_kind']}]"
        )
    return "\n".join(lines)


def _render_observation(record: dict[str, Any]) -> str:
    return "\n".join(
        [
            f"receipt observation {record['receipt_observation_id']}: {record['status']} "
            f"({_count(len(record['receipt']['sources']), 'source')})",
            f"  plan_id {record['plan_id']}",
            f"  provider {record['provider_id']} [{record['provider_kind']}]",
            "  a caller-presented receipt was observed; provider execution not attested,"
            " nothing admitted",
        ]
    )


def _render_admission(record: dict[str, Any]) -> str:
    return "\n".join(
        [
            f"admission {record['admission_id']}: {record['disposition']} "
            f"({_count(len(record['admitted_source_refs']), 'source')} admitted)",
            f"  plan_id {record['plan_id']}",
            f"  receipt_digest {record['receipt_digest']} ({record['receipt_status']})",
        ]
    )


def _render_retirement(record: dict[str, Any]) -> str:
    return "\n".join(
        [
            f"retirement of admission {record['admission_id']}: {record['status']} "
            f"({record['reason']})",
            f"  missing downstream sources: {len(record['missing_downstream_source_refs'])}",
        ]
    )
