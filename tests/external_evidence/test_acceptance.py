# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The RFC's acceptance list, one block per item, plus the record shapes it relies on."""

from __future__ import annotations

import copy

import pytest

from loopx_recall_core.canonical import digest
from loopx_recall_core.external_evidence import (
    EvidenceRejected,
    admit,
    discover,
    observe_receipt,
    plan,
    registry_rows,
    retire,
)

# ---- inventory-only connectors cannot be selected -----------------------------------


def test_registry_connectors_alone_leave_the_plan_blocked(make):
    rows = registry_rows({"connectors": [{"id": "official-docs", "status": "supported"}]})
    record = plan(make.request(), rows)
    assert record["status"] == "blocked"
    assert record["blocker"] == "no_ready_provider"
    assert record["selected_provider"] is None
    assert record["execution_envelope"] is None
    assert record["plan_id"] == digest({k: v for k, v in record.items() if k != "plan_id"})


def test_preferring_an_inventory_only_connector_blocks_instead_of_falling_back(make):
    record = make.plan(preferred="connector:official-docs")
    assert record["status"] == "blocked"
    assert record["blocker"] == "preferred_provider_not_ready"


def test_a_plan_forged_to_select_an_inventory_only_connector_is_refused(make):
    forged = make.plan()
    connector = make.inventory_only()
    forged["selected_provider"] = connector
    forged["execution_envelope"]["provider_id"] = connector["provider_id"]
    forged["execution_envelope"]["provider_kind"] = "connector"
    with pytest.raises(EvidenceRejected, match=r"plan\.selected_provider\.ready"):
        observe_receipt(forged, make.receipt(forged))


def test_an_inventory_only_row_cannot_claim_ready(make):
    with pytest.raises(EvidenceRejected, match=r"providers\[0\]\.ready"):
        discover([make.inventory_only() | {"ready": True}])


def test_preferred_provider_must_be_in_the_inventory(make):
    with pytest.raises(EvidenceRejected, match="preferred_provider_id: is not in"):
        make.plan(preferred="host:missing")


def test_preferred_ready_provider_wins_over_inventory_order(make):
    providers = [make.provider("host:first"), make.provider("host:second")]
    assert make.plan(providers=providers)["selected_provider"]["provider_id"] == "host:first"
    chosen = make.plan(providers=providers, preferred="  host:second ")
    assert chosen["selected_provider"]["provider_id"] == "host:second"


# ---- discovery distinguishes empty, inventory-only and ready ------------------------

NOTHING_OBSERVED = {
    "registry_presence_is_readiness": False,
    "supported_status_is_readiness": False,
    "execution_observed": False,
    "evidence_coverage_observed": False,
}


def test_discovery_of_an_empty_inventory(make):
    record = discover([])
    assert record["status"] == "empty"
    assert record["summary"] == {
        "provider_count": 0,
        "method_count": 0,
        "connector_count": 0,
        "ready_count": 0,
        "unavailable_count": 0,
    }
    assert record["ready_provider_ids"] == []
    assert record["truth_contract"] == NOTHING_OBSERVED


def test_discovery_of_an_inventory_only_registry(make):
    rows = registry_rows(
        {"connectors": [{"id": "official-docs", "status": "supported"}, {"id": "forum"}]}
    )
    record = discover(rows)
    assert record["status"] == "inventory_only"
    assert record["summary"]["connector_count"] == 2
    assert record["summary"]["ready_count"] == 0
    assert record["ready_provider_ids"] == []
    assert record["truth_contract"] == NOTHING_OBSERVED


def test_discovery_with_a_ready_provider_lists_ready_ids_in_inventory_order(make):
    providers = [
        make.provider("host:b"),
        make.inventory_only(),
        make.provider("connector:live", "connector"),
    ]
    record = discover(providers)
    assert record["status"] == "ready"
    assert record["ready_provider_ids"] == ["host:b", "connector:live"]
    assert record["summary"] == {
        "provider_count": 3,
        "method_count": 1,
        "connector_count": 2,
        "ready_count": 2,
        "unavailable_count": 1,
    }
    assert record["truth_contract"] == NOTHING_OBSERVED
    assert list(record) == [
        "schema_version",
        "status",
        "providers",
        "summary",
        "ready_provider_ids",
        "truth_contract",
    ]


