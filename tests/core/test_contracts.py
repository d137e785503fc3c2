# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The strict converter on historical-evidence records: each bad input names its path."""

from __future__ import annotations

import copy

import attrs
import pytest

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

CANARY = "CANARY-PRIVATE-c0ffee"
KEY = b"test-receipt-key-".ljust(32, b"k")


def _set(path, value):
    def mutate(data):
        *parents, last = path
        for key in parents:
            data = data[key]
        data[last] = value

    return mutate


def _drop(path):
    def mutate(data):
        *parents, last = path
        for key in parents:
            data = data[key]
        del data[last]

    return mutate


# (case id, mutation, expected "$.path: reason" fragment)
REQUEST_CASES = [
    ("int-as-str", _set(("limits", "max_items"), "5"), "$.limits.max_items: expected int, got str"),
    (
        "bool-as-int",
        _set(("limits", "max_items"), True),
        "$.limits.max_items: expected int, got bool",
    ),
    ("float-limit", _set(("limits", "max_sessions"), 5.0), "$.limits.max_sessions: expected int"),
    ("zero-limit", _set(("limits", "max_sessions"), 0), "$.limits.max_sessions: must be 1..50"),
    (
        "sessions-ceiling",
        _set(("limits", "max_sessions"), 51),
        "$.limits.max_sessions: must be 1..50",
    ),
    ("items-ceiling", _set(("limits", "max_items"), 65), "$.limits.max_items: must be 1..64"),
    ("snippet-ceiling", _set(("limits", "max_snippet_chars"), 2001), "$.limits.max_snippet_chars"),
    ("total-ceiling", _set(("limits", "max_total_chars"), 32001), "$.limits.max_total_chars"),
    ("negative-limit", _set(("limits", "max_items"), -1), "$.limits.max_items: must be"),
    ("limits-extra", _set(("limits", "max_tokens"), 5), "$.limits: unknown field 'max_tokens'"),
    ("limits-missing", _drop(("limits", "max_total_chars")), "$.limits.max_total_chars: required"),
    ("cross-agent-true", _set(("scope", "allow_cross_agent"), True), "$.scope.allow_cross_agent"),
    (
        "cross-agent-zero",
        _set(("scope", "allow_cross_agent"), 0),
        "$.scope.allow_cross_agent: expected false, got int",
    ),
    (
        "cross-project-str",
        _set(("scope", "allow_cross_project"), "false"),
        "$.scope.allow_cross_project: expected false, got str",
    ),
    (
        "scope-extra",
        _set(("scope", "allow_foreign"), False),
        "$.scope: unknown field 'allow_foreign'",
    ),
    (
        "scope-missing-agent",
        _drop(("scope", "agent_id")),
        "$.scope.agent_id: required field missing",
    ),
    ("blank-agent", _set(("scope", "agent_id"), " \u3000 "), "$.scope.agent_id: must not be blank"),
    ("agent-int", _set(("scope", "agent_id"), 7), "$.scope.agent_id: expected str, got int"),
    ("scope-list", _set(("scope",), []), "$.scope: expected object, got list"),
    ("terms-string", _set(("query_terms",), "pytest"), "$.query_terms: expected list, got str"),
    ("terms-empty", _set(("query_terms",), []), "$.query_terms: must hold 1..8 items"),
    (
        "terms-nine",
        _set(("query_terms",), [f"t{i}" for i in range(9)]),
        "$.query_terms: must hold 1..8",
    ),
    ("term-blank", _set(("query_terms",), ["ok", "  "]), "$.query_terms[1]: must not be blank"),
    (
        "term-long",
        _set(("query_terms",), ["x" * 129]),
        "$.query_terms[0]: longer than 128 UTF-16 units",
    ),
    ("term-astral-long", _set(("query_terms",), ["🚀" * 65]), "$.query_terms[0]: longer than 128"),
    ("term-null", _set(("query_terms",), ["ok", None]), "$.query_terms[1]: expected str, got null"),
    ("types-empty", _set(("evidence_types",), []), "$.evidence_types: must not be empty"),
    (
        "types-dup",
        _set(("evidence_types",), ["decision", "decision"]),
        "$.evidence_types[1]: duplicate",
    ),
    ("types-unknown", _set(("evidence_types",), ["memories"]), "$.evidence_types[0]: expected"),
    (
        "types-dict",
        _set(("evidence_types",), {"a": 1}),
        "$.evidence_types: expected list, got object",
    ),
    ("trigger-unknown", _set(("trigger",), "every_turn"), "$.trigger: expected"),
    (
        "schema-version",
        _set(("schema_version",), "historical_evidence_request_v1"),
        "$.schema_version",
    ),
    ("top-extra", _set(("provider_options",), {}), "$: unknown field 'provider_options'"),
    ("revision-null", _set(("revision",), None), "$.revision: must be absent or hold a value"),
    (
        "merge-base-null",
        _set(("revision", "merge_base"), None),
        "$.revision.merge_base: must be absent",
    ),
    ("revision-missing-current", _drop(("revision", "current")), "$.revision.current: required"),
    ("request-id-missing", _drop(("request_id",)), "$.request_id: required field missing"),
    ("request-id-list", _set(("request_id",), ["x"]), "$.request_id: expected str, got list"),
]


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [case[1:] for case in REQUEST_CASES],
    ids=[case[0] for case in REQUEST_CASES],
)
def test_malformed_request_is_rejected_naming_its_path(request_data, mutate, expected):
    mutate(request_data)
    with pytest.raises(ContractError) as caught:
        structure(request_data, HistoricalEvidenceRequestV0)
    assert expected in str(caught.value)
    assert all(problem.startswith("$") for problem in caught.value.problems)


