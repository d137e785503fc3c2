# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall recall``: historical-evidence records, requests and receipts."""

from __future__ import annotations

import uuid
from typing import Any

import click

from loopx_recall_core.cli._common import (
    EnvironmentProblem,
    Rejected,
    emit,
    format_option,
    handle_failures,
    read_json_object,
)
from loopx_recall_core.cli.qualify import qualify
from loopx_recall_core.contracts import (
    EVIDENCE_TYPES,
    ContractError,
    HistoricalEvidenceReceiptV0,
    HistoricalEvidenceRequestV0,
    HistoricalEvidenceResultV0,
    result_problems,
    structure,
    unstructure,
)
from loopx_recall_core.extensions import find_known, find_recall_entry
from loopx_recall_core.plugins import load_host
from loopx_recall_core.recall.receipts import result_receipt
from loopx_recall_core.recall.replan import replan as run_replan
from loopx_recall_core.recall.service import DEFAULT_TIMEOUT_S
from loopx_recall_core.recall.service import recall as run_recall
from loopx_recall_core.recall.store import PrivateStore
from loopx_recall_core.state import DEFAULT_CEILINGS, StateError, StateStore


def _session_ids(
    _ctx: click.Context, _param: click.Parameter, values: tuple[str, ...]
) -> tuple[str, ...]:
    # A mistyped id would exclude nothing and let the running session back in as
    # "history": refuse what no runtime's id looks like (the message never echoes it).
    for value in values:
        if not value or value != value.strip() or not value.isprintable() or " " in value:
            raise click.BadParameter("a session id is one word without spaces or controls")
    return values


current_session_option = click.option(
    "--current-session",
    "current_sessions",
    multiple=True,
    callback=_session_ids,
    help="A session the agent is running in now (not history): the runtime's id (Codex "
    "thread id, Claude sessionId) or the index's (codex:<id>); repeatable.",
)

RECORD_KINDS = {
    "request": HistoricalEvidenceRequestV0,
    "result": HistoricalEvidenceResultV0,
    "receipt": HistoricalEvidenceReceiptV0,
}


@click.group()
def recall() -> None:
    """Agent-turn-recall: bounded, provenance-bearing history with public receipts."""


def _load(path: str, kind: str, what: str) -> Any:
    try:
        return structure(read_json_object(path, what), RECORD_KINDS[kind])
    except ContractError as exc:
        raise Rejected(f"{what}: {exc}") from None


@recall.command("validate")
@click.argument("kind", type=click.Choice(sorted(RECORD_KINDS)))
@click.argument("path", type=click.Path(dir_okay=False))
@format_option
@handle_failures()
def validate(kind: str, path: str, output_format: str) -> None:
    """Check a historical-evidence request, result or receipt file against its v0 contract."""
    record = _load(path, kind, kind)
    schema_version = unstructure(record)["schema_version"]
    emit(
        {"ok": True, "kind": kind, "schema_version": schema_version},
        output_format,
        lambda d: f"ok: valid {d['schema_version']}",
    )


def _render_receipt(receipt: dict[str, Any]) -> str:
    counts = ", ".join(f"{k}={v}" for k, v in receipt["evidence_type_counts"].items()) or "none"
    return "\n".join(
        [
            f"receipt for {receipt['request_id']} ({receipt['provider_id']} "
            f"{receipt['provider_version']})",
            f"  results: {receipt['result_count']} ({counts}); freshness {receipt['freshness']}"
            f"; truncated {str(receipt['truncated']).lower()}, omitted {receipt['omitted_count']}",
            f"  result_digest {receipt['result_digest']}",
        ]
    )


@recall.command("receipt")
@click.option("--request-json", required=True, type=click.Path(dir_okay=False))
@click.option("--result-json", required=True, type=click.Path(dir_okay=False))
@format_option
@handle_failures()
def receipt(request_json: str, result_json: str, output_format: str) -> None:
    """Verify a private result against its request and print the public receipt."""
    request = _load(request_json, "request", "--request-json")
    result = _load(result_json, "result", "--result-json")
    problems = result_problems(request, result)
    if problems:
        raise Rejected("the result breaks its request: " + "; ".join(problems))
    # The owner's key: the receipt printed is the one the recall issued.
    key = PrivateStore().receipt_key()
    emit(unstructure(result_receipt(request, result, key=key)), output_format, _render_receipt)