# ---- method and connector share one protocol and receipt ----------------------------


@pytest.mark.parametrize("kind", ["method", "connector"])
def test_method_and_connector_run_the_same_lifecycle(make, kind):
    providers = [make.provider(f"{kind}:live", kind)]
    plan_record, _, observation, admission = make.lifecycle(providers=providers)
    envelope = plan_record["execution_envelope"]
    assert envelope["protocol"] == "external_evidence_research_v0"
    assert envelope["result_contract"] == "loopx_external_evidence_receipt_v0"
    assert envelope["authority"] == "read_external_sources_only"
    assert envelope["raw_content_persistence"] == "provider_private"
    assert observation["provider_kind"] == kind
    assert admission["provider_kind"] == kind
    assert retire(admission, [make.source_a, make.source_c])["status"] == "retire_ready"


def test_a_receipt_from_the_other_provider_kind_is_refused(make):
    plan_record = make.plan()
    receipt = make.receipt(plan_record, provider_kind="connector")
    with pytest.raises(EvidenceRejected, match=r"receipt\.provider_kind: does not match"):
        observe_receipt(plan_record, receipt)


# ---- a receipt is bound to the exact plan, and claims nothing more ------------------


def test_observation_binds_the_receipt_and_claims_nothing_more(make):
    plan_record, _, observation, _ = make.lifecycle()
    assert observation["plan_id"] == plan_record["plan_id"]
    assert observation["truth_contract"] == {
        "provider_receipt_observed": True,
        "provider_execution_attested": False,
        "evidence_produced_reported": True,
        "evidence_coverage_observed": False,
        "automatic_admission": False,
        "automatic_promotion": False,
        "raw_source_fallback_allowed": True,
    }
    receipt_digest = digest(observation["receipt"])
    assert observation["receipt_observation_id"] == digest(
        {
            "plan_id": plan_record["plan_id"],
            "request_id": plan_record["request"]["request_id"],
            "provider_id": "host:external-research",
            "receipt_digest": receipt_digest,
        }
    )


@pytest.mark.parametrize("status", ["failed", "no_evidence"])
def test_failed_and_empty_receipts_report_no_evidence_and_stay_fail_open(make, status):
    plan_record = make.plan()
    receipt = make.receipt(plan_record, status=status, sources=[])
    truth = observe_receipt(plan_record, receipt)["truth_contract"]
    assert truth["evidence_produced_reported"] is False
    assert truth["raw_source_fallback_allowed"] is True
    rejected = admit(plan_record, receipt, make.decision("reject", []))
    assert retire(rejected)["reason"] == "parent_rejected"
    with pytest.raises(EvidenceRejected, match=r"^decision\.admitted_source_refs\[0\]"):
        admit(plan_record, receipt, make.decision("admit", [make.source_a]))


def test_a_receipt_for_another_plan_is_refused(make):
    plan_a = make.plan()
    plan_b = make.plan(request=make.request(objective="Another question"))
    with pytest.raises(EvidenceRejected, match=r"receipt\.plan_id: does not match the plan"):
        observe_receipt(plan_b, make.receipt(plan_a))


def test_a_blocked_plan_accepts_no_receipt(make):
    blocked = make.plan(providers=[make.inventory_only()])
    receipt = make.receipt(make.plan()) | {"plan_id": blocked["plan_id"]}
    with pytest.raises(EvidenceRejected, match="requires a ready plan"):
        observe_receipt(blocked, receipt)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"sources": []}, "a succeeded receipt needs at least one source"),
        ({"status": "failed"}, "a failed or no_evidence receipt carries no sources"),
        ({"status": "partial"}, r"receipt\.status"),
        ({"schema_version": "loopx_external_evidence_receipt_v1"}, r"receipt\.schema_version"),
        ({"completed_at": ...}, r"receipt\.completed_at: required field missing"),
        ({"extra": 1}, "receipt: unknown field"),
    ],
)
def test_receipt_shape_is_enforced(make, fields, message):
    plan_record = make.plan()
    with pytest.raises(EvidenceRejected, match=message):
        observe_receipt(plan_record, make.receipt(plan_record, **fields))


# ---- mutations fail plan verification -----------------------------------------------


