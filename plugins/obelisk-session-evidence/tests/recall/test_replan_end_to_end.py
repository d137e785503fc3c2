# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall recall replan`` against the double: a repeated dead end is caught, a new
step is not."""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def env(loopx, enable_alpha):
    enable_alpha("codex", "claude")
    return loopx


def _replan(env, tmp_path, situation, outcome=None, *extra):
    (tmp_path / "situation.json").write_text(json.dumps(situation))
    args = [
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
    result = env(*args)
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


def test_text_names_the_handle_and_show_private_shows_what_happened(env, archive_home, tmp_path):
    # Before: --show-private printed exactly the text without it, and text never named the
    # private: handle to pass to `recall show`.
    alpha = str(archive_home.repos["alpha"])
    failure = next(
        e for e in archive_home.events
        if e.kind == "prior_failure" and e.visible and e.repo_root == alpha and e.command
    )  # fmt: skip
    (tmp_path / "situation.json").write_text(json.dumps(_situation(failure.command)))
    base = ["recall", "replan", "--situation-json", str(tmp_path / "situation.json")]
    plain = env(*base).stdout
    shown = env(*base, "--show-private").stdout
    handle = [line for line in plain.splitlines() if "stored: `loopx-recall recall show" in line]
    assert len(handle) == 1
    assert "private:" in handle[0]
    assert "repeats_prior_failure" in plain
    assert failure.command not in plain
    assert shown != plain
    assert failure.command in shown  # the matched item: when, the command, its error lines
    assert "  - same_route_failed [prior_failure] " in shown
    public_json = json.loads(env(*base, "--format", "json").stdout)
    assert "private:" not in json.dumps(public_json)  # the handle only with --show-private
    private_json = json.loads(env(*base, "--format", "json", "--show-private").stdout)
    assert private_json["recall_private_ref"].startswith("private:")
