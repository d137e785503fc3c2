# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""External-evidence-research v0 records (wire contract: ``EXTERNAL_EVIDENCE_V0.md``).

Long because: it is the wire document in code, one record class per
record of ``EXTERNAL_EVIDENCE_V0.md`` in the document's order, plus the few field rules
(trimming, provider ids, provenance URIs, unique providers and sources) that only these
records use. Split, a reader checking one record against the spec would need two files;
the generic field helpers already live in :mod:`loopx_recall_core.contracts.fields` and
the wire rendering in the converter.

A record checks what it can check on its own: JSON types, closed vocabularies, text
bounds, provenance URIs, digest forms and invariants between its own fields. Rules that
join records (a receipt bound to its plan, ids recomputed from content) live in
:mod:`loopx_recall_core.external_evidence`.

Text: attrs converters trim every free text with JavaScript's ``trim`` before the
validators run, so lengths (UTF-16 units), blankness and uniqueness are judged on the
trimmed text and a structured record holds the normalized text. Vocabulary values and
the ids a record echoes from another record are never trimmed: a padded one fails.

Absence: ``limitation``, ``publication_date`` and ``unavailable_reason`` may be absent
(== null) and are always written; ``constraints``, ``limitations`` and a decision's
``admitted_source_refs`` may be absent (== ``[]``) and are always written;
``source_refs`` and ``search_terms`` are written only when given (``[]`` differs from
absent for ``search_terms``). Unknown fields are rejected everywhere.

