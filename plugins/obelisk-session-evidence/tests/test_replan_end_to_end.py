# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx recall replan`` against the double: a repeated dead end is caught, a new step is not."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

LOOPX = str(Path(sys.executable).parent / "loopx")
BASE = ["agent-turn-recall", "--provider", "obelisk-session-evidence"]


@pytest.fixture
def env(archive_home, obelisk_bin, tmp_path):
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(archive_home.home),
        "LOOPX_HOME": str(tmp_path / "loopx"),
        "LOOPX_OBELISK_BIN": str(obelisk_bin),
        "LOOPX_NODE22": os.environ["LOOPX_NODE22"],
        "OBELISK_DOUBLE_BUILD_GRACE_MS": "0",
        "LOOPX_LOAD_PLUGINS": "loopx-obelisk-session-evidence",
    }
    alpha = str(archive_home.repos["alpha"])
    subprocess.run(
        [
            LOOPX,
            "capability",
            "enable",
            *BASE,
            "--agent-id",
            "agent-a",
            "--project-id",
            "proj-j",
            "--history-source",
            "codex",
            "--history-source",
            "claude",
            "--repository-root",
            alpha,
            "--repository-id",
            "repo-a",
        ],
        env=env,
        check=True,
        capture_output=True,
    )
    return env


def _replan(env, tmp_path, situation, outcome=None, *extra):
    (tmp_path / "situation.json").write_text(json.dumps(situation))
    args = [
        LOOPX,
        "recall",
        "replan",
        "--situation-json",
        str(tmp_path / "situation.json"),
        "--format",
        "json",
        *extra,
    ]
    if outcome is not None:
        (tmp_path / "outcome.json").write_text(json.dumps(outcome))
        args += ["--outcome-json", str(tmp_path / "outcome.json")]
    result = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    return json.loads(result.stdout), result.stdout


def _situation(command: str) -> dict:
    return {
        "schema_version": "loopx_replan_situation_v0",
        "situation_id": "sit-e2e",
        "agent_id": "agent-a",
        "project_id": "proj-j",
        "repository_id": "repo-a",
        "trigger": "operator_requested_history",
        "signals": {"operator_requested": True},
        "proposed_step": {"kind": "command", "command": command},
    }


def _successor(command: str) -> dict:
    return {
        "schema_version": "loopx_replan_outcome_v0",
        "situation_id": "sit-e2e",
        "kind": "grounded_successor",
        "rationale_refs": [{"kind": "current_evidence", "ref": "ci-run-42"}],
        "step": {"kind": "command", "command": command},
    }


def test_repeat_is_caught_and_new_step_passes(env, archive_home, tmp_path):
    alpha = str(archive_home.repos["alpha"])
    failures = [
        e
        for e in archive_home.events
        if e.kind == "prior_failure" and e.visible and e.repo_root == alpha and e.command
    ]
    repeated = failures[0].command
    data, text = _replan(env, tmp_path, _situation(repeated), _successor(repeated))
    assert data["admission"]["admitted"] is True
    assert data["recall"]["status"] == "succeeded"
    assert data["comparison"]["verdict"] == "repeats_prior_failure"
    assert data["legality"]["legal"] is False
    for canary in archive_home.canaries:
        assert canary not in text
    assert alpha not in text

    novel = "cargo build --release --target wasm32-unknown-unknown"
    data, _ = _replan(env, tmp_path, _situation(novel), _successor(novel))
    assert data["comparison"]["verdict"] == "no_prior_match", data
    assert data["legality"]["legal"] is True


def test_replan_without_enablement_is_typed_refusal(env, tmp_path):
    situation = {**_situation("pytest"), "agent_id": "agent-other"}
    data, _ = _replan(env, tmp_path, situation)
    assert data["admission"]["admitted"] is False
    assert data["comparison"]["verdict"] == "undetermined"
