# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""JSON Schema (draft 2020-12) generated from the attrs contracts.

The checked-in files under ``loopx_recall_core/schemas/`` (package data, readable with
``importlib.resources``) are produced by
``scripts/generate-schemas``; a test fails when they drift from the classes.

A field's type gives its schema; the keywords a field helper puts in
``attrs.field(metadata={JSON_SCHEMA: ...})`` (:mod:`loopx_recall_core.contracts.fields`)
narrow it. Validators carry no schema of their own.
"""

from __future__ import annotations

import types
import typing
from typing import Any, Literal

import attrs

from loopx_recall_core.contracts.fields import ABSENT_NOT_NULL, JSON_SCHEMA, wire_names

__all__ = ["json_schema", "schema_files", "top_level_records"]

_DIALECT = "https://json-schema.org/draft/2020-12/schema"
_SCALARS = {str: "string", int: "integer", bool: "boolean"}


def json_schema(cls: type, *, schema_id: str) -> dict[str, Any]:
    """The schema of one top-level record class, nested records under ``$defs``."""
    defs: dict[str, Any] = {}
    body = _record(cls, defs)
    schema = {"$schema": _DIALECT, "$id": schema_id, "title": cls.__name__, **body}
    if defs:
        schema["$defs"] = dict(sorted(defs.items()))
    return schema


def _record(cls: type, defs: dict[str, Any]) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    renamed = wire_names(cls)
    properties: dict[str, Any] = {}
    required: list[str] = []
    for field in attrs.fields(cls):
        annotation = hints[field.name]
        nullable = False
        if typing.get_origin(annotation) in (typing.Union, types.UnionType):
            (annotation,) = [a for a in typing.get_args(annotation) if a is not type(None)]
            nullable = not field.metadata.get(ABSENT_NOT_NULL)
        prop = _type(annotation, defs)
        keywords = field.metadata.get(JSON_SCHEMA)
        if keywords:
            prop = _merge(prop, keywords)
        if nullable:
            prop = {"anyOf": [prop, {"type": "null"}]}
        name = renamed.get(field.name, field.name)
        properties[name] = prop
        if field.default is attrs.NOTHING:
            required.append(name)
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def _merge(prop: dict[str, Any], keywords: dict[str, Any]) -> dict[str, Any]:
    merged = dict(prop)
    for key, value in keywords.items():
        if key == "items" and "items" in merged:
            merged["items"] = {**merged["items"], **value}
        else:
            merged[key] = value
    return merged


def _type(annotation: Any, defs: dict[str, Any]) -> dict[str, Any]:
    origin = typing.get_origin(annotation)
    if annotation in _SCALARS:
        return {"type": _SCALARS[annotation]}
    if origin is Literal:
        values = list(typing.get_args(annotation))
        return {"const": values[0]} if len(values) == 1 else {"enum": values}
    if origin is tuple:
        return {"type": "array", "items": _type(typing.get_args(annotation)[0], defs)}
    if origin is dict:
        return {
            "type": "object",
            "additionalProperties": _type(typing.get_args(annotation)[1], defs),
        }
    if attrs.has(annotation):
        if annotation.__name__ not in defs:
            defs[annotation.__name__] = {}  # reserve: records may nest recursively
            defs[annotation.__name__] = _record(annotation, defs)
        return {"$ref": f"#/$defs/{annotation.__name__}"}
    raise TypeError(f"no JSON Schema mapping for {annotation!r}")


def top_level_records() -> dict[str, type]:
    """Every v0 record with a ``schema_version``, keyed by that string."""
    from loopx_recall_core.contracts import historical

    records: dict[str, type] = {}
    for cls in (
        historical.HistoricalEvidenceRequestV0,
        historical.HistoricalEvidenceResultV0,
        historical.HistoricalEvidenceReceiptV0,
    ):
        records[typing.get_args(typing.get_type_hints(cls)["schema_version"])[0]] = cls
    from loopx_recall_core.contracts.external_evidence import RECORDS as EXTERNAL_EVIDENCE
    from loopx_recall_core.contracts.loopx_protocol import RECORDS as LOOPX_EXTENSION
    from loopx_recall_core.contracts.replan import RECORDS as REPLAN

    records.update(EXTERNAL_EVIDENCE)
    records.update(LOOPX_EXTENSION)
    records.update(REPLAN)
    return dict(sorted(records.items()))


def schema_files() -> dict[str, str]:
    """File name -> JSON text of every schema under ``loopx_recall_core/schemas/``."""
    import json

    files = {}
    for name, cls in top_level_records().items():
        schema = json_schema(cls, schema_id=f"urn:loopx-recall-core:schema:{name}")
        files[f"{name}.schema.json"] = json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
    return files
