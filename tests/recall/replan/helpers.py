# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Builders for Replan tests: situations, enablements and fake recall outcomes."""

from __future__ import annotations

import copy
from typing import Any

import attrs

from loopx_recall_core.contracts import (
    EvidenceItem,
    HistoricalEvidenceRequestV0,
    HistoricalEvidenceResultV0,
    ScopeApplied,
)
from loopx_recall_core.recall.outcome import RecallOutcome
from loopx_recall_core.recall.receipts import failure_receipt, result_receipt
from loopx_recall_core.state import DEFAULT_CEILINGS, Enablement, LimitCeilings

PROVIDER = "obelisk-session-evidence"
KEY = b"test-receipt-key-".ljust(32, b"k")
AGENT, PROJECT, REPO = "agent-a", "proj-j", "repo-r"
ROOT = "/home/dev/src/alpha"

SITUATION: dict[str, Any] = {
    "schema_version": "loopx_replan_situation_v0",
    "situation_id": "sit-1",
    "agent_id": AGENT,
    "project_id": PROJECT,
    "repository_id": REPO,
    "revision": {"current": "abc123", "merge_base": "def456"},
    "trigger": "replan_repetition",
    "signals": {
        "attempts": [
            {
                "step": {"kind": "command", "command": "pytest tests/test_api.py -x"},
                "outcome": "failed",
                "error_signature": "AssertionError: assert 3 == 2",
            },
            {
                "step": {
                    "kind": "command",
                    "command": "python -m pytest -q -x ./tests/test_api.py",
                },
                "outcome": "failed",
            },
        ]
    },
    "proposed_step": {
        "kind": "command",
        "command": "pytest tests/test_api.py -x",
        "file_paths": ["tests/test_api.py"],
    },
}


def situation(**changes: Any) -> dict[str, Any]:
    """A copy of SITUATION; ``signals`` and ``proposed_step`` given here replace whole."""
    data = copy.deepcopy(SITUATION)
    data.update(copy.deepcopy(changes))
    return data


def command(text: str, *paths: str) -> dict[str, Any]:
    step: dict[str, Any] = {"kind": "command", "command": text}
    if paths:
        step["file_paths"] = list(paths)
    return step


def attempt(step: dict[str, Any], outcome: str = "failed", **extra: Any) -> dict[str, Any]:
    return {"step": step, "outcome": outcome, **extra}


def enablement(
    *, stage: int = 2, agent: str = AGENT, project: str = PROJECT, repo: str = REPO
) -> Enablement:
    return Enablement(
        capability="agent-turn-recall",
        provider_id=PROVIDER,
        surface="replan-history",
        agent_id=agent,
        project_id=project,
        repository_id=repo,
        stage=stage,
        limits=LimitCeilings(**DEFAULT_CEILINGS),
    )


def item(
    snippet: str, evidence_type: str = "prior_failure", session: str = "s-1", message: str = "m-1"
) -> dict[str, Any]:
    return {
        "session_ref": session,
        "message_ref": message,
        "evidence_type": evidence_type,
        "snippet": snippet,
    }


def failure(command_text: str, tool: str = "Bash", exit_code: int = 1) -> str:
    return f"{tool}: {command_text}\noutcome: failed (exit {exit_code})\nExit code {exit_code}"


def success(command_text: str, tool: str = "Bash") -> str:
    return f"{tool}: {command_text}\noutcome: ok\n12 passed"


def succeeded(
    request: HistoricalEvidenceRequestV0,
    items: list[dict[str, Any]],
    *,
    freshness: str = "fresh",
    omitted: int = 0,
) -> RecallOutcome:
    result = HistoricalEvidenceResultV0(
        schema_version="historical_evidence_result_v0",
        request_id=request.request_id,
        provider_id=PROVIDER,
        provider_version="0.1.0",
        index_revision="build-1",
        scope_applied=ScopeApplied(
            agent_id=request.scope.agent_id,
            project_id=request.scope.project_id,
            repository_id=request.scope.repository_id,
            cross_agent_used=False,
        ),
        freshness=freshness,
        items=tuple(EvidenceItem(**entry) for entry in items),
        truncated=omitted > 0,
        omitted_count=omitted,
    )
    return RecallOutcome(
        status="succeeded",
        reason=None,
        receipt=result_receipt(request, result, key=KEY),
        result=result,
    )


def failed(request: HistoricalEvidenceRequestV0, reason: str = "provider_unavailable"):
    receipt = failure_receipt(
        request,
        provider_id=PROVIDER,
        provider_version="0.1.0",
        status="failed",
        reason=reason,
        key=KEY,
    )
    return RecallOutcome(status="failed", reason=reason, receipt=receipt)


class FakeRecall:
    """A recall callable answering with fixed items (or a failure); records its calls."""

    def __init__(
        self,
        items: list[dict[str, Any]] | None = None,
        *,
        freshness: str = "fresh",
        omitted: int = 0,
        fail: str | None = None,
    ) -> None:
        self.items = items or []
        self.freshness = freshness
        self.omitted = omitted
        self.fail = fail
        self.requests: list[HistoricalEvidenceRequestV0] = []

    def __call__(self, request: HistoricalEvidenceRequestV0) -> RecallOutcome:
        self.requests.append(request)
        if self.fail is not None:
            return failed(request, self.fail)
        return succeeded(request, self.items, freshness=self.freshness, omitted=self.omitted)


@attrs.frozen
class Bound:
    """A recall callable bound to the provider and enablements Replan admits for: the
    test stand-in for the recall service (``flow.Recaller``)."""

    recall: Any
    enablements: tuple[Enablement, ...]
    provider_id: str = PROVIDER

    def id_key(self) -> bytes | None:
        return None  # the process key, as for a library caller without one

    def admitted(self, decision: Any) -> RecallOutcome:
        return self.recall(decision.request)


def bound(recall: Any, enablements: Any, provider_id: str = PROVIDER) -> Bound:
    return Bound(recall, tuple(enablements), provider_id)
