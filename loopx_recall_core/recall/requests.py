# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The one builder of a ``historical_evidence_request_v0``: an operator's lookup
(:mod:`loopx_recall_core.operator_requests`), a Replan situation's request
(:mod:`.replan.situation_admission`) and the guard's prefetch
(:mod:`loopx_recall_core.guard.prefetch`) all call :func:`history_request`.

The scope is always the agent's own history in its own project and repository (the cross
flags are false by construction); the record goes through the one strict converter, so a
bad value is a :class:`~loopx_recall_core.contracts.ContractError`, never a half-built
request.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from loopx_recall_core.contracts import HistoricalEvidenceRequestV0, structure

__all__ = ["history_request"]


def history_request(
    *,
    trigger: str,
    agent_id: str,
    project_id: str,
    repository_id: str,
    evidence_types: Sequence[str],
    query_terms: Sequence[str],
    limits: Mapping[str, int],
    revision: Mapping[str, Any] | str | None = None,
    request_id: str | None = None,
    situation_id: str | None = None,
    id_prefix: str = "rq-",
) -> HistoricalEvidenceRequestV0:
    """One request in the agent's own scope (ids are fresh unless given)."""
    data: dict[str, Any] = {
        "schema_version": "historical_evidence_request_v0",
        "request_id": request_id or id_prefix + uuid.uuid4().hex,
        "situation_id": situation_id or id_prefix.removeprefix("rq-") + uuid.uuid4().hex,
        "trigger": trigger,
        "scope": {
            "agent_id": agent_id,
            "project_id": project_id,
            "repository_id": repository_id,
            "allow_cross_agent": False,
            "allow_cross_project": False,
        },
        "evidence_types": list(evidence_types),
        "query_terms": list(query_terms),
        "limits": dict(limits),
    }
    if revision:
        data["revision"] = {"current": revision} if isinstance(revision, str) else dict(revision)
    return structure(data, HistoricalEvidenceRequestV0)