``unstructure`` writes fields in declaration order, which is LoopX's key order; what is
omitted or always written is declared on the fields (``optional()`` / ``ALWAYS_WRITTEN``)
and applied by the converter (:mod:`loopx_recall_core.contracts.converter`).
"""

from __future__ import annotations

import re
from typing import Any, Literal

import attrs

from loopx_recall_core.canonical import js_trim
from loopx_recall_core.contracts.fields import (
    ALWAYS_WRITTEN,
    FieldInvalid,
    digest_field,
    int_field,
    optional,
    sha256_digest,
    text,
    text_field,
    texts,
    texts_field,
    texts_schema,
)

__all__ = [
    "ADMISSION_SCHEMA",
    "CONNECTOR_INVENTORY_REASON",
    "DISCOVERY_SCHEMA",
    "ENVELOPE_SCHEMA",
    "ERROR_SCHEMA",
    "INPUT_RECORDS",
    "MAX_PROVIDERS",
    "OBSERVATION_SCHEMA",
    "PLAN_SCHEMA",
    "PROJECTION_SCHEMA",
    "PROTOCOL",
    "RECEIPT_SCHEMA",
    "RECORDS",
    "REQUEST_SCHEMA",
    "RETIREMENT_SCHEMA",
    "AdmissionDecision",
    "DiscoverySummary",
    "DiscoveryTruthContract",
    "DownstreamReadback",
    "ExternalEvidenceAdmissionV0",
    "ExternalEvidenceDiscoveryV0",
    "ExternalEvidenceErrorV0",
    "ExternalEvidenceExecutionEnvelopeV0",
    "ExternalEvidencePlanV0",
    "ExternalEvidenceProjectionV0",
    "ExternalEvidenceProvider",
    "ExternalEvidenceProviderInventory",
    "ExternalEvidenceReceiptObservationV0",
    "ExternalEvidenceReceiptV0",
    "ExternalEvidenceRequestV0",
    "ExternalEvidenceRetirementV0",
    "ExternalEvidenceSource",
    "ReceiptTruthContract",
    "is_provenance_uri",
    "is_provider_id",
]

PROTOCOL = "external_evidence_research_v0"
REQUEST_SCHEMA = "loopx_external_evidence_request_v0"
DISCOVERY_SCHEMA = "loopx_external_evidence_discovery_v0"
PLAN_SCHEMA = "loopx_external_evidence_plan_v0"
ENVELOPE_SCHEMA = "loopx_external_evidence_execution_envelope_v0"
RECEIPT_SCHEMA = "loopx_external_evidence_receipt_v0"
OBSERVATION_SCHEMA = "loopx_external_evidence_receipt_observation_v0"
ADMISSION_SCHEMA = "loopx_external_evidence_admission_v0"
PROJECTION_SCHEMA = "loopx_external_evidence_projection_v0"
RETIREMENT_SCHEMA = "loopx_external_evidence_retirement_v0"
ERROR_SCHEMA = "loopx_external_evidence_error_v0"

#: The reason every connector-registry row carries: a registry lists, it does not run.
CONNECTOR_INVENTORY_REASON = "connector_registry_is_inventory_not_readiness"
MAX_PROVIDERS = 64
_MAX_SOURCES = 64

ProviderKind = Literal["method", "connector"]
ReceiptStatus = Literal["succeeded", "failed", "no_evidence"]
Basis = Literal["stated", "observed", "tested", "inferred"]
Disposition = Literal["admit", "reject"]
Blocker = Literal["no_ready_provider", "preferred_provider_not_ready"]

_PROVIDER_ID = re.compile(r"[a-z][a-z0-9_.:-]{1,95}")
_PROVENANCE = re.compile(r"(https?://|[a-z][a-z0-9+.-]*://|urn:)")


def is_provider_id(value: object) -> bool:
    """``^[a-z][a-z0-9_.:-]{1,95}$``, matched exactly (no trimming)."""
    return isinstance(value, str) and _PROVIDER_ID.fullmatch(value) is not None


def is_provenance_uri(value: object) -> bool:
    """A direct, non-file reference: ``http(s)://``, ``<scheme>://`` or ``urn:``.

    Case-sensitive, as in LoopX: ``FILE://x``, ``mailto:x``, ``file:/x`` and bare paths fail.
    """
    return (
        isinstance(value, str)
        and _PROVENANCE.match(value) is not None
        and not value.startswith("file://")
    )


# ---- field helpers ------------------------------------------------------------------


def _trim(value: Any) -> Any:
    return js_trim(value) if isinstance(value, str) else value


def _trim_each(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_trim(item) for item in value)
    return value


def _text(max_units: int) -> Any:
    return text_field(max_units, converter=_trim)


def _nullable_text(max_units: int) -> Any:
    # Absent == null, and always written: the wire form always has the key.
    return text_field(max_units, default=None, converter=_trim, metadata={ALWAYS_WRITTEN: True})


def _texts(*, absent_is_empty: bool = False, **bounds: Any) -> Any:
    if absent_is_empty:  # absent == [], and always written
        return texts_field(
            **bounds, factory=tuple, converter=_trim_each, metadata={ALWAYS_WRITTEN: True}
        )
    return texts_field(**bounds, converter=_trim_each)


def _provider_id(_instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if not is_provider_id(value):
        raise FieldInvalid(f".{attribute.name}", "must match ^[a-z][a-z0-9_.:-]{1,95}$")


def _trimmed_provider_id() -> Any:
    return attrs.field(converter=_trim, validator=[text(96), _provider_id])


def _trimmed_digest() -> Any:
    return digest_field(converter=_trim)


def _provenance(_instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if not is_provenance_uri(value):
        raise FieldInvalid(f".{attribute.name}", "must be a non-file provenance URI")


def _provenance_items(_instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    for index, item in enumerate(value or ()):
        if not is_provenance_uri(item):
            raise FieldInvalid(f".{attribute.name}[{index}]", "must be a non-file provenance URI")


def _providers(_instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if len(value) > MAX_PROVIDERS:
        raise FieldInvalid(f".{attribute.name}", f"more than {MAX_PROVIDERS} providers")
    seen: set[str] = set()
    for index, provider in enumerate(value):
        if provider.provider_id in seen:
            raise FieldInvalid(f".{attribute.name}[{index}].provider_id", "duplicate provider id")
        seen.add(provider.provider_id)


def _sources(_instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if len(value) > _MAX_SOURCES:
        raise FieldInvalid(f".{attribute.name}", f"more than {_MAX_SOURCES} sources")
    seen: set[str] = set()
    for index, source in enumerate(value):
        if source.source_ref in seen:
            raise FieldInvalid(
                f".{attribute.name}[{index}].source_ref", "duplicate source_ref after trimming"
            )
        seen.add(source.source_ref)


# ---- request and providers ----------------------------------------------------------


@attrs.frozen(kw_only=True)
class ExternalEvidenceRequestV0:
    """A decision-bound research question.

    Input may omit ``schema_version`` and ``request_id``; a given ``request_id`` must equal
    the recomputed one. The normalized request (inside a plan) always carries both.
    """

    schema_version: Literal["loopx_external_evidence_request_v0"] | None = optional()
    objective: str = _text(4096)
    user_activity: str = _text(4096)
    decision: str = _text(4096)
    evidence_kinds: tuple[str, ...] = _texts(min_items=1, max_items=8, max_units=96)
    constraints: tuple[str, ...] = _texts(
        min_items=0, max_items=16, max_units=256, absent_is_empty=True
    )
    source_refs: tuple[str, ...] | None = optional(
        converter=_trim_each,
        validator=[
            texts(min_items=1, max_items=8, max_units=2048, unique=True),
            _provenance_items,
        ],
    )
    search_terms: tuple[str, ...] | None = optional(
        converter=_trim_each,
        validator=texts(min_items=0, max_items=8, max_units=256),
        schema=texts_schema(min_items=0, max_items=8, max_units=256),
    )
    request_id: str | None = optional(validator=attrs.validators.optional(sha256_digest))


@attrs.frozen(kw_only=True)
class ExternalEvidenceProvider:
    """One inventory row: a method or connector and its current lifecycle readback."""

    provider_id: str = _trimmed_provider_id()
    provider_kind: ProviderKind
    protocol: Literal["external_evidence_research_v0"]
    declared: bool
    installed: bool
    enabled: bool
    ready: bool
    unavailable_reason: str | None = _nullable_text(512)

    def __attrs_post_init__(self) -> None:
        if self.ready and not (self.declared and self.installed and self.enabled):
            raise FieldInvalid(".ready", "cannot be true unless declared, installed and enabled")
        if not self.ready and self.unavailable_reason is None:
            raise FieldInvalid(".unavailable_reason", "required when ready is false")


@attrs.frozen(kw_only=True)
class ExternalEvidenceProviderInventory:
    """The ``--provider-inventory-json`` file: ``{"providers": [...]}``, order kept."""

    providers: tuple[ExternalEvidenceProvider, ...] = attrs.field(validator=_providers)


# ---- discovery ----------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class DiscoverySummary:
    provider_count: int = int_field(0, MAX_PROVIDERS)
    method_count: int = int_field(0, MAX_PROVIDERS)
    connector_count: int = int_field(0, MAX_PROVIDERS)
    ready_count: int = int_field(0, MAX_PROVIDERS)
    unavailable_count: int = int_field(0, MAX_PROVIDERS)


@attrs.frozen(kw_only=True)
class DiscoveryTruthContract:
    """What discovery does not know: presence and ``supported`` are not readiness."""

    registry_presence_is_readiness: Literal[False]
    supported_status_is_readiness: Literal[False]
    execution_observed: Literal[False]
    evidence_coverage_observed: Literal[False]


@attrs.frozen(kw_only=True)
class ExternalEvidenceDiscoveryV0:
    schema_version: Literal["loopx_external_evidence_discovery_v0"]
    status: Literal["empty", "ready", "inventory_only"]
    providers: tuple[ExternalEvidenceProvider, ...] = attrs.field(validator=_providers)
    summary: DiscoverySummary
    ready_provider_ids: tuple[str, ...]
    truth_contract: DiscoveryTruthContract


# ---- plan ---------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class ExternalEvidenceExecutionEnvelopeV0:
    """What the selected provider may do for this plan; compared exactly, never trimmed."""

    schema_version: Literal["loopx_external_evidence_execution_envelope_v0"]
    request_id: str = digest_field()
    provider_id: str = attrs.field(validator=_provider_id)
    provider_kind: ProviderKind
    protocol: Literal["external_evidence_research_v0"]
    authority: Literal["read_external_sources_only"]
    raw_content_persistence: Literal["provider_private"]
    result_contract: Literal["loopx_external_evidence_receipt_v0"]
    plan_id: str = digest_field()


@attrs.frozen(kw_only=True)
class ExternalEvidencePlanV0:
    """A content-addressed plan: ``plan_id`` digests everything but itself."""

    schema_version: Literal["loopx_external_evidence_plan_v0"]
    status: Literal["ready", "blocked"]
    request: ExternalEvidenceRequestV0
    provider_candidates: tuple[ExternalEvidenceProvider, ...] = attrs.field(validator=_providers)
    selected_provider: ExternalEvidenceProvider | None
    execution_envelope: ExternalEvidenceExecutionEnvelopeV0 | None
    blocker: Blocker | None
    plan_id: str = _trimmed_digest()

    def __attrs_post_init__(self) -> None:
        ready = self.status == "ready"
        if ready != (self.selected_provider is not None):
            raise FieldInvalid(".selected_provider", "must be set exactly when status is ready")
        if ready != (self.execution_envelope is not None):
            raise FieldInvalid(".execution_envelope", "must be set exactly when status is ready")
        if ready != (self.blocker is None):
            raise FieldInvalid(".blocker", "must be null exactly when status is ready")


# ---- receipt and its observation ----------------------------------------------------


@attrs.frozen(kw_only=True)
class ExternalEvidenceSource:
    """One source a provider reports: a reference and a finding, never raw content."""

    source_ref: str = attrs.field(converter=_trim, validator=[text(2048), _provenance])
    source_family: str = _text(128)
    basis: Basis
    finding: str = _text(4096)
    limitation: str | None = _nullable_text(2048)
    publication_date: str | None = _nullable_text(64)
    accessed_at: str = _text(64)
    content_digest: str = _trimmed_digest()


@attrs.frozen(kw_only=True)
class ExternalEvidenceReceiptV0:
    """A caller-presented provider receipt; the ids it echoes are compared exactly."""

    schema_version: Literal["loopx_external_evidence_receipt_v0"]
    plan_id: str = digest_field()
    request_id: str = digest_field()
    provider_id: str = attrs.field(validator=_provider_id)
    provider_kind: ProviderKind
    status: ReceiptStatus
    sources: tuple[ExternalEvidenceSource, ...] = attrs.field(validator=_sources)
    summary: str = _text(4096)
    limitations: tuple[str, ...] = _texts(
        min_items=0, max_items=16, max_units=1024, absent_is_empty=True
    )
    completed_at: str = _text(64)

    def __attrs_post_init__(self) -> None:
        if self.status == "succeeded" and not self.sources:
            raise FieldInvalid(".sources", "a succeeded receipt needs at least one source")
        if self.status != "succeeded" and self.sources:
            raise FieldInvalid(".sources", "a failed or no_evidence receipt carries no sources")


@attrs.frozen(kw_only=True)
class ReceiptTruthContract:
    """A receipt was observed; nothing about the provider's execution was attested."""

    provider_receipt_observed: Literal[True]
    provider_execution_attested: Literal[False]
    evidence_produced_reported: bool
    evidence_coverage_observed: Literal[False]
    automatic_admission: Literal[False]
    automatic_promotion: Literal[False]
    raw_source_fallback_allowed: Literal[True]


