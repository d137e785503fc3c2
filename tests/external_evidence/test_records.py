# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The record registry: every output is an instance of its registered contract, exactly."""

from __future__ import annotations

import typing

import attrs
import pytest

from loopx_recall_core.contracts.converter import ContractError, structure, unstructure
from loopx_recall_core.contracts.external_evidence import INPUT_RECORDS, RECORDS
from loopx_recall_core.external_evidence import discover, error_record, retire


def test_records_are_keyed_by_their_own_schema_version():
    for schema_version, cls in RECORDS.items():
        annotation = typing.get_type_hints(cls)["schema_version"]
        parts = (annotation,)
        if typing.get_origin(annotation) is not typing.Literal:  # Optional[Literal[...]]
            parts = tuple(p for p in typing.get_args(annotation) if p is not type(None))
        literals = [value for part in parts for value in typing.get_args(part)]
        assert literals == [schema_version], cls
    assert set(RECORDS) == {
        "loopx_external_evidence_request_v0",
        "loopx_external_evidence_discovery_v0",
        "loopx_external_evidence_plan_v0",
        "loopx_external_evidence_execution_envelope_v0",
        "loopx_external_evidence_receipt_v0",
        "loopx_external_evidence_receipt_observation_v0",
        "loopx_external_evidence_admission_v0",
        "loopx_external_evidence_projection_v0",
        "loopx_external_evidence_retirement_v0",
        "loopx_external_evidence_error_v0",
    }
    assert all(attrs.has(cls) for cls in INPUT_RECORDS.values())


def test_every_output_round_trips_through_its_registered_record(make):
    plan_record, _, observation, admission = make.lifecycle()
    outputs = [
        discover(make.providers()),
        plan_record,
        plan_record["request"],
        plan_record["execution_envelope"],
        observation,
        observation["receipt"],
        admission,
        admission["downstream_projection"],
        retire(admission),
        error_record("plan.status: a receipt or admission requires a ready plan"),
    ]
    for output in outputs:
        record = structure(output, RECORDS[output["schema_version"]])
        assert unstructure(record) == output
        assert list(unstructure(record)) == list(output)


def test_records_reject_claims_the_truth_contracts_forbid(make):
    _, _, observation, _ = make.lifecycle()
    cls = RECORDS[observation["schema_version"]]
    for claim in ("provider_execution_attested", "automatic_admission", "automatic_promotion"):
        forged = {**observation, "truth_contract": {**observation["truth_contract"], claim: True}}
        with pytest.raises(ContractError, match=claim):
            structure(forged, cls)
    discovery = discover([])
    forged = {**discovery, "truth_contract": {**discovery["truth_contract"]}}
    forged["truth_contract"]["execution_observed"] = True
    with pytest.raises(ContractError, match="execution_observed"):
        structure(forged, RECORDS[discovery["schema_version"]])
