# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The strict cattrs converter every contract record goes through.

Strict means: unknown keys are rejected, nothing is coerced (``"5"`` is not an int,
``"false"`` is not a bool, a string is not a list, ``true`` is not ``1``), ``Literal``
values must match in type as well as value, and an optional field is either absent or
holds a value (never ``null``). Every error names the JSON path of the offending value and
never repeats the value itself, because inputs can hold private text.

Unstructuring writes fields in declaration order (LoopX's key order) and omits a field
holding its default, unless the field is marked ``ALWAYS_WRITTEN`` (the external-evidence
wire writes ``null`` and ``[]`` for those): one cattrs ``make_dict_unstructure_fn`` per
record class, with ``override(omit_if_default=True)`` on the omissible fields.

:func:`make_converter` builds a new, independent converter in steps, as lsprotocol does
(``_register_*_hooks(converter)``); nothing is registered on a shared one at import.
:func:`structure` and :func:`unstructure` use one built on first use (:func:`get_converter`):
the field helpers (:mod:`loopx_recall_core.contracts.fields`) are needed at import by every
record class, cattrs only by a command that structures or unstructures one. Errors become
problem lines through cattrs' ``transform_error``, with a formatter that never writes the
offending value, and shows a key only if it is a plain field name (:func:`_echo_key`).
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import attrs

if TYPE_CHECKING:
    import cattrs

from loopx_recall_core.contracts.fields import (
    ABSENT_NOT_NULL,
    ALWAYS_WRITTEN,
    MAX_SAFE_INTEGER,
    FieldInvalid,
)

__all__ = [
    "MAX_SAFE_INTEGER",
    "ContractError",
    "FieldInvalid",
    "get_converter",
    "make_converter",
    "structure",
    "unstructure",
]

T = TypeVar("T")



class ContractError(ValueError):
    """A JSON value does not satisfy a v0 contract.

    ``problems`` holds one ``"$.path: reason"`` line per offending value; ``str()`` joins
    them. No line contains an input value, only paths, type names and bounds.
    """

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems: tuple[str, ...] = tuple(problems)
        super().__init__("; ".join(self.problems))


#: JSON's name for a Python value's type, most specific first (a bool is an int).
_JSON_TYPES = ((bool, "bool"), (int, "int"), (float, "float"), (str, "str"))
_JSON_TYPES += ((list | tuple, "list"), (dict, "object"), (type(None), "null"))


def _json_type(value: object) -> str:
    for kind, name in _JSON_TYPES:
        if isinstance(value, kind):
            return name
    return type(value).__name__


class _TypeMismatch(TypeError):
    def __init__(self, expected: str, value: object) -> None:
        self.reason = f"expected {expected}, got {_json_type(value)}"
        super().__init__(self.reason)


def _structure_str(value: object, _: type) -> str:
    if not isinstance(value, str):
        raise _TypeMismatch("str", value)
    return value


def _structure_int(value: object, _: type) -> int:
    if type(value) is not int:
        raise _TypeMismatch("int", value)
    if not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
        raise ValueError("integer outside the safe range (magnitude above 2**53-1)")
    return value


def _structure_bool(value: object, _: type) -> bool:
    if type(value) is not bool:
        raise _TypeMismatch("bool", value)
    return value


def _literal_hook(literal: Any) -> Callable[[object, type], object]:
    allowed = typing.get_args(literal)

    def structure_literal(value: object, _: type) -> object:
        for candidate in allowed:
            if type(candidate) is type(value) and candidate == value:
                return value
        shown = " | ".join(_show_literal(candidate) for candidate in allowed)
        raise (
            _TypeMismatch(shown, value)
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


def _tuple_hook(
    converter: cattrs.Converter,
) -> Callable[[Any], Callable[[object, type], tuple[Any, ...]]]:
    def factory(tuple_type: Any) -> Callable[[object, type], tuple[Any, ...]]:
        (item_type, *_rest) = typing.get_args(tuple_type) or (Any,)

        def structure_tuple(value: object, _: type) -> tuple[Any, ...]:
            if not isinstance(value, list | tuple):
                raise _TypeMismatch("list", value)
            items, errors = [], []
            for index, item in enumerate(value):
                try:
                    items.append(converter.structure(item, item_type))
                except Exception as exc:  # noqa: BLE001 - collected with their index
                    errors.append(_noted(exc, index, item_type))
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
                raise _TypeMismatch("object", value)
            result, errors = {}, []
            for key, item in value.items():
                try:
                    structure_one = converter.structure
                    result[structure_one(key, key_type)] = structure_one(item, value_type)
                except Exception as exc:  # noqa: BLE001 - collected with their key
                    errors.append(_noted(exc, _ShownKey(key), value_type))
            if errors:
                from cattrs.errors import IterableValidationError

                raise IterableValidationError("invalid entries", errors, mapping_type)
            return result

        return structure_mapping

    return factory


def _attrs_structure_hook(
    converter: cattrs.Converter,
) -> Callable[[type], Callable[[object, type], Any]]:
    from cattrs.gen import make_dict_structure_fn

    def factory(cls: type) -> Callable[[object, type], Any]:
        generated = make_dict_structure_fn(
            cls, converter, _cattrs_forbid_extra_keys=True, _cattrs_detailed_validation=True
        )
        absent_not_null = [
            field.name for field in attrs.fields(cls) if field.metadata.get(ABSENT_NOT_NULL)
        ]

        def structure_record(value: object, _: type) -> Any:
            if not isinstance(value, dict):
                raise _TypeMismatch("object", value)
            for name in absent_not_null:
                if name in value and value[name] is None:
                    raise FieldInvalid(f".{name}", "must be absent or hold a value, not null")
            return generated(value, cls)

        return structure_record

    return factory


def _attrs_unstructure_hook(
    converter: cattrs.Converter,
) -> Callable[[type], Callable[[Any], dict[str, Any]]]:
    from cattrs.gen import make_dict_unstructure_fn, override

    def factory(cls: type) -> Callable[[Any], dict[str, Any]]:
        # A field with a default is omitted while it holds it, unless ALWAYS_WRITTEN;
        # a field without one is always written. Names on the wire are the field names.
        omissible = {
            field.name: override(omit_if_default=True)
            for field in attrs.fields(cls)
            if field.default is not attrs.NOTHING and not field.metadata.get(ALWAYS_WRITTEN)
        }
        generated = make_dict_unstructure_fn(
            cls, converter, _cattrs_omit_if_default=False, **omissible
        )
        if not omissible:
            return generated
        # cattrs writes the omissible fields after the others; restore declaration order.
        order = [field.name for field in attrs.fields(cls)]

        def unstructure_record(record: Any) -> dict[str, Any]:
            written = generated(record)
            return {name: written[name] for name in order if name in written}

        return unstructure_record

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


def make_converter() -> cattrs.Converter:
    """A new strict converter with every contract hook registered on it (imports cattrs).

    Each call returns an independent converter: registering a hook on one does not change
    another, nor the one :func:`structure` and :func:`unstructure` use.
    """
    import cattrs

    converter = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
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


@functools.cache
def get_converter() -> cattrs.Converter:
    """The converter :func:`structure` and :func:`unstructure` use, made on the first call
    (two threads racing on it may each build one, alike; the cache keeps one)."""
    return make_converter()


def _echo_key(key: object) -> str:
    # a plain field name is named; any other key is ``[<key>]``, never echoed (issue 29)
    from loopx_recall_core.jsonio import shown_key

    return shown_key(key)


class _ShownKey:
    """A key as a path shows it (``transform_error`` writes its ``repr``): a field name
    quoted, another string ``<key>`` (``$.counts[<key>]``), another type ``<int>``..."""

    __slots__ = ("shown",)

    def __init__(self, key: object) -> None:
        shown = _echo_key(key) if isinstance(key, str) else f"[<{_json_type(key)}>]"
        self.shown = shown[1:-1] if shown.startswith("[<") else shown

    def __repr__(self) -> str:
        return self.shown


def _noted(exc: Exception, index: int | _ShownKey, item_type: Any) -> Exception:
    """``exc`` noted with its index or key as cattrs' walker reads it (not in the text)."""
    from cattrs.errors import IterableValidationNote

    note = IterableValidationNote("invalid item", index, item_type)  # type: ignore[arg-type]
    exc.__notes__ = [*getattr(exc, "__notes__", []), note]
    return exc


#: Ends what :func:`_reason` writes, and parts one reason from the next: ``repr`` escapes
#: both characters, so neither an echoed key nor a path can hold them.
_END, _NEXT = "\x00", "\x01"


def _reason(exc: BaseException, _type: object) -> str:
    """What follows the path in the problem lines of ``exc`` (one per ``_NEXT``): the
    formatter handed to cattrs' ``transform_error``. Never the offending value."""
    from cattrs.errors import ForbiddenExtraKeysError

    if isinstance(exc, ForbiddenExtraKeysError):
        keys = sorted(exc.extra_fields, key=str)
        return _NEXT.join(f": unknown field {_echo_key(key)}" for key in keys) + _END
    if isinstance(exc, FieldInvalid):
        reason = f"{exc.path}: {exc.reason}"
    elif isinstance(exc, _TypeMismatch):
        reason = f": {exc.reason}"
    elif isinstance(exc, KeyError):
        reason = ": required field missing"
    elif isinstance(exc, ValueError) and exc.args and isinstance(exc.args[0], str):
        reason = f": {exc.args[0]}"
    else:
        # Anything else is a bug in a contract, not bad input; never echo its text.
        reason = f": invalid value ({type(exc).__name__})"
    return reason + _END


def _problems(exc: BaseException) -> Iterable[str]:
    """``"$.path: reason"`` lines for ``exc``, walked by cattrs' ``transform_error``."""
    from cattrs import transform_error

    for line in transform_error(exc, "$", _reason):
        reasons, _sep, path = line.partition(_END + " @ ")
        for reason in reasons.split(_NEXT):
            yield path + reason


def structure(value: object, cls: type[T]) -> T:
    """Build ``cls`` from JSON-like ``value`` strictly, or raise :class:`ContractError`."""
    converter = get_converter()
    from cattrs.errors import BaseValidationError, ForbiddenExtraKeysError

    try:
        return converter.structure(value, cls)
    except (BaseValidationError, FieldInvalid, _TypeMismatch, ForbiddenExtraKeysError) as exc:
        raise ContractError(_problems(exc)) from None


def unstructure(record: object) -> Any:
    """JSON-like form of a contract record; optional fields left unset are omitted."""
    return get_converter().unstructure(record)
