# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A forgotten session is a tombstone in the session ledger. It is never
claimed again (its own reason code, in the hook log too), the host passes it to the
provider as excluded and refuses a result that still holds it, whatever the agent or
mode; status and `session list` count tombstones, never name them."""

from __future__ import annotations

import json

import pytest

from loopx_recall_core.contracts import HistoricalEvidenceRequestV0, structure
from loopx_recall_core.recall.service import RecallService
from loopx_recall_core.recall.sessions.ledger import ClaimRefused, SessionLedger
from loopx_recall_core.recall.store import PrivateStore
from loopx_recall_core.state import Enablement, LimitCeilings

from ..fake_provider import FakeProvider, host_with

PROVIDER = "obelisk-session-evidence"
SECRET_ID = "thread-CANARY-forgotten-5e1f"


def test_a_forgotten_session_is_never_claimed_again(tmp_path):
    ledger = SessionLedger(tmp_path)
    ids = {"agent_id": "agent-a", "project_id": "proj-j", "runtime": "codex"}
    assert ledger.claim(**ids, session_id=SECRET_ID)
    assert ledger.forget(**ids, session_id=f"codex:{SECRET_ID}")  # either form of the id
    assert ledger.forget(**ids, session_id=SECRET_ID) is False  # already: no change
    assert ledger.claims() == []
    assert [t.session_id for t in ledger.forgotten()] == [SECRET_ID]
    for agent in ("agent-a", "agent-b"):
        with pytest.raises(ClaimRefused) as refused:
            ledger.claim(**{**ids, "agent_id": agent}, session_id=SECRET_ID)
        assert refused.value.code == "forgotten"
        assert SECRET_ID not in str(refused.value)
    # the file keeps both lists and reads back strictly
    data = json.loads(ledger.path.read_text())
    assert set(data) == {"schema_version", "claims", "forgotten"}


def test_another_agents_session_cannot_be_forgotten_by_you(tmp_path):
    ledger = SessionLedger(tmp_path)
    ledger.claim(agent_id="agent-b", project_id="proj-j", runtime="claude", session_id="s-1")
    with pytest.raises(ClaimRefused) as refused:
        ledger.forget(agent_id="agent-a", project_id="proj-j", runtime="claude", session_id="s-1")
    assert refused.value.code == "claimed_by_another"
    assert len(ledger.claims()) == 1
    assert ledger.forgotten() == []


class _Recording(FakeProvider):
    def retrieve(self, request, binding, *, timeout, exclude_sessions=()):
        self.excluded = tuple(exclude_sessions)
        return super().retrieve(request, binding, timeout=timeout)


def _enablement(mode: str) -> Enablement:
    return Enablement(
        capability="agent-turn-recall", provider_id=PROVIDER, surface="replan-history",
        agent_id="agent-a", project_id="proj-j", repository_id="repo-r", stage=1,
        limits=LimitCeilings(max_sessions=3, max_items=3, max_snippet_chars=100,
                             max_total_chars=250), agent_sessions=mode,
    )  # fmt: skip


@pytest.mark.parametrize("mode", ["runtime", "claimed"])
def test_the_host_excludes_forgotten_sessions_and_rejects_a_result_holding_one(
    request_data, tmp_path, mode
):
    store = PrivateStore(tmp_path)
    ledger = SessionLedger(tmp_path)
    for n in range(2):  # the provider's items are sessions s0 and s1 (Claude ids)
        ledger.claim(agent_id="agent-a", project_id="proj-j", runtime="claude", session_id=f"s{n}")
    request = structure(request_data, HistoricalEvidenceRequestV0)

    def run():
        provider = _Recording(session="s")
        outcome = RecallService(provider_id=PROVIDER, host=host_with(provider),
                                enablements=[_enablement(mode)], store=store,
                                current_sessions=("now-1",))(request)  # fmt: skip
        return outcome, provider

    outcome, provider = run()
    assert outcome.status == "succeeded", outcome.reason
    assert provider.excluded == ("now-1",)
    # another agent forgets nothing of ours; agent-a forgets s1 (its own claim)
    ledger.forget(agent_id="agent-a", project_id="proj-j", runtime="claude", session_id="s1")
    outcome, provider = run()
    assert provider.excluded == ("now-1", "s1")
    assert (outcome.status, outcome.reason) == ("failed", "scope_violation")