@attrs.frozen(kw_only=True)
class ExternalEvidenceReceiptObservationV0:
    schema_version: Literal["loopx_external_evidence_receipt_observation_v0"]
    receipt_observation_id: str = digest_field()
    plan_id: str = digest_field()
    request_id: str = digest_field()
    provider_id: str = attrs.field(validator=_provider_id)
    provider_kind: ProviderKind
    status: ReceiptStatus
    receipt: ExternalEvidenceReceiptV0
    truth_contract: ReceiptTruthContract

    def __attrs_post_init__(self) -> None:
        if self.truth_contract.evidence_produced_reported != (self.status == "succeeded"):
            raise FieldInvalid(
                ".truth_contract.evidence_produced_reported", "must equal status == succeeded"
            )


# ---- admission, projection, retirement ----------------------------------------------


@attrs.frozen(kw_only=True)
class AdmissionDecision:
    """The parent agent's explicit decision (input only; never automatic)."""

    disposition: Disposition
    reason: str = _text(2048)
    admitted_source_refs: tuple[str, ...] = _texts(
        min_items=0, max_items=_MAX_SOURCES, max_units=2048, unique=True, absent_is_empty=True
    )

    def __attrs_post_init__(self) -> None:
        if self.disposition == "admit" and not self.admitted_source_refs:
            raise FieldInvalid(".admitted_source_refs", "admit needs at least one source ref")
        if self.disposition == "reject" and self.admitted_source_refs:
            raise FieldInvalid(".admitted_source_refs", "reject carries no source refs")


