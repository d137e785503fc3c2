# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""With the real plugin: when Obelisk cannot be found, ``recall
history`` and ``recall replan`` text say how to get it (its public repository, where npm
lacks @obelisk-apps/cli, as here; the npm package where it has it),
which releases are supported, and how to point at it (``--obelisk-bin``,
LOOPX_RECALL_OBELISK_BIN), naming no path, in a few words (issue 42: it was one line of
400 characters); ``capability enable`` warns that it is not ready."""

from __future__ import annotations

import json
import os
import subprocess

from loopx_obelisk_session_evidence.provider import NOT_FOUND

from ..conftest import LOOPX


def test_provider_unavailable_says_how_to_get_obelisk(loopx, enable_alpha, tmp_path):
    enable_alpha("codex")
    missing = tmp_path / "no-such-folder" / "obelisk"
    gone = {"LOOPX_RECALL_OBELISK_BIN": str(missing), "PATH": str(tmp_path)}
    history = loopx("recall", "history", "--agent-id", "agent-a", "--project-id", "proj-j",
                    "--term", "pytest", extra_env=gone)  # fmt: skip
    replan = loopx("recall", "replan", "--proposed-command", "pytest -x", "--agent-id",
                   "agent-a", "--project-id", "proj-j", extra_env=gone)  # fmt: skip
    for result in (history, replan):
        assert "provider_unavailable" in result.stdout, result.stdout
        assert "`npm install -g @obelisk-apps/cli`" in result.stdout
        assert "github.com/tommy0103/obelisk" in result.stdout
        assert "Obelisk 0.2.1 or later" in result.stdout
        assert "--obelisk-bin PATH" in result.stdout
        assert "LOOPX_RECALL_OBELISK_BIN" in result.stdout
        assert str(tmp_path) not in result.stdout + result.stderr


def test_extension_list_says_how_to_get_obelisk(tmp_path):
    # the installed CLI with no obelisk anywhere: not on PATH, no LOOPX_RECALL_OBELISK_BIN
    env = {k: v for k, v in os.environ.items() if k != "LOOPX_RECALL_OBELISK_BIN"}
    env |= {"PATH": str(tmp_path), "HOME": str(tmp_path), "LOOPX_RECALL_HOME": str(tmp_path / "l")}
    env.pop("LOOPX_RECALL_LOAD_PLUGINS", None)
    result = subprocess.run(
        [LOOPX, "extension", "list"], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    line = next(x for x in result.stdout.splitlines() if x.startswith("obelisk-session-evidence"))
    assert "not ready: obelisk not found: " in line
    assert "npm install -g @obelisk-apps/cli" in line
    assert "github.com/tommy0103/obelisk" in line
    assert "Obelisk 0.2.1 or later" in line
    assert "--obelisk-bin PATH" in line
    assert "LOOPX_RECALL_OBELISK_BIN" in line
    assert str(tmp_path) not in result.stdout


def test_the_hint_is_short():
    assert len(NOT_FOUND) <= 200


def test_enabling_without_obelisk_warns_and_enables(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "LOOPX_RECALL_OBELISK_BIN"}
    env |= {"PATH": str(tmp_path), "HOME": str(tmp_path), "LOOPX_RECALL_HOME": str(tmp_path / "l")}
    enable = [LOOPX, "capability", "enable", "agent-turn-recall", "--provider",
              "obelisk-session-evidence", "--agent-id", "agent-a", "--project-id", "proj-j",
              "--history-source", "claude", "--repository-root", str(repo), "--repository-id",
              "repo-r"]  # fmt: skip
    result = subprocess.run(enable, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("enabled agent-turn-recall via obelisk-session-evidence")
    assert result.stderr.splitlines() == [
        "warning: obelisk-session-evidence is not ready, so recall answers provider_unavailable "
        f"until it is: {NOT_FOUND}"
    ]
    again = subprocess.run([*enable, "--format", "json"], env=env, capture_output=True,
                           text=True, timeout=60)  # fmt: skip
    record = json.loads(again.stdout)
    assert (record["ready"], record["unavailable_reason"]) == (False, NOT_FOUND)
    assert str(tmp_path) not in result.stdout + result.stderr
