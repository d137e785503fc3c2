# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The host's choke points: a verified result is redacted before it is stored, returned or
digested into its receipt, and Replan compares and searches only redacted text."""

from __future__ import annotations

import json

import pytest

from loopx_recall_core.contracts import (
    HistoricalEvidenceRequestV0,
    HistoricalEvidenceResultV0,
    structure,
)
from loopx_recall_core.qualification.canaries import secret_canaries
from loopx_recall_core.recall.receipts import result_receipt
from loopx_recall_core.recall.replan.flow import replan
from loopx_recall_core.recall.service import RecallService
from loopx_recall_core.recall.store import PrivateStore
from loopx_recall_core.state import Enablement, LimitCeilings
from tests.recall.replan.helpers import (
    FakeRecall,
    bound,
    command,
    enablement,
    failure,
    item,
    situation,
)

from ..fake_provider import FakeProvider, host_with

PROVIDER = "obelisk-session-evidence"
CANARIES = secret_canaries()


def _enablement(snippet: int = 2000, total: int = 32000, items: int = 3) -> Enablement:
    return Enablement(
        capability="agent-turn-recall", provider_id=PROVIDER, surface="replan-history",
        agent_id="agent-a", project_id="proj-j", repository_id="repo-r", stage=1,
        limits=LimitCeilings(max_sessions=3, max_items=items, max_snippet_chars=snippet,
                             max_total_chars=total),
    )  # fmt: skip


def _request(request_data, snippet: int, total: int) -> HistoricalEvidenceRequestV0:
    request_data["limits"] = {"max_sessions": 3, "max_items": 3, "max_snippet_chars": snippet,
                              "max_total_chars": total}  # fmt: skip
    return structure(request_data, HistoricalEvidenceRequestV0)


def _leaks(text: str) -> list[str]:
    return [c.kind for c in CANARIES if any(f in text for f in c.fragments())]


def _recall(request, snippet_text, tmp_path, enablement):
    store = PrivateStore(tmp_path / "state")
    outcome = RecallService(provider_id=PROVIDER, host=host_with(FakeProvider(
        snippet=snippet_text)), enablements=[enablement], store=store)(request)  # fmt: skip
    return outcome, store


@pytest.mark.parametrize("start", range(0, len(CANARIES), 6))
def test_nothing_of_a_secret_is_stored_returned_or_printed(request_data, tmp_path, start):
    # six canaries per snippet, each whole within the snippet limit
    text = "Bash: ./deploy.sh\noutcome: failed\n" + "\n".join(
        c.text for c in CANARIES[start : start + 6]
    )
    assert len(text) <= 2000
    assert _leaks(text)
    request = _request(request_data, 2000, 6000)
    outcome, store = _recall(request, text, tmp_path, _enablement())
    assert outcome.status == "succeeded", outcome.reason
    assert all("[redacted:" in i.snippet for i in outcome.result.items)
    stored = "".join(
        p.read_bytes().decode(errors="replace")
        for p in (tmp_path / "state").rglob("*")
        if p.is_file()
    )
    for shown in (json.dumps(store.load(request.request_id)), stored,
                  repr(outcome.result), json.dumps(outcome.public_json())):  # fmt: skip
        assert _leaks(shown) == []


def test_the_receipt_is_over_what_is_stored(request_data, tmp_path):
    # The owner recomputes a receipt from the stored record: it must be the one printed.
    request = _request(request_data, 2000, 6000)
    outcome, store = _recall(request, CANARIES[0].text, tmp_path, _enablement())
    record = store.load(request.request_id)
    kept = structure(record["result"], HistoricalEvidenceResultV0)
    assert result_receipt(request, kept, key=store.receipt_key()) == outcome.receipt
    assert record["receipt"]["result_digest"] == outcome.receipt.result_digest


def test_a_snippet_a_marker_lengthens_stays_within_its_limits(request_data, tmp_path):
    # a short URL password: the marker is longer than the secret it replaces
    text = "Bash: git clone https://u:pw9Xq2ab@h/r.git\noutcome: failed (exit 128)\nfatal: no"
    limit = len(text)
    request = _request(request_data, limit, limit * 3)
    outcome, _ = _recall(request, text, tmp_path, _enablement(limit, limit * 3))
    assert outcome.status == "succeeded", outcome.reason
    snippets = [i.snippet for i in outcome.result.items]
    assert all(len(s) <= limit and "pw9Xq2ab" not in s for s in snippets)
    assert sum(map(len, snippets)) <= limit * 3
    assert snippets[0].startswith("Bash: git clone https://u:[redacted:url_password]@h/r.git")


def test_replan_matches_a_redacted_prior_failure_and_never_searches_a_secret():
    secret = "pw9Xq2abZZ"
    cmd = f"git clone https://deploy:{secret}@git.example.com/r.git"
    recall_ = FakeRecall([item(failure(cmd))])  # the provider's text, as a test double gives it
    report = replan(
        situation(trigger="operator_requested_history",
                  signals={"operator_requested": True}, proposed_step=command(cmd)),
        recall=bound(recall_, [enablement(stage=1)]),
    )  # fmt: skip
    assert report.comparison.verdict == "repeats_prior_failure"
    terms = recall_.requests[0].query_terms
    assert terms
    assert all(secret not in term for term in terms)
    assert secret not in json.dumps(report.private_json())