def _mutations(make):
    def edit(path, value):
        def apply(plan_record):
            target = plan_record
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value(target[path[-1]]) if callable(value) else value

        return apply

    return {
        "objective": edit(("request", "objective"), "A different objective"),
        "decision": edit(("request", "decision"), "A different decision"),
        "constraints": edit(("request", "constraints"), ["no paywalled sources"]),
        "constraints removed": edit(("request", "constraints"), []),
        "source_refs": edit(("request", "source_refs"), ["https://example.com/other"]),
        "search_terms": edit(("request", "search_terms"), ["another term"]),
        "search_terms emptied": edit(("request", "search_terms"), []),
        "evidence_kinds": edit(("request", "evidence_kinds"), ["other"]),
        "candidate readiness": edit(
            ("provider_candidates", 0),
            lambda row: row | {"installed": True, "enabled": True, "ready": True},
        ),
        "candidate reason": edit(("provider_candidates", 0, "unavailable_reason"), "changed"),
        "selected readiness": edit(("selected_provider", "ready"), False),
        "selected and candidate readiness": edit(
            ("selected_provider", "unavailable_reason"), "flaky"
        ),
        "envelope authority": edit(("execution_envelope", "authority"), "write_anything"),
        "envelope provider": edit(("execution_envelope", "provider_id"), "connector:official-docs"),
        "envelope plan_id": edit(("execution_envelope", "plan_id"), "sha256:" + "c" * 64),
        "plan_id": edit(("plan_id",), "sha256:" + "c" * 64),
        "request_id": edit(("request", "request_id"), "sha256:" + "c" * 64),
    }


@pytest.mark.parametrize(
    "name",
    sorted(
        [
            "objective",
            "decision",
            "constraints",
            "constraints removed",
            "source_refs",
            "search_terms",
            "search_terms emptied",
            "evidence_kinds",
            "candidate readiness",
            "candidate reason",
            "selected readiness",
            "selected and candidate readiness",
            "envelope authority",
            "envelope provider",
            "envelope plan_id",
            "plan_id",
            "request_id",
        ]
    ),
)
def test_any_plan_mutation_fails_verification(make, name):
    plan_record = make.plan()
    receipt = make.receipt(plan_record)
    mutated = copy.deepcopy(plan_record)
    _mutations(make)[name](mutated)
    assert mutated != plan_record
    with pytest.raises(EvidenceRejected, match=r"^plan"):
        observe_receipt(mutated, receipt)
    with pytest.raises(EvidenceRejected, match=r"^plan"):
        admit(mutated, receipt, make.decision())


def test_a_self_consistent_request_edit_still_breaks_the_plan_id(make):
    # Re-deriving request_id after the edit does not help: plan_id covers the request.
    plan_record = make.plan()
    edited = copy.deepcopy(plan_record)
    edited["request"]["objective"] = "Edited"
    raw = {k: v for k, v in edited["request"].items() if k not in ("request_id", "schema_version")}
    edited["request"]["request_id"] = plan(raw, [])["request"]["request_id"]
    edited["execution_envelope"]["request_id"] = edited["request"]["request_id"]
    with pytest.raises(EvidenceRejected, match=r"plan\.plan_id: does not match"):
        observe_receipt(edited, make.receipt(plan_record))


# ---- stale identities, file provenance, unsupported basis ---------------------------


@pytest.mark.parametrize("field", ["request_id", "provider_id"])
def test_stale_receipt_identity_fails_closed(make, field):
    plan_record = make.plan()
    stale = {"request_id": "sha256:" + "d" * 64, "provider_id": "host:other"}[field]
    with pytest.raises(EvidenceRejected, match=rf"receipt\.{field}: does not match the plan"):
        observe_receipt(plan_record, make.receipt(plan_record, **{field: stale}))


def test_stale_request_id_in_a_request_fails_closed(make):
    with pytest.raises(EvidenceRejected, match=r"request\.request_id: does not match"):
        plan(make.request(request_id="sha256:" + "d" * 64), make.providers())


def test_stale_selected_provider_identity_fails_closed(make):
    plan_record = make.plan()
    plan_record["selected_provider"]["provider_id"] = "host:renamed"
    with pytest.raises(EvidenceRejected, match=r"plan\.selected_provider: does not match"):
        observe_receipt(plan_record, make.receipt(make.plan()))