def test_at_least_thirty_malformed_cases():
    assert len(REQUEST_CASES) + len(RESULT_CASES) >= 30


RESULT_CASES = [
    (
        "provider-other",
        _set(("provider_id",), "other"),
        '$.provider_id: expected "obelisk-session-evidence"',
    ),
    (
        # a fact the host sets (true only under runtime identity), never a string
        "cross-agent-used-not-bool",
        _set(("scope_applied", "cross_agent_used"), "false"),
        "$.scope_applied.cross_agent_used",
    ),
    ("freshness", _set(("freshness",), "recent"), "$.freshness: expected"),
    ("items-not-list", _set(("items",), "x"), "$.items: expected list, got str"),
    ("item-type", _set(("items", 1, "evidence_type"), "memory"), "$.items[1].evidence_type"),
    ("item-extra", _set(("items", 0, "raw"), "x"), "$.items[0]: unknown field 'raw'"),
    ("item-no-snippet", _drop(("items", 1, "snippet")), "$.items[1].snippet: required"),
    (
        "item-message-null",
        _set(("items", 0, "message_ref"), None),
        "$.items[0].message_ref: must be absent",
    ),
    (
        "snippet-ceiling",
        _set(("items", 0, "snippet"), "x" * 2001),
        "$.items[0].snippet: longer than 2000",
    ),
    ("truncated-str", _set(("truncated",), "false"), "$.truncated: expected bool, got str"),
    ("omitted-negative", _set(("omitted_count",), -1), "$.omitted_count: must be 0..2**53-1"),
    (
        "omitted-without-truncated",
        _set(("omitted_count",), 3),
        "$.truncated: must be true when omitted_count > 0",
    ),
]


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [case[1:] for case in RESULT_CASES],
    ids=[case[0] for case in RESULT_CASES],
)
def test_malformed_result_is_rejected_naming_its_path(result_data, mutate, expected):
    mutate(result_data)
    with pytest.raises(ContractError) as caught:
        structure(result_data, HistoricalEvidenceResultV0)
    assert expected in str(caught.value)


def test_errors_never_echo_values(request_data):
    request_data["query_terms"] = [CANARY * 10]
    with pytest.raises(ContractError) as caught:
        structure(request_data, HistoricalEvidenceRequestV0)
    assert "$.query_terms[0]: longer than" in str(caught.value)
    assert CANARY not in str(caught.value)
    request_data["scope"]["agent_id"] = CANARY.encode()
    request_data["trigger"] = CANARY
    request_data[CANARY[:10]] = CANARY
    with pytest.raises(ContractError) as caught:
        structure(request_data, HistoricalEvidenceRequestV0)
    message = str(caught.value)
    assert CANARY not in message
    assert "$.scope.agent_id: expected str, got bytes" in message
    assert "$.trigger: expected" in message


