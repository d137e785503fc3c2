# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``hook install`` keeps the settings file's mode, and a Codex ``config.toml`` it refuses
(not UTF-8) keeps its bytes."""

from __future__ import annotations

import subprocess

import pytest

from ..hostile import LOOPX, installed_cli_env, standin_world


@pytest.fixture
def world(tmp_path, monkeypatch):
    return standin_world(tmp_path, monkeypatch)


@pytest.fixture
def cli_env(world):
    return installed_cli_env(world)


def test_hook_install_keeps_the_files_mode_and_bytes(cli_env, tmp_path):
    settings = tmp_path / "project" / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text("{}\n")
    settings.chmod(0o644)
    install = [LOOPX, "hook", "install", "claude", "--agent-id", "a", "--project-id", "p",
               "--settings", str(settings), "--yes"]  # fmt: skip
    done = subprocess.run(install, env=cli_env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert settings.stat().st_mode & 0o777 == 0o644
    config = tmp_path / "config.toml"
    config.write_bytes(b"# caf\xe9\nmodel = 'x'\n")
    codex = [LOOPX, "hook", "install", "codex", "--agent-id", "a", "--project-id", "p",
             "--settings", str(config), "--yes"]  # fmt: skip
    refused = subprocess.run(codex, env=cli_env, capture_output=True, text=True, check=False)
    assert refused.returncode == 1
    assert config.read_bytes() == b"# caf\xe9\nmodel = 'x'\n"