@pytest.mark.parametrize(
    "ref",
    [
        "file:///etc/passwd",
        "file:/etc/passwd",
        "FILE:///etc/passwd",
        "/etc/passwd",
        "mailto:someone@example.com",
        "Https://example.com",
        "example.com/page",
    ],
)
def test_file_and_non_uri_provenance_fails_closed(make, ref):
    plan_record = make.plan()
    receipt = make.receipt(plan_record, sources=[make.source(ref)])
    with pytest.raises(EvidenceRejected, match=r"receipt\.sources\[0\]\.source_ref"):
        observe_receipt(plan_record, receipt)
    with pytest.raises(EvidenceRejected, match=r"request\.source_refs\[0\]"):
        plan(make.request(source_refs=[ref]), make.providers())


@pytest.mark.parametrize(
    "ref", ["http://a.example", "https://a.example/x", "s3://bucket/key", "urn:x:y", "git+ssh://h"]
)
def test_direct_provenance_is_accepted(make, ref):
    plan_record = make.plan(request=make.request(source_refs=[ref]))
    assert observe_receipt(plan_record, make.receipt(plan_record, sources=[make.source(ref)]))


@pytest.mark.parametrize("basis", ["assumed", "Observed", " observed", "", None])
def test_unsupported_evidence_basis_fails_closed(make, basis):
    plan_record = make.plan()
    receipt = make.receipt(plan_record, sources=[make.source(basis=basis)])
    with pytest.raises(EvidenceRejected, match=r"receipt\.sources\[0\]\.basis"):
        observe_receipt(plan_record, receipt)


# ---- admitted refs are a subset of receipt sources ----------------------------------


def test_admitting_a_ref_the_receipt_does_not_hold_is_refused(make):
    plan_record = make.plan()
    decision = make.decision(refs=[make.source_a, "https://example.com/not-in-receipt"])
    with pytest.raises(EvidenceRejected, match=r"admitted_source_refs\[1\]: is not a source"):
        admit(plan_record, make.receipt(plan_record), decision)


def test_admission_projects_only_admitted_sources_in_receipt_order(make):
    plan_record = make.plan()
    receipt = make.receipt(plan_record)
    admission = admit(plan_record, receipt, make.decision(refs=[make.source_c, make.source_a]))
    assert admission["admitted_source_refs"] == [make.source_c, make.source_a]
    projected = admission["downstream_projection"]["sources"]
    assert [source["source_ref"] for source in projected] == [make.source_a, make.source_c]
    assert set(admission["downstream_projection"]) == {
        "schema_version",
        "plan_id",
        "request_id",
        "objective",
        "decision",
        "disposition",
        "sources",
        "summary",
        "limitations",
    }


@pytest.mark.parametrize(
    ("disposition", "refs", "message"),
    [
        ("admit", [], "admit needs at least one source ref"),
        ("reject", ["https://example.com/a"], "reject carries no source refs"),
        ("defer", [], r"decision\.disposition"),
    ],
)
def test_decision_rules(make, disposition, refs, message):
    plan_record = make.plan()
    with pytest.raises(EvidenceRejected, match=message):
        admit(plan_record, make.receipt(plan_record), make.decision(disposition, refs))


def test_decision_rejects_unknown_fields_and_absent_refs_mean_none(make):
    plan_record = make.plan()
    receipt = make.receipt(plan_record)
    with pytest.raises(EvidenceRejected, match="decision: unknown field"):
        admit(plan_record, receipt, make.decision() | {"automatic": True})
    rejected = admit(plan_record, receipt, {"disposition": "reject", "reason": "Too thin"})
    assert rejected["admitted_source_refs"] == []
    assert rejected["downstream_projection"]["sources"] == []


