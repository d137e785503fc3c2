# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The converter factory, the metadata the field helpers declare, and who reads it.

``make_converter()`` builds independent converters and nothing is registered on one at
import; what a field omits or always writes, and its JSON Schema keywords, are declared in
``attrs.field(metadata=...)`` and read from there (issue 12, item 6)."""

from __future__ import annotations

import json
import subprocess
import sys
import typing

import attrs
import pytest
from cattrs.errors import ClassValidationError

from loopx_recall_core.contracts import fields
from loopx_recall_core.contracts.converter import (
    ContractError,
    get_converter,
    make_converter,
    structure,
    unstructure,
)
from loopx_recall_core.contracts.external_evidence import (
    ExternalEvidenceRequestV0,
    ExternalEvidenceSource,
)
from loopx_recall_core.contracts.schema import json_schema


@attrs.frozen(kw_only=True)
class _Probe:
    name: str = fields.text_field(8)
    count: int = fields.int_field(0, 3)
    note: str | None = fields.optional_text(16)
    tags: tuple[str, ...] = fields.field(default=(), schema={"maxItems": 2})
    kept: str | None = fields.field(default=None, metadata={fields.ALWAYS_WRITTEN: True})
    last: bool


def test_every_call_builds_an_independent_converter():
    first, second = make_converter(), make_converter()
    assert first is not second
    assert get_converter() is get_converter()
    assert get_converter() is not first

    first.register_unstructure_hook(_Probe, lambda _record: "replaced")
    record = _Probe(name="a", count=1, last=True)
    assert first.unstructure(record) == "replaced"
    assert second.unstructure(record) != "replaced"
    assert unstructure(record) == second.unstructure(record)


def test_a_fresh_converter_is_as_strict_as_the_shared_one():
    converter = make_converter()
    with pytest.raises(ClassValidationError):  # structure() turns it into a ContractError
        converter.structure({"name": "a", "count": "1", "last": True}, _Probe)
    with pytest.raises(ContractError) as caught:
        structure({"name": "secret-value", "count": True, "last": 1, "x": 0}, _Probe)
    problems = caught.value.problems
    assert "$.count: expected int, got bool" in problems
    assert "$.last: expected bool, got int" in problems
    assert "$: unknown field 'x'" in problems
    assert "secret-value" not in str(caught.value)


@attrs.frozen(kw_only=True)
class _Keyed:
    counts: dict[str, int] = attrs.field(factory=dict)
    probes: dict[str, _Probe] = attrs.field(factory=dict)


def test_problem_paths_echo_keys_capped_and_never_the_values():
    # cattrs' transform_error walks the error; only plain field names are shown as keys
    long_key = "secret-key-" * 10
    with pytest.raises(ContractError) as caught:
        structure(
            {
                "counts": {long_key: "secret-value", "a\x00 @ $b": "v2", 7: 1},
                "probes": {
                    "p\x01": {"name": "secret-name!", "count": 1, "last": True},
                    "q": {"name": "a", "count": 1, "last": True, "y": 1},
                },
            },
            _Keyed,
        )
    assert caught.value.problems == (
        # issue 29: a key that is not a plain field name is never echoed
        "$.counts[<key>]: expected int, got str",
        "$.counts[<key>]: expected int, got str",
        "$.counts[<int>]: expected str, got int",
        "$.probes[<key>].name: longer than 8 UTF-16 units",
        "$.probes['q']: unknown field 'y'",
    )
    assert long_key[:20] not in str(caught.value)
    for value in ("secret-value", "v2", "secret-name!"):
        assert value not in str(caught.value)


def test_importing_the_contracts_builds_no_converter_and_imports_no_cattrs():
    code = (
        "import sys\n"
        "import loopx_recall_core.contracts.external_evidence\n"
        "import loopx_recall_core.contracts.replan\n"
        "import loopx_recall_core.contracts.schema\n"
        "from loopx_recall_core.contracts import converter\n"
        "print(converter.get_converter.cache_info().currsize == 0, 'cattrs' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False"]


def test_fields_with_a_default_are_omitted_unless_always_written_in_declaration_order():
    record = _Probe(name="a", count=1, last=False)
    assert list(unstructure(record).items()) == [
        ("name", "a"),
        ("count", 1),
        ("kept", None),
        ("last", False),
    ]
    full = _Probe(name="a", count=1, note="n", tags=("t",), kept="k", last=True)
    assert list(unstructure(full)) == ["name", "count", "note", "tags", "kept", "last"]
    assert unstructure(full)["tags"] == ["t"]
    assert structure(unstructure(full), _Probe) == full


def test_the_external_evidence_wire_omits_absent_fields_and_writes_null_and_empty():
    request = structure(
        {"objective": "o", "user_activity": "u", "decision": "d", "evidence_kinds": ["k"]},
        ExternalEvidenceRequestV0,
    )
    # constraints: absent == [] and always written; source_refs, search_terms,
    # schema_version, request_id: written only when given.
    assert unstructure(request) == {
        "objective": "o",
        "user_activity": "u",
        "decision": "d",
        "evidence_kinds": ["k"],
        "constraints": [],
    }
    given = attrs.evolve(
        request, search_terms=(), schema_version="loopx_external_evidence_request_v0"
    )
    assert list(unstructure(given)) == [
        "schema_version",
        "objective",
        "user_activity",
        "decision",
        "evidence_kinds",
        "constraints",
        "search_terms",
    ]
    assert unstructure(given)["search_terms"] == []
    source = unstructure(
        ExternalEvidenceSource(
            source_ref="https://example.org/a",
            source_family="web",
            basis="observed",
            finding="f",
            accessed_at="2026-01-01",
            content_digest="sha256:" + "0" * 64,
        )
    )
    assert source["limitation"] is None
    assert source["publication_date"] is None
    assert list(source)[4:6] == ["limitation", "publication_date"]


def test_schema_keywords_come_from_field_metadata_not_from_validators():
    def check(_instance, _attribute, _value):
        pass

    check.json_schema = {"maxLength": 1}  # the old convention: ignored now

    @attrs.frozen(kw_only=True)
    class Record:
        plain: str = attrs.field(validator=check)
        declared: str = fields.field(validator=check, schema={"pattern": "^x"})
        digest: str = fields.digest_field()
        maybe: str | None = fields.optional_text(5)

    schema = json_schema(Record, schema_id="urn:x")
    properties = schema["properties"]
    assert properties["plain"] == {"type": "string"}
    assert properties["declared"] == {"type": "string", "pattern": "^x"}
    assert properties["digest"] == {"type": "string", "pattern": fields.SHA256_PATTERN}
    assert properties["maybe"] == {"type": "string", "maxLength": 5, "minLength": 1}
    assert schema["required"] == ["plain", "declared", "digest"]
    probe = json_schema(_Probe, schema_id="urn:y")["properties"]
    assert probe["count"] == {"type": "integer", "minimum": 0, "maximum": 3}
    assert probe["tags"] == {"type": "array", "items": {"type": "string"}, "maxItems": 2}
    assert probe["kept"] == {"anyOf": [{"type": "string"}, {"type": "null"}]}
    json.dumps(schema)


def test_no_validator_carries_schema_keywords_any_more():
    from loopx_recall_core.contracts.schema import top_level_records

    seen: set[type] = set()

    def walk(cls: type) -> None:
        if cls in seen:
            return
        seen.add(cls)
        hints = typing.get_type_hints(cls)
        for field in attrs.fields(cls):
            assert not hasattr(field.validator, "json_schema"), (cls.__name__, field.name)
            for arg in (hints[field.name], *typing.get_args(hints[field.name])):
                if attrs.has(arg):
                    walk(arg)

    for cls in top_level_records().values():
        walk(cls)
    assert len(seen) > 25
