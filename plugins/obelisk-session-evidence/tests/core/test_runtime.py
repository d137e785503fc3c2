# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""What the provider knows without running Obelisk again, and where it looks.

One recall is exactly one ``obelisk --query`` while the binary is unchanged; a changed
binary is probed again; status reuses the last readback and says when it was taken; the
transcript scan never opens a file outside the window's day folders; the binary is found
the same way by every command, and enable refuses what it cannot use.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from loopx_obelisk_session_evidence import evidence
from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence

from ..hostile import (
    answer,
    binding,
    codex_transcript,
    configure,
    install_standin,
    now_iso,
    request,
    standin_log,
    tool_row,
)
from ..obelisk_double.fixtures import a_users_double, double_settings

LOOPX = str(Path(sys.executable).parent / "loopx-recall")


@pytest.fixture
def world(tmp_path, monkeypatch):
    home, root, state = tmp_path / "home", tmp_path / "repo", tmp_path / "state"
    for folder in (home, root):
        folder.mkdir()
    state.mkdir(mode=0o700)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("LOOPX_RECALL_HOME", str(state))
    monkeypatch.delenv("LOOPX_RECALL_OBELISK_BIN", raising=False)
    obelisk = install_standin(home)
    configure(home, answer=answer([tool_row(str(root))]))
    return home, root, obelisk


def _calls(home: Path) -> list[str]:
    return [entry["argv"][0] for entry in standin_log(home) if "argv" in entry]


def test_a_recall_is_one_subprocess_while_the_binary_is_unchanged(world):
    home, root, obelisk = world
    provider, bound = ObeliskSessionEvidence(), binding(root, obelisk)
    provider.retrieve(request(), bound, timeout=10)
    assert _calls(home) == ["--version", "--query"]
    before = len(_calls(home))
    result = provider.retrieve(request(), bound, timeout=10)
    assert len(result.items) == 1
    assert _calls(home)[before:] == ["--query"]


def test_a_changed_binary_is_probed_again(world):
    home, root, obelisk = world
    provider, bound = ObeliskSessionEvidence(), binding(root, obelisk)
    provider.retrieve(request(), bound, timeout=10)
    obelisk.write_text(obelisk.read_text() + "\n# a new release\n")
    before = len(_calls(home))
    provider.retrieve(request(), bound, timeout=10)
    assert _calls(home)[before:] == ["--version", "--query"]


def test_status_reuses_the_last_readback_and_says_when(world):
    home, root, obelisk = world
    provider, bound = ObeliskSessionEvidence(), binding(root, obelisk)
    first = provider.readback(bound)
    assert first.ready
    before = len(_calls(home))
    again = provider.readback(bound)
    assert _calls(home)[before:] == []
    assert again.runtime["readback_taken_at"] == first.runtime["readback_taken_at"]
    assert again.freshness == first.freshness
    provider.retrieve(request(), bound, timeout=10)  # a recall refreshes the facts
    assert provider.readback(bound).runtime["readback_taken_at"] is not None


def test_the_scan_never_opens_a_file_outside_the_window(world, monkeypatch):
    home, root, obelisk = world
    inside = codex_transcript(home, "recent", cwd=str(root), timestamp=now_iso())
    today = datetime.now(UTC).date()
    old = home / ".codex" / "sessions" / f"{today.year - 1:04d}" / "01" / "01"
    old.mkdir(parents=True)
    os.mkfifo(old / "rollout-fifo.jsonl")  # opening it for reading would block
    (old / "rollout-unreadable.jsonl").write_text("{}\n")
    (old / "rollout-unreadable.jsonl").chmod(0)
    opened: list[str] = []
    real = evidence._first_line
    monkeypatch.setattr(
        evidence, "_first_line", lambda path: opened.append(str(path)) or real(path)
    )
    provider, bound = ObeliskSessionEvidence(), binding(root, obelisk)
    provider.retrieve(request(), bound, timeout=10)
    assert set(opened) == {str(inside)}
    opened.clear()
    provider.retrieve(request(), bound, timeout=10)  # unchanged since the last look
    assert opened == []
    inside.write_text(inside.read_text() + "\n")
    provider.retrieve(request(), bound, timeout=10)
    assert opened == [str(inside)]


