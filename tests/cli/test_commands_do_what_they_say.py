# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A command does what its help and output say: ``recall replan --help`` does not promise
exit 1 with no provider installed (it exits 0, refused ``not_enabled``), and ``capability
status --show-private`` shows the binding's private values in text as in JSON.

(``hook install``'s messages and its "n" answer are in tests/recall/test_hook_install_refusals.py.)
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from loopx_recall_core.cli import cli
from loopx_recall_core.plugin import manager as plugins_module

from ..fake_provider import CANARY, FakeProvider, host_with

LOOPX = str(Path(sys.executable).with_name("loopx-recall"))
capability_cli = importlib.import_module("loopx_recall_core.cli.capability")


def _loopx(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(cwd), "LOOPX_RECALL_HOME": str(cwd / "loopx")}
    env.pop("CODEX_HOME", None)
    result = subprocess.run(
        [LOOPX, *args], input=stdin, capture_output=True, text=True, cwd=cwd, env=env,
        timeout=60, check=False,
    )  # fmt: skip
    assert "Traceback" not in result.stderr
    return result


def test_replan_help_matches_its_exit_status_with_no_provider(tmp_path):
    help_text = " ".join(_loopx("recall", "replan", "--help", cwd=tmp_path).stdout.split())
    assert "exit 1" not in help_text
    assert "also with no provider installed" in help_text
    env_free = subprocess.run(
        [LOOPX, "recall", "replan", "--proposed-command", "make", "--agent-id", "a",
         "--project-id", "j"],
        env={**os.environ, "LOOPX_RECALL_LOAD_PLUGINS": "", "HOME": str(tmp_path),
             "LOOPX_RECALL_HOME": str(tmp_path / "loopx")},
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert env_free.returncode == 0, env_free.stderr
    assert "refused (not_enabled)" in env_free.stdout


def test_status_show_private_text_shows_the_repository_roots(monkeypatch, loopx_home):
    fake = FakeProvider()
    monkeypatch.setattr(capability_cli, "load_host", lambda *a, **k: host_with(fake))
    monkeypatch.setattr(plugins_module, "load_host", lambda *a, **k: host_with(fake))
    runner = CliRunner()
    enabled = runner.invoke(cli, [
        "capability", "enable", "agent-turn-recall", "--provider", "obelisk-session-evidence",
        "--surface", "replan-history", "--agent-id", "agent-a", "--project-id", "proj-j",
    ])  # fmt: skip
    assert enabled.exit_code == 0, enabled.output
    status = ["capability", "status", "agent-turn-recall", "--provider",
              "obelisk-session-evidence", "--project-id", "proj-j"]  # fmt: skip
    public = runner.invoke(cli, status)
    assert public.exit_code == 0, public.output
    assert CANARY not in public.stdout
    private = runner.invoke(cli, [*status, "--show-private"])
    assert private.exit_code == 0, private.output
    assert f"    repository_roots: /home/alice/{CANARY}/repo" in private.stdout.splitlines()
