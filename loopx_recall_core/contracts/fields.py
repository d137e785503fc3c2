# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The field helpers every contract record is built from: validators, field factories and
the metadata keys the converter and the JSON Schema generator read.

A validator raises :class:`FieldInvalid` with a path relative to the record and a reason
that names bounds, never the value. A field factory (``text_field``, ``int_field``, ...)
pairs a validator with the JSON Schema keywords it implies, in
``attrs.field(metadata={JSON_SCHEMA: {...}})``; :mod:`loopx_recall_core.contracts.schema`
reads them from there. JSON Schema's ``maxLength`` counts code points while the host counts
UTF-16 units: the stricter host check is authoritative.

This module imports attrs only (no cattrs): every record class needs it at import.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from loopx_recall_core.canonical import is_digest, js_trim, utf16_len

__all__ = [
    "ABSENT_NOT_NULL",
    "ALWAYS_WRITTEN",
    "JSON_SCHEMA",
    "MAX_SAFE_INTEGER",
    "SHA256_PATTERN",
    "FieldInvalid",
    "digest_field",
    "field",
    "int_field",
    "int_range",
    "optional",
    "optional_text",
    "sha256_digest",
    "text",
    "text_field",
    "text_schema",
    "texts",
    "texts_field",
    "texts_schema",
    "unique_items",
    "unique_items_field",
    "wire_names",
]

#: Metadata: the field may be absent from the JSON, but never ``null`` (``optional()``).
ABSENT_NOT_NULL = "loopx_absent_not_null"
#: Metadata: written by ``unstructure`` even when equal to its default (``null`` / ``[]``);
#: any other field with a default is omitted when it holds the default.
ALWAYS_WRITTEN = "loopx_always_written"
#: Metadata: the JSON Schema keywords of the field's value (merged over its type's schema).
JSON_SCHEMA = "loopx_json_schema"

#: JavaScript's ``Number.MAX_SAFE_INTEGER``: no contract integer (a count, a size, a limit)
#: may leave ``-MAX_SAFE_INTEGER..MAX_SAFE_INTEGER``, so every reader, including LoopX's
#: TypeScript side, holds it exactly; fields narrow it further with ``int_range``.
MAX_SAFE_INTEGER = 2**53 - 1
SHA256_PATTERN = "^sha256:[0-9a-f]{64}$"

Validator = Callable[[Any, "attrs.Attribute[Any]", Any], None]


class FieldInvalid(ValueError):
    """Raised by contract validators: ``path`` is relative to the record being built."""

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


def wire_names(cls: type) -> Mapping[str, str]:
    """``{field name: its name on the wire}`` for a record whose wire names differ from
    its field names: the record class's ``__wire_names__`` (a ``ClassVar``), else empty.
    The converter writes and reads those names (cattrs' ``override(rename=...)``) and the
    JSON Schema generator names the properties so; every other field keeps its name."""
    return getattr(cls, "__wire_names__", {})


# ---- field factories ----------------------------------------------------------------


def field(*, schema: Mapping[str, Any] | None = None, **kwargs: Any) -> Any:
    """``attrs.field(**kwargs)`` with ``schema`` (JSON Schema keywords) in its metadata."""
    metadata = dict(kwargs.pop("metadata", None) or {})
    if schema:
        metadata[JSON_SCHEMA] = dict(schema)
    return attrs.field(metadata=metadata, **kwargs)


def optional(**kwargs: Any) -> Any:
    """A field that is either absent from the JSON or holds a value (never null)."""
    metadata = {**(kwargs.pop("metadata", None) or {}), ABSENT_NOT_NULL: True}
    return field(default=None, metadata=metadata, **kwargs)


def optional_text(max_units: int, **kwargs: Any) -> Any:
    """An :func:`optional` bounded text field, with its schema keywords."""
    return optional(validator=text(max_units), schema=text_schema(max_units), **kwargs)


def text_field(max_units: int, *, blank_ok: bool = False, **kwargs: Any) -> Any:
    """A bounded text field (see :func:`text`), with its schema keywords."""
    return field(
        validator=text(max_units, blank_ok=blank_ok),
        schema=text_schema(max_units, blank_ok=blank_ok),
        **kwargs,
    )


