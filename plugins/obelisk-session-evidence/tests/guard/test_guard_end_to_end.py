# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The repetition guard end to end on the double, through the installed CLI: the owner
turns it on (``hook install claude --guard``), a claimed session starts (Claude Code's
SessionStart payload to ``loopx-recall hook claude``), ONE provider process makes its
prior-outcome set (the double's ``--query`` calls are counted), and Claude Code's
PreToolUse payloads to ``loopx-recall guard claude`` are answered: the repeated failure is
warned, a near miss, a prior success and another agent's failure are not, and a
``deny-once`` retry passes."""

from __future__ import annotations

import json
import os
import select
import subprocess
import time
from datetime import timedelta
from pathlib import Path

import attrs
import pytest

from loopx_recall_core.testing import QualificationVerdict, StateStore, guard_stats
from loopx_recall_core.testing import guard_store as store

from ..conftest import CAPABILITY, LOOPX, processes_with_home
from ..hostile import now_iso

pytestmark = pytest.mark.real_obelisk

REPEATED = "pytest tests/test_api.py"
NEAR_MISS = "pytest tests/test_api.py -k smoke"
SUCCEEDED = "make lint"
OTHERS_FAILURE = "npm run build"
PRIOR_A, PRIOR_OK, PRIOR_B = "CANARY-prior-a-1f2e", "CANARY-prior-ok-77d0", "CANARY-prior-b-9c41"
WAIT_S = 90.0


def _claude_transcript(home: Path, session: str, cwd: str, command: str, failed: bool) -> None:
    """One Claude Code session with one Bash call (Claude's transcript lines, as the index
    reads them: the session is the file name)."""
    folder = home / ".claude" / "projects" / "-guard"
    folder.mkdir(parents=True, exist_ok=True)
    stamp = now_iso(-timedelta(hours=2))
    tool = f"toolu_{session}"
    output = "Exit code 1\nE   AssertionError: 500" if failed else "ok"

    def line(uuid: str, parent: str | None, role: str, content: list) -> str:
        return json.dumps({"type": role, "uuid": uuid, "parentUuid": parent, "sessionId": session,
                           "timestamp": stamp, "cwd": cwd, "version": "2.0.0",
                           "message": {"role": role, "content": content}}) + "\n"  # fmt: skip

    call = {"type": "tool_use", "id": tool, "name": "Bash", "input": {"command": command}}
    result = {"type": "tool_result", "tool_use_id": tool, "content": output, "is_error": failed}
    (folder / f"{session}.jsonl").write_text(
        line(f"{session}-u1", None, "user", [{"type": "text", "text": "run it"}])
        + line(f"{session}-a1", f"{session}-u1", "assistant", [call])
        + line(f"{session}-u2", f"{session}-a1", "user", [result])
    )


def _counting_wrapper(folder: Path, double: Path) -> tuple[Path, Path]:
    """An executable that appends one line to a file per ``--query`` call, then runs the
    double (named by LOOPX_RECALL_OBELISK_BIN, so every provider process goes through it)."""
    counter = folder / "queries.log"
    wrapper = folder / "obelisk"
    wrapper.write_text(
        "#!/usr/bin/env bash\n"
        f'for arg in "$@"; do [[ "$arg" == --query ]] && echo query >> "{counter}"; done\n'
        f'exec "{double}" "$@"\n'
    )
    wrapper.chmod(0o755)
    return wrapper, counter


def stage_two(cli, state: Path, wrapper: Path, repo: Path, runtime: str, sessions) -> None:
    """A passing Stage 0 verdict on the wrapper's runtime, agents a and b enabled at stage
    2 on ``repo`` for ``runtime``; the first two of ``sessions`` claimed by a (its failure
    and its success), the third by b (its failure); none when ``sessions`` is empty (the
    real-runtime lane's SessionStart hooks claim them)."""
    from loopx_obelisk_session_evidence import PROVIDER_ID, __version__
    from loopx_obelisk_session_evidence.qualification import identity_of

    identity = identity_of(str(wrapper), 30)
    with StateStore(state).update() as box:
        verdict = QualificationVerdict(
            provider_id=PROVIDER_ID, provider_version=__version__, passed=True,
            report_digest="sha256:" + "0" * 64, recorded_at="2026-12-01T00:00:00Z",
            runtime_version=identity.runtime_version, binary_digest=identity.binary_digest,
        )  # fmt: skip
        box[0] = attrs.evolve(box[0], qualifications=(verdict,))
    for agent in ("agent-a", "agent-b"):
        cli("capability", "enable", *CAPABILITY, "--agent-id", agent, "--project-id", "proj-j",
            "--history-source", runtime, "--repository-root", str(repo), "--repository-id",
            "repo-g", "--stage", "2")  # fmt: skip
    for agent, session in zip(("agent-a", "agent-a", "agent-b")[: len(sessions)], sessions,
                              strict=True):  # fmt: skip
        cli("session", "claim", "--agent-id", agent, "--project-id", "proj-j", "--runtime",
            runtime, "--session", session, "--force")  # fmt: skip


def _is_prefetch(pid: int) -> bool:
    try:
        return b"guard\0prefetch" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:  # it exited since it was listed
        return False


def _wait_for_set(path: Path, home: Path) -> bool:
    """Wait (at most WAIT_S) for the detached prefetch to write ``path``: on its process's
    exit (a pidfd), never on the clock."""
    deadline = time.monotonic() + WAIT_S
    while not path.exists() and time.monotonic() < deadline:
        pids = [pid for pid in processes_with_home(home) if _is_prefetch(pid)]
        if not pids:
            break  # none left running: the set is there now, or it never will be
        for pid in pids:
            try:
                descriptor = os.pidfd_open(pid)
            except ProcessLookupError:
                continue
            try:
                select.select([descriptor], [], [], max(deadline - time.monotonic(), 0))
            finally:
                os.close(descriptor)
    return path.exists()


@pytest.fixture
def world(loopx, archive_home, obelisk_bin, tmp_path):
    home = archive_home.home
    repo = home / "src" / "CANARY-guard-repo"
    repo.mkdir(parents=True)
    _claude_transcript(home, PRIOR_A, str(repo), REPEATED, failed=True)
    _claude_transcript(home, PRIOR_OK, str(repo), SUCCEEDED, failed=False)
    _claude_transcript(home, PRIOR_B, str(repo), OTHERS_FAILURE, failed=True)
    wrapper, counter = _counting_wrapper(tmp_path, obelisk_bin)
    state = tmp_path / "loopx"
    extra = {"LOOPX_RECALL_OBELISK_BIN": str(wrapper)}

    def cli(*args):
        return loopx(*args, extra_env=extra)

    stage_two(cli, state, wrapper, repo, "claude", (PRIOR_A, PRIOR_OK, PRIOR_B))

    def guard_on(policy):
        """The owner's one command: the hooks in ~/.claude/settings.json, the guard on."""
        done = cli("hook", "install", "claude", "--agent-id", "agent-a", "--project-id",
                   "proj-j", "--guard", "--policy", policy, "--yes")  # fmt: skip
        assert f"guard on ({policy})" in done.stdout
        settings = json.loads((home / ".claude" / "settings.json").read_text())
        assert [g["matcher"] for g in settings["hooks"]["PreToolUse"]] == ["Bash"]
        for event in ("PostToolUse", "PostToolUseFailure"):
            assert [g["matcher"] for g in settings["hooks"][event]] == ["Bash"]

    def run(kind, runtime, payload, agent="agent-a"):
        env = {"PATH": os.environ["PATH"], "HOME": str(home), "LOOPX_RECALL_HOME": str(state),
               "LOOPX_RECALL_OBELISK_BIN": str(wrapper),
               "LOOPX_RECALL_NODE22": os.environ["LOOPX_RECALL_NODE22"],
               "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence",
               "LOOPX_RECALL_AGENT_ID": agent, "LOOPX_RECALL_PROJECT_ID": "proj-j"}  # fmt: skip
        args = ["--deadline-ms", "30000"] if kind == "guard" else []
        done = subprocess.run([LOOPX, kind, runtime, *args], input=json.dumps(payload).encode(),
                              env=env, capture_output=True, timeout=60, check=False)  # fmt: skip
        assert (done.returncode, done.stderr) == (0, b"")
        return json.loads(done.stdout) if done.stdout else None

    def start(session):
        """SessionStart for ``session``; returns the set's path once the prefetch made it."""
        counter.write_text("")
        payload = {
            "session_id": session,
            "transcript_path": f"{home}/.claude/x/{session}.jsonl",
            "cwd": str(repo),
            "hook_event_name": "SessionStart",
            "source": "startup",
        }
        assert run("hook", "claude", payload) is None
        path = store.set_path(state, "claude", session)
        assert _wait_for_set(path, home), "the prefetch made no set"
        return path

    def propose(session, command):
        return run("guard", "claude", {
            "session_id": session, "transcript_path": None, "cwd": str(repo),
            "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command, "description": "run", "timeout": 120000},
            "tool_use_id": "toolu_now"})  # fmt: skip

    def ran(session, command, call, failed=False):
        """Claude Code's PostToolUse (a success) or PostToolUseFailure (a failure)."""
        after = (
            {"hook_event_name": "PostToolUseFailure", "error": "exit 1", "is_interrupt": False}
            if failed
            else {"hook_event_name": "PostToolUse", "tool_response": {"stdout": "ok"}}
        )
        return run("guard", "claude", {
            "session_id": session, "transcript_path": None, "cwd": str(repo),
            "permission_mode": "default", "tool_name": "Bash",
            "tool_input": {"command": command, "description": "run"},
            "tool_use_id": call, **after})  # fmt: skip

    return guard_on, start, propose, counter, state, ran


def _queries(counter: Path) -> int:
    return len(counter.read_text().splitlines())


def test_a_session_start_prefetches_once_and_the_repeat_is_warned(world):
    guard_on, start, propose, counter, state, ran = world
    guard_on("warn")
    path = start("S-now-1")
    assert _queries(counter) == 1  # exactly one provider process made the set
    header = json.loads(path.read_bytes().split(b"\n", 1)[0])
    assert header["status"] == "succeeded", header
    lines = path.read_bytes().split(b"\n")[1:]
    sessions = {json.loads(line)["session"] for line in lines if line}
    assert sessions == {PRIOR_A, PRIOR_OK}  # agent-a's failure and success; never agent-b's
    assert oct(path.stat().st_mode & 0o777) == oct(0o600)

    assert propose("S-now-1", NEAR_MISS) is None
    assert propose("S-now-1", SUCCEEDED) is None  # a prior success
    assert propose("S-now-1", OTHERS_FAILURE) is None  # another agent's failure
    answer = propose("S-now-1", REPEATED)
    assert answer is not None
    assert list(answer) == ["hookSpecificOutput"]
    specific = answer["hookSpecificOutput"]
    assert set(specific) == {"hookEventName", "additionalContext"}  # no permissionDecision
    assert specific["hookEventName"] == "PreToolUse"
    warning = specific["additionalContext"]
    assert isinstance(warning, str)
    assert 0 < len(warning) <= 600
    assert warning.startswith("loopx-recall guard: this command repeats one that failed ")
    assert f"Failed: {REPEATED}" in warning
    assert "AssertionError: 500" in warning
    assert "CANARY" not in warning
    # what ran next is seen at PostToolUse / PostToolUseFailure (no output, no provider)
    assert ran("S-now-1", REPEATED, "toolu_now", failed=True) is None  # the warned call
    assert ran("S-now-1", "git status", "toolu_next") is None  # then something else
    stats = guard_stats(state, "proj-j")
    assert stats["warned_then_avoided"] == 1
    assert stats["follow_ups_seen_at"] == {"PreToolUse": 0, "PostToolUse": 1}
    assert (stats["ran"], stats["ran_failed"]) == (2, 1)
    assert propose("S-now-1", REPEATED) is None  # once per route per session
    assert _queries(counter) == 1  # the hot path started no provider process


def test_deny_once_denies_and_the_retry_passes(world):
    guard_on, start, propose, counter, state, _ran = world
    guard_on("deny-once")
    start("S-now-2")
    assert _queries(counter) == 1
    answer = propose("S-now-2", REPEATED)
    assert list(answer) == ["hookSpecificOutput"]
    specific = answer["hookSpecificOutput"]
    assert set(specific) == {"hookEventName", "permissionDecision", "permissionDecisionReason"}
    assert specific["hookEventName"] == "PreToolUse"
    assert specific["permissionDecision"] == "deny"
    reason = specific["permissionDecisionReason"]
    assert isinstance(reason, str)
    assert 0 < len(reason) <= 600
    assert f"Failed: {REPEATED}" in reason
    assert propose("S-now-2", REPEATED) is None  # the deliberate retry passes
    assert propose("S-now-2", OTHERS_FAILURE) is None
    log = (state / "private" / "hooks.log").read_text()
    assert "CANARY" not in log