def _render_outcome(data: dict[str, Any]) -> str:
    lines = [f"recall {data['status']}" + (f": {data['reason']}" if data["reason"] else "")]
    lines.append(_render_receipt(data["receipt"]))
    for item in data.get("items", []):
        lines.append(f"- [{item['evidence_type']}] {item['session_ref']}: {item['snippet']}")
    return "\n".join(lines)


@recall.command("history")
@click.option("--provider", "provider_id", default="obelisk-session-evidence", show_default=True)
@click.option("--agent-id", required=True)
@click.option("--project-id", required=True)
@click.option("--term", "terms", multiple=True, required=True, help="Search term (1..8).")
@click.option(
    "--evidence-type",
    "evidence_types",
    multiple=True,
    type=click.Choice(EVIDENCE_TYPES),
    help="Evidence types (default: all).",
)
@click.option("--max-sessions", type=int, default=DEFAULT_CEILINGS["max_sessions"])
@click.option("--max-items", type=int, default=DEFAULT_CEILINGS["max_items"])
@click.option("--max-snippet-chars", type=int, default=DEFAULT_CEILINGS["max_snippet_chars"])
@click.option("--max-total-chars", type=int, default=DEFAULT_CEILINGS["max_total_chars"])
@click.option("--revision", help="Current repository revision.")
@click.option("--timeout", type=click.FloatRange(0.1, 300), default=DEFAULT_TIMEOUT_S)
@current_session_option
@click.option("--show-private", is_flag=True, help="Print the private snippets (owner only).")
@format_option
@handle_failures()
def history(
    provider_id: str,
    agent_id: str,
    project_id: str,
    terms: tuple[str, ...],
    evidence_types: tuple[str, ...],
    max_sessions: int,
    max_items: int,
    max_snippet_chars: int,
    max_total_chars: int,
    revision: str | None,
    timeout: float,
    current_sessions: tuple[str, ...],
    show_private: bool,
    output_format: str,
) -> None:
    """Operator-requested history: one bounded, scoped lookup and its public receipt.

    Exit 0 whatever the provider did (a typed empty outcome is a normal answer); exit 1
    only for an invalid request.
    """
    try:
        state = StateStore().read()
    except StateError as exc:
        raise EnvironmentProblem(str(exc)) from None
    matching = state.find(provider_id=provider_id, agent_id=agent_id, project_id=project_id)
    data = {
        "schema_version": "historical_evidence_request_v0",
        "request_id": "rq-" + uuid.uuid4().hex,
        "situation_id": "operator-" + uuid.uuid4().hex,
        "trigger": "operator_requested_history",
        "scope": {
            "agent_id": agent_id,
            "project_id": project_id,
            # The enabled repository; with no enablement admission refuses anyway.
            "repository_id": matching[0].repository_id if matching else "not-enabled",
            "allow_cross_agent": False,
            "allow_cross_project": False,
        },
        "evidence_types": list(evidence_types or EVIDENCE_TYPES),
        "query_terms": list(terms),
        "limits": {
            "max_sessions": max_sessions,
            "max_items": max_items,
            "max_snippet_chars": max_snippet_chars,
            "max_total_chars": max_total_chars,
        },
    }
    if revision:
        data["revision"] = {"current": revision}
    try:
        request = structure(data, HistoricalEvidenceRequestV0)
    except ContractError as exc:
        raise Rejected(f"invalid request: {exc}") from None
    host = load_host()
    if find_known(provider_id) is None and find_recall_entry(host, provider_id) is None:
        raise Rejected(
            "unknown provider: `loopx-recall extension list --available` lists the known ones"
        )
    outcome = run_recall(
        request,
        provider_id=provider_id,
        host=host,
        enablements=state.enablements,
        timeout=timeout,
        current_sessions=current_sessions,
    )
    shown = outcome.public_json()
    shown["private_ref"] = outcome.private_ref
    if show_private and outcome.result is not None:
        shown["items"] = unstructure(outcome.result)["items"]
    emit(shown, output_format, _render_outcome)


