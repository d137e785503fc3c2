# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The LoopX results' bytes, pinned: a history result (succeeded and failed) and a Replan
result, each carrying the receipt as LoopX public state (``content_captured``), written as
``wire_bytes.golden.json`` holds them, and read back by their own contracts to the same
bytes. The golden file was written by the code before the receipt became a rename override
of the v0 receipt; it changes only with the LoopX wire."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loopx_recall_core.contracts import (
    ContractError,
    HistoricalEvidenceRequestV0,
    HistoricalEvidenceResultV0,
    structure,
    unstructure,
)
from loopx_recall_core.contracts.loopx_protocol import RECORDS
from loopx_recall_core.loopx_protocol.mapping import history_result, replan_result
from loopx_recall_core.recall.outcome import RecallOutcome
from loopx_recall_core.recall.receipts import result_receipt
from loopx_recall_core.recall.replan.comparison import Comparison
from loopx_recall_core.recall.replan.flow import ReplanReport
from loopx_recall_core.recall.replan.situation_admission import SituationAdmission

GOLDEN = Path(__file__).with_name("wire_bytes.golden.json")


def _outcome(request_data, result_data, status):
    request = structure(request_data, HistoricalEvidenceRequestV0)
    result = structure(result_data, HistoricalEvidenceResultV0)
    return RecallOutcome(
        status=status,
        reason=None if status == "succeeded" else "provider_timeout",
        receipt=result_receipt(request, result, key=b"k" * 32),
        result=result if status == "succeeded" else None,
        private_ref="private:" + "ab" * 16,
        agent_sessions="claimed",
    )


def _results(request_data, result_data) -> dict[str, dict]:
    succeeded = _outcome(request_data, result_data, "succeeded")
    report = ReplanReport(
        situation_id="sit-1",
        agent_id="agent-1",
        project_id="project-1",
        admission=SituationAdmission(admitted=True, trigger="replan_repetition"),
        outcome=succeeded,
        comparison=Comparison(
            verdict="no_prior_match", reason="no_match_in_fresh_index", freshness="fresh"
        ),
        legality=None,
    )
    return {
        "history_succeeded": history_result("inv-1", succeeded),
        "history_failed": history_result("inv-2", _outcome(request_data, result_data, "failed")),
        "replan": replan_result("inv-3", report),
    }


def _bytes(value: dict) -> str:
    # key order is part of what is pinned: no sort_keys
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def test_the_loopx_results_keep_their_bytes(request_data, result_data):
    results = _results(request_data, result_data)
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert {name: _bytes(value) for name, value in results.items()} == golden
    receipt = results["history_succeeded"]["observations"][0]["receipt"]
    assert list(receipt)[-1] == "content_captured"
    assert "raw_content_captured" not in _bytes(results)


def test_the_loopx_results_read_back_to_the_same_bytes(request_data, result_data):
    results = _results(request_data, result_data)
    for name, value in results.items():
        record = structure(value, RECORDS[value["schema_version"]])
        assert _bytes(unstructure(record)) == _bytes(value), name


def _history_with_receipt(request_data, result_data, **changes) -> dict:
    result = _results(request_data, result_data)["history_succeeded"]
    receipt = result["observations"][0]["receipt"]
    for key, value in changes.items():
        if value is None:
            del receipt[key]
        else:
            receipt[key] = value
    return result


def test_a_bad_loopx_receipt_is_named_by_its_wire_names(request_data, result_data):
    record = RECORDS["loopx_recall_history_result_v0"]
    path = "$.observations[0].receipt"
    cases = [
        ({"content_captured": True}, [f"{path}.content_captured: expected false"]),
        ({"content_captured": None}, [f"{path}.content_captured: required field missing"]),
        (
            {"raw_content_captured": False},
            [f"{path}: unknown field 'raw_content_captured'"],
        ),
    ]
    for changes, problems in cases:
        with pytest.raises(ContractError) as caught:
            structure(_history_with_receipt(request_data, result_data, **changes), record)
        assert list(caught.value.problems) == problems, changes
