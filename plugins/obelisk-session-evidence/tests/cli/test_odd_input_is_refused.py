# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Odd input to the installed CLI is refused with one line and never echoed: a FIFO given
as a JSON input file (refused without blocking), a malformed ``--current-session``, a
provider id that names no provider, a relative ``LOOPX_RECALL_HOME``."""

from __future__ import annotations

import os
import subprocess

import pytest

from ..hostile import LOOPX, installed_cli_env, run_cli, standin_world

CANARY = "CANARY-REVIEW-4e1a"


@pytest.fixture
def world(tmp_path, monkeypatch):
    return standin_world(tmp_path, monkeypatch)


@pytest.fixture
def cli_env(world):
    return installed_cli_env(world)


def test_a_fifo_given_as_json_input_is_refused_without_blocking(world, cli_env, tmp_path):
    fifo = tmp_path / "situation.json"
    os.mkfifo(fifo)
    done = run_cli(cli_env, "recall", "validate", "request", str(fifo))
    assert done.returncode == 1
    assert "not a regular file" in done.stderr
    piped = run_cli(cli_env, "recall", "validate", "request", "-", stdin="{}")
    assert piped.returncode == 1
    assert "required field missing" in piped.stderr


@pytest.mark.parametrize("value", [" abc", "abc\n", "a b", "", "abc\t"])
def test_a_malformed_current_session_is_refused(cli_env, value):
    done = run_cli(
        cli_env,
        "recall",
        "history",
        "--agent-id",
        "a",
        "--project-id",
        "p",
        "--term",
        "pytest",
        "--current-session",
        value,
    )
    assert done.returncode == 2
    assert "session id" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_unknown_provider_is_not_echoed(cli_env):
    done = run_cli(
        cli_env,
        "recall",
        "history",
        "--provider",
        CANARY,
        "--agent-id",
        "a",
        "--project-id",
        "p",
        "--term",
        "x",
    )
    assert done.returncode == 1
    assert CANARY not in done.stdout + done.stderr


def test_a_relative_state_home_is_refused(cli_env, tmp_path):
    env = {**cli_env, "LOOPX_RECALL_HOME": "relative-state"}
    done = subprocess.run([LOOPX, "capability", "status", "agent-turn-recall", "--provider",
                           "obelisk-session-evidence"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 2
    assert "must be an absolute path" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "relative-state").exists()
