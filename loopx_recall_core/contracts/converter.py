# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The one strict cattrs converter, and the field helpers every contract is built from.

Strict means: unknown keys are rejected, nothing is coerced (``"5"`` is not an int,
``"false"`` is not a bool, a string is not a list, ``true`` is not ``1``), ``Literal``
values must match in type as well as value, and an optional field is either absent or
holds a value (never ``null``). Every error names the JSON path of the offending value and
never repeats the value itself, because inputs can hold private text.

The converter is built on first use (:func:`get_converter`, or the module attribute
``converter``): the field helpers below are needed at import by every record class, cattrs
only by a command that structures or unstructures one.
"""

from __future__ import annotations

import threading
import typing
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import attrs

if TYPE_CHECKING:
    import cattrs

from loopx_recall_core.canonical import is_digest, js_trim, utf16_len

__all__ = [
    "MAX_SAFE_INTEGER",
    "ContractError",
    "FieldInvalid",
    "converter",  # noqa: F822 - made on first use by the module __getattr__
    "get_converter",
    "structure",
    "unstructure",
]

T = TypeVar("T")

_ABSENT_NOT_NULL = "loopx_absent_not_null"

#: JavaScript's ``Number.MAX_SAFE_INTEGER``: no contract integer (a count, a size, a limit)
#: may leave ``-MAX_SAFE_INTEGER..MAX_SAFE_INTEGER``, so every reader, including LoopX's
#: TypeScript side, holds it exactly; fields narrow it further with ``int_range``.
MAX_SAFE_INTEGER = 2**53 - 1
_MAX_KEY_ECHO = 64


class ContractError(ValueError):
    """A JSON value does not satisfy a v0 contract.

    ``problems`` holds one ``"$.path: reason"`` line per offending value; ``str()`` joins
    them. No line contains an input value, only paths, type names and bounds.
    """

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems: tuple[str, ...] = tuple(problems)
        super().__init__("; ".join(self.problems))


class FieldInvalid(ValueError):
    """Raised by contract validators: ``path`` is relative to the record being built."""

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list | tuple):
        return "list"
    if isinstance(value, dict):
        return "object"
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


def _tuple_hook(tuple_type: Any) -> Callable[[object, type], tuple[Any, ...]]:
    (item_type, *_rest) = typing.get_args(tuple_type) or (Any,)

    def structure_tuple(value: object, _: type) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple):
            raise _TypeMismatch("list", value)
        items, errors = [], []
        for index, item in enumerate(value):
            try:
                items.append(get_converter().structure(item, item_type))
            except Exception as exc:  # noqa: BLE001 - collected with their index
                exc.__notes__ = [*getattr(exc, "__notes__", []), f"[{index}]"]
                errors.append(exc)
        if errors:
            from cattrs.errors import IterableValidationError

            raise IterableValidationError("invalid items", errors, tuple_type)
        return tuple(items)

    return structure_tuple


def _mapping_hook(mapping_type: Any) -> Callable[[object, type], dict[str, Any]]:
    key_type, value_type = typing.get_args(mapping_type) or (str, Any)

    def structure_mapping(value: object, _: type) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise _TypeMismatch("object", value)
        result, errors = {}, []
        for key, item in value.items():
            try:
                structure_one = get_converter().structure
                result[structure_one(key, key_type)] = structure_one(item, value_type)
            except Exception as exc:  # noqa: BLE001 - collected with their key
                exc.__notes__ = [*getattr(exc, "__notes__", []), f"[{_echo_key(key)}]"]
                errors.append(exc)
        if errors:
            from cattrs.errors import IterableValidationError

            raise IterableValidationError("invalid entries", errors, mapping_type)
        return result

    return structure_mapping


def _attrs_hook(cls: type) -> Callable[[object, type], Any]:
    from cattrs.gen import make_dict_structure_fn

    generated = make_dict_structure_fn(
        cls, get_converter(), _cattrs_forbid_extra_keys=True, _cattrs_detailed_validation=True
    )
    absent_not_null = [
        field.name for field in attrs.fields(cls) if field.metadata.get(_ABSENT_NOT_NULL)
    ]

    def structure_record(value: object, _: type) -> Any:
        if not isinstance(value, dict):
            raise _TypeMismatch("object", value)
        for name in absent_not_null:
            if name in value and value[name] is None:
                raise FieldInvalid(f".{name}", "must be absent or hold a value, not null")
        return generated(value, cls)

    return structure_record


_built: list[cattrs.Converter] = []
_build_lock = threading.Lock()


def get_converter() -> cattrs.Converter:
    """The one strict converter, built (and cattrs imported) on the first call."""
    if _built:
        return _built[0]
    with _build_lock:
        if not _built:
            _built.append(_build())
    return _built[0]


def _build() -> cattrs.Converter:
    import cattrs

    converter = cattrs.Converter(
        forbid_extra_keys=True, detailed_validation=True, omit_if_default=True
    )
    converter.register_structure_hook(str, _structure_str)
    converter.register_structure_hook(int, _structure_int)
    converter.register_structure_hook(bool, _structure_bool)
    converter.register_structure_hook_factory(
        lambda t: typing.get_origin(t) is Literal, _literal_hook
    )
    converter.register_structure_hook_factory(lambda t: typing.get_origin(t) is tuple, _tuple_hook)
    converter.register_structure_hook_factory(lambda t: typing.get_origin(t) is dict, _mapping_hook)
    converter.register_structure_hook_factory(attrs.has, _attrs_hook)
    converter.register_unstructure_hook_factory(
        lambda t: typing.get_origin(t) is tuple,
        lambda t: lambda value: [converter.unstructure(v) for v in value],
    )
    return converter


def __getattr__(name: str) -> Any:
    # ``from loopx_recall_core.contracts.converter import converter`` keeps working.
    if name == "converter":
        return get_converter()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _echo_key(key: object) -> str:
    if not isinstance(key, str):
        return f"<{_json_type(key)}>"
    shown = key if len(key) <= _MAX_KEY_ECHO else key[:_MAX_KEY_ECHO] + "..."
    return repr(shown)


def _problems(exc: BaseException, path: str) -> Iterable[str]:
    from cattrs.errors import (
        ClassValidationError,
        ForbiddenExtraKeysError,
        IterableValidationError,
    )

    if isinstance(exc, ClassValidationError):
        with_notes, without = exc.group_exceptions()
        for inner, note in with_notes:
            yield from _problems(inner, f"{path}.{note.name}")
        for inner in without:
            yield from _problems(inner, path)
    elif isinstance(exc, IterableValidationError):
        for inner in exc.exceptions:
            notes = [n for n in getattr(inner, "__notes__", []) if isinstance(n, str)]
            index = next((n for n in reversed(notes) if n.startswith("[")), "")
            yield from _problems(inner, f"{path}{index}")
    elif isinstance(exc, ForbiddenExtraKeysError):
        for key in sorted(exc.extra_fields, key=str):
            yield f"{path}: unknown field {_echo_key(key)}"
    elif isinstance(exc, FieldInvalid):
        yield f"{path}{exc.path}: {exc.reason}"
    elif isinstance(exc, _TypeMismatch):
        yield f"{path}: {exc.reason}"
    elif isinstance(exc, KeyError):
        yield f"{path}: required field missing"
    elif isinstance(exc, ValueError) and exc.args and isinstance(exc.args[0], str):
        yield f"{path}: {exc.args[0]}"
    else:
        # Anything else is a bug in a contract, not bad input; never echo its text.
        yield f"{path}: invalid value ({type(exc).__name__})"


def structure(value: object, cls: type[T]) -> T:
    """Build ``cls`` from JSON-like ``value`` strictly, or raise :class:`ContractError`."""
    converter = get_converter()
    from cattrs.errors import (
        ClassValidationError,
        ForbiddenExtraKeysError,
        IterableValidationError,
    )

    try:
        return converter.structure(value, cls)
    except (ClassValidationError, IterableValidationError) as exc:
        raise ContractError(_problems(exc, "$")) from None
    except (FieldInvalid, _TypeMismatch, ForbiddenExtraKeysError) as exc:
        raise ContractError(_problems(exc, "$")) from None


def unstructure(record: object) -> Any:
    """JSON-like form of a contract record; optional fields left unset are omitted."""
    return get_converter().unstructure(record)


# ---- field helpers ------------------------------------------------------------------


def _with_schema(check: Callable[..., None], **schema: Any) -> Callable[..., None]:
    # The JSON Schema generator reads these keywords. JSON Schema's maxLength counts code
    # points while the host counts UTF-16 units: the stricter host check is authoritative.
    check.json_schema = schema  # type: ignore[attr-defined]
    return check


def optional(**kwargs: Any) -> Any:
    """An attrs field that is either absent from the JSON or holds a value (never null)."""
    metadata = {**kwargs.pop("metadata", {}), _ABSENT_NOT_NULL: True}
    return attrs.field(default=None, metadata=metadata, **kwargs)


def text(max_units: int, *, blank_ok: bool = False) -> Callable[[Any, Any, Any], None]:
    """Validator: a string of at most ``max_units`` UTF-16 units, non-blank after JS trim."""

    def check(_instance: Any, attribute: attrs.Attribute, value: Any) -> None:
        if value is None:
            return
        _check_text(f".{attribute.name}", value, max_units, blank_ok)

    return _with_schema(check, maxLength=max_units, **({} if blank_ok else {"minLength": 1}))


def _check_text(path: str, value: str, max_units: int, blank_ok: bool) -> None:
    if not blank_ok and not js_trim(value):
        raise FieldInvalid(path, "must not be blank")
    if utf16_len(value) > max_units:
        raise FieldInvalid(path, f"longer than {max_units} UTF-16 units")


def texts(
    *, min_items: int, max_items: int, max_units: int, unique: bool = False
) -> Callable[[Any, Any, Any], None]:
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

    return _with_schema(
        check,
        minItems=min_items,
        maxItems=max_items,
        items={"minLength": 1, "maxLength": max_units},
        **({"uniqueItems": True} if unique else {}),
    )


def int_range(low: int, high: int = MAX_SAFE_INTEGER) -> Callable[[Any, Any, Any], None]:
    """Validator: ``low <= value <= high`` (``high`` defaults to ``MAX_SAFE_INTEGER``).

    The message names the bounds, never the value.
    """
    shown = "2**53-1" if high == MAX_SAFE_INTEGER else str(high)

    def check(_instance: Any, attribute: attrs.Attribute, value: int) -> None:
        if not low <= value <= high:
            raise FieldInvalid(f".{attribute.name}", f"must be {low}..{shown}")

    return _with_schema(check, minimum=low, maximum=high)


def sha256_digest(_instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    """Validator: ``sha256:`` followed by 64 lowercase hex digits."""
    if not is_digest(value):
        raise FieldInvalid(f".{attribute.name}", "must be a sha256:<64 lowercase hex> digest")


sha256_digest.json_schema = {"pattern": "^sha256:[0-9a-f]{64}$"}  # type: ignore[attr-defined]


def unique_items(_instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    """Validator: a non-empty list without duplicates."""
    if not value:
        raise FieldInvalid(f".{attribute.name}", "must not be empty")
    seen: set[Any] = set()
    for index, item in enumerate(value):
        if item in seen:
            raise FieldInvalid(f".{attribute.name}[{index}]", "duplicate item")
        seen.add(item)


unique_items.json_schema = {"minItems": 1, "uniqueItems": True}  # type: ignore[attr-defined]
