# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""How a contract failure is told: :class:`ContractError`, one ``"$.path: reason"`` line per
offending value, never the value itself (inputs can hold private text).

The converter's hooks (:mod:`loopx_recall_core.contracts.converter_hooks`) raise
:class:`TypeMismatch` and note an item's index or key (:func:`noted`); :func:`problems`
walks the error with cattrs' ``transform_error`` and a formatter (:func:`_reason`) that
never writes the offending value, and shows a key only if it is a plain field name
(:func:`loopx_recall_core.jsonio.shown_key`). cattrs is imported where used.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from loopx_recall_core.contracts.fields import FieldInvalid

__all__ = ["ContractError", "ShownKey", "TypeMismatch", "json_type", "noted", "problems"]


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


def json_type(value: object) -> str:
    for kind, name in _JSON_TYPES:
        if isinstance(value, kind):
            return name
    return type(value).__name__


class TypeMismatch(TypeError):
    """A value of the wrong JSON type: ``reason`` names both types, never the value."""

    def __init__(self, expected: str, value: object) -> None:
        self.reason = f"expected {expected}, got {json_type(value)}"
        super().__init__(self.reason)


def _echo_key(key: object) -> str:
    # a plain field name is named; any other key is ``[<key>]``, never echoed
    from loopx_recall_core.jsonio import shown_key

    return shown_key(key)


class ShownKey:
    """A key as a path shows it (``transform_error`` writes its ``repr``): a field name
    quoted, another string ``<key>`` (``$.counts[<key>]``), another type ``<int>``..."""

    __slots__ = ("shown",)

    def __init__(self, key: object) -> None:
        shown = _echo_key(key) if isinstance(key, str) else f"[<{json_type(key)}>]"
        self.shown = shown[1:-1] if shown.startswith("[<") else shown

    def __repr__(self) -> str:
        return self.shown


def noted(exc: Exception, index: int | ShownKey, item_type: Any) -> Exception:
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
    elif isinstance(exc, TypeMismatch):
        reason = f": {exc.reason}"
    elif isinstance(exc, KeyError):
        reason = ": required field missing"
    elif isinstance(exc, ValueError) and exc.args and isinstance(exc.args[0], str):
        reason = f": {exc.args[0]}"
    else:
        # Anything else is a bug in a contract, not bad input; never echo its text.
        reason = f": invalid value ({type(exc).__name__})"
    return reason + _END


def problems(exc: BaseException) -> Iterable[str]:
    """``"$.path: reason"`` lines for ``exc``, walked by cattrs' ``transform_error``."""
    from cattrs import transform_error

    for line in transform_error(exc, "$", _reason):
        reasons, _sep, path = line.partition(_END + " @ ")
        for reason in reasons.split(_NEXT):
            yield path + reason
