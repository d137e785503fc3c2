# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall capability`` and ``recall history|show`` with an in-process provider."""

from __future__ import annotations

import importlib
import json

import pytest
from click.testing import CliRunner

from loopx_recall_core.cli import cli
from loopx_recall_core.plugin import manager as plugins_module
from loopx_recall_core.plugin.manager import PluginHost
from loopx_recall_core.state import DEFAULT_CEILINGS

from ..fake_provider import CANARY, FakeProvider, host_with

# The modules, not the click commands of the same name re-exported by loopx_recall_core.cli.
capability_cli = importlib.import_module("loopx_recall_core.cli.capability")
# the operator commands load the plugins in the library, not in cli/
recall_lib = importlib.import_module("loopx_recall_core.operator_requests")

ENABLE = [
    "capability", "enable", "agent-turn-recall", "--provider", "obelisk-session-evidence",
    "--surface", "replan-history", "--agent-id", "agent-a", "--project-id", "proj-j",
    "--agent-sessions", "runtime",
]
STATUS = [
    "capability", "status", "agent-turn-recall", "--provider", "obelisk-session-evidence",
    "--project-id", "proj-j", "--format", "json",
]


@pytest.fixture
def provider(monkeypatch, loopx_home):
    fake = FakeProvider()
    for module in (capability_cli, recall_lib, plugins_module):
        monkeypatch.setattr(module, "load_host", lambda *a, **k: host_with(fake))
    return fake


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(args):
        result = runner.invoke(cli, args, catch_exceptions=False)
        assert "Traceback" not in result.output
        return result

    return invoke