@recall.command("show")
@click.argument("request_id")
@format_option
@handle_failures()
def show(request_id: str, output_format: str) -> None:
    """Read one stored private result back (owner-local; includes snippets).

    REQUEST_ID is the request id or the ``private:<key>`` reference a recall printed.
    """
    record = PrivateStore().load(request_id)
    if record is None:
        raise Rejected("no stored result for that request id or private reference")
    emit(
        record,
        output_format,
        lambda r: _render_outcome(
            {
                "status": r["status"],
                "reason": r.get("reason"),
                "receipt": r["receipt"],
                "items": r.get("result", {}).get("items", []),
            }
        ),
    )


def _render_replan(data: dict[str, Any]) -> str:
    admission = data["admission"]
    lines = [f"situation {data['situation_id']}"]
    lines.append(
        "  admission: "
        + ("admitted" if admission.get("admitted") else f"refused ({admission.get('reason')})")
    )
    if data.get("recall"):
        recall_data = data["recall"]
        lines.append(
            f"  recall: {recall_data['status']}"
            + (f" ({recall_data['reason']})" if recall_data["reason"] else "")
            + f", {recall_data['receipt']['result_count']} items, freshness "
            f"{recall_data['receipt']['freshness']}"
        )
    lines.append(f"  comparison: {data['comparison']['verdict']}")
    if data.get("legality"):
        legality = data["legality"]
        lines.append(
            "  outcome: "
            + ("legal" if legality["legal"] else "ILLEGAL")
            + f" ({legality['reason']})"
        )
    return "\n".join(lines)


@recall.command("replan")
@click.option("--situation-json", required=True, type=click.Path(dir_okay=False))
@click.option("--outcome-json", type=click.Path(dir_okay=False))
@click.option("--provider", "provider_id", default="obelisk-session-evidence", show_default=True)
@click.option("--timeout", type=click.FloatRange(0.1, 300), default=DEFAULT_TIMEOUT_S)
@current_session_option
@click.option("--show-private", is_flag=True, help="Also print terms, matches and references.")
@format_option
@handle_failures()
def replan_command(
    situation_json: str,
    outcome_json: str | None,
    provider_id: str,
    timeout: float,
    current_sessions: tuple[str, ...],
    show_private: bool,
    output_format: str,
) -> None:
    """Replan support: admit a typed situation, recall, compare the proposed step, and judge
    a proposed outcome's legality.

    Retrieval refines Replan reasoning; it never settles a Replan. With no provider
    installed or enabled the answer is a typed refusal (exit 0) and Replan goes on with
    current evidence.
    """
    situation = read_json_object(situation_json, "--situation-json")
    outcome = read_json_object(outcome_json, "--outcome-json") if outcome_json else None
    try:
        state = StateStore().read()
    except StateError as exc:
        raise EnvironmentProblem(str(exc)) from None
    host = None

    def run(request: HistoricalEvidenceRequestV0) -> Any:
        nonlocal host
        host = host or load_host()
        return run_recall(
            request,
            provider_id=provider_id,
            host=host,
            enablements=state.enablements,
            timeout=timeout,
            current_sessions=current_sessions,
        )

    try:
        report = run_replan(
            situation,
            enablements=state.enablements,
            provider_id=provider_id,
            recall=run,
            outcome=outcome,
            # the owner's key: request ids in public output cannot confirm a guess
            id_key=PrivateStore().receipt_key() if state.enablements else None,
        )
    except ContractError as exc:
        raise Rejected(str(exc)) from None
    data = report.private_json() if show_private else report.public_json()
    emit(data, output_format, _render_replan)


recall.add_command(qualify)
