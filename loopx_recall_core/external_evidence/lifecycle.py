# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The v0 lifecycle: discover -> plan -> receipt observation -> admit/reject -> retire.

Pure and deterministic: JSON-like values in, the contract's record out (a dict in
LoopX's key order), :class:`EvidenceRejected` on any invalid input. Every id is
:func:`loopx_recall_core.canonical.digest` of the normalized record without that id, so
a plan, receipt or admission made by LoopX's TypeScript owner verifies here and the
other way round. Each later step rebuilds and re-verifies what came before it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from loopx_recall_core.canonical import digest, js_trim, utf16_len
from loopx_recall_core.contracts.converter import unstructure
from loopx_recall_core.contracts.external_evidence import (
    ADMISSION_SCHEMA,
    DISCOVERY_SCHEMA,
    ENVELOPE_SCHEMA,
    OBSERVATION_SCHEMA,
    PLAN_SCHEMA,
    PROJECTION_SCHEMA,
    PROTOCOL,
    RECEIPT_SCHEMA,
    REQUEST_SCHEMA,
    RETIREMENT_SCHEMA,
    AdmissionDecision,
    DiscoverySummary,
    DiscoveryTruthContract,
    DownstreamReadback,
    ExternalEvidenceAdmissionV0,
    ExternalEvidenceDiscoveryV0,
    ExternalEvidenceExecutionEnvelopeV0,
    ExternalEvidencePlanV0,
    ExternalEvidenceProjectionV0,
    ExternalEvidenceProvider,
    ExternalEvidenceProviderInventory,
    ExternalEvidenceReceiptObservationV0,
    ExternalEvidenceReceiptV0,
    ExternalEvidenceRequestV0,
    ExternalEvidenceRetirementV0,
    ReceiptTruthContract,
)
from loopx_recall_core.external_evidence._input import EvidenceRejected, reject, structure_at

__all__ = ["EvidenceRejected", "admit", "discover", "observe_receipt", "plan", "retire"]

# Stands in for an id while the record that will carry it is being digested.
_PENDING_ID = "sha256:" + "0" * 64
_MAX_PREFERRED_UNITS = 96


def _without(record: Mapping[str, Any], key: str) -> dict[str, Any]:
    return {name: value for name, value in record.items() if name != key}


# ---- request and inventory ----------------------------------------------------------


def _request_id(request: ExternalEvidenceRequestV0) -> str:
    body = attrs.evolve(request, schema_version=REQUEST_SCHEMA, request_id=None)
    return digest(unstructure(body))


def _normalize_request(value: object, root: str) -> ExternalEvidenceRequestV0:
    record = structure_at(value, ExternalEvidenceRequestV0, root)
    request_id = _request_id(record)
    if record.request_id is not None and record.request_id != request_id:
        raise reject(f"{root}.request_id", "does not match the normalized request")
    return attrs.evolve(record, schema_version=REQUEST_SCHEMA, request_id=request_id)


def _inventory(providers: object) -> tuple[ExternalEvidenceProvider, ...]:
    inventory = structure_at({"providers": providers}, ExternalEvidenceProviderInventory, "")
    return inventory.providers


