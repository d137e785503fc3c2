# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A current session is excluded whether it is named by its runtime (the Codex
thread id an agent knows) or by the index (``codex:<thread id>``); a row without a
session id is malformed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence
from loopx_obelisk_session_evidence.scope import session_aliases

from loopx_recall_core.plugin_api import ProviderFailure

from ..hostile import (
    answer,
    binding,
    claude_transcript,
    codex_transcript,
    configure,
    install_standin,
    now_iso,
    request,
    tool_row,
)

THREAD = "6e36aab0-4c1f-4d0e-9d52-1f2e3d4c5b6a"


@pytest.fixture
def world(tmp_path, monkeypatch):
    home, root = tmp_path / "home", tmp_path / "repo"
    root.mkdir(parents=True)
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home, root


@pytest.mark.parametrize("named", [THREAD, f"codex:{THREAD}"])
def test_row_of_an_excluded_session_rejects_the_result(world, named):
    home, root = world
    configure(home, answer=answer([tool_row(str(root), session=f"codex:{THREAD}")]))
    bound = binding(root, install_standin(home))
    with pytest.raises(ProviderFailure) as failure:
        ObeliskSessionEvidence().retrieve(request(), bound, timeout=10, exclude_sessions=(named,))
    assert failure.value.reason == "scope_violation"


def test_the_cli_hands_current_sessions_to_the_provider(world, tmp_path):
    # `--current-session` with the thread id an agent knows, end to end through the host
    home, root = world
    configure(home, answer=answer([tool_row(str(root), session=f"codex:{THREAD}")]))
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "LOOPX_RECALL_HOME": str(tmp_path / "state"),
        "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence",
    }
    cli = str(Path(sys.executable).parent / "loopx-recall")
    enable = [cli, "capability", "enable", "agent-turn-recall", "--provider",
              "obelisk-session-evidence", "--surface", "replan-history", "--agent-id", "a",
              "--project-id", "p", "--history-source", "codex", "--repository-root", str(root),
              "--repository-id", "r", "--agent-sessions", "runtime",
              "--obelisk-bin", str(install_standin(home))]  # fmt: skip
    subprocess.run(enable, env=env, check=True, capture_output=True)
    history = [cli, "recall", "history", "--agent-id", "a", "--project-id", "p", "--term",
               "pytest", "--format", "json"]  # fmt: skip
    ran = subprocess.run(history, env=env, capture_output=True, text=True, check=True)
    assert json.loads(ran.stdout)["status"] == "succeeded"
    ran = subprocess.run([*history, "--current-session", THREAD], env=env,
                         capture_output=True, text=True, check=True)  # fmt: skip
    assert json.loads(ran.stdout)["reason"] == "scope_violation"


@pytest.mark.parametrize("session", ["", None, 7, ["codex:x"]])
def test_row_without_a_session_id_is_malformed(world, session):
    home, root = world
    row = tool_row(str(root))
    row.update(session_id=session, message_session_id=None, call_session_id=None)
    row.update(result_session_id=session)
    configure(home, answer=answer([row]))
    with pytest.raises(ProviderFailure) as failure:
        ObeliskSessionEvidence().retrieve(
            request(), binding(root, install_standin(home)), timeout=10
        )
    assert failure.value.reason == "malformed_output"


def test_every_runtime_accepts_both_forms():
    sources = ["claude", "codex", "kimi", "pi"]
    assert set(session_aliases([THREAD], sources)) >= {THREAD, f"codex:{THREAD}"}
    assert THREAD in session_aliases([f"codex:{THREAD}"], sources)
    # Claude's index id is its sessionId unchanged.
    assert session_aliases([THREAD], ["claude"]) == [THREAD]


def test_the_double_excludes_a_session_named_by_its_thread_id(world, obelisk_bin, double_ready):
    home, root = world
    codex_transcript(home, THREAD, cwd=str(root), timestamp=now_iso(-timedelta(hours=2)))
    bound = binding(root, obelisk_bin)
    provider = ObeliskSessionEvidence()
    control = provider.retrieve(request(), bound, timeout=30)
    assert [item.session_ref for item in control.items] == [f"codex:{THREAD}"]
    excluded = provider.retrieve(request(), bound, timeout=30, exclude_sessions=(THREAD,))
    assert excluded.items == ()


def test_a_current_sub_agent_row_in_its_parent_session_rejects_the_result(world):
    # The real index stores a Codex sub-agent's turns under the parent's session, with
    # agent_id = codex:<sub-agent thread> (tests/obelisk_double/README.md).
    home, root = world
    row = tool_row(str(root), session="codex:parent", agent_id=f"codex:{THREAD}")
    configure(home, answer=answer([row]))
    with pytest.raises(ProviderFailure) as failure:
        ObeliskSessionEvidence().retrieve(
            request(), binding(root, install_standin(home)), timeout=10, exclude_sessions=(THREAD,)
        )
    assert failure.value.reason == "scope_violation"


def test_the_double_excludes_a_current_sub_agent_by_its_agent_id(world, obelisk_bin, double_ready):
    home, root = world
    stamp = now_iso(-timedelta(hours=1))
    path = claude_transcript(home, "parent", cwd=str(root), timestamp=stamp)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    for line in lines:
        line["agentId"] = "sub-agent-7"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    bound = binding(root, obelisk_bin, sources=("claude",))
    provider = ObeliskSessionEvidence()
    assert [i.session_ref for i in provider.retrieve(request(), bound, timeout=30).items] == [
        "parent"
    ]
    excluded = provider.retrieve(request(), bound, timeout=30, exclude_sessions=("sub-agent-7",))
    assert excluded.items == ()
