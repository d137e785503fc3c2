# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A FIFO (or any special file) named ``*.jsonl`` among the transcripts is never
opened, so it cannot hang ``capability status`` or a recall; and status runs under the
same kind of deadline as recall, so a provider whose readback never returns is reported,
not waited for."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence

from loopx_recall_core.plugin_api import ProviderReadback
from loopx_recall_core.testing import PluginHost, safe_readback

from ..hostile import answer, binding, configure, install_standin, request

LOOPX = str(Path(sys.executable).parent / "loopx-recall")


def _plant_fifos(home: Path, root: Path) -> None:
    codex = home / ".codex" / "sessions" / "2026" / "11" / "30"
    codex.mkdir(parents=True)
    os.mkfifo(codex / "rollout-fifo.jsonl")
    claude = home / ".claude" / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(root))
    claude.mkdir(parents=True)
    os.mkfifo(claude / "fifo-session.jsonl")


def test_status_and_recall_do_not_open_a_fifo(tmp_path):
    home, root = tmp_path / "home", tmp_path / "repo"
    home.mkdir()
    root.mkdir()
    _plant_fifos(home, root)
    obelisk = install_standin(home)
    configure(home, answer=answer([]))
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "LOOPX_RECALL_HOME": str(tmp_path / "state"),
        "LOOPX_RECALL_OBELISK_BIN": str(obelisk),
        "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence",
    }
    capability = ["agent-turn-recall", "--provider", "obelisk-session-evidence"]

    def loopx(*args):
        # A hang would end in TimeoutExpired: the FIFO has no writer, so opening it blocks.
        done = subprocess.run(
            [LOOPX, *args], env=env, capture_output=True, text=True, timeout=60, check=False
        )
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
        return done

    loopx(
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
        "--history-source",
        "claude",
        "--repository-root",
        str(root),
        "--repository-id",
        "repo-r",
    )
    status = json.loads(loopx("capability", "status", *capability, "--format", "json").stdout)
    assert status["provider"]["ready"] is True
    history = loopx(
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


def test_the_provider_never_lists_a_fifo_as_a_transcript(tmp_path, monkeypatch):
    home, root = tmp_path / "home", tmp_path / "repo"
    home.mkdir()
    root.mkdir()
    _plant_fifos(home, root)
    monkeypatch.setenv("HOME", str(home))
    configure(home, answer=answer([]))
    result = ObeliskSessionEvidence().retrieve(
        request(), binding(root, install_standin(home), sources=("codex", "claude")), timeout=10
    )
    # a FIFO listed as a transcript would read as "incomplete" (not in the index)
    assert result.freshness != "incomplete"


class _HangingReadback:
    provider_id = "hanging"
    provider_version = "1"

    def __init__(self) -> None:
        self.release = threading.Event()

    def readback(self, binding):
        self.release.wait()
        return ProviderReadback(provider_id="hanging", version="1", ready=True)


def test_status_readback_has_a_deadline():
    provider = _HangingReadback()
    try:
        readback = safe_readback(PluginHost(), "key", provider, None, deadline=0.2)
    finally:
        provider.release.set()
    assert readback.ready is False
    assert readback.unavailable_reason == "provider readback timed out"