def texts_field(
    *, min_items: int, max_items: int, max_units: int, unique: bool = False, **kwargs: Any
) -> Any:
    """A list-of-bounded-texts field (see :func:`texts`), with its schema keywords."""
    bounds = {"min_items": min_items, "max_items": max_items, "max_units": max_units}
    return field(
        validator=texts(**bounds, unique=unique),
        schema=texts_schema(**bounds, unique=unique),
        **kwargs,
    )


def int_field(low: int, high: int = MAX_SAFE_INTEGER, **kwargs: Any) -> Any:
    """An integer field bounded by :func:`int_range`, with ``minimum``/``maximum``."""
    return field(validator=int_range(low, high), schema={"minimum": low, "maximum": high}, **kwargs)


def digest_field(**kwargs: Any) -> Any:
    """A ``sha256:<64 lowercase hex>`` field, with its ``pattern``."""
    return field(validator=sha256_digest, schema={"pattern": SHA256_PATTERN}, **kwargs)


def unique_items_field(**kwargs: Any) -> Any:
    """A non-empty list without duplicates, with ``minItems``/``uniqueItems``."""
    return field(validator=unique_items, schema={"minItems": 1, "uniqueItems": True}, **kwargs)


def text_schema(max_units: int, *, blank_ok: bool = False) -> dict[str, Any]:
    return {"maxLength": max_units, **({} if blank_ok else {"minLength": 1})}


def texts_schema(
    *, min_items: int, max_items: int, max_units: int, unique: bool = False
) -> dict[str, Any]:
    return {
        "minItems": min_items,
        "maxItems": max_items,
        "items": {"minLength": 1, "maxLength": max_units},
        **({"uniqueItems": True} if unique else {}),
    }


# ---- validators ---------------------------------------------------------------------


def text(max_units: int, *, blank_ok: bool = False) -> Validator:
    """Validator: a string of at most ``max_units`` UTF-16 units, non-blank after JS trim."""

    def check(_instance: Any, attribute: attrs.Attribute, value: Any) -> None:
        if value is None:
            return
        _check_text(f".{attribute.name}", value, max_units, blank_ok)

    return check


def _check_text(path: str, value: str, max_units: int, blank_ok: bool) -> None:
    if not blank_ok and not js_trim(value):
        raise FieldInvalid(path, "must not be blank")
    if utf16_len(value) > max_units:
        raise FieldInvalid(path, f"longer than {max_units} UTF-16 units")


def texts(*, min_items: int, max_items: int, max_units: int, unique: bool = False) -> Validator:
    """Validator: a list of ``min_items..max_items`` non-blank bounded texts."""

    def check(_instance: Any, attribute: attrs.Attribute, value: Any) -> None:
        if value is None:
            return
        name = f".{attribute.name}"
        if not min_items <= len(value) <= max_items:
            raise FieldInvalid(name, f"must hold {min_items}..{max_items} items")
        seen: set[str] = set()
        for index, item in enumerate(value):
            _check_text(f"{name}[{index}]", item, max_units, False)
            if unique and item in seen:
                raise FieldInvalid(f"{name}[{index}]", "duplicate item")
            seen.add(item)

    return check


def int_range(low: int, high: int = MAX_SAFE_INTEGER) -> Validator:
    """Validator: ``low <= value <= high`` (``high`` defaults to ``MAX_SAFE_INTEGER``).

    The message names the bounds, never the value.
    """
    shown = "2**53-1" if high == MAX_SAFE_INTEGER else str(high)

    def check(_instance: Any, attribute: attrs.Attribute, value: int) -> None:
        if not low <= value <= high:
            raise FieldInvalid(f".{attribute.name}", f"must be {low}..{shown}")

    return check


def sha256_digest(_instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    """Validator: ``sha256:`` followed by 64 lowercase hex digits."""
    if not is_digest(value):
        raise FieldInvalid(f".{attribute.name}", "must be a sha256:<64 lowercase hex> digest")


def unique_items(_instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    """Validator: a non-empty list without duplicates."""
    if not value:
        raise FieldInvalid(f".{attribute.name}", "must not be empty")
    seen: set[Any] = set()
    for index, item in enumerate(value):
        if item in seen:
            raise FieldInvalid(f".{attribute.name}[{index}]", "duplicate item")
        seen.add(item)
