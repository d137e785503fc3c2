# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall recall``: historical-evidence records, requests and receipts.

Long because: one click group holds every ``recall`` command (history, replan, show,
qualify's wiring, validate, receipt) with their shared options; each command stays thin.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from loopx_recall_core import operator_requests
from loopx_recall_core.cli import group_help
from loopx_recall_core.cli._common import (
    Group,
    Rejected,
    emit,
    format_option,
    limit_options,
    read_json_object,
    read_text_input,
    session_id_help,
    timeout_option,
)
from loopx_recall_core.cli.qualify import qualify
from loopx_recall_core.cli.recall_render import render_outcome, render_receipt
from loopx_recall_core.contracts import (
    EVIDENCE_TYPES,
    ContractError,
    HistoricalEvidenceReceiptV0,
    HistoricalEvidenceRequestV0,
    HistoricalEvidenceResultV0,
    structure,
    unstructure,
)
from loopx_recall_core.contracts.replan import ReplanOutcomeV0, ReplanSituationV0
from loopx_recall_core.operator_requests import (
    FLAG_TRIGGERS,
    Consultation,
    OperatorRefused,
    ProposedCommand,
)
from loopx_recall_core.recall.receipts import ResultMismatch, owner_receipt
from loopx_recall_core.recall.service import DEFAULT_TIMEOUT_S
from loopx_recall_core.recall.store import PrivateStore
from loopx_recall_core.state import DEFAULT_CEILINGS


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
    help=f"A session the agent is running in now (not history): {session_id_help()}; "
    "repeatable.",
)

provider_option = click.option(
    "--provider",
    "provider_id",
    help="The recall provider (default: the one enabled for the agent and project, else "
    "the one installed).",
)

_timeout_option = timeout_option(
    DEFAULT_TIMEOUT_S, "Seconds the provider may take (version check, scan and query together)."
)

RECORD_KINDS = {
    "request": HistoricalEvidenceRequestV0,
    "result": HistoricalEvidenceResultV0,
    "receipt": HistoricalEvidenceReceiptV0,
}


@click.group(cls=Group, help=group_help("recall"))
def recall() -> None:
    pass


def _load(path: str, kind: str, what: str) -> Any:
    try:
        return structure(read_json_object(path, what), RECORD_KINDS[kind])
    except ContractError as exc:
        raise Rejected(f"{what}: {exc}") from None


@recall.command("validate")
@click.argument("kind", type=click.Choice(sorted(RECORD_KINDS)))
@click.argument("path", type=click.Path(dir_okay=False))
@format_option()
def validate(kind: str, path: str, output_format: str) -> None:
    """Check a historical-evidence request, result or receipt file against its v0 contract."""
    record = _load(path, kind, kind)
    schema_version = unstructure(record)["schema_version"]
    emit(
        {"ok": True, "kind": kind, "schema_version": schema_version},
        output_format,
        lambda d: f"ok: valid {d['schema_version']}",
    )


@recall.command("receipt")
@click.option("--request-json", required=True, type=click.Path(dir_okay=False))
@click.option("--result-json", required=True, type=click.Path(dir_okay=False))
@format_option()
def receipt(request_json: str, result_json: str, output_format: str) -> None:
    """Verify a private result against its request and print the public receipt."""
    request = _load(request_json, "request", "--request-json")
    result = _load(result_json, "result", "--result-json")
    try:
        issued = owner_receipt(request, result)
    except ResultMismatch as exc:
        raise Rejected(f"the result breaks its request: {exc}") from None
    emit(unstructure(issued), output_format, render_receipt)


def _warn_argv(option: str, instead: str) -> None:
    """Warn a person at a terminal, once per run, that ``option`` put private text on the
    command line, which every local user can read (``ps``; proc(5): /proc/<pid>/cmdline).
    A script (stderr not a terminal) is not warned. The text itself is never shown."""
    if sys.stderr.isatty():
        click.echo(
            f"loopx-recall: warning: {option} is visible to other local users (ps); "
            f"use {instead} to keep it off the command line",
            err=True,
        )