@attrs.frozen(kw_only=True)
class ExternalEvidenceProjectionV0:
    """What downstream consumers see: admitted sources' findings, never raw content."""

    schema_version: Literal["loopx_external_evidence_projection_v0"]
    plan_id: str = digest_field()
    request_id: str = digest_field()
    objective: str = _text(4096)
    decision: str = _text(4096)
    disposition: Disposition
    sources: tuple[ExternalEvidenceSource, ...] = attrs.field(validator=_sources)
    summary: str = _text(4096)
    limitations: tuple[str, ...] = _texts(
        min_items=0, max_items=16, max_units=1024, absent_is_empty=True
    )


@attrs.frozen(kw_only=True)
class ExternalEvidenceAdmissionV0:
    """The parent's decision bound to the plan and receipt; ``admission_id`` digests the rest."""

    schema_version: Literal["loopx_external_evidence_admission_v0"]
    plan_id: str = _trimmed_digest()
    request_id: str = _trimmed_digest()
    provider_id: str = _trimmed_provider_id()
    provider_kind: ProviderKind
    receipt_status: ReceiptStatus
    receipt_digest: str = _trimmed_digest()
    completed_at: str = _text(64)
    disposition: Disposition
    reason: str = _text(2048)
    admitted_source_refs: tuple[str, ...] = _texts(
        min_items=0, max_items=_MAX_SOURCES, max_units=2048, unique=True
    )
    downstream_projection: ExternalEvidenceProjectionV0
    admission_id: str = _trimmed_digest()

    def __attrs_post_init__(self) -> None:
        refs = self.admitted_source_refs
        if self.disposition == "admit" and (self.receipt_status != "succeeded" or not refs):
            raise FieldInvalid(
                ".disposition", "admit needs a succeeded receipt and at least one admitted source"
            )
        if self.disposition == "reject" and refs:
            raise FieldInvalid(".admitted_source_refs", "reject carries no source refs")
        projection = self.downstream_projection
        for name in ("plan_id", "request_id", "disposition"):
            if getattr(projection, name) != getattr(self, name):
                raise FieldInvalid(f".downstream_projection.{name}", "does not match the admission")
        projected = [source.source_ref for source in projection.sources]
        if len(projected) != len(refs) or set(projected) != set(refs):
            raise FieldInvalid(
                ".downstream_projection.sources", "do not match admitted_source_refs"
            )


