# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""LoopX's ``decision_context_advisory_provider_v0``: bounded same-agent snippets as
advisory items for ``loopx decision-context recall-context``.

Each request is an ``operator_requested_history`` lookup through
:func:`loopx_recall_core.operator_requests.history`, the path ``loopx-recall recall
history`` takes: admitted against the owner's enablement, a receipt and the private result
written on our side. The agent and project come from the request's ``scope_ref``
(:func:`scope_ref`: ``loopx-recall:agent/<agent_id>/project/<project_id>``); the query
text gives the terms (:func:`query_terms`).

LoopX reads a response with ``"ok": true`` and ``status`` ``completed`` (items) or
``unavailable`` (no items, a ``reason_code`` it shows to its caller). So a ``scope_ref``
that does not parse, names no enablement, or any recall that was refused or failed is
``unavailable`` with our typed reason code, never a wider search; ``"ok": false`` (which
LoopX turns into its own untyped ``provider_retrieval_failed``) is kept for a request that
is not this protocol's.
"""

from __future__ import annotations

import re
from typing import Any

from loopx_recall_core import operator_requests
from loopx_recall_core.loopx_protocol.errors import ProtocolError
from loopx_recall_core.loopx_protocol.mapping import MAX_ADVISORY_ITEMS, advisory_items
from loopx_recall_core.operator_requests import OperatorRefused
from loopx_recall_core.plugin.manager import load_host
from loopx_recall_core.recall.service import DEFAULT_TIMEOUT_S
from loopx_recall_core.state import DEFAULT_CEILINGS

__all__ = [
    "REQUEST_SCHEMA",
    "RESPONSE_SCHEMA",
    "answer",
    "parse_scope_ref",
    "query_terms",
    "recall_timeout",
    "scope_ref",
]

REQUEST_SCHEMA = "decision_context_advisory_retrieve_request_v0"
RESPONSE_SCHEMA = "decision_context_advisory_retrieve_response_v0"
_FIELDS = {
    "schema_version": str,
    "operation": str,
    "namespace": str,
    "scope_ref": str,
    "query": str,
    "query_summary": str,
    "max_results": int,
    "timeout_seconds": (int, float),
    "observed_at": str,
}
_SCOPE = re.compile(r"\Aloopx-recall:agent/([^/\s]{1,256})/project/([^/\s]{1,256})\Z")
_MAX_TERMS = 8
_MAX_TERM_CHARS = 128
#: What the recall leaves LoopX's deadline for our start-up and answer.
_MARGIN_S = 2.0


def scope_ref(agent_id: str, project_id: str) -> str:
    """The ``scope_ref`` naming one agent and project (ids without ``/`` or blanks)."""
    return f"loopx-recall:agent/{agent_id}/project/{project_id}"


def parse_scope_ref(value: str) -> tuple[str, str] | None:
    """``(agent_id, project_id)`` of a :func:`scope_ref`, None for anything else."""
    match = _SCOPE.match(value)
    return (match.group(1), match.group(2)) if match else None


def query_terms(query: str) -> tuple[str, ...]:
    """The query's first 8 distinct words of 2..128 characters (alternatives, as every
    recall's terms are: an item holding more of them ranks higher)."""
    terms: list[str] = []
    seen: set[str] = set()
    for word in query.split():
        if not 2 <= len(word) <= _MAX_TERM_CHARS or word.casefold() in seen:
            continue
        seen.add(word.casefold())
        terms.append(word)
        if len(terms) == _MAX_TERMS:
            break
    return tuple(terms)


def recall_timeout(timeout_seconds: float) -> float:
    """The recall's deadline inside LoopX's ``timeout_seconds`` (never above the CLI's)."""
    return max(0.5, min(DEFAULT_TIMEOUT_S, timeout_seconds - _MARGIN_S))


def _unavailable(reason_code: str) -> dict[str, Any]:
    return {
        "schema_version": RESPONSE_SCHEMA,
        "ok": True,
        "status": "unavailable",
        "reason_code": reason_code,
        "items": [],
    }


def _checked(request: Any) -> dict[str, Any]:
    if not isinstance(request, dict):
        raise ProtocolError("invalid_request", "the request must be a JSON object")
    unknown = sorted(set(request) - set(_FIELDS))
    if unknown:
        from loopx_recall_core.jsonio import shown_key

        raise ProtocolError("invalid_request", f"$: unknown field {shown_key(unknown[0])}")
    for name, kind in _FIELDS.items():
        value = request.get(name)
        if value is None:
            raise ProtocolError("invalid_request", f"$.{name}: required field missing")
        if isinstance(value, bool) or not isinstance(value, kind):
            raise ProtocolError("invalid_request", f"$.{name}: wrong type")
    if request["schema_version"] != REQUEST_SCHEMA or request["operation"] != "retrieve":
        raise ProtocolError("unsupported_operation", f"$.schema_version: expected {REQUEST_SCHEMA}")
    return request


def answer(request: Any) -> dict[str, Any]:
    """The response to one retrieve request, or :class:`ProtocolError`."""
    checked = _checked(request)
    scope = parse_scope_ref(checked["scope_ref"])
    if scope is None:
        return _unavailable("scope_ref_invalid")
    terms = query_terms(checked["query"])
    if not terms:
        return _unavailable("query_without_terms")
    wanted = min(max(1, checked["max_results"]), MAX_ADVISORY_ITEMS)
    agent_id, project_id = scope
    try:
        outcome = operator_requests.history(
            None,  # the owner's, read after the owner-decision generation (owner_decisions)
            load_host,
            provider_id=None,
            agent_id=agent_id,
            project_id=project_id,
            terms=terms,
            limits={**DEFAULT_CEILINGS, "max_items": wanted},
            timeout=recall_timeout(float(checked["timeout_seconds"])),
        )
    except OperatorRefused:
        return _unavailable("operator_refused")
    if not outcome.ok:
        return _unavailable(outcome.reason or "recall_failed")
    return {
        "schema_version": RESPONSE_SCHEMA,
        "ok": True,
        "status": "completed",
        "reason_code": None,
        "items": advisory_items(outcome, max_results=wanted),
    }