# ---- retirement rejects edited admissions -------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        ("disposition",),
        ("reason",),
        ("completed_at",),
        ("receipt_digest",),
        ("admitted_source_refs", 0),
        ("downstream_projection", "objective"),
        ("downstream_projection", "decision"),
        ("downstream_projection", "summary"),
        ("downstream_projection", "sources", 0, "finding"),
        ("downstream_projection", "sources", 0, "content_digest"),
        ("downstream_projection", "sources", 0, "source_ref"),
        ("downstream_projection", "disposition"),
        ("downstream_projection", "limitations"),
        ("admission_id",),
    ],
)
def test_retirement_rejects_any_edited_admission_field(make, path):
    *_, admission = make.lifecycle()
    edited = copy.deepcopy(admission)
    target = edited
    for key in path[:-1]:
        target = target[key]
    old = target[path[-1]]
    if path[-1] == "disposition":
        new = "reject"
    elif path[-1] == "limitations":
        new = [*old, "an added limitation"]
    elif path[-1] in ("receipt_digest", "content_digest", "admission_id"):
        new = "sha256:" + "e" * 64
    elif path[-1] == 0 or path[-1] == "source_ref":
        new = make.source_b
    else:
        new = old + " (edited)"
    target[path[-1]] = new
    with pytest.raises(EvidenceRejected, match=r"^admission"):
        retire(edited, [make.source_a, make.source_c])


def test_reordering_admitted_sources_changes_identity(make):
    *_, admission = make.lifecycle()
    edited = copy.deepcopy(admission)
    edited["admitted_source_refs"].reverse()
    with pytest.raises(EvidenceRejected, match=r"admission\.admission_id: does not match"):
        retire(edited)


# ---- retirement waits for every admitted source -------------------------------------


def test_retirement_waits_for_every_admitted_source(make):
    *_, admission = make.lifecycle()
    assert admission["admitted_source_refs"] == [make.source_a, make.source_c]
    waiting = retire(admission)
    assert waiting["status"] == "retained"
    assert waiting["retire_ready"] is False
    assert waiting["reason"] == "admitted_sources_not_yet_projected"
    assert waiting["missing_downstream_source_refs"] == [make.source_a, make.source_c]
    partial = retire(admission, [make.source_c, "https://example.com/unrelated"])
    assert partial["status"] == "retained"
    assert partial["missing_downstream_source_refs"] == [make.source_a]
    done = retire(admission, [f"  {make.source_c}\n", make.source_a, make.source_a])
    assert done == {
        "schema_version": "loopx_external_evidence_retirement_v0",
        "admission_id": admission["admission_id"],
        "plan_id": admission["plan_id"],
        "request_id": admission["request_id"],
        "status": "retire_ready",
        "retire_ready": True,
        "missing_downstream_source_refs": [],
        "reason": "all_admitted_sources_projected",
    }


def test_a_rejection_retires_at_once(make):
    plan_record = make.plan()
    receipt = make.receipt(plan_record)
    rejection = admit(plan_record, receipt, make.decision("reject", []))
    assert retire(rejection)["reason"] == "parent_rejected"
    assert retire(rejection)["retire_ready"] is True


def test_downstream_refs_must_be_a_list_of_texts(make):
    *_, admission = make.lifecycle()
    with pytest.raises(EvidenceRejected, match="downstream_source_refs: expected list"):
        retire(admission, make.source_a)
    with pytest.raises(EvidenceRejected, match=r"downstream_source_refs\[0\]: must not be blank"):
        retire(admission, [" "])


# ---- raw content never reaches a projection -----------------------------------------


def test_sources_carry_no_raw_content_fields(make):
    plan_record = make.plan()
    receipt = make.receipt(plan_record)
    receipt["sources"][0]["raw_content"] = "<html>...</html>"
    with pytest.raises(EvidenceRejected, match=r"receipt\.sources\[0\]: unknown field"):
        admit(plan_record, receipt, make.decision())


def test_error_messages_name_paths_not_values(make):
    secret = "PRIVATE-TOKEN-12345"
    plan_record = make.plan()
    attempts = [
        lambda: plan(make.request(objective=secret * 1000), make.providers()),
        lambda: plan(make.request(source_refs=[f"file:///{secret}"]), make.providers()),
        lambda: observe_receipt(plan_record, make.receipt(plan_record, summary=[secret])),
        lambda: admit(
            plan_record, make.receipt(plan_record), make.decision(refs=[f"https://{secret}"])
        ),
        lambda: retire({"schema_version": secret}),
        lambda: discover([make.provider(provider_id=secret)]),
    ]
    for attempt in attempts:
        with pytest.raises(EvidenceRejected) as caught:
            attempt()
        assert secret not in str(caught.value)
        assert isinstance(caught.value, ValueError)
