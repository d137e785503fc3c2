# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The checked-in provider kit schemas match the attrs contracts and accept what they accept."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from loopx_recall_core.contracts.schema import schema_files

SCHEMA_DIR = Path(__file__).parents[2] / "loopx_recall_core" / "schemas"


def test_checked_in_schemas_do_not_drift():
    expected = schema_files()
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in SCHEMA_DIR.glob("*.schema.json")}
    assert sorted(on_disk) == sorted(expected), "run scripts/generate-schemas"
    for name, text in expected.items():
        assert on_disk[name] == text, f"{name} drifted: run scripts/generate-schemas"


@pytest.mark.parametrize("name", sorted(schema_files()))
def test_schemas_are_valid_draft_2020_12(name):
    jsonschema.Draft202012Validator.check_schema(json.loads((SCHEMA_DIR / name).read_text()))


def _validator(name):
    schema = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text())
    return jsonschema.Draft202012Validator(schema)


def test_request_schema_agrees_with_converter(request_data):
    validator = _validator("historical_evidence_request_v0")
    assert validator.is_valid(request_data)
    for bad in (
        {**request_data, "extra": 1},
        {**request_data, "limits": {**request_data["limits"], "max_items": "4"}},
        {**request_data, "scope": {**request_data["scope"], "allow_cross_agent": True}},
        {**request_data, "query_terms": []},
        {**request_data, "revision": None},
    ):
        assert not validator.is_valid(bad)


def test_result_schema_agrees_with_converter(result_data):
    validator = _validator("historical_evidence_result_v0")
    assert validator.is_valid(result_data)
    assert not validator.is_valid({**result_data, "freshness": "recent"})