@attrs.frozen(kw_only=True)
class DownstreamReadback:
    """Source refs a downstream consumer was observed to hold (input only; repeats allowed)."""

    downstream_source_refs: tuple[str, ...] = _texts(
        min_items=0, max_items=_MAX_SOURCES, max_units=2048, absent_is_empty=True
    )


@attrs.frozen(kw_only=True)
class ExternalEvidenceRetirementV0:
    schema_version: Literal["loopx_external_evidence_retirement_v0"]
    admission_id: str = digest_field()
    plan_id: str = digest_field()
    request_id: str = digest_field()
    status: Literal["retire_ready", "retained"]
    retire_ready: bool
    missing_downstream_source_refs: tuple[str, ...]
    reason: Literal[
        "parent_rejected", "all_admitted_sources_projected", "admitted_sources_not_yet_projected"
    ]

    def __attrs_post_init__(self) -> None:
        if self.retire_ready != (self.status == "retire_ready"):
            raise FieldInvalid(".retire_ready", "must equal status == retire_ready")
        if self.retire_ready == bool(self.missing_downstream_source_refs):
            raise FieldInvalid(
                ".missing_downstream_source_refs", "must be empty exactly when retire_ready"
            )


@attrs.frozen(kw_only=True)
class ExternalEvidenceErrorV0:
    """What every ``loopx-recall external-evidence`` command prints on stdout when it refuses."""

    ok: Literal[False]
    schema_version: Literal["loopx_external_evidence_error_v0"]
    status: Literal["invalid_request"]
    error: str = text_field(65536)


#: Top-level wire records by ``schema_version`` (JSON Schemas are generated from these).
RECORDS: dict[str, type] = {
    REQUEST_SCHEMA: ExternalEvidenceRequestV0,
    DISCOVERY_SCHEMA: ExternalEvidenceDiscoveryV0,
    PLAN_SCHEMA: ExternalEvidencePlanV0,
    ENVELOPE_SCHEMA: ExternalEvidenceExecutionEnvelopeV0,
    RECEIPT_SCHEMA: ExternalEvidenceReceiptV0,
    OBSERVATION_SCHEMA: ExternalEvidenceReceiptObservationV0,
    ADMISSION_SCHEMA: ExternalEvidenceAdmissionV0,
    PROJECTION_SCHEMA: ExternalEvidenceProjectionV0,
    RETIREMENT_SCHEMA: ExternalEvidenceRetirementV0,
    ERROR_SCHEMA: ExternalEvidenceErrorV0,
}

#: Inputs without a ``schema_version`` of their own, by a descriptive name.
INPUT_RECORDS: dict[str, type] = {
    "loopx_external_evidence_provider_v0": ExternalEvidenceProvider,
    "loopx_external_evidence_provider_inventory_v0": ExternalEvidenceProviderInventory,
    "loopx_external_evidence_admission_decision_v0": AdmissionDecision,
    "loopx_external_evidence_downstream_readback_v0": DownstreamReadback,
}
