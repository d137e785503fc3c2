# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A record whose names on the wire differ from its field names (``__wire_names__``): the
converter writes and reads the wire names in declaration order, with the same omissions,
a problem names the field as the wire does, and the JSON Schema says the same names."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import ClassVar

import attrs
import pytest

from loopx_recall_core.contracts import fields
from loopx_recall_core.contracts.converter import ContractError, structure, unstructure
from loopx_recall_core.contracts.schema import json_schema


@attrs.frozen(kw_only=True)
class _Plain:
    first: str = fields.text_field(8)
    raw_size: int = fields.int_field(0, 3)
    raw_note: str | None = fields.optional_text(4)
    raw_tags: tuple[str, ...] = fields.texts_field(
        min_items=0, max_items=2, max_units=4, default=()
    )
    last: bool


@attrs.frozen(kw_only=True)
class _Renamed(_Plain):
    __wire_names__: ClassVar[Mapping[str, str]] = MappingProxyType(
        {"raw_size": "size", "raw_note": "note", "raw_tags": "tags"}
    )


def test_wire_names_are_written_and_read_in_declaration_order():
    record = _Renamed(first="a", raw_size=1, raw_tags=("t",), last=True)
    assert list(unstructure(record).items()) == [
        ("first", "a"),
        ("size", 1),
        ("tags", ["t"]),
        ("last", True),
    ]
    assert structure(unstructure(record), _Renamed) == record
    assert list(unstructure(_Plain(first="a", raw_size=1, last=False))) == [
        "first",
        "raw_size",
        "last",
    ]


def test_a_problem_names_the_field_by_its_wire_name():
    cases = [
        ({"first": "a", "size": 9, "last": True}, ["$.size: must be 0..3"]),
        ({"first": "a", "size": "1", "last": True}, ["$.size: expected int, got str"]),
        ({"first": "a", "last": True}, ["$.size: required field missing"]),
        (
            {"first": "a", "size": 1, "note": None, "last": True},
            ["$.note: must be absent or hold a value, not null"],
        ),
        (
            {"first": "a", "size": 1, "tags": ["t", "long-tag"], "last": True},
            ["$.tags[1]: longer than 4 UTF-16 units"],
        ),
        (
            {"first": "a", "raw_size": 1, "size": 1, "last": True},
            ["$: unknown field 'raw_size'"],
        ),
    ]
    for data, problems in cases:
        with pytest.raises(ContractError) as caught:
            structure(data, _Renamed)
        assert list(caught.value.problems) == problems, data


def test_the_schema_names_the_wire_names():
    schema = json_schema(_Renamed, schema_id="urn:x")
    assert list(schema["properties"]) == ["first", "size", "note", "tags", "last"]
    assert schema["required"] == ["first", "size", "last"]
