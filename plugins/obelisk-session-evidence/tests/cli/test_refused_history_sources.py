# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Copilot and Kiro, indexed by the 0.3 line of Obelisk, are not offered as history
sources: enabling one is refused with one line saying why (what the scope check needs that
their rows do not carry, and where that was read), and nothing is enabled."""

from __future__ import annotations

import json

import pytest
from loopx_obelisk_session_evidence.binding import REFUSED_SOURCES

from ..hostile import installed_cli_env, run_cli, standin_world


@pytest.fixture
def world(tmp_path, monkeypatch):
    return standin_world(tmp_path, monkeypatch)


@pytest.mark.parametrize("source", sorted(REFUSED_SOURCES))
def test_a_refused_history_source_is_refused_with_its_reason(world, source):
    _, root, _ = world
    env = installed_cli_env(world)
    done = run_cli(
        env, "capability", "enable", "agent-turn-recall", "--provider",
        "obelisk-session-evidence", "--agent-id", "a", "--project-id", "p",
        "--history-source", source, "--repository-root", str(root),
        "--repository-id", "r", "--agent-sessions", "runtime",
    )  # fmt: skip
    assert done.returncode != 0
    assert f"--history-source {source} is refused: " in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    status = run_cli(
        env, "capability", "status", "agent-turn-recall", "--provider",
        "obelisk-session-evidence", "--format", "json",
    )  # fmt: skip
    assert json.loads(status.stdout)["enablements"] == []