@recall.command("history")
@provider_option
@click.option("--agent-id", required=True)
@click.option("--project-id", required=True)
@click.option(
    "--terms-file",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Read the search terms (1..8) from this file, one per line; - reads standard input "
    "(the way to give terms: nothing on the command line).",
)
@click.option(
    "--term",
    "terms",
    multiple=True,
    help="A search term on the command line, which other local users can read (ps); "
    "prefer --terms-file -.",
)
@click.option(
    "--evidence-type",
    "evidence_types",
    multiple=True,
    type=click.Choice(EVIDENCE_TYPES),
    help="Evidence types (default: all).",
)
@limit_options(DEFAULT_CEILINGS)
@click.option("--revision", help="Current repository revision.")
@_timeout_option
@current_session_option
@click.option("--show-private", is_flag=True, help="Print the private snippets (owner only).")
@format_option()
def history(
    provider_id: str | None,
    agent_id: str,
    project_id: str,
    terms: tuple[str, ...],
    terms_file: str | None,
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
    if (not terms) == (terms_file is None):
        raise click.UsageError(
            "give the search terms as --terms-file - (one per line on standard input), "
            "--terms-file FILE or --term T..."
        )
    if "-" in terms:  # a slip for --terms-file -: no search term is "-"
        raise click.UsageError("--term takes the term itself; to read terms from standard "
                               "input give --terms-file -")  # fmt: skip
    if terms:
        _warn_argv("--term", "--terms-file -")
    if terms_file is not None:
        text = read_text_input(terms_file, "--terms-file")
        terms = tuple(line.strip() for line in text.splitlines() if line.strip())
    try:
        outcome = operator_requests.history(
            provider_id=provider_id,
            agent_id=agent_id,
            project_id=project_id,
            terms=terms,
            evidence_types=evidence_types,
            limits={
                "max_sessions": max_sessions,
                "max_items": max_items,
                "max_snippet_chars": max_snippet_chars,
                "max_total_chars": max_total_chars,
            },
            revision=revision,
            timeout=timeout,
            current_sessions=current_sessions,
        )
    except OperatorRefused as exc:
        raise Rejected(str(exc)) from None
    shown = outcome.public_json()
    shown["private_ref"] = outcome.private_ref
    if show_private and outcome.result is not None:
        shown["items"] = unstructure(outcome.result)["items"]
    if output_format == "text":
        shown["claim_for"] = (agent_id, project_id)
        shown["unavailable_hint"] = outcome.unavailable_hint
    emit(shown, output_format, render_outcome)


@recall.command("show")
@click.argument("request_id")
@format_option()
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
        lambda r: render_outcome(
            {
                "status": r["status"],
                "reason": r.get("reason"),
                "receipt": r["receipt"],
                "items": r.get("result", {}).get("items", []),
            }
        ),
    )


