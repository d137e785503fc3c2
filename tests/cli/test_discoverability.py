# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""What a newcomer can find out from the command line alone: provider options in --help,
usage errors that name real commands, the repository id a situation needs, where state
lives, both handles of ``recall show``, and the flag form of ``recall replan``."""

from __future__ import annotations

import importlib
import json
import re

import pytest
from click.testing import CliRunner

from loopx_recall_core.cli import cli
from loopx_recall_core.plugin import manager as plugins_module

from ..fake_provider import CANARY, FakeProvider, host_with

capability_cli = importlib.import_module("loopx_recall_core.cli.capability")
# the operator commands load the plugins in the library, not in cli/
recall_lib = importlib.import_module("loopx_recall_core.operator_requests")

PROVIDER = ["--provider", "obelisk-session-evidence"]
ENABLE = [
    "capability", "enable", "agent-turn-recall", *PROVIDER,
    "--agent-id", "agent-a", "--project-id", "proj-j",
]  # fmt: skip
STATUS = ["capability", "status", "agent-turn-recall", *PROVIDER, "--project-id", "proj-j"]
REPLAN = ["recall", "replan", "--agent-id", "agent-a", "--project-id", "proj-j"]


@pytest.fixture
def provider(monkeypatch, loopx_home):
    fake = FakeProvider()
    for module in (capability_cli, recall_lib, plugins_module):
        monkeypatch.setattr(module, "load_host", lambda *a, **k: host_with(fake))
    return fake


def run(args, code=0, env=None):
    result = CliRunner().invoke(
        cli, args, env=env, catch_exceptions=False, prog_name="loopx-recall"
    )
    assert "Traceback" not in result.output
    assert result.exit_code == code, result.output
    return result


# ------------------------------------------------------------------ provider options in --help


def _section(help_text: str, title: str) -> str:
    return help_text.split(title, 1)[1]


def test_enable_help_lists_the_named_providers_options(provider):
    text = run([*ENABLE[:5], "--help"]).output
    section = _section(text, "Options of provider obelisk-session-evidence:")
    assert "--history-source [claude|codex]" in section
    assert "--history-source" not in text.split("Options of provider")[0]


def test_enable_help_without_a_provider_says_how_to_see_its_options(provider):
    text = run(["capability", "enable", "--help"]).output
    assert "--provider P --help" in _section(text, "Provider options:")


def test_enable_help_for_an_uninstalled_provider_says_so(provider):
    text = run(["capability", "enable", "agent-turn-recall", "--provider", "nope", "-h"]).output
    assert "provider 'nope' is not installed" in _section(text, "Provider options:")


def test_provider_options_parse_as_real_options(provider, loopx_home):
    run([*ENABLE, "--history-source", "claude"])
    state = json.loads((loopx_home / "state.json").read_text())
    assert state["enablements"][0]["binding"]["history_sources"] == ["claude"]
    bad = run([*ENABLE, "--history-source", "kimi"], code=2)
    assert "'kimi' is not one of 'claude', 'codex'" in bad.output


def test_usage_errors_name_a_command_that_exists(provider):
    result = run([*ENABLE, "--history-sorce", "codex"], code=2)
    assert "Did you mean '--history-source'?" in result.output
    (hint,) = re.findall(r"Try '([^']+)' for help", result.output)
    assert hint == "loopx-recall capability enable --help"
    assert "--provider" not in hint  # the old hint named `enable --provider ...`
    run(hint.split()[1:])  # the command it names runs (exit 0)


def test_a_provider_whose_options_break_is_a_usage_error(provider, monkeypatch):
    def broken():
        raise RuntimeError(CANARY)

    monkeypatch.setattr(provider, "binding_options", broken)
    result = run([*ENABLE, "--history-source", "codex"], code=2)
    assert "No such option '--history-source'" in result.output
    assert CANARY not in result.output


def test_the_last_provider_named_is_the_one_whose_options_are_shown(provider):
    text = run(["capability", "enable", "--provider", "nope", *PROVIDER, "--help"]).output
    assert "Options of provider obelisk-session-evidence:" in text


def test_options_for_a_provider_that_is_not_installed(provider):
    args = ["capability", "enable", "agent-turn-recall", "--provider", "nope",
            "--agent-id", "a", "--project-id", "j", "--history-source", "codex"]  # fmt: skip
    result = run(args, code=2)
    assert "provider 'nope' is not installed, so its options (--history-source) are unknown" in (
        result.output
    )


# ------------------------------------------------------------------ status: repository id, state


def test_status_shows_the_repository_id_in_text_and_json(provider):
    run([*ENABLE, "--history-source", "codex"])
    text = run(STATUS).output
    assert "    repository_id: repo-fake" in text.splitlines()
    assert "state folder: `loopx-recall state path` (or --show-private)" in text
    data = json.loads(run([*STATUS, "--format", "json"]).output)
    assert data["enablements"][0]["repository_id"] == "repo-fake"
    assert "private" not in data


def test_status_show_private_prints_the_state_folder(provider, loopx_home):
    text = run([*STATUS, "--show-private"]).output
    assert f"  state folder: {loopx_home}" in text.splitlines()
    data = json.loads(run([*STATUS, "--show-private", "--format", "json"]).output)
    assert data["private"] == {"state_folder": str(loopx_home)}


def test_state_path_prints_the_folder_without_reading_it(loopx_home):
    loopx_home.mkdir(parents=True)
    (loopx_home / "state.json").write_text("{broken")
    assert run(["state", "path"]).output == f"{loopx_home}\n"
    data = json.loads(run(["state", "path", "--format", "json"]).output)
    assert data == {"state_folder": str(loopx_home), "source": "LOOPX_RECALL_HOME", "exists": True}
    # the corrupt-state error points there, without printing the path itself
    error = run(STATUS, code=2).output
    assert "`loopx-recall state path` prints where the state folder is" in error
    assert str(loopx_home) not in error


# ------------------------------------------------------------------ recall show: both handles


def test_recall_show_takes_the_request_id_and_the_private_handle(provider):
    # runtime mode: the in-process fake returns sessions nobody claimed
    run([*ENABLE, "--history-source", "codex", "--agent-sessions", "runtime"])
    history = ["recall", "history", "--agent-id", "agent-a", "--project-id", "proj-j",
               "--term", "pytest"]  # fmt: skip
    data = json.loads(run([*history, "--format", "json"]).output)
    request_id, handle = data["receipt"]["request_id"], data["private_ref"]
    assert handle.startswith("private:")
    by_id = json.loads(run(["recall", "show", request_id, "--format", "json"]).output)
    by_handle = json.loads(run(["recall", "show", handle, "--format", "json"]).output)
    assert by_id == by_handle
    assert CANARY in run(["recall", "show", handle]).output
    # the text output names the handle and the command that reads it back
    text = run(history).output
    assert re.search(r"stored: `loopx-recall recall show private:[0-9a-f]{32}` reads it back", text)
    assert CANARY not in text


# ------------------------------------------------------------------ recall replan: flag form


def test_replan_flag_form_builds_the_situation_from_the_enablement(provider):
    # runtime mode: the in-process fake returns sessions nobody claimed
    run([*ENABLE, "--history-source", "codex", "--agent-sessions", "runtime"])
    result = run([*REPLAN, "--proposed-command", "pytest tests/test_api.py", "--show-private",
                  "--format", "json"])  # fmt: skip
    data = json.loads(result.output)
    assert data["admission"]["admitted"] is True
    assert data["situation_id"].startswith("operator-")
    assert data["request"]["trigger"] == "operator_requested_history"
    assert data["request"]["scope"]["repository_id"] == "repo-fake"  # the hidden id, found
    assert data["recall"]["status"] == "succeeded"
    assert provider.calls == 1
    assert "pytest" in data["request"]["query_terms"]


def test_replan_flag_form_takes_the_outcomes_situation_id(provider, tmp_path):
    run([*ENABLE, "--history-source", "codex"])
    outcome = {
        "schema_version": "loopx_replan_outcome_v0", "situation_id": "sit-7",
        "kind": "grounded_successor",
        "rationale_refs": [{"kind": "current_evidence", "ref": "ci-run-42"}],
        "step": {"kind": "command", "command": "cargo build"},
    }  # fmt: skip
    path = tmp_path / "outcome.json"
    path.write_text(json.dumps(outcome))
    args = [*REPLAN, "--proposed-command", "cargo build", "--outcome-json", str(path)]
    text = run(args).output
    assert text.splitlines()[0] == "situation sit-7"
    assert "  admission: admitted" in text.splitlines()
    assert re.search(r"^  outcome: (legal|ILLEGAL) \(", text, re.MULTILINE)


def test_replan_flag_form_without_an_enablement_is_a_typed_refusal(provider):
    data = json.loads(run([*REPLAN, "--proposed-command", "make", "--format", "json"]).output)
    assert data["admission"]["admitted"] is False
    assert data["admission"]["reason"] == "not_enabled"
    assert provider.calls == 0


def test_replan_repetition_trigger_needs_stage_2(provider):
    run([*ENABLE, "--history-source", "codex"])
    args = [*REPLAN, "--proposed-command", "make", "--trigger", "replan_repetition"]
    data = json.loads(run([*args, "--format", "json"]).output)
    assert data["admission"]["reason"] == "trigger_not_admitted_at_stage"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["recall", "replan"], "give either --situation-json FILE or --proposed-command CMD"),
        (
            ["recall", "replan", "--situation-json", "s.json", "--proposed-command", "make"],
            "give either --situation-json FILE or --proposed-command CMD",
        ),
        (
            ["recall", "replan", "--proposed-command", "make", "--agent-id", "a"],
            "--proposed-command needs --agent-id and --project-id",
        ),
        (
            ["recall", "replan", "--situation-json", "s.json", "--agent-id", "a"],
            "--agent-id belongs to the flag form (--proposed-command)",
        ),
    ],
)
def test_replan_usage_errors(provider, args, message):
    assert message in run(args, code=2).output


# ------------------------------------------------------------------ install by name


def test_install_by_name_says_it_is_not_on_the_index_and_what_works(monkeypatch):
    ran = []
    distributions = importlib.import_module("loopx_recall_core.plugin.distributions")
    monkeypatch.setattr(distributions, "pip_install", lambda *a, **k: ran.append(a))
    result = run(["extension", "install", "obelisk-session-evidence"], code=1)
    assert result.output.splitlines() == [
        "error: obelisk-session-evidence is not on the package index yet: in a clone of "
        "loopx-recall-core, run `loopx-recall extension install ./plugins/obelisk-session-evidence`"
    ]
    assert ran == []  # refused before pip


def test_the_catalogue_does_not_call_an_unpublished_extension_available(monkeypatch):
    env = {"LOOPX_RECALL_LOAD_PLUGINS": ""}
    distributions = importlib.import_module("loopx_recall_core.plugin.distributions")
    monkeypatch.setattr(distributions, "installed_view", lambda host: [])
    data = json.loads(run(["extension", "list", "--available", "--format", "json"], env=env).output)
    (known,) = data["available"]
    assert known["on_package_index"] is False
    assert known["install_command"] == (
        "loopx-recall extension install ./plugins/obelisk-session-evidence"
    )
    text = run(["extension", "list", "--available"], env=env).output
    assert "[available]" not in text
    assert "[from source only] obelisk-session-evidence" in text
    assert "    install: loopx-recall extension install ./plugins/obelisk-session-evidence" in text
