# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The provider's one failure: a request it cannot answer in the protocol at all."""

from __future__ import annotations

from typing import Any

__all__ = ["ProtocolError", "error_record"]


class ProtocolError(Exception):
    """``reason_code`` (one of ``loopx_recall_provider_error_v0``'s) and a message that
    names JSON paths and rules, never a value, a path or a term."""

    def __init__(self, reason_code: str, message: str) -> None:
        super().__init__(message)
        self.reason_code = reason_code


def error_record(reason_code: str, message: str) -> dict[str, Any]:
    """A ``loopx_recall_provider_error_v0`` (``ok: false``) as JSON-like data."""
    return {
        "schema_version": "loopx_recall_provider_error_v0",
        "ok": False,
        "reason_code": reason_code,
        "message": message[:1024] or reason_code,
    }
