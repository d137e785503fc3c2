# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""An error or refusal says what to do next, with no private value.

``not_enabled`` names the enable command (and stores no private result),
``trigger_not_admitted_at_stage`` names qualify and the stage 2 enable,
``provider_unavailable`` says the provider's own words on getting its runtime, an empty
``extension list`` mentions ``--available`` and ``recall qualify`` with no provider says
how to install one.
"""

from __future__ import annotations

import importlib
import json

from click.testing import CliRunner

from loopx_recall_core.cli import cli
from loopx_recall_core.plugin import manager as plugins_module
from loopx_recall_core.plugin.manager import PluginHost
from loopx_recall_core.plugin.records import ProviderFailure
from tests.state_builders import enablement, seed

from ..fake_provider import CANARY, FakeProvider, host_with

# the operator commands load the plugins in the library, not in cli/
recall_lib = importlib.import_module("loopx_recall_core.operator_requests")
extension_cli = importlib.import_module("loopx_recall_core.cli.extension")

ENABLE = (
    "`loopx-recall capability enable agent-turn-recall --provider obelisk-session-evidence "
    "--surface replan-history --agent-id agent-a --project-id proj-j ..."
)
HISTORY = ["recall", "history", "--agent-id", "agent-a", "--project-id", "proj-j",
           "--term", "pytest"]  # fmt: skip
REPLAN = ["recall", "replan", "--proposed-command", "make", "--agent-id", "agent-a",
          "--project-id", "proj-j"]  # fmt: skip


class _Unavailable(FakeProvider):
    # the provider's own words (the host names no provider's runtime itself); the real
    # plugin's are checked in
    # plugins/obelisk-session-evidence/tests/cli/test_missing_obelisk_says_how_to_get_it.py
    unavailable_hint = "the fake runtime is installed separately (`npm install -g fake-cli`)"

    def retrieve(self, request, binding, *, timeout, exclude_sessions=()):
        raise ProviderFailure("provider_unavailable")


def _run(monkeypatch, host: PluginHost, args: list[str]):
    monkeypatch.setattr(recall_lib, "load_host", lambda *a, **k: host)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return result.stdout


def _stored(loopx_home) -> list:
    results = loopx_home / "private" / "results"
    return sorted(p for p in results.rglob("*") if p.is_file()) if results.exists() else []


def test_not_enabled_history_names_the_enable_command_and_stores_nothing(monkeypatch, loopx_home):
    text = _run(monkeypatch, host_with(FakeProvider()), HISTORY)
    assert "recall refused: not_enabled" in text
    assert f"next: enable recall for this agent and project: {ENABLE}" in text
    assert "stored:" not in text
    assert _stored(loopx_home) == []
    data = json.loads(_run(monkeypatch, host_with(FakeProvider()), [*HISTORY, "--format", "json"]))
    assert (data["reason"], data["private_ref"]) == ("not_enabled", None)
    assert _stored(loopx_home) == []


def test_not_enabled_replan_names_the_enable_command(monkeypatch, loopx_home):
    text = _run(monkeypatch, PluginHost(), REPLAN)
    assert "admission: refused (not_enabled)" in text
    assert ENABLE in text
    assert "stored:" not in text
    assert _stored(loopx_home) == []


def test_trigger_not_admitted_names_qualify_then_stage_2(monkeypatch, loopx_home):
    seed(enablement("obelisk-session-evidence", binding={"repository_id": "repo-r"}))
    text = _run(monkeypatch, host_with(FakeProvider()), [*REPLAN, "--trigger", "replan_repetition"])
    assert "refused (trigger_not_admitted_at_stage)" in text
    assert "qualify the provider (`loopx-recall recall qualify`), then " in text
    assert f"{ENABLE} --stage 2`" in text


def test_provider_unavailable_says_how_to_get_the_runtime(monkeypatch, loopx_home):
    seed(enablement("obelisk-session-evidence", binding={"repository_id": "repo-r"}))
    text = _run(monkeypatch, host_with(_Unavailable()), HISTORY)
    assert "recall failed: provider_unavailable" in text
    assert f"  next: {_Unavailable.unavailable_hint}" in text.splitlines()
    assert CANARY not in text  # the binding's private repository root stays out
    replan = _run(monkeypatch, host_with(_Unavailable()), REPLAN)
    assert "recall: failed (provider_unavailable)" in replan
    assert f"  next: {_Unavailable.unavailable_hint}" in replan.splitlines()


def test_provider_unavailable_without_a_hint_points_at_extension_list(monkeypatch, loopx_home):
    seed(enablement("obelisk-session-evidence", binding={"repository_id": "repo-r"}))
    plain = _Unavailable()
    plain.unavailable_hint = 42  # not text: ignored
    text = _run(monkeypatch, host_with(plain), HISTORY)
    assert "next: `loopx-recall extension list` says what the provider's runtime lacks" in text


def test_no_extensions_installed_mentions_available(monkeypatch, loopx_home):
    monkeypatch.setattr(
        extension_cli.provider_distributions, "extension_list", lambda *a, **k: {"extensions": []}
    )
    monkeypatch.setattr(plugins_module, "load_host", PluginHost)
    result = CliRunner().invoke(cli, ["extension", "list"])
    assert result.exit_code == 0, result.output
    assert "no extensions installed" in result.stdout
    assert "`loopx-recall extension list --available`" in result.stdout


def test_qualify_with_no_provider_says_how_to_install_one(monkeypatch, loopx_home):
    monkeypatch.setenv("LOOPX_RECALL_LOAD_PLUGINS", "")
    result = CliRunner().invoke(cli, ["recall", "qualify", "--report", str(loopx_home / "r")])
    assert result.exit_code == 2
    assert "install one (`loopx-recall extension list --available` shows how)" in result.stderr
