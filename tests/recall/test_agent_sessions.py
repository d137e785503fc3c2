# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The host side of ``--agent-sessions``: it hands the provider the claimed sessions, re-checks
every item against them, sets ``cross_agent_used`` as the fact it is, and status tells the
mode, the claim count (never ids) and, with none claimed, how to install the hook."""

from __future__ import annotations

import importlib
import json

import pytest
from click.testing import CliRunner

from loopx_recall_core.cli import cli
from loopx_recall_core.contracts import HistoricalEvidenceRequestV0, structure
from loopx_recall_core.plugin import manager as plugins_module
from loopx_recall_core.recall.service import RecallService
from loopx_recall_core.recall.sessions.ledger import ClaimRefused, SessionLedger
from loopx_recall_core.state import Enablement, LimitCeilings, StateStore

from ..fake_provider import FakeProvider, host_with

PROVIDER = "obelisk-session-evidence"


def _enablement(mode):
    return Enablement(
        capability="agent-turn-recall", provider_id=PROVIDER, surface="replan-history",
        agent_id="agent-a", project_id="proj-j", repository_id="repo-r", stage=1,
        limits=LimitCeilings(max_sessions=5, max_items=5, max_snippet_chars=100,
                             max_total_chars=400),
        binding={"history_sources": ["codex"]}, agent_sessions=mode,
    )


class Recorder(FakeProvider):
    def retrieve(self, request, binding, *, timeout, exclude_sessions=()):
        self.binding = dict(binding)
        return super().retrieve(request, binding, timeout=timeout)


def _recall(request_data, mode, provider):
    request = structure(request_data, HistoricalEvidenceRequestV0)
    return RecallService(provider_id=PROVIDER, host=host_with(provider),
                         enablements=[_enablement(mode)], timeout=5)(request)


def _claim(agent, session, runtime="codex"):
    SessionLedger().claim(agent_id=agent, project_id="proj-j", runtime=runtime,
                          session_id=session)


def test_claimed_mode_hands_over_the_claims_and_accepts_only_them(loopx_home, request_data):
    # the fake names sessions s0, s1 unprefixed: as the index names Claude sessions
    _claim("agent-a", "s0", runtime="claude")
    _claim("agent-a", "s1", runtime="claude")
    _claim("agent-b", "s9")
    provider = Recorder()
    outcome = _recall(request_data, "claimed", provider)
    assert outcome.status == "succeeded", outcome.reason
    assert outcome.result.scope_applied.cross_agent_used is False
    assert provider.binding["agent_sessions"] == "claimed"
    assert sorted(map(tuple, (c.values() for c in provider.binding["claimed_sessions"]))) == [
        ("claude", "s0"), ("claude", "s1"),
    ]


def test_a_claim_for_one_runtime_never_admits_another_runtimes_session(
    loopx_home, request_data
):
    # A bare Codex claim of "s0" must not admit the Claude session "s0" (the fake's name),
    # and "codex:<thread>" claimed as a Claude session is refused outright.
    _claim("agent-a", "s0")
    _claim("agent-a", "s1")
    outcome = _recall(request_data, "claimed", FakeProvider())
    assert (outcome.status, outcome.reason) == ("failed", "scope_violation")
    _claim("agent-b", "thread-of-a")
    with pytest.raises(ClaimRefused):
        _claim("agent-a", "codex:thread-of-a", runtime="claude")


@pytest.mark.parametrize(
    "claims", [[], [("agent-a", "s0")], [("agent-b", "s0"), ("agent-b", "s1")]]
)
def test_claimed_mode_rejects_an_item_from_an_unclaimed_session(
    loopx_home, request_data, claims
):
    for agent, session in claims:
        _claim(agent, session)
    outcome = _recall(request_data, "claimed", FakeProvider())
    assert (outcome.status, outcome.reason) == ("failed", "scope_violation")


def test_index_form_of_a_claimed_session_is_accepted(loopx_home, request_data):
    class IndexNames(FakeProvider):
        def retrieve(self, request, binding, *, timeout, exclude_sessions=()):
            import attrs

            result = super().retrieve(request, binding, timeout=timeout)
            items = tuple(attrs.evolve(i, session_ref=f"codex:{i.session_ref}")
                          for i in result.items)
            return attrs.evolve(result, items=items)

    _claim("agent-a", "s0")
    _claim("agent-a", "codex:s1")  # stored as s1
    assert _recall(request_data, "claimed", IndexNames()).status == "succeeded"


def test_claimed_mode_refuses_a_result_claiming_cross_agent_use(loopx_home, request_data):
    class Honest(FakeProvider):
        def retrieve(self, request, binding, *, timeout, exclude_sessions=()):
            import attrs

            result = super().retrieve(request, binding, timeout=timeout)
            applied = attrs.evolve(result.scope_applied, cross_agent_used=True)
            return attrs.evolve(result, scope_applied=applied)

    _claim("agent-a", "s0")
    _claim("agent-a", "s1")
    assert _recall(request_data, "claimed", Honest()).reason == "scope_violation"


@pytest.mark.parametrize("mode", ["runtime", None])
def test_runtime_identity_says_cross_agent_used(loopx_home, request_data, mode):
    _claim("agent-b", "s0")  # another agent's session still comes back: that is runtime mode
    provider = Recorder()
    outcome = _recall(request_data, mode, provider)
    assert outcome.status == "succeeded"
    assert outcome.result.scope_applied.cross_agent_used is True
    assert provider.binding["agent_sessions"] == "runtime"
    assert "claimed_sessions" not in provider.binding


# -- enable and status -----------------------------------------------------------------

capability_cli = importlib.import_module("loopx_recall_core.cli.capability")
ENABLE = ["capability", "enable", "agent-turn-recall", "--provider", PROVIDER,
          "--project-id", "proj-j", "--history-source", "codex"]
STATUS = ["capability", "status", "agent-turn-recall", "--provider", PROVIDER,
          "--format", "json"]


@pytest.fixture
def run(monkeypatch, loopx_home):
    fake = FakeProvider()
    monkeypatch.setattr(capability_cli, "load_host", lambda *a, **k: host_with(fake))
    monkeypatch.setattr(plugins_module, "load_host", lambda *a, **k: host_with(fake))

    def invoke(*args):
        result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
        assert "Traceback" not in result.output
        return result

    return invoke


def test_new_enablements_default_to_claimed_and_status_says_how_to_claim(run):
    assert run(*ENABLE, "--agent-id", "agent-a").exit_code == 0
    status = json.loads(run(*STATUS).output)
    (row,) = status["enablements"]
    sessions = row["agent_sessions"]
    assert sessions["mode"] == "claimed"
    assert sessions["claimed_sessions"] == 0
    assert sessions["cross_agent_access"] is False
    assert "hook install" in sessions["hint"]
    assert status["truth_contract"]["cross_agent_access"] is False
    assert "hook install" in run(*STATUS[:-2]).output

    _claim("agent-a", "CANARY-SESSION-1")
    _claim("agent-a", "CANARY-SESSION-2", runtime="claude")
    out = run(*STATUS).output
    sessions = json.loads(out)["enablements"][0]["agent_sessions"]
    assert sessions["claimed_sessions"] == 2
    assert "hint" not in sessions
    assert "CANARY" not in out + run(*STATUS[:-2]).output


def test_runtime_mode_and_old_enablements_say_cross_agent_access(run, loopx_home):
    assert run(*ENABLE, "--agent-id", "agent-r", "--agent-sessions", "runtime").exit_code == 0
    status = json.loads(run(*STATUS).output)
    assert status["enablements"][0]["agent_sessions"]["cross_agent_access"] is True
    assert "every session of these runtimes" in status["enablements"][0]["agent_sessions"][
        "identity"]
    assert status["truth_contract"]["cross_agent_access"] is True
    # an enablement written before the field existed
    store = StateStore()
    raw = json.loads(store.path.read_text())
    del raw["enablements"][0]["agent_sessions"]
    store.path.write_text(json.dumps(raw))
    old = json.loads(run(*STATUS).output)["enablements"][0]["agent_sessions"]
    assert old["mode"] == "runtime"
    assert "before claimed sessions" in old["mode_source"]
