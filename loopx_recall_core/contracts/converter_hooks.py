# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The strict converter's structure and unstructure hooks, registered in steps by
:func:`register_hooks` (the layout of lsprotocol's ``_hooks.register_hooks``, which its
``converters.get_converter`` calls on a new ``cattrs.Converter``).

Strict means: unknown keys are rejected, nothing is coerced (``"5"`` is not an int,
``"false"`` is not a bool, a string is not a list, ``true`` is not ``1``), ``Literal``
values must match in type as well as value, and an optional field is either absent or
holds a value (never ``null``). A hook raises :class:`.converter_errors.TypeMismatch` or
a ``ValueError`` naming a bound, never the value.

Unstructuring writes fields in declaration order (LoopX's key order) and omits a field
holding its default, unless the field is marked ``ALWAYS_WRITTEN`` (the external-evidence
wire writes ``null`` and ``[]`` for those): one cattrs ``make_dict_unstructure_fn`` per
record class, with ``override(omit_if_default=True)`` on the omissible fields. A record
whose names on the wire differ from its field names declares them (``__wire_names__``,
:func:`loopx_recall_core.contracts.fields.wire_names`): ``override(rename=...)`` writes and
reads them, and a problem names the field as the wire does.

cattrs is imported by the functions that use it, never at import.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal

import attrs

if TYPE_CHECKING:
    import cattrs

from loopx_recall_core.contracts.converter_errors import ShownKey, TypeMismatch, noted
from loopx_recall_core.contracts.fields import (
    ABSENT_NOT_NULL,
    ALWAYS_WRITTEN,
    MAX_SAFE_INTEGER,
    FieldInvalid,
    wire_names,
)

__all__ = ["register_hooks"]


def register_hooks(converter: cattrs.Converter) -> cattrs.Converter:
    """Every contract hook, registered on ``converter``; returns it."""
    _register_scalar_hooks(converter)
    _register_container_hooks(converter)
    _register_record_hooks(converter)
    return converter


def _register_scalar_hooks(converter: cattrs.Converter) -> None:
    """``str``, ``int``, ``bool`` and ``Literal`` values, taken as they are (no coercion)."""
    converter.register_structure_hook(str, _structure_str)
    converter.register_structure_hook(int, _structure_int)
    converter.register_structure_hook(bool, _structure_bool)
    converter.register_structure_hook_factory(
        lambda t: typing.get_origin(t) is Literal, _literal_hook
    )


def _register_container_hooks(converter: cattrs.Converter) -> None:
    """Tuples from JSON lists, string-keyed mappings from objects, and back; an optional
    value unstructures as its inner type, or ``None``."""
    converter.register_structure_hook_factory(
        lambda t: typing.get_origin(t) is tuple, _tuple_hook(converter)
    )
    converter.register_structure_hook_factory(
        lambda t: typing.get_origin(t) is dict, _mapping_hook(converter)
    )
    converter.register_unstructure_hook_factory(
        lambda t: typing.get_origin(t) is tuple,
        lambda t: lambda value: [converter.unstructure(v) for v in value],
    )
    converter.register_unstructure_hook_factory(_is_optional, _unstructure_optional(converter))


def _register_record_hooks(converter: cattrs.Converter) -> None:
    """attrs records: unknown keys refused, ``null`` refused where a field must be absent;
    written in declaration order, defaults left out unless ``ALWAYS_WRITTEN``."""
    converter.register_structure_hook_factory(attrs.has, _attrs_structure_hook(converter))
    converter.register_unstructure_hook_factory(attrs.has, _attrs_unstructure_hook(converter))


# ---- scalars --------------------------------------------------------------------------


def _structure_str(value: object, _: type) -> str:
    if not isinstance(value, str):
        raise TypeMismatch("str", value)
    return value


def _structure_int(value: object, _: type) -> int:
    if type(value) is not int:
        raise TypeMismatch("int", value)
    if not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
        raise ValueError("integer outside the safe range (magnitude above 2**53-1)")
    return value


def _structure_bool(value: object, _: type) -> bool:
    if type(value) is not bool:
        raise TypeMismatch("bool", value)
    return value


def _literal_hook(literal: Any) -> Callable[[object, type], object]:
    allowed = typing.get_args(literal)

    def structure_literal(value: object, _: type) -> object:
        for candidate in allowed:
            if type(candidate) is type(value) and candidate == value:
                return value
        shown = " | ".join(_show_literal(candidate) for candidate in allowed)
        raise (
            TypeMismatch(shown, value)
            if not _same_kind(allowed, value)
            else ValueError(f"expected {shown}")
        )

    return structure_literal


def _show_literal(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else str(value)


def _same_kind(allowed: tuple[object, ...], value: object) -> bool:
    return any(type(candidate) is type(value) for candidate in allowed)


# ---- containers -----------------------------------------------------------------------


def _tuple_hook(
    converter: cattrs.Converter,
) -> Callable[[Any], Callable[[object, type], tuple[Any, ...]]]:
    def factory(tuple_type: Any) -> Callable[[object, type], tuple[Any, ...]]:
        (item_type, *_rest) = typing.get_args(tuple_type) or (Any,)

        def structure_tuple(value: object, _: type) -> tuple[Any, ...]:
            if not isinstance(value, list | tuple):
                raise TypeMismatch("list", value)
            items, errors = [], []
            for index, item in enumerate(value):
                try:
                    items.append(converter.structure(item, item_type))
                except Exception as exc:  # noqa: BLE001 - collected with their index
                    errors.append(noted(exc, index, item_type))
            if errors:
                from cattrs.errors import IterableValidationError

                raise IterableValidationError("invalid items", errors, tuple_type)
            return tuple(items)

        return structure_tuple

    return factory


def _mapping_hook(
    converter: cattrs.Converter,
) -> Callable[[Any], Callable[[object, type], dict[str, Any]]]:
    def factory(mapping_type: Any) -> Callable[[object, type], dict[str, Any]]:
        key_type, value_type = typing.get_args(mapping_type) or (str, Any)

        def structure_mapping(value: object, _: type) -> dict[str, Any]:
            if not isinstance(value, dict):
                raise TypeMismatch("object", value)
            result, errors = {}, []
            for key, item in value.items():
                try:
                    structure_one = converter.structure
                    result[structure_one(key, key_type)] = structure_one(item, value_type)
                except Exception as exc:  # noqa: BLE001 - collected with their key
                    errors.append(noted(exc, ShownKey(key), value_type))
            if errors:
                from cattrs.errors import IterableValidationError

                raise IterableValidationError("invalid entries", errors, mapping_type)
            return result

        return structure_mapping

    return factory


def _unstructure_optional(
    converter: cattrs.Converter,
) -> Callable[[Any], Callable[[Any], Any]]:
    def factory(optional_type: Any) -> Callable[[Any], Any]:
        (inner,) = [a for a in typing.get_args(optional_type) if a is not type(None)]
        inner_hook = converter.get_unstructure_hook(inner)
        return lambda value: None if value is None else inner_hook(value)

    return factory


def _is_optional(annotation: Any) -> bool:
    args = typing.get_args(annotation)
    return (
        typing.get_origin(annotation) in (typing.Union, types.UnionType)
        and len(args) == 2
        and type(None) in args
    )


# ---- attrs records --------------------------------------------------------------------


def _attrs_structure_hook(
    converter: cattrs.Converter,
) -> Callable[[type], Callable[[object, type], Any]]:
    from cattrs.errors import ClassValidationError
    from cattrs.gen import make_dict_structure_fn, override

    def factory(cls: type) -> Callable[[object, type], Any]:
        renamed = wire_names(cls)
        generated = make_dict_structure_fn(
            cls,
            converter,
            _cattrs_forbid_extra_keys=True,
            _cattrs_detailed_validation=True,
            **{name: override(rename=wire) for name, wire in renamed.items()},
        )
        absent_not_null = [
            renamed.get(field.name, field.name)
            for field in attrs.fields(cls)
            if field.metadata.get(ABSENT_NOT_NULL)
        ]

        def structure_record(value: object, _: type) -> Any:
            if not isinstance(value, dict):
                raise TypeMismatch("object", value)
            for name in absent_not_null:
                if name in value and value[name] is None:
                    raise FieldInvalid(f".{name}", "must be absent or hold a value, not null")
            if not renamed:
                return generated(value, cls)
            try:
                return generated(value, cls)
            except ClassValidationError as exc:
                _name_on_the_wire(exc, renamed)
                raise

        return structure_record

    return factory


def _name_on_the_wire(error: Any, renamed: Mapping[str, str]) -> None:
    """cattrs notes a failing field by its attribute name, and a validator's path names
    it too: a renamed field's problem is told by the name it has on the wire."""
    for exc in error.exceptions:
        notes = getattr(exc, "__notes__", None)
        if notes:
            exc.__notes__ = [
                type(note)(str(note), renamed[note.name], note.type)
                if getattr(note, "name", None) in renamed
                else note
                for note in notes
            ]
        if isinstance(exc, FieldInvalid):
            head = re.match(r"\.(\w+)", exc.path)
            if head is not None and head[1] in renamed:
                exc.path = f".{renamed[head[1]]}{exc.path[head.end() :]}"


def _attrs_unstructure_hook(
    converter: cattrs.Converter,
) -> Callable[[type], Callable[[Any], dict[str, Any]]]:
    from cattrs.gen import make_dict_unstructure_fn, override

    def factory(cls: type) -> Callable[[Any], dict[str, Any]]:
        # A field with a default is omitted while it holds it, unless ALWAYS_WRITTEN;
        # a field without one is always written. A field is written under its wire name.
        renamed = wire_names(cls)
        omissible = {
            field.name
            for field in attrs.fields(cls)
            if field.default is not attrs.NOTHING and not field.metadata.get(ALWAYS_WRITTEN)
        }
        overrides = {
            name: override(omit_if_default=name in omissible or None, rename=renamed.get(name))
            for name in omissible | renamed.keys()
        }
        generated = make_dict_unstructure_fn(
            cls, converter, _cattrs_omit_if_default=False, **overrides
        )
        if not omissible:
            return generated
        # cattrs writes the omissible fields after the others; restore declaration order.
        order = [renamed.get(field.name, field.name) for field in attrs.fields(cls)]

        def unstructure_record(record: Any) -> dict[str, Any]:
            written = generated(record)
            return {name: written[name] for name in order if name in written}

        return unstructure_record

    return factory