def discover(providers: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Project a provider inventory: counts, ready ids, and what discovery cannot know.

    ``status`` is ``empty`` (no rows), ``ready`` (at least one ready row) or
    ``inventory_only``. The truth contract says presence and ``supported`` are not
    readiness and that no execution or evidence coverage was observed.
    """
    rows = _inventory(providers)
    ready_ids = tuple(row.provider_id for row in rows if row.ready)
    methods = sum(row.provider_kind == "method" for row in rows)
    record = ExternalEvidenceDiscoveryV0(
        schema_version=DISCOVERY_SCHEMA,
        status="empty" if not rows else "ready" if ready_ids else "inventory_only",
        providers=rows,
        summary=DiscoverySummary(
            provider_count=len(rows),
            method_count=methods,
            connector_count=len(rows) - methods,
            ready_count=len(ready_ids),
            unavailable_count=len(rows) - len(ready_ids),
        ),
        ready_provider_ids=ready_ids,
        truth_contract=DiscoveryTruthContract(
            registry_presence_is_readiness=False,
            supported_status_is_readiness=False,
            execution_observed=False,
            evidence_coverage_observed=False,
        ),
    )
    return unstructure(record)


# ---- plan ---------------------------------------------------------------------------


def _envelope(
    request: ExternalEvidenceRequestV0, provider: ExternalEvidenceProvider, plan_id: str
) -> ExternalEvidenceExecutionEnvelopeV0:
    return ExternalEvidenceExecutionEnvelopeV0(
        schema_version=ENVELOPE_SCHEMA,
        request_id=request.request_id,
        provider_id=provider.provider_id,
        provider_kind=provider.provider_kind,
        protocol=PROTOCOL,
        authority="read_external_sources_only",
        raw_content_persistence="provider_private",
        result_contract=RECEIPT_SCHEMA,
        plan_id=plan_id,
    )


def _plan_body(plan: ExternalEvidencePlanV0) -> dict[str, Any]:
    body = _without(unstructure(plan), "plan_id")
    if body["execution_envelope"] is not None:
        body["execution_envelope"] = _without(body["execution_envelope"], "plan_id")
    return body


def _seal_plan(
    request: ExternalEvidenceRequestV0,
    candidates: tuple[ExternalEvidenceProvider, ...],
    selected: ExternalEvidenceProvider | None,
    blocker: str | None,
) -> ExternalEvidencePlanV0:
    def build(plan_id: str) -> ExternalEvidencePlanV0:
        return ExternalEvidencePlanV0(
            schema_version=PLAN_SCHEMA,
            status="blocked" if selected is None else "ready",
            request=request,
            provider_candidates=candidates,
            selected_provider=selected,
            execution_envelope=None if selected is None else _envelope(request, selected, plan_id),
            blocker=blocker,
            plan_id=plan_id,
        )

    return build(digest(_plan_body(build(_PENDING_ID))))


def _preference(value: object, rows: tuple[ExternalEvidenceProvider, ...]) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise reject("preferred_provider_id", "expected str")
    preferred = js_trim(value)
    if not preferred:
        raise reject("preferred_provider_id", "must not be blank")
    if utf16_len(preferred) > _MAX_PREFERRED_UNITS:
        raise reject("preferred_provider_id", f"longer than {_MAX_PREFERRED_UNITS} UTF-16 units")
    if all(row.provider_id != preferred for row in rows):
        raise reject("preferred_provider_id", "is not in the provider inventory")
    return preferred


def plan(
    request: Mapping[str, Any],
    providers: Sequence[Mapping[str, Any]],
    preferred_provider_id: str | None = None,
) -> dict[str, Any]:
    """Select a ready provider for ``request`` and seal the plan with its ``plan_id``.

    With a preference, only that provider can be selected (it must be in the inventory;
    not ready -> ``blocked``/``preferred_provider_not_ready``). Without one, the first
    ready provider in inventory order (none -> ``blocked``/``no_ready_provider``).
    The preference itself is not part of the plan or its id.
    """
    normalized = _normalize_request(request, "request")
    rows = _inventory(providers)
    preferred = _preference(preferred_provider_id, rows)
    ready = [row for row in rows if row.ready]
    if preferred is not None:
        ready = [row for row in ready if row.provider_id == preferred]
    selected = ready[0] if ready else None
    blocker = None
    if selected is None:
        blocker = "no_ready_provider" if preferred is None else "preferred_provider_not_ready"
    return unstructure(_seal_plan(normalized, rows, selected, blocker))


def _selected(plan: ExternalEvidencePlanV0) -> ExternalEvidenceProvider:
    # The plan record guarantees a selected provider whenever its status is "ready".
    if plan.selected_provider is None:
        raise reject("plan.selected_provider", "a receipt or admission requires a ready plan")
    return plan.selected_provider


def _verify_ready_plan(value: object) -> ExternalEvidencePlanV0:
    plan = structure_at(value, ExternalEvidencePlanV0, "plan")
    if plan.status != "ready":
        raise reject("plan.status", "a receipt or admission requires a ready plan")
    request = plan.request
    for name in ("schema_version", "request_id"):
        if getattr(request, name) is None:
            raise reject(f"plan.request.{name}", "required field missing")
    if request.request_id != _request_id(request):
        raise reject("plan.request.request_id", "does not match its normalized request")
    selected = _selected(plan)
    if not selected.ready:
        raise reject("plan.selected_provider.ready", "the selected provider is not ready")
    candidate = next(
        (row for row in plan.provider_candidates if row.provider_id == selected.provider_id), None
    )
    if candidate != selected:
        raise reject("plan.selected_provider", "does not match its provider candidate")
    if plan.execution_envelope != _envelope(request, selected, plan.plan_id):
        raise reject("plan.execution_envelope", "does not match the plan")
    rebuilt = _seal_plan(request, plan.provider_candidates, selected, None)
    if rebuilt.plan_id != plan.plan_id:
        raise reject("plan.plan_id", "does not match the normalized ready plan")
    return rebuilt


# ---- receipt ------------------------------------------------------------------------


def _bind_receipt(plan: ExternalEvidencePlanV0, value: object) -> ExternalEvidenceReceiptV0:
    receipt = structure_at(value, ExternalEvidenceReceiptV0, "receipt")
    selected = _selected(plan)
    expected = {
        "plan_id": plan.plan_id,
        "request_id": plan.request.request_id,
        "provider_id": selected.provider_id,
        "provider_kind": selected.provider_kind,
    }
    for name, value_expected in expected.items():
        if getattr(receipt, name) != value_expected:
            raise reject(f"receipt.{name}", "does not match the plan")
    return receipt


def observe_receipt(plan: Mapping[str, Any], receipt: Mapping[str, Any]) -> dict[str, Any]:
    """Record that a caller presented ``receipt`` for the exact ready ``plan``.

    The plan is re-verified; the receipt must echo its ids exactly. The observation
    attests nothing about the provider's execution, coverage, admission or promotion.
    """
    verified = _verify_ready_plan(plan)
    bound = _bind_receipt(verified, receipt)
    receipt_digest = digest(unstructure(bound))
    observation_id = digest(
        {
            "plan_id": verified.plan_id,
            "request_id": bound.request_id,
            "provider_id": bound.provider_id,
            "receipt_digest": receipt_digest,
        }
    )
    record = ExternalEvidenceReceiptObservationV0(
        schema_version=OBSERVATION_SCHEMA,
        receipt_observation_id=observation_id,
        plan_id=verified.plan_id,
        request_id=bound.request_id,
        provider_id=bound.provider_id,
        provider_kind=bound.provider_kind,
        status=bound.status,
        receipt=bound,
        truth_contract=ReceiptTruthContract(
            provider_receipt_observed=True,
            provider_execution_attested=False,
            evidence_produced_reported=bound.status == "succeeded",
            evidence_coverage_observed=False,
            automatic_admission=False,
            automatic_promotion=False,
            raw_source_fallback_allowed=True,
        ),
    )
    return unstructure(record)


# ---- admission and retirement -------------------------------------------------------


def _admission_id(admission: ExternalEvidenceAdmissionV0) -> str:
    return digest(_without(unstructure(admission), "admission_id"))


def admit(
    plan: Mapping[str, Any], receipt: Mapping[str, Any], decision: Mapping[str, Any]
) -> dict[str, Any]:
    """Bind the parent's explicit ``decision`` to the verified plan and receipt.

    ``decision = {"disposition": "admit"|"reject", "reason": text,
    "admitted_source_refs": [...]}``; the refs must be unique receipt sources; admit needs
    a succeeded receipt and at least one ref, reject carries none. The downstream
    projection holds the admitted sources (receipt order) and no raw content.
    """
    verified = _verify_ready_plan(plan)
    bound = _bind_receipt(verified, receipt)
    parent = structure_at(decision, AdmissionDecision, "decision")
    available = {source.source_ref for source in bound.sources}
    for index, ref in enumerate(parent.admitted_source_refs):
        if ref not in available:
            path = f"decision.admitted_source_refs[{index}]"
            raise reject(path, "is not a source of the receipt")
    if parent.disposition == "admit" and bound.status != "succeeded":
        raise reject("decision.disposition", "admit needs a succeeded receipt")
    admitted = set(parent.admitted_source_refs)
    request = verified.request
    selected = _selected(verified)
    draft = ExternalEvidenceAdmissionV0(
        schema_version=ADMISSION_SCHEMA,
        plan_id=verified.plan_id,
        request_id=request.request_id,
        provider_id=selected.provider_id,
        provider_kind=selected.provider_kind,
        receipt_status=bound.status,
        receipt_digest=digest(unstructure(bound)),
        completed_at=bound.completed_at,
        disposition=parent.disposition,
        reason=parent.reason,
        admitted_source_refs=parent.admitted_source_refs,
        downstream_projection=ExternalEvidenceProjectionV0(
            schema_version=PROJECTION_SCHEMA,
            plan_id=verified.plan_id,
            request_id=request.request_id,
            objective=request.objective,
            decision=request.decision,
            disposition=parent.disposition,
            sources=tuple(source for source in bound.sources if source.source_ref in admitted),
            summary=bound.summary,
            limitations=bound.limitations,
        ),
        admission_id=_PENDING_ID,
    )
    return unstructure(attrs.evolve(draft, admission_id=_admission_id(draft)))


def retire(
    admission: Mapping[str, Any], downstream_source_refs: Sequence[str] | None = ()
) -> dict[str, Any]:
    """Whether ``admission`` can retire, given the source refs seen downstream.

    The admission is re-validated and its ``admission_id`` recomputed, so any edited
    field fails. A rejection retires at once; an admission stays ``retained`` until
    every admitted ref was seen downstream (``None`` means no readback, like ``()``).
    """
    record = structure_at(admission, ExternalEvidenceAdmissionV0, "admission")
    if _admission_id(record) != record.admission_id:
        raise reject("admission.admission_id", "does not match the normalized admission")
    refs = [] if downstream_source_refs is None else downstream_source_refs
    readback = structure_at({"downstream_source_refs": refs}, DownstreamReadback, "")
    covered = set(readback.downstream_source_refs)
    missing = tuple(ref for ref in record.admitted_source_refs if ref not in covered)
    retire_ready = record.disposition == "reject" or not missing
    if record.disposition == "reject":
        reason = "parent_rejected"
    elif retire_ready:
        reason = "all_admitted_sources_projected"
    else:
        reason = "admitted_sources_not_yet_projected"
    result = ExternalEvidenceRetirementV0(
        schema_version=RETIREMENT_SCHEMA,
        admission_id=record.admission_id,
        plan_id=record.plan_id,
        request_id=record.request_id,
        status="retire_ready" if retire_ready else "retained",
        retire_ready=retire_ready,
        missing_downstream_source_refs=missing,
        reason=reason,
    )
    return unstructure(result)
