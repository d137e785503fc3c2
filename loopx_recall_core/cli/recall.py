# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx recall``: historical-evidence records, requests and receipts."""

from __future__ import annotations

from typing import Any

import click

from loopx_recall_core.cli._common import (
    Rejected,
    emit,
    format_option,
    handle_failures,
    read_json_object,
)
from loopx_recall_core.contracts import (
    ContractError,
    HistoricalEvidenceReceiptV0,
    HistoricalEvidenceRequestV0,
    HistoricalEvidenceResultV0,
    result_problems,
    structure,
    unstructure,
)
from loopx_recall_core.recall.receipts import result_receipt

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
    emit(unstructure(result_receipt(request, result)), output_format, _render_receipt)
