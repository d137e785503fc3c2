# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The one strict JSON reader for everything this package reads: CLI inputs, state,
private records and provider output.

Python's ``json`` accepts what a hostile or odd file can use against a reader: the last of
two duplicate keys wins silently (``"status":"failed","status":"succeeded"`` reads as
succeeded), ``NaN``/``Infinity`` are not JSON, a 5,000-digit integer raises an unrelated
``ValueError``, and deep nesting raises ``RecursionError``. Here each is one
:class:`JsonInputError` whose message names a position or a bound, never the content.
"""

from __future__ import annotations

import json
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


def _constant(name: str) -> Any:
    raise JsonInputError(f"{name} is not JSON")


def loads(data: bytes | str) -> Any:
    """Parse ``data`` (UTF-8 when bytes) strictly, or raise :class:`JsonInputError`."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        return json.loads(
            text, object_pairs_hook=_pairs, parse_int=_integer, parse_constant=_constant
        )
    except UnicodeDecodeError:
        raise JsonInputError("not UTF-8") from None
    except json.JSONDecodeError as exc:
        raise JsonInputError(f"not valid JSON (line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        # the C scanner recurses once per nesting level
        raise JsonInputError("JSON nests too deeply") from None
