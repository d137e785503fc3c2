# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The one rejection type of the capability, and strict structuring with named paths."""

from __future__ import annotations

from typing import Any, TypeVar

from loopx_recall_core.contracts.converter import ContractError, structure
from loopx_recall_core.contracts.external_evidence import ERROR_SCHEMA

__all__ = ["EvidenceRejected", "error_record", "presented_receipt", "reject", "structure_at"]

T = TypeVar("T")


class EvidenceRejected(ContractError):
    """Input that fails the external-evidence contract; fail closed.

    A ``ValueError``. Each line of ``problems`` is ``"<argument path>: <rule>"`` (for
    example ``"receipt.sources[0].basis: expected ..."``) and never repeats an input value.
    """


def _relabel(problem: str, root: str) -> str:
    rest = problem[1:] if problem.startswith("$") else f": {problem}"
    if not root and rest.startswith("."):
        return rest[1:]
    return root + rest


def structure_at(value: object, cls: type[T], root: str) -> T:
    """Structure ``value`` strictly; errors name paths under ``root`` (``""`` = top level)."""
    try:
        return structure(value, cls)
    except ContractError as exc:
        raise EvidenceRejected(_relabel(p, root) for p in exc.problems) from None


def reject(path: str, rule: str) -> EvidenceRejected:
    """One problem, ready to raise."""
    return EvidenceRejected([f"{path}: {rule}"])


def presented_receipt(document: dict[str, Any], root: str = "receipt") -> Any:
    """The provider receipt a caller presents, bare or under ``"receipt"`` (an observation
    record holds it there); ``root`` names the document in a rejection."""
    if "receipt" not in document:
        return document
    if not isinstance(document["receipt"], dict):
        raise reject(root, "receipt must hold a JSON object")
    return document["receipt"]


def error_record(message: str) -> dict[str, Any]:
    """The contract's error record (``loopx_external_evidence_error_v0``)."""
    return {
        "ok": False,
        "schema_version": ERROR_SCHEMA,
        "status": "invalid_request",
        "error": message,
    }
