# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Historical-evidence v0 records (seed RFC obelisk-session-evidence-provider-v0, section 5).

Field names, literals and nesting are exactly the RFC's. Bounds the RFC leaves open are
the host's ceilings: a request cannot ask for more than they allow.
"""

from __future__ import annotations

from typing import Literal

import attrs

from loopx_recall_core.contracts.fields import (
    MAX_SAFE_INTEGER,
    FieldInvalid,
    digest_field,
    field,
    int_field,
    optional,
    optional_text,
    text_field,
    texts_field,
    unique_items_field,
)

__all__ = [
    "EVIDENCE_TYPES",
    "LIMIT_CEILINGS",
    "TRIGGERS",
    "EvidenceItem",
    "EvidenceType",
    "Freshness",
    "HistoricalEvidenceReceiptV0",
    "HistoricalEvidenceRequestV0",
    "HistoricalEvidenceResultV0",
    "Limits",
    "Revision",
    "Scope",
    "ScopeApplied",
    "Trigger",
    "result_problems",
]

Trigger = Literal[
    "replan_repetition",
    "hypothesis_history_gap",
    "resume_or_handoff_gap",
    "operator_requested_history",
]
EvidenceType = Literal["prior_failure", "decision", "file_history", "tool_outcome", "summary"]
Freshness = Literal["fresh", "stale", "incomplete", "unknown"]
ProviderId = Literal["obelisk-session-evidence"]

TRIGGERS: tuple[str, ...] = Trigger.__args__
EVIDENCE_TYPES: tuple[str, ...] = EvidenceType.__args__

#: Host ceilings for every limit; a request above them cannot be constructed.
LIMIT_CEILINGS = {
    "max_sessions": 50,
    "max_items": 64,
    "max_snippet_chars": 2000,
    "max_total_chars": 32000,
}

_ID_UNITS = 256
_TERM_UNITS = 128
_MAX_TERMS = 8


@attrs.frozen(kw_only=True)
class Scope:
    agent_id: str = text_field(_ID_UNITS)
    project_id: str = text_field(_ID_UNITS)
    repository_id: str = text_field(_ID_UNITS)
    allow_cross_agent: Literal[False]
    allow_cross_project: Literal[False]


@attrs.frozen(kw_only=True)
class Revision:
    current: str = text_field(_ID_UNITS)
    merge_base: str | None = optional_text(_ID_UNITS)


@attrs.frozen(kw_only=True)
class Limits:
    max_sessions: int = int_field(1, LIMIT_CEILINGS["max_sessions"])
    max_items: int = int_field(1, LIMIT_CEILINGS["max_items"])
    max_snippet_chars: int = int_field(1, LIMIT_CEILINGS["max_snippet_chars"])
    max_total_chars: int = int_field(1, LIMIT_CEILINGS["max_total_chars"])


@attrs.frozen(kw_only=True)
class HistoricalEvidenceRequestV0:
    schema_version: Literal["historical_evidence_request_v0"]
    request_id: str = text_field(_ID_UNITS)
    situation_id: str = text_field(_ID_UNITS)
    trigger: Trigger
    scope: Scope
    revision: Revision | None = optional()
    evidence_types: tuple[EvidenceType, ...] = unique_items_field()
    query_terms: tuple[str, ...] = texts_field(
        min_items=1, max_items=_MAX_TERMS, max_units=_TERM_UNITS
    )
    limits: Limits


@attrs.frozen(kw_only=True)
class ScopeApplied:
    agent_id: str = text_field(_ID_UNITS)
    project_id: str = text_field(_ID_UNITS)
    repository_id: str = text_field(_ID_UNITS)
    #: The seed RFC fixes this to ``false``. It is a fact the host sets: ``true`` only for an
    #: enablement whose agent identity is the runtime (``--agent-sessions runtime``), where
    #: other agents' sessions on that runtime and repository may be among the items.
    cross_agent_used: bool


@attrs.frozen(kw_only=True)
class EvidenceItem:
    session_ref: str = text_field(512)
    message_ref: str | None = optional_text(512)
    evidence_type: EvidenceType
    observed_at: str | None = optional_text(64)
    revision_ref: str | None = optional_text(_ID_UNITS)
    snippet: str = text_field(LIMIT_CEILINGS["max_snippet_chars"], blank_ok=True)


def _items_within_ceilings(
    _instance: object, attribute: attrs.Attribute, value: tuple[EvidenceItem, ...]
) -> None:
    if len(value) > LIMIT_CEILINGS["max_items"]:
        raise FieldInvalid(f".{attribute.name}", f"more than {LIMIT_CEILINGS['max_items']} items")
    if sum(len(item.snippet) for item in value) > LIMIT_CEILINGS["max_total_chars"]:
        raise FieldInvalid(f".{attribute.name}", "snippets exceed the total-size ceiling")


@attrs.frozen(kw_only=True)
class HistoricalEvidenceResultV0:
    schema_version: Literal["historical_evidence_result_v0"]
    request_id: str = text_field(_ID_UNITS)
    provider_id: ProviderId
    provider_version: str = text_field(64)
    index_revision: str = text_field(_ID_UNITS)
    scope_applied: ScopeApplied
    freshness: Freshness
    items: tuple[EvidenceItem, ...] = attrs.field(validator=_items_within_ceilings)
    truncated: bool
    omitted_count: int = int_field(0, MAX_SAFE_INTEGER)

    def __attrs_post_init__(self) -> None:
        if self.omitted_count > 0 and not self.truncated:
            raise FieldInvalid(".truncated", "must be true when omitted_count > 0")


def _counts_valid(_instance: object, attribute: attrs.Attribute, value: dict[str, int]) -> None:
    ceiling = LIMIT_CEILINGS["max_items"]
    for key, count in value.items():
        if key not in EVIDENCE_TYPES:
            raise FieldInvalid(f".{attribute.name}", "keys must be evidence types")
        if not 0 <= count <= ceiling:
            raise FieldInvalid(f".{attribute.name}[{key!r}]", f"must be 0..{ceiling}")


_COUNTS_SCHEMA = {
    "propertyNames": {"enum": list(EVIDENCE_TYPES)},
    "additionalProperties": {
        "type": "integer",
        "minimum": 0,
        "maximum": LIMIT_CEILINGS["max_items"],
    },
}


@attrs.frozen(kw_only=True)
class HistoricalEvidenceReceiptV0:
    schema_version: Literal["historical_evidence_receipt_v0"]
    request_id: str = text_field(_ID_UNITS)
    provider_id: ProviderId
    provider_version: str = text_field(64)
    index_revision_digest: str = digest_field()
    scope_digest: str = digest_field()
    query_digest: str = digest_field()
    result_digest: str = digest_field()
    result_count: int = int_field(0, LIMIT_CEILINGS["max_items"])
    evidence_type_counts: dict[str, int] = field(validator=_counts_valid, schema=_COUNTS_SCHEMA)
    freshness: Freshness
    truncated: bool
    omitted_count: int = int_field(0, MAX_SAFE_INTEGER)
    grants_new_action_authority: Literal[False]
    external_writes_performed: Literal[False]
    raw_content_captured: Literal[False]

    def __attrs_post_init__(self) -> None:
        if sum(self.evidence_type_counts.values()) != self.result_count:
            raise FieldInvalid(".evidence_type_counts", "must add up to result_count")


def result_problems(
    request: HistoricalEvidenceRequestV0, result: HistoricalEvidenceResultV0
) -> list[str]:
    """Ways ``result`` breaks ``request`` (empty when it answers it honestly).

    The host runs this on every provider result; one problem rejects the whole result.
    Messages name the JSON path and the rule, never a value.
    """
    problems: list[str] = []
    if result.request_id != request.request_id:
        problems.append("$.request_id: does not match the request")
    applied, asked = result.scope_applied, request.scope
    for name in ("agent_id", "project_id", "repository_id"):
        if getattr(applied, name) != getattr(asked, name):
            problems.append(f"$.scope_applied.{name}: differs from the requested scope")
    limits = request.limits
    if len(result.items) > limits.max_items:
        problems.append(f"$.items: more than max_items ({limits.max_items})")
    sessions = {item.session_ref for item in result.items}
    if len(sessions) > limits.max_sessions:
        problems.append(f"$.items: more than max_sessions ({limits.max_sessions}) sessions")
    total = 0
    for index, item in enumerate(result.items):
        if item.evidence_type not in request.evidence_types:
            problems.append(f"$.items[{index}].evidence_type: was not requested")
        if len(item.snippet) > limits.max_snippet_chars:
            problems.append(f"$.items[{index}].snippet: longer than max_snippet_chars")
        total += len(item.snippet)
    if total > limits.max_total_chars:
        problems.append("$.items: snippets exceed max_total_chars")
    if not 0 <= result.omitted_count <= MAX_SAFE_INTEGER:
        # validators bound it at construction; re-checked for a record built around them
        problems.append("$.omitted_count: must be 0..2**53-1")
    if result.omitted_count > 0 and not result.truncated:
        problems.append("$.truncated: false although items were omitted")
    if result.truncated and result.omitted_count == 0:
        problems.append("$.omitted_count: 0 although the result says it was truncated")
    return problems
