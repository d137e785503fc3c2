# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The one strict JSON reader for everything this package reads: CLI inputs, state,
private records and provider output.

Python's ``json`` accepts what a hostile or odd file can use against a reader: the last of
two duplicate keys wins silently (``"status":"failed","status":"succeeded"`` reads as
succeeded), ``NaN``/``Infinity`` are not JSON and ``1e999`` reads as ``inf`` (no field of
ours is a non-finite number), a 5,000-digit integer raises an unrelated ``ValueError``,
and deep nesting raises ``RecursionError``. Here each is one :class:`JsonInputError` whose
message names a position, a JSON path or a bound, never the content.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

__all__ = ["MAX_INT_DIGITS", "JsonInputError", "loads"]

#: Integers longer than this (sign excluded) are rejected: no field of ours needs more
#: than a JavaScript safe integer (16 digits), and big ones cost quadratic time to parse.
MAX_INT_DIGITS = 20


class JsonInputError(ValueError):
    """The text is not acceptable JSON; the message is safe to print (no content)."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise JsonInputError("duplicate key in a JSON object")
        result[key] = value
    return result


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise JsonInputError(f"integer longer than {MAX_INT_DIGITS} digits")
    return int(text)


class _NonFinite:
    """Stands in for a non-finite number while parsing, so that the number's JSON path
    can be named afterwards (the parser's callbacks do not know where they are)."""


_NON_FINITE = _NonFinite()
#: A key shown in a path: a plain field name, as every key of our records is. Any other
#: key may be private text (a session id, a term) and is shown as ``[<key>]``.
_FIELD_NAME = re.compile(r"[a-z_][a-z0-9_]{0,63}")


def shown_key(key: object) -> str:
    """A key as an error message may show it: a plain field name quoted, anything else
    ``[<key>]`` (never echoed: it may be a token pasted as a key, a term, a session id)."""
    return repr(key) if isinstance(key, str) and _FIELD_NAME.fullmatch(key) else "[<key>]"


def _non_finite_path(value: Any) -> str:
    """The JSON path of the first stand-in in ``value``, depth first in document order
    (iterative: the parser allows nesting deeper than Python's recursion limit here)."""
    pending: list[tuple[str, Any]] = [("$", value)]
    while pending:
        path, item = pending.pop()
        if item is _NON_FINITE:
            return path
        if isinstance(item, dict):
            children = [
                (f"{path}.{key}" if _FIELD_NAME.fullmatch(key) else f"{path}[<key>]", child)
                for key, child in item.items()
            ]
        elif isinstance(item, list):
            children = [(f"{path}[{index}]", child) for index, child in enumerate(item)]
        else:
            continue
        pending.extend(reversed(children))
    return "$"  # not reached: loads() walks only a value holding a stand-in


def loads(data: bytes | str) -> Any:
    """Parse ``data`` (UTF-8 when bytes) strictly, or raise :class:`JsonInputError`."""
    non_finite: list[bool] = []  # the document is walked for a path only when one was seen

    def constant(_name: str) -> _NonFinite:  # NaN, Infinity, -Infinity
        non_finite.append(True)
        return _NON_FINITE

    def number(text: str) -> float | _NonFinite:
        parsed = float(text)
        if math.isfinite(parsed):
            return parsed
        non_finite.append(True)  # 1e999 reads as inf
        return _NON_FINITE

    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        value = json.loads(
            text,
            object_pairs_hook=_pairs,
            parse_int=_integer,
            parse_float=number,
            parse_constant=constant,
        )
    except UnicodeDecodeError:
        raise JsonInputError("not UTF-8") from None
    except json.JSONDecodeError as exc:
        raise JsonInputError(f"not valid JSON (line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        # the C scanner recurses once per nesting level
        raise JsonInputError("JSON nests too deeply") from None
    if non_finite:
        raise JsonInputError(f"{_non_finite_path(value)}: not a finite number")
    return value