def test_enable_status_disable_round_trip(provider, run):
    result = run([*ENABLE, "--history-source", "codex", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["changed"] is True
    again = run([*ENABLE, "--history-source", "codex", "--format", "json"])
    assert json.loads(again.output)["changed"] is False

    status = json.loads(run(STATUS).output)
    assert status["schema_version"] == "loopx_capability_status_v0"
    assert status["provider"]["installed"] is True
    assert status["provider"]["enabled"] is True
    assert status["provider"]["ready"] is True
    assert status["provider"]["version"] == "0.9.0-fake"
    assert status["runtime"]["runtime_version"] == "0.2.4"
    (enablement,) = status["enablements"]
    assert enablement["agent_id"] == "agent-a"
    assert enablement["repository_id"] == "repo-fake"
    assert enablement["stage"] == 1
    assert enablement["binding"]["history_sources"] == ["codex"]
    assert status["truth_contract"]["grants_new_action_authority"] is False
    assert CANARY not in json.dumps(status)
    private = run([*STATUS, "--show-private"]).output
    assert CANARY in private

    result = run(["capability", "disable", "agent-turn-recall", "--provider",
                  "obelisk-session-evidence", "--project-id", "proj-j"])
    assert result.exit_code == 0
    assert json.loads(run(STATUS).output)["enablements"] == []
    again = run(["capability", "disable", "agent-turn-recall", "--provider",
                 "obelisk-session-evidence", "--project-id", "proj-j"])
    assert again.exit_code == 0
    assert "no change" in again.output


def test_unknown_provider_option_is_usage_error(provider, run):
    result = run([*ENABLE, "--allow-cross-agent"])
    assert result.exit_code == 2


def test_no_flag_widens_scope(provider, run):
    result = run([*ENABLE, "--history-source", "kimi"])
    assert result.exit_code == 2


def test_unknown_and_uninstalled_providers(monkeypatch, loopx_home, run):
    monkeypatch.setattr(capability_cli, "load_host", lambda *a, **k: PluginHost())
    monkeypatch.setattr(plugins_module, "load_host", lambda *a, **k: PluginHost())
    unknown = run([*ENABLE[:4], "nope", *ENABLE[5:]])
    assert unknown.exit_code == 1
    assert "unknown provider" in unknown.output
    missing = run(ENABLE)
    assert missing.exit_code == 1
    assert "loopx-recall extension install ./plugins/obelisk-session-evidence" in missing.output


def test_stage_two_needs_qualification(provider, run):
    result = run([*ENABLE, "--stage", "2"])
    assert result.exit_code == 1
    assert "qualification" in result.output


def test_corrupt_state_is_reported(provider, run, loopx_home):
    loopx_home.mkdir(parents=True)
    (loopx_home / "state.json").write_text("{broken")
    result = run(STATUS)
    assert result.exit_code == 2
    assert "corrupt" in result.output
    assert (loopx_home / "state.json").read_text() == "{broken"


def test_history_and_show(provider, run):
    run([*ENABLE, "--history-source", "codex"])
    result = run(["recall", "history", "--agent-id", "agent-a", "--project-id", "proj-j",
                  "--term", "pytest", "--evidence-type", "prior_failure", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["status"] == "succeeded"
    assert data["receipt"]["result_count"] == 2
    assert CANARY not in result.output
    request_id = data["receipt"]["request_id"]
    shown = run(["recall", "show", request_id, "--format", "json"])
    assert CANARY in shown.output
    private = run(["recall", "history", "--agent-id", "agent-a", "--project-id", "proj-j",
                   "--term", "pytest", "--show-private", "--format", "json"])
    assert CANARY in private.output


def test_history_without_enablement_is_typed_refusal(provider, run):
    result = run(["recall", "history", "--agent-id", "agent-a", "--project-id", "proj-j",
                  "--term", "pytest", "--format", "json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert (data["status"], data["reason"]) == ("refused", "not_enabled")
    assert provider.calls == 0


def test_history_provider_failure_exits_zero_without_canary(provider, run):
    run([*ENABLE, "--history-source", "codex"])
    provider.mode = "raise"
    result = run(["recall", "history", "--agent-id", "agent-a", "--project-id", "proj-j",
                  "--term", CANARY[:20]])
    assert result.exit_code == 0
    assert "provider_failed" in result.output
    assert CANARY not in result.output


def test_history_bad_input_exit_1(provider, run):
    result = run(["recall", "history", "--agent-id", "agent-a", "--project-id", "proj-j",
                  "--term", " ", "--format", "json"])
    assert result.exit_code == 1
    assert "$.query_terms[0]: must not be blank" in result.output


def test_status_when_readback_raises(provider, run):
    provider.mode = "readback_raises"
    status = json.loads(run(STATUS).output)
    assert status["provider"]["ready"] is False
    assert CANARY not in json.dumps(status)


def _enablements(loopx_home):
    from loopx_recall_core.state import StateStore

    return StateStore(loopx_home).read().enablements


def test_re_enabling_reports_every_changed_field(provider, run, loopx_home):
    assert run([*ENABLE, "--history-source", "codex"]).exit_code == 0
    changed = run([*ENABLE, "--history-source", "codex", "--max-items", "3"])
    assert changed.exit_code == 0, changed.output
    default = DEFAULT_CEILINGS["max_items"]
    assert changed.output.splitlines()[1:] == [f"  limits.max_items {default} -> 3"]
    data = json.loads(run([*ENABLE, "--history-source", "codex", "--format", "json"]).output)
    assert data["changes"] == [{"field": "limits.max_items", "from": 3, "to": default}]


@pytest.mark.parametrize(
    ("extra", "line"),
    [
        (["--agent-sessions", "claimed"], "  agent_sessions runtime -> claimed"),
        (["--history-source", "claude"], "  binding.history_sources ['codex'] -> ['claude']"),
    ],
)
def test_changing_the_scope_needs_a_yes(provider, run, loopx_home, extra, line):
    assert run([*ENABLE, "--history-source", "codex"]).exit_code == 0
    before = _enablements(loopx_home)
    args = [*ENABLE, "--history-source", "codex", *extra]
    if "--history-source" in extra:
        args = [*ENABLE, *extra]
    refused = run(args)
    assert refused.exit_code == 1
    assert line in refused.stderr.splitlines()
    assert refused.stderr.splitlines()[-1] == (
        "error: re-enabling would lower the stage or change the scope (above): pass --yes to "
        "apply it"
    )
    assert _enablements(loopx_home) == before
    applied = run([*args, "--yes"])
    assert applied.exit_code == 0, applied.output
    assert line in applied.output.splitlines()


def test_lowering_the_stage_needs_a_yes(provider, run, loopx_home):
    # Before: re-running enable without --stage 2 silently made a stage-2 enablement stage 1.
    from loopx_recall_core.state import StateStore
    from tests.state_builders import enablement, seed

    seed(enablement("obelisk-session-evidence", stage=2, repository_id="repo-fake",
                    agent_sessions="runtime",
                    binding={"history_sources": ["codex"], "repository_id": "repo-fake"}),
         store=StateStore(loopx_home))  # fmt: skip
    refused = run([*ENABLE, "--history-source", "codex"])
    assert refused.exit_code == 1
    assert "  stage 2 -> 1" in refused.stderr.splitlines()
    assert _enablements(loopx_home)[0].stage == 2
