# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A replan request's id is keyed: it does not confirm a guess of the situation's query
terms (a plain digest of them would), and the same key gives the same id."""

from __future__ import annotations

from loopx_recall_core.plugin_api import digest
from loopx_recall_core.testing import ReplanSituationV0, build_request, query_terms, structure

CANARY = "CANARY-REVIEW-4e1a"


def test_a_replan_request_id_does_not_confirm_guessed_terms():
    data = {
        "schema_version": "loopx_replan_situation_v0",
        "situation_id": "sit-1",
        "trigger": "operator_requested_history",
        "agent_id": "agent-a",
        "project_id": "proj-j",
        "repository_id": "repo-r",
        "signals": {"operator_requested": True},
        "proposed_step": {"kind": "command", "command": f"pytest tests/test_{CANARY}.py"},
    }
    built = structure(data, ReplanSituationV0)
    terms = query_terms(built)
    request = build_request(built, terms, id_key=b"k" * 32)
    guess = digest(
        {
            "situation_id": "sit-1",
            "trigger": "operator_requested_history",
            "evidence_types": list(request.evidence_types),
            "query_terms": list(terms),
        }
    )
    assert request.request_id != guess
    assert build_request(built, terms, id_key=b"k" * 32).request_id == request.request_id
