# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Hook implementations: the entry point ``loopx_recall_core.providers`` loads this module."""

from __future__ import annotations

from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence
from loopx_recall_core.plugin_api import hookimpl


@hookimpl
def loopx_recall_providers() -> list[ObeliskSessionEvidence]:
    return [ObeliskSessionEvidence()]