def test_several_problems_are_all_reported(request_data):
    request_data["limits"]["max_items"] = "4"
    request_data["trigger"] = "x"
    with pytest.raises(ContractError) as caught:
        structure(request_data, HistoricalEvidenceRequestV0)
    paths = {problem.split(":")[0] for problem in caught.value.problems}
    assert {"$.limits.max_items", "$.trigger"} <= paths


def test_valid_records_round_trip(request_data, result_data):
    request = structure(request_data, HistoricalEvidenceRequestV0)
    assert unstructure(request) == request_data
    result = structure(result_data, HistoricalEvidenceResultV0)
    assert unstructure(result) == result_data
    receipt = result_receipt(request, result, key=KEY)
    data = unstructure(receipt)
    assert structure(data, HistoricalEvidenceReceiptV0) == receipt


def test_optional_fields_stay_absent(request_data):
    del request_data["revision"]
    request = structure(request_data, HistoricalEvidenceRequestV0)
    assert "revision" not in unstructure(request)


def test_invalid_record_cannot_be_constructed(request_data):
    request = structure(request_data, HistoricalEvidenceRequestV0)
    with pytest.raises(ValueError, match="max_items"):
        attrs.evolve(request.limits, max_items=1000)
    with pytest.raises(ValueError, match="query_terms"):
        attrs.evolve(request, query_terms=())


def test_receipt_flags_are_literal_false(request_data, result_data):
    receipt = unstructure(
        result_receipt(
            structure(request_data, HistoricalEvidenceRequestV0),
            structure(result_data, HistoricalEvidenceResultV0),
            key=KEY,
        )
    )
    for flag in (
        "grants_new_action_authority",
        "external_writes_performed",
        "raw_content_captured",
    ):
        bad = copy.deepcopy(receipt)
        bad[flag] = True
        with pytest.raises(ContractError, match=flag):
            structure(bad, HistoricalEvidenceReceiptV0)
    bad = copy.deepcopy(receipt)
    bad["evidence_type_counts"]["decision"] = 5
    with pytest.raises(ContractError, match="add up"):
        structure(bad, HistoricalEvidenceReceiptV0)


def test_receipt_holds_no_content(request_data, result_data):
    result_data["items"][0]["snippet"] = CANARY
    request_data["query_terms"] = [CANARY]
    receipt = result_receipt(
        structure(request_data, HistoricalEvidenceRequestV0),
        structure(result_data, HistoricalEvidenceResultV0),
        key=KEY,
    )
    text = str(unstructure(receipt))
    assert CANARY not in text
    assert "session-1" not in text


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (_set(("scope_applied", "agent_id"), "agent-b"), "$.scope_applied.agent_id"),
        (_set(("scope_applied", "repository_id"), "other"), "$.scope_applied.repository_id"),
        (_set(("request_id",), "req-2"), "$.request_id"),
        (
            _set(("items", 1, "evidence_type"), "summary"),
            "$.items[1].evidence_type: was not requested",
        ),
        (
            _set(("items", 0, "snippet"), "x" * 201),
            "$.items[0].snippet: longer than max_snippet_chars",
        ),
        (lambda d: d["items"].extend([d["items"][1]] * 3), "more than max_items"),
        (
            lambda d: d["items"].extend(
                [dict(d["items"][1], session_ref="s3", snippet="y" * 200)] * 2
                + [dict(d["items"][1], snippet="z" * 200)]
            ),
            "exceed max_total_chars",
        ),
        (_set(("truncated",), True), "$.omitted_count: 0 although"),
    ],
)
def test_result_checked_against_request(request_data, result_data, mutate, expected):
    mutate(result_data)
    request = structure(request_data, HistoricalEvidenceRequestV0)
    problems = result_problems(request, structure(result_data, HistoricalEvidenceResultV0))
    assert any(expected in problem for problem in problems), problems


def test_max_sessions_is_checked(request_data, result_data):
    request_data["limits"]["max_sessions"] = 1
    request = structure(request_data, HistoricalEvidenceRequestV0)
    problems = result_problems(request, structure(result_data, HistoricalEvidenceResultV0))
    assert any("max_sessions" in p for p in problems)
    assert (
        result_problems(
            request,
            structure(
                {**result_data, "items": result_data["items"][:1]}, HistoricalEvidenceResultV0
            ),
        )
        == []
    )
