# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``extension list`` judges the Obelisk binary the enablement names, and an enable that
is refused (a stage 2 enable with a folder for a binary) changes nothing it reads."""

from __future__ import annotations

import json

import pytest

from ..hostile import (
    answer,
    configure,
    install_standin,
    installed_cli_env,
    run_cli,
    standin_world,
)


@pytest.fixture
def world(tmp_path, monkeypatch):
    return standin_world(tmp_path, monkeypatch)


@pytest.fixture
def cli_env(world):
    return installed_cli_env(world)


def test_extension_list_uses_the_enabled_binary_and_a_refused_enable_changes_nothing(
    world, cli_env, tmp_path
):
    home, root, _ = world
    good = install_standin(home)
    configure(home, answer=answer([]))
    evil = tmp_path / "evil"
    evil.mkdir()
    env = {**cli_env, "PATH": "/usr/bin:/bin"}
    base = [
        "capability",
        "enable",
        "agent-turn-recall",
        "--provider",
        "obelisk-session-evidence",
        "--surface",
        "replan-history",
        "--project-id",
        "proj-j",
        "--history-source",
        "codex",
        "--repository-root",
        str(root),
        "--repository-id",
        "repo-r",
    ]
    refused = run_cli(env, *base, "--agent-id", "x", "--stage", "2", "--obelisk-bin", str(evil))
    assert refused.returncode == 1
    listed = json.loads(run_cli(env, "extension", "list", "--format", "json").stdout)
    assert listed["extensions"][0]["ready"] is False  # nothing configured yet
    assert run_cli(env, *base, "--agent-id", "a", "--obelisk-bin", str(good)).returncode == 0
    listed = json.loads(run_cli(env, "extension", "list", "--format", "json").stdout)
    assert listed["extensions"][0]["ready"] is True
