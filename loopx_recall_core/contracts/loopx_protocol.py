# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The records of our LoopX capability ``agent-history-recall`` (LoopX 2.1.1's external
domain capability protocol, ``loopx capability invoke``).

LoopX builds each request itself (``extensions/capability_admission.py``): its
``schema_version`` is the operation's ``request_schema`` from our integration profile, and
around the caller's ``input`` it puts the invocation id, the Goal binding, the provider
revision and the caller's context references. The ``input`` is ours: what
``loopx-recall recall history`` and ``recall replan --proposed-command`` take.

The result is LoopX public state: LoopX accepts exactly the fields of
``loopx_recall_history_result_v0`` / ``loopx_recall_replan_result_v0`` (the read-only
shape: ``status`` ``succeeded`` or ``no_change``, at most 64 observations, no mutations,
transition receipts or proposals, no effect receipt) and then runs its public-safety check
over it (no key named ``raw``/``raw_*``, no local path, no credential-like value). So an
observation carries the public receipt, counts, freshness, a verdict and the private handle,
never a snippet, a term or a path. The receipt is our v0 receipt with one field named
otherwise on the wire (:class:`LoopxReceipt`, a cattrs rename override; mapped in
:mod:`loopx_recall_core.loopx_protocol.mapping`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Literal

import attrs

from loopx_recall_core.contracts.fields import (
    ALWAYS_WRITTEN,
    FieldInvalid,
    field,
    int_field,
    int_range,
    optional,
    optional_text,
    text_field,
    texts,
    texts_field,
    texts_schema,
)
from loopx_recall_core.contracts.historical import (
    LIMIT_CEILINGS,
    EvidenceType,
    HistoricalEvidenceReceiptV0,
)

__all__ = [
    "CAPABILITY_ID",
    "RECORDS",
    "ContextRef",
    "GoalRef",
    "HistoryInput",
    "HistoryObservation",
    "InputLimits",
    "LoopxRecallHistoryRequestV0",
    "LoopxRecallHistoryResultV0",
    "LoopxRecallProviderErrorV0",
    "LoopxRecallReplanRequestV0",
    "LoopxRecallReplanResultV0",
    "LoopxReceipt",
    "ProviderRef",
    "ReplanInput",
    "ReplanObservation",
]

CAPABILITY_ID = "agent-history-recall"

_ID_UNITS = 256
_TOKEN_UNITS = 512
_COMMAND_UNITS = 4096
_MAX_CONTEXT_REFS = 32
_MAX_OBSERVATIONS = 64
_MAX_SESSIONS = 16

RecallStatus = Literal["succeeded", "refused", "failed"]
ResultStatus = Literal["succeeded", "no_change"]
ReplanTrigger = Literal["operator_requested_history", "replan_repetition"]
ErrorReason = Literal[
    "invalid_request",
    "unsupported_operation",
    "operator_refused",
    "state_unusable",
    "internal_error",
]
Verdict = Literal[
    "repeats_prior_failure", "similar_to_prior_attempt", "no_prior_match", "undetermined"
]


def _empty(_instance: Any, attribute: attrs.Attribute, value: tuple[Any, ...]) -> None:
    if value:
        raise FieldInvalid(f".{attribute.name}", "must be empty (a read-only result)")


def _empty_list() -> Any:
    return field(validator=_empty, schema={"maxItems": 0})


def _bounded(count: int, *, least: int = 0) -> Any:
    def check(_instance: Any, attribute: attrs.Attribute, value: tuple[Any, ...]) -> None:
        if not least <= len(value) <= count:
            raise FieldInvalid(f".{attribute.name}", f"must hold {least}..{count} items")

    return field(validator=check, schema={"minItems": least, "maxItems": count})


# ---- what LoopX puts around the input ------------------------------------------------


@attrs.frozen(kw_only=True)
class GoalRef:
    goal_id: str = text_field(_ID_UNITS)
    capability_binding_digest: str = text_field(_TOKEN_UNITS)


@attrs.frozen(kw_only=True)
class ProviderRef:
    extension_id: str = text_field(48)
    revision: str = text_field(_TOKEN_UNITS)
    profile_digest: str = text_field(_TOKEN_UNITS)


@attrs.frozen(kw_only=True)
class ContextRef:
    kind: str = text_field(_ID_UNITS)
    ref: str = text_field(_TOKEN_UNITS)
    digest: str = text_field(_TOKEN_UNITS)


# ---- the operation inputs ---------------------------------------------------------


def _optional_int(high: int) -> Any:
    bounded = int_range(1, high)

    def check(instance: Any, attribute: attrs.Attribute, value: int | None) -> None:
        if value is not None:
            bounded(instance, attribute, value)

    return optional(validator=check, schema={"minimum": 1, "maximum": high})


@attrs.frozen(kw_only=True)
class InputLimits:
    """Ceilings for one lookup; an absent one takes the CLI's default. The enablement's own
    ceilings still bound each (admission refuses a request above them)."""

    max_sessions: int | None = _optional_int(LIMIT_CEILINGS["max_sessions"])
    max_items: int | None = _optional_int(LIMIT_CEILINGS["max_items"])
    max_snippet_chars: int | None = _optional_int(LIMIT_CEILINGS["max_snippet_chars"])
    max_total_chars: int | None = _optional_int(LIMIT_CEILINGS["max_total_chars"])


def _session_ids() -> Any:
    bounds = {"min_items": 1, "max_items": _MAX_SESSIONS, "max_units": _ID_UNITS}
    return optional(validator=texts(**bounds), schema=texts_schema(**bounds))


@attrs.frozen(kw_only=True)
class HistoryInput:
    """``loopx-recall recall history``'s options: an ``operator_requested_history``
    lookup for one agent and project (terms are private: they reach the provider only)."""

    agent_id: str = text_field(_ID_UNITS)
    project_id: str = text_field(_ID_UNITS)
    terms: tuple[str, ...] = texts_field(min_items=1, max_items=8, max_units=128)
    evidence_types: tuple[EvidenceType, ...] | None = optional(
        schema={"minItems": 1, "maxItems": 5, "uniqueItems": True}
    )
    limits: InputLimits | None = optional()
    revision: str | None = optional_text(_ID_UNITS)
    current_sessions: tuple[str, ...] | None = _session_ids()


@attrs.frozen(kw_only=True)
class ReplanInput:
    """``loopx-recall recall replan --proposed-command``'s options (the flag form)."""

    agent_id: str = text_field(_ID_UNITS)
    project_id: str = text_field(_ID_UNITS)
    proposed_command: str = text_field(_COMMAND_UNITS)
    trigger: ReplanTrigger = "operator_requested_history"
    revision: str | None = optional_text(_ID_UNITS)
    current_sessions: tuple[str, ...] | None = _session_ids()


@attrs.frozen(kw_only=True)
class LoopxRecallHistoryRequestV0:
    schema_version: Literal["loopx_recall_history_request_v0"]
    invocation_id: str = text_field(_ID_UNITS)
    capability_id: Literal["agent-history-recall"]
    operation: Literal["history"]
    goal: GoalRef
    provider: ProviderRef
    context_refs: tuple[ContextRef, ...] = _bounded(_MAX_CONTEXT_REFS, least=1)
    input: HistoryInput


@attrs.frozen(kw_only=True)
class LoopxRecallReplanRequestV0:
    schema_version: Literal["loopx_recall_replan_request_v0"]
    invocation_id: str = text_field(_ID_UNITS)
    capability_id: Literal["agent-history-recall"]
    operation: Literal["replan"]
    goal: GoalRef
    provider: ProviderRef
    context_refs: tuple[ContextRef, ...] = _bounded(_MAX_CONTEXT_REFS, least=1)
    input: ReplanInput


# ---- the public result ------------------------------------------------------------


@attrs.frozen(kw_only=True)
class LoopxReceipt(HistoricalEvidenceReceiptV0):
    """``historical_evidence_receipt_v0`` as LoopX public state: the same record, fields
    and values, with ``raw_content_captured`` named ``content_captured`` on the wire
    (LoopX refuses any key named ``raw_*`` as an unbounded raw payload field)."""

    __wire_names__: ClassVar[Mapping[str, str]] = MappingProxyType(
        {"raw_content_captured": "content_captured"}
    )


@attrs.frozen(kw_only=True)
class HistoryObservation:
    """One lookup: what happened (``recall_status`` and its typed ``reason_code``), the
    receipt, whose sessions counted, and the owner's private handle to the stored result
    (``loopx-recall recall show <private_ref>`` reads it back on the owner's machine)."""

    kind: Literal["historical_evidence_lookup"]
    recall_status: RecallStatus
    reason_code: str | None = field(default=None, metadata={ALWAYS_WRITTEN: True})
    agent_sessions: Literal["claimed", "runtime"] | None = field(
        default=None, metadata={ALWAYS_WRITTEN: True}
    )
    cross_agent_used: bool | None = field(default=None, metadata={ALWAYS_WRITTEN: True})
    private_ref: str | None = field(default=None, metadata={ALWAYS_WRITTEN: True})
    receipt: LoopxReceipt


@attrs.frozen(kw_only=True)
class ReplanObservation:
    """One Replan consultation: admission, the comparison verdict, and the lookup it made
    (``null`` when the situation was not admitted)."""

    kind: Literal["replan_consultation"]
    situation_id: str = text_field(_ID_UNITS)
    admitted: bool
    admission_reason: str | None = field(default=None, metadata={ALWAYS_WRITTEN: True})
    verdict: Verdict
    comparison_reason: str = text_field(64)
    match_count: int = int_field(0, LIMIT_CEILINGS["max_items"])
    lookup: HistoryObservation | None = field(default=None, metadata={ALWAYS_WRITTEN: True})


@attrs.frozen(kw_only=True)
class LoopxRecallHistoryResultV0:
    schema_version: Literal["loopx_recall_history_result_v0"]
    invocation_id: str = text_field(_ID_UNITS)
    status: ResultStatus
    observations: tuple[HistoryObservation, ...] = _bounded(_MAX_OBSERVATIONS)
    domain_state_mutations: tuple[str, ...] = _empty_list()
    domain_transition_receipts: tuple[str, ...] = _empty_list()
    transition_proposals: tuple[str, ...] = _empty_list()
    effect_receipt: Literal[None]
    follow_up: Literal[None]


@attrs.frozen(kw_only=True)
class LoopxRecallReplanResultV0:
    schema_version: Literal["loopx_recall_replan_result_v0"]
    invocation_id: str = text_field(_ID_UNITS)
    status: ResultStatus
    observations: tuple[ReplanObservation, ...] = _bounded(_MAX_OBSERVATIONS)
    domain_state_mutations: tuple[str, ...] = _empty_list()
    domain_transition_receipts: tuple[str, ...] = _empty_list()
    transition_proposals: tuple[str, ...] = _empty_list()
    effect_receipt: Literal[None]
    follow_up: Literal[None]


@attrs.frozen(kw_only=True)
class LoopxRecallProviderErrorV0:
    """What the provider entry point answers when it cannot answer the protocol at all (a
    request that is not one, an unusable state folder, input that makes no request):
    ``ok: false``, which LoopX reads as the provider's failure. ``message`` names JSON
    paths and rules, never a value, a path or a term."""

    schema_version: Literal["loopx_recall_provider_error_v0"]
    ok: Literal[False]
    reason_code: ErrorReason
    message: str = text_field(1024)


RECORDS: dict[str, type] = {
    "loopx_recall_history_request_v0": LoopxRecallHistoryRequestV0,
    "loopx_recall_history_result_v0": LoopxRecallHistoryResultV0,
    "loopx_recall_replan_request_v0": LoopxRecallReplanRequestV0,
    "loopx_recall_replan_result_v0": LoopxRecallReplanResultV0,
    "loopx_recall_provider_error_v0": LoopxRecallProviderErrorV0,
}
