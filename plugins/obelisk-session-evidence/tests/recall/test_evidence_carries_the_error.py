# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""On the double, a failed
call is ONE item (a ``prior_failure``, not also a ``tool_outcome``), in a result and in
LoopX's decision-context answer; its snippet carries the decisive line even when the line
lies far past the output's opening; the runtime's header is not shown as output.

The tool outputs are real ones (``tests/core/decisive_lines/captured/``, how each was made in
its README); the transcripts around them follow the runtimes' forms
(``tests/core/decisive_lines/runtime_forms.py``, facts in /work/shared/AGENT_RUNTIMES.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import attrs
import pytest
from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence

from ..conftest import CAPABILITY, LOOPX
from ..hostile import binding, claude_transcript, codex_transcript, now_iso, request
from ..obelisk_double.fixtures import double_settings

CAPTURED = Path(__file__).resolve().parents[4] / "tests" / "core" / "decisive_lines" / "captured"
#: Codex 0.169.0's exec_command header, as its rollout stores it (observed; AGENT_RUNTIMES.md)
CODEX_0169_HEADER = (
    "Chunk ID: 688cb0\nWall time: 0.5012 seconds\nProcess exited with code 101\n"
    "Original token count: 310\nOutput:\n"
)
PROVIDER = str(Path(sys.executable).parent / "loopx-recall-loopx-provider")


def captured(name: str) -> str:
    return (CAPTURED / f"{name}.out").read_text()


@pytest.fixture
def world(tmp_path, monkeypatch):
    home, root = tmp_path / "home", tmp_path / "repo"
    home.mkdir()
    root.mkdir()
    monkeypatch.setenv("HOME", str(home))
    double_settings(home)
    return home, root


def test_a_failed_call_is_one_item_not_two(world, obelisk_bin):
    home, root = world
    claude_transcript(home, "s-claude", cwd=str(root), timestamp=now_iso(-timedelta(hours=2)))
    codex_transcript(home, "t-codex", cwd=str(root), timestamp=now_iso(-timedelta(hours=1)))
    result = ObeliskSessionEvidence().retrieve(
        request(types=("prior_failure", "tool_outcome")),
        binding(root, obelisk_bin, ("claude", "codex")),
        timeout=30,
    )
    assert sorted((i.session_ref, i.evidence_type) for i in result.items) == [
        ("codex:t-codex", "prior_failure"),
        ("s-claude", "prior_failure"),
    ]
    assert result.omitted_count == 0
    assert result.truncated is False


def test_a_success_is_still_a_tool_outcome(world, obelisk_bin):
    home, root = world
    codex_transcript(
        home, "t-ok", cwd=str(root), timestamp=now_iso(-timedelta(hours=1)),
        output="Exit code: 0\nWall time: 0.4 seconds\nOutput:\n3 passed",
    )  # fmt: skip
    result = ObeliskSessionEvidence().retrieve(
        request(types=("prior_failure", "tool_outcome")), binding(root, obelisk_bin), timeout=30
    )
    assert [(i.evidence_type, i.snippet.split("\n")[1:]) for i in result.items] == [
        ("tool_outcome", ["outcome: ok", "3 passed"])
    ]


def test_the_decisive_line_far_past_the_opening_is_in_the_snippet(world, obelisk_bin):
    home, root = world
    output = captured("pytest_verbose_long")  # 60 PASSED lines first: 5.7 KB
    assert output.index("n hit the bad value 37") > 4000
    claude_transcript(
        home, "s-long", cwd=str(root), timestamp=now_iso(-timedelta(hours=1)),
        command="pytest -v", output="Exit code 1\n" + output,
    )  # fmt: skip
    asked = request(types=("prior_failure",))
    result = ObeliskSessionEvidence().retrieve(
        attrs.evolve(asked, limits=attrs.evolve(asked.limits, max_snippet_chars=800)),
        binding(root, obelisk_bin, ("claude",)),
        timeout=30,
    )
    (item,) = result.items
    lines = item.snippet.split("\n")
    assert lines[:2] == ["Bash: pytest -v", "outcome: failed (exit 1)"]
    assert lines[2] == "E       AssertionError: n hit the bad value 37"
    assert "Exit code 1" not in lines
    assert "PASSED" not in item.snippet
    assert len(item.snippet) <= 800


def test_an_older_codex_header_is_not_shown_as_output(world, obelisk_bin):
    home, root = world
    output = captured("cargo_type_mismatch")
    codex_transcript(
        home, "t-cargo", cwd=str(root), timestamp=now_iso(-timedelta(hours=1)),
        command="cargo build --offline",
        output=f"Exit code: 101\nWall time: 0.7 seconds\nOutput:\n{output}",
    )  # fmt: skip
    (item,) = (
        ObeliskSessionEvidence()
        .retrieve(request(terms=("cargo",)), binding(root, obelisk_bin), timeout=30)
        .items
    )
    lines = item.snippet.split("\n")
    assert lines[1] == "outcome: failed (exit 101)"
    assert lines[2] == "error[E0308]: mismatched types"
    assert not any(line.startswith(("Wall time", "Output:", "Exit code")) for line in lines)


def test_a_codex_0169_failure_shows_its_error_not_its_header(world, obelisk_bin):
    """As the real Codex 0.169 stores it (issue 27): the warning read ``Error: Chunk ID:
    688cb0 | Wall time: ... | Process exited with code 1``."""
    home, root = world
    output = captured("cargo_test_fails")
    codex_transcript(
        home, "t-169", cwd=str(root), timestamp=now_iso(-timedelta(hours=1)),
        command="cargo test --offline", output=CODEX_0169_HEADER + output,
    )  # fmt: skip
    (item,) = (
        ObeliskSessionEvidence()
        .retrieve(request(terms=("cargo",)), binding(root, obelisk_bin), timeout=30)
        .items
    )
    lines = item.snippet.split("\n")
    assert lines[1] == "outcome: failed (exit 101)"
    assert "assertion `left == right` failed" in lines[2:4]
    assert not any(line.startswith(("Chunk ID", "Wall time", "Process exited")) for line in lines)


def test_decision_context_carries_each_fact_once(world, obelisk_bin, tmp_path):
    """LoopX asked for 4 results and got 2 facts, each twice."""
    home, root = world
    for session, hours in (("s-first", 3), ("s-second", 1)):
        claude_transcript(
            home, session, cwd=str(root), timestamp=now_iso(-timedelta(hours=hours)),
            command="pytest tests/test_api.py",
            output=f"Exit code 1\nE       AssertionError: failure of {session}",
        )  # fmt: skip
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "LOOPX_RECALL_HOME": str(tmp_path / "loopx"),
        "LOOPX_RECALL_OBELISK_BIN": str(obelisk_bin),
        "LOOPX_RECALL_NODE22": os.environ["LOOPX_RECALL_NODE22"],
        "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence",
    }
    subprocess.run(
        [LOOPX, "capability", "enable", *CAPABILITY, "--agent-id", "agent-a",
         "--project-id", "proj-j", "--history-source", "claude", "--repository-root", str(root),
         "--repository-id", "repo-r", "--agent-sessions", "runtime"],
        env=env, check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    asked = {
        "schema_version": "decision_context_advisory_retrieve_request_v0",
        "operation": "retrieve",
        "namespace": "decision-context",
        "scope_ref": "loopx-recall:agent/agent-a/project/proj-j",
        "query": "pytest tests/test_api.py",
        "query_summary": "earlier attempts",
        "max_results": 4,
        "timeout_seconds": 30,
        "observed_at": now_iso(),
    }
    done = subprocess.run(
        [PROVIDER, "decision-context"], input=json.dumps(asked), env=env,
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    answer = json.loads(done.stdout)
    assert answer["status"] == "completed", answer
    contents = [item["content"] for item in answer["items"]]
    assert len(contents) == 2, contents
    assert sorted(c.split("\n")[-1] for c in contents) == [
        "E       AssertionError: failure of s-first",
        "E       AssertionError: failure of s-second",
    ]
