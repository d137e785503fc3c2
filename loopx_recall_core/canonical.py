# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Canonical JSON, the one digest function, and JavaScript-compatible text rules.

Every id in this project is ``digest(value)``. The byte sequence hashed is exactly what
LoopX's TypeScript owner hashes: ``JSON.stringify`` of the value with object keys sorted,
so that a plan, receipt or admission made by either side verifies on the other.
``keyed_digest(key, value)`` is the same over the same bytes with HMAC-SHA256: public
recall receipts use it so that a guess of what was asked cannot be confirmed offline.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "DIGEST_PATTERN",
    "canonical_json",
    "digest",
    "escape_lone_surrogates",
    "is_digest",
    "js_trim",
    "keyed_digest",
    "utf16_len",
]

DIGEST_PATTERN = re.compile(r"^sha256:[0-9a-f]{64}\Z")

# ECMAScript WhiteSpace + LineTerminator, i.e. what String.prototype.trim removes.
# Python's str.strip differs: it also strips U+001C..U+001F and U+0085.
_JS_WHITESPACE = (
    "\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def js_trim(text: str) -> str:
    """Trim ``text`` exactly like JavaScript's ``String.prototype.trim``."""
    return text.strip(_JS_WHITESPACE)


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units (JavaScript ``length``): an astral character counts 2."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


_ARRAY_INDEX = re.compile(r"(?:0|[1-9][0-9]*)\Z")
_MAX_ARRAY_INDEX = 2**32 - 2


def _js_key_order(key: str) -> tuple[int, int, bytes]:
    # JavaScript's default sort compares UTF-16 code units (big-endian UTF-16 bytes compare
    # the same way; code-point order differs for astral keys). Then the engine lists
    # array-index keys ("0", "9", "10") first in numeric order whatever the insertion
    # order, so JSON.stringify of a key-sorted object puts them there too.
    if _ARRAY_INDEX.match(key) and int(key) <= _MAX_ARRAY_INDEX:
        return (0, int(key), b"")
    return (1, 0, key.encode("utf-16-be", "surrogatepass"))


def _join_surrogate_pairs(text: str) -> str:
    # A Python str may hold a valid pair as two code points; JavaScript sees one character.
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _normalize(value: Any) -> Any:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        return _join_surrogate_pairs(value)
    if isinstance(value, Mapping):
        items = []
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"canonical JSON keys must be str, got {type(key).__name__}")
            items.append((_join_surrogate_pairs(key), _normalize(item)))
        items.sort(key=lambda pair: _js_key_order(pair[0]))
        return dict(items)
    if isinstance(value, Sequence) and not isinstance(value, bytes | bytearray):
        return [_normalize(item) for item in value]
    # Floats are excluded on purpose: JavaScript and Python print them differently.
    raise TypeError(f"canonical JSON cannot hold {type(value).__name__}")


def canonical_json(value: Any) -> str:
    """``JSON.stringify`` of ``value`` with keys sorted by UTF-16 code units, no whitespace.

    Non-ASCII characters are written as-is; a lone surrogate is written as the escape
    ``\\udxxx`` (lowercase hex), as JavaScript does, so the UTF-8 encoding never fails.
    """
    text = json.dumps(_normalize(value), ensure_ascii=False, separators=(",", ":"))
    return escape_lone_surrogates(text)


def escape_lone_surrogates(json_text: str) -> str:
    """Write each lone surrogate in JSON text as ``\\udxxx``, as ``JSON.stringify`` does."""
    return _LONE_SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", json_text)


def digest(value: Any) -> str:
    """The one digest of the project: ``"sha256:" + hex(sha256(utf8(canonical_json(value))))``."""
    return "sha256:" + hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def keyed_digest(key: bytes, value: Any) -> str:
    """``"sha256:" + hex(hmac_sha256(key, utf8(canonical_json(value))))``: the digest's
    format, but only a holder of ``key`` can compute or check it."""
    if len(key) < 32:
        raise ValueError("a digest key has at least 32 bytes")
    mac = hmac.new(key, canonical_json(value).encode("utf-8"), hashlib.sha256)
    return "sha256:" + mac.hexdigest()


def is_digest(text: object) -> bool:
    """Whether ``text`` has the ``sha256:<64 lowercase hex>`` form."""
    return isinstance(text, str) and DIGEST_PATTERN.match(text) is not None
