# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``recall replan`` and ``recall history`` print, byte for byte, what they printed when
these outputs were captured (``golden/``): JSON, ``--show-private`` JSON, text, and the
LoopX capability's replan answer, over refusals, repeats, legality and commands that
carry secrets.

The golden files were written by this test (``LOOPX_WRITE_GOLDEN=1``) from main at
2058d13, before the replan path was given typed values, and are only compared since.
Everything that varies between runs is pinned: the owner's receipt key (a file written
before the run), the situation ids (given, or ``uuid.uuid4`` fixed for the flag forms
that make one) and the provider (the in-process fake, whose snippets are given here).
"""

from __future__ import annotations

import importlib
import json
import os
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner

from loopx_recall_core.cli import cli
from loopx_recall_core.loopx_protocol import capability
from tests.fake_provider import FakeProvider, host_with
from tests.state_builders import enablement, seed

GOLDEN = Path(__file__).parent / "golden" / "replan_wire"
# the operator commands load the plugins in this library module
operator_requests = importlib.import_module("loopx_recall_core.operator_requests")

ID_FLAGS = ["--agent-id", "agent-a", "--project-id", "proj-j"]
FAILED_PYTEST = "exec_command: pytest -q tests/test_api.py\noutcome: failed (exit 1)\nE boom"
SECRET_CURL = (
    "curl -H 'Authorization: Bearer ghp_0123456789abcdefABCDEF0123456789abcd' "
    "https://api.example.com/items"
)
FAILED_CURL = f"exec_command: {SECRET_CURL}\noutcome: failed (exit 22)\n500"
SITUATION = {
    "schema_version": "loopx_replan_situation_v0",
    "situation_id": "sit-golden-1",
    "agent_id": "agent-a",
    "project_id": "proj-j",
    "repository_id": "repo-r",
    "trigger": "operator_requested_history",
    "signals": {"operator_requested": True},
    "proposed_step": {"kind": "command", "command": "pytest -q tests/test_api.py"},
}
OUTCOME = {
    "schema_version": "loopx_replan_outcome_v0",
    "situation_id": "sit-golden-1",
    "kind": "grounded_successor",
    "step": {"kind": "command", "command": "pip install 'httpx<0.28'"},
    "rationale_refs": [
        {"kind": "current_evidence", "ref": "log:42"},
        {"kind": "comparison_verdict", "ref": "repeats_prior_failure"},
    ],
}

#: name -> (enabled, provider snippet, recall arguments, standard input)
CASES: dict[str, tuple[bool, str | None, list[str], str | None]] = {
    "flag_not_enabled": (False, None, ["replan", "--proposed-command", "make", *ID_FLAGS], None),
    "flag_repeat": (
        True,
        FAILED_PYTEST,
        ["replan", "--proposed-command-file", "-", "--situation-id", "sit-flag-1", *ID_FLAGS],
        "pytest -q tests/test_api.py\n",
    ),
    "flag_no_match": (
        True,
        "exec_command: make lint\noutcome: ok",
        ["replan", "--proposed-command", "cargo test -p core", "--revision", "abc123",
         *ID_FLAGS],
        None,
    ),
    "flag_secret": (
        True,
        FAILED_CURL,
        ["replan", "--proposed-command-file", "-", "--situation-id", "sit-secret", *ID_FLAGS],
        SECRET_CURL,
    ),
    "flag_env_secret": (
        True,
        "exec_command: PGPASSWORD=[redacted:password] psql -h db.internal -U app\noutcome: failed",
        ["replan", "--proposed-command-file", "-", "--situation-id", "sit-env", *ID_FLAGS],
        "PGPASSWORD=Hunter2-Zq8pLx7 psql -h db.internal -U app",
    ),
    "flag_stage_refused": (
        True,
        FAILED_PYTEST,
        ["replan", "--proposed-command", "pytest", "--trigger", "replan_repetition",
         "--situation-id", "sit-stage", *ID_FLAGS],
        None,
    ),
    "situation_with_outcome": (
        True,
        FAILED_PYTEST,
        ["replan", "--situation-json", "{situation}", "--outcome-json", "{outcome}"],
        None,
    ),
    "history": (True, FAILED_PYTEST, ["history", "--term", "pytest", *ID_FLAGS], None),
}  # fmt: skip
VIEWS = {
    "json": ["--format", "json"],
    "json-private": ["--format", "json", "--show-private"],
    "text": ["--format", "text"],
    "text-private": ["--format", "text", "--show-private"],
}


def _pinned(monkeypatch, home: Path, enabled: bool, snippet: str | None) -> None:
    private = home / "private"
    private.mkdir(parents=True, mode=0o700)
    key = private / "receipt.key"
    key.write_bytes(bytes(range(32)))
    os.chmod(key, 0o600)
    monkeypatch.setattr(uuid, "uuid4", lambda: uuid.UUID(int=0x5EED))
    host = host_with(FakeProvider(items=2, snippet=snippet))
    monkeypatch.setattr(operator_requests, "load_host", lambda *a, **k: host)
    monkeypatch.setattr(capability, "load_host", lambda *a, **k: host)
    if enabled:
        seed(enablement("obelisk-session-evidence"))


def _output(name: str, view: str, tmp_path: Path) -> str:
    _enabled, _snippet, args, stdin = CASES[name]
    situation, outcome = tmp_path / "situation.json", tmp_path / "outcome.json"
    situation.write_text(json.dumps(SITUATION))
    outcome.write_text(json.dumps(OUTCOME))
    args = [a.format(situation=situation, outcome=outcome) for a in args]
    result = CliRunner().invoke(cli, ["recall", *args, *VIEWS[view]], input=stdin)
    assert result.exit_code == 0, result.output
    return result.stdout


def _compare(name: str, produced: str) -> None:
    golden = GOLDEN / name
    if os.environ.get("LOOPX_WRITE_GOLDEN") == "1":
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(produced)
    assert produced == golden.read_text(), f"{name} differs from its golden output"


@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_output_is_the_golden_one(name, view, loopx_home, tmp_path, monkeypatch):
    enabled, snippet, _args, _stdin = CASES[name]
    _pinned(monkeypatch, loopx_home, enabled, snippet)
    _compare(f"{name}.{view}.out", _output(name, view, tmp_path))


LOOPX_REPLAN = {
    "schema_version": "loopx_recall_replan_request_v0",
    "invocation_id": "capability-0123456789abcdef01234567",
    "capability_id": "agent-history-recall",
    "operation": "replan",
    "goal": {"goal_id": "recall-goal", "capability_binding_digest": "sha256:" + "0" * 64},
    "provider": {
        "extension_id": "loopx-recall-history",
        "revision": "sha256:" + "1" * 64,
        "profile_digest": "sha256:" + "2" * 64,
    },
    "context_refs": [{"kind": "todo", "ref": "todo_abcdef", "digest": "sha256:" + "3" * 64}],
    "input": {
        "agent_id": "agent-a",
        "project_id": "proj-j",
        "proposed_command": "pytest -q tests/test_api.py",
        "revision": "abc123",
    },
}


@pytest.mark.parametrize("enabled", [True, False])
def test_the_loopx_replan_answer_is_the_golden_one(enabled, loopx_home, monkeypatch):
    _pinned(monkeypatch, loopx_home, enabled, FAILED_PYTEST)
    answer = capability.answer(json.loads(json.dumps(LOOPX_REPLAN)))
    name = "loopx_replan" + ("" if enabled else "_not_enabled")
    _compare(f"{name}.json.out", json.dumps(answer, indent=2, sort_keys=False) + "\n")