@recall.command("replan")
@click.option(
    "--situation-json",
    type=click.Path(dir_okay=False),
    help="A loopx_replan_situation_v0 file (or use the flag form: --proposed-command ...).",
)
@click.option("--outcome-json", type=click.Path(dir_okay=False), help="A proposed outcome.")
@click.option(
    "--proposed-command",
    help="Flag form: the command Replan proposes next; the situation is built from the "
    "enablement of --agent-id and --project-id. The command line is visible to other "
    "local users (ps): to keep the command off it, use --proposed-command-file.",
)
@click.option(
    "--proposed-command-file",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Flag form: read the proposed command from this file; - reads standard input "
    "(the way to give it: nothing on the command line).",
)
@click.option("--agent-id", help="Flag form: the agent.")
@click.option("--project-id", help="Flag form: the project.")
@click.option(
    "--trigger",
    type=click.Choice(sorted(FLAG_TRIGGERS)),
    default="operator_requested_history",
    show_default=True,
    help="Flag form: why history is asked (replan_repetition asserts the route repeats; "
    "it needs stage 2).",
)
@click.option("--situation-id", help="Flag form: the situation id (default: the outcome's).")
@click.option("--revision", help="Flag form: the current repository revision.")
@click.option(
    "--repository-root",
    type=click.Path(file_okay=False),
    help="Flag form: the repository's root, to read absolute paths in commands (private).",
)
@provider_option
@_timeout_option
@current_session_option
@click.option("--show-private", is_flag=True, help="Also print terms, matches and references.")
@format_option()
def replan_command(
    situation_json: str | None,
    outcome_json: str | None,
    proposed_command: str | None,
    proposed_command_file: str | None,
    agent_id: str | None,
    project_id: str | None,
    trigger: str,
    situation_id: str | None,
    revision: str | None,
    repository_root: str | None,
    provider_id: str | None,
    timeout: float,
    current_sessions: tuple[str, ...],
    show_private: bool,
    output_format: str,
) -> None:
    """Replan support: admit a typed situation, recall, compare the proposed step, and judge
    a proposed outcome's legality.

    Give the situation as a file (--situation-json) or, for operators, as flags:
    --proposed-command CMD --agent-id A --project-id J [--trigger T] (the repository id
    comes from the enablement). Retrieval refines Replan reasoning; it never settles a
    Replan. With no provider enabled the answer is a typed refusal (exit 0) and Replan
    goes on with current evidence, also with no provider installed. Text output ends a
    refusal with the command to run next.
    """
    flags = {
        "--agent-id": agent_id,
        "--project-id": project_id,
        "--situation-id": situation_id,
        "--revision": revision,
        "--repository-root": repository_root,
    }
    if proposed_command is not None and proposed_command_file is not None:
        raise click.UsageError("give --proposed-command or --proposed-command-file, not both")
    if proposed_command == "-":  # a slip for --proposed-command-file -: no command is "-"
        raise click.UsageError("--proposed-command takes the command itself; to read it from "
                               "standard input give --proposed-command-file -")  # fmt: skip
    if proposed_command is not None:
        _warn_argv("--proposed-command", "--proposed-command-file -")
    if proposed_command_file is not None:
        text = read_text_input(proposed_command_file, "--proposed-command-file")
        proposed_command = text.strip()
    if (situation_json is None) == (proposed_command is None):
        raise click.UsageError("give either --situation-json FILE or --proposed-command CMD")
    if situation_json is not None:
        given = [name for name, value in flags.items() if value is not None]
        if given:
            raise click.UsageError(f"{given[0]} belongs to the flag form (--proposed-command)")
    # both files are read before either is checked (a file that is no JSON object says so)
    read = [
        read_json_object(path, what) if path else None
        for path, what in ((situation_json, "--situation-json"), (outcome_json, "--outcome-json"))
    ]
    situation = _record(read[0], ReplanSituationV0)
    outcome = _record(read[1], ReplanOutcomeV0)
    if situation is None:
        if not agent_id or not project_id:
            raise click.UsageError("--proposed-command needs --agent-id and --project-id")
        situation = ProposedCommand(
            command=proposed_command or "",
            agent_id=agent_id,
            project_id=project_id,
            trigger=trigger,
            situation_id=situation_id,
            revision=revision,
            repository_root=repository_root,
        )
    consultation = Consultation(
        situation=situation,
        outcome=outcome,
        provider_id=provider_id,
        timeout=timeout,
        current_sessions=current_sessions,
    )
    try:
        report = operator_requests.replan(consultation)
    except OperatorRefused as exc:
        raise Rejected(str(exc)) from None
    if output_format == "json":
        emit(report.private_json() if show_private else report.public_json(), "json", str)
        return
    # text names the stored result's handle always; --show-private adds the matched items
    emit(report, "text", lambda r: r.text(show_private=show_private, provider_id=provider_id))


def _record(data: dict[str, Any] | None, kind: type[Any]) -> Any:
    """The contract record of a JSON object read from a file (None: none given), checked
    by the one strict converter; its message names the field, never the value."""
    if data is None:
        return None
    try:
        return structure(data, kind)
    except ContractError as exc:
        raise Rejected(str(exc)) from None


recall.add_command(qualify)