def _cli(env, *args, check=True):
    done = subprocess.run(
        [LOOPX, *args], env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert "Traceback" not in done.stderr
    if check:
        assert done.returncode == 0, done.stderr
    return done


def test_every_command_finds_the_binary_configured_at_enable(world, tmp_path, obelisk_bin):
    # The double stands for a binary that is neither on PATH nor in the environment, on a
    # machine whose Node 22 is on PATH (a_users_double: the clone has no .cache/node22).
    home, root, _ = world
    double_settings(home)
    obelisk_bin, path = a_users_double(tmp_path / "user", obelisk_bin)
    env = {
        "PATH": path,
        "HOME": str(home),
        "LOOPX_RECALL_HOME": os.environ["LOOPX_RECALL_HOME"],
        "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence",
    }
    capability = ["agent-turn-recall", "--provider", "obelisk-session-evidence"]
    _cli(
        env,
        "capability",
        "enable",
        *capability,
        "--surface",
        "replan-history",
        "--agent-id",
        "agent-a",
        "--project-id",
        "proj-j",
        "--history-source",
        "codex",
        "--repository-root",
        str(root),
        "--repository-id",
        "repo-r",
        "--obelisk-bin",
        str(obelisk_bin),
    )
    status = json.loads(_cli(env, "capability", "status", *capability, "--format", "json").stdout)
    assert status["provider"]["ready"] is True
    listed = json.loads(_cli(env, "extension", "list", "--format", "json").stdout)
    assert listed["extensions"][0]["ready"] is True
    history = _cli(
        env,
        "recall",
        "history",
        "--agent-id",
        "agent-a",
        "--project-id",
        "proj-j",
        "--term",
        "pytest",
        "--format",
        "json",
    )
    assert json.loads(history.stdout)["status"] == "succeeded"
    # qualify runs against it too (exit 2 would mean "provider missing or not ready")
    qualified = _cli(
        env, "recall", "qualify", "--cases", "20", "--report", str(tmp_path / "report"), check=False
    )
    assert qualified.returncode in (0, 1), qualified.stderr
    assert json.loads((tmp_path / "report" / "report.json").read_text())["cases"]


@pytest.mark.parametrize(
    ("option", "make", "reason"),
    [
        (
            "--repository-root",
            lambda tmp: tmp / "missing",
            "--repository-root must name an existing folder",
        ),
        ("--obelisk-bin", lambda tmp: tmp / "missing", "--obelisk-bin does not exist"),
        ("--obelisk-bin", lambda tmp: tmp, "--obelisk-bin is a folder"),
        (
            "--obelisk-bin",
            lambda tmp: (tmp / "plain").write_text("x") and tmp / "plain",
            "--obelisk-bin is not executable",
        ),
    ],
)
def test_enable_refuses_what_it_cannot_use(world, tmp_path, option, make, reason):
    home, root, _ = world
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "LOOPX_RECALL_HOME": os.environ["LOOPX_RECALL_HOME"],
        "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence",
    }
    target = make(tmp_path)
    args = [
        "capability",
        "enable",
        "agent-turn-recall",
        "--provider",
        "obelisk-session-evidence",
        "--surface",
        "replan-history",
        "--agent-id",
        "agent-a",
        "--project-id",
        "proj-j",
        "--history-source",
        "codex",
        "--repository-id",
        "repo-r",
    ]
    if option == "--repository-root":
        args += ["--repository-root", str(target)]
    else:
        args += ["--repository-root", str(root), "--obelisk-bin", str(target)]
    refused = _cli(env, *args, check=False)
    assert refused.returncode == 1
    assert reason in refused.stderr
    assert str(tmp_path) not in refused.stderr
