# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The guard's sets at a session's end, end to end through the hooks ``hook install claude
--guard`` writes (each event's commands are read from ``~/.claude/settings.json`` and run
with the payload on stdin, as Claude Code runs them) on the world of
``test_guard_end_to_end`` (agent-a's failure in PRIOR_A, its success in PRIOR_OK).

* A session that ended guards the next session's first call: the model may propose a
  command before the new session's own prefetch has finished (seen in both real
  runtimes), and the agent's set made when the last session ended (``Stop``, then
  ``SessionEnd``) holds that session's failure.
* The private marker written into a session reaches every set holding it at once: the
  hook at the session's end drops them before it returns, and the sets made again leave
  the session out although the index has not taken the marker in yet (the double's
  refresh is held off, as the real Obelisk's is for 30 s after a build).

Payload keys are the runtime record's (Claude Code 2.1.328, observed:
``loopx_recall_core/runtimes/claude.py``)."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import timedelta
from pathlib import Path

import pytest

from loopx_recall_core.testing import guard_store as store

from ..hostile import now_iso
from ..obelisk_double.fixtures import OBELISK_WRAPPER, Release, double_settings, version_of
from .test_guard_end_to_end import (
    PRIOR_A,
    PRIOR_OK,
    REPEATED,
    _queries,
    _wait_for_set,
    world,  # noqa: F401 - the fixture
)

pytestmark = pytest.mark.real_obelisk

MARKER = "loopx-recall:private"  # PRIVATE_MARKER (loopx_recall_core/private_marker.py)
DEPLOY = "make deploy-staging"


def _fire(home: Path, state: Path, event: str, payload: dict) -> int:
    """Run every command ``~/.claude/settings.json`` names for ``event`` with ``payload``
    on stdin (through a shell, as Claude Code does); returns how many ran."""
    settings = json.loads((home / ".claude" / "settings.json").read_text())
    commands = [h["command"] for g in settings.get("hooks", {}).get(event, [])
                for h in g["hooks"]]  # fmt: skip
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "LOOPX_RECALL_HOME": str(state),
           "LOOPX_RECALL_OBELISK_BIN": str(state.parent / "obelisk"),
           "LOOPX_RECALL_NODE22": os.environ["LOOPX_RECALL_NODE22"],
           "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence"}  # fmt: skip
    for command in commands:
        done = subprocess.run(command, shell=True, input=json.dumps(payload).encode(), env=env,
                              capture_output=True, timeout=60, check=False)  # fmt: skip
        assert (done.returncode, done.stdout) == (0, b""), done.stderr
    return len(commands)


def _payload(session: str, event: str, repo: Path, transcript: Path | None) -> dict:
    base = {"session_id": session, "transcript_path": str(transcript) if transcript else None,
            "cwd": str(repo), "hook_event_name": event}  # fmt: skip
    extra = {"SessionStart": {"source": "startup"},
             "Stop": {"stop_hook_active": False, "last_assistant_message": "done"},
             "SessionEnd": {"reason": "other"}}[event]  # fmt: skip
    return {**base, **extra}


def _end(home: Path, state: Path, session: str, repo: Path, transcript: Path | None) -> None:
    """The session's turn ends, then the session: Claude Code 2.1.328 fires ``Stop``, then
    ``SessionEnd`` about 0.1 s later (observed)."""
    for event in ("Stop", "SessionEnd"):
        assert _fire(home, state, event, _payload(session, event, repo, transcript)) == 1


def _settle(home: Path) -> None:
    """Wait (on their exit) for every detached making still running."""
    _wait_for_set(home / "never-written", home)


def _transcript(home: Path, session: str, cwd: Path, command: str) -> Path:
    """A Claude Code session with one failed Bash call (as test_guard_end_to_end writes
    them), written just now where Claude Code keeps a session started in ``cwd`` (its
    project folder is named after the path: plugin_api.cwd_folder_name)."""
    from loopx_recall_core.plugin_api import cwd_folder_name

    folder = home / ".claude" / "projects" / cwd_folder_name(str(cwd))
    folder.mkdir(parents=True, exist_ok=True)
    stamp = now_iso(-timedelta(minutes=5))
    tool = f"toolu_{session}"

    def line(uuid: str, parent: str | None, role: str, content: list) -> str:
        return json.dumps({"type": role, "uuid": uuid, "parentUuid": parent, "sessionId": session,
                           "timestamp": stamp, "cwd": str(cwd), "version": "2.1.328",
                           "message": {"role": role, "content": content}}) + "\n"  # fmt: skip

    call = {"type": "tool_use", "id": tool, "name": "Bash", "input": {"command": command}}
    result = {"type": "tool_result", "tool_use_id": tool, "is_error": True,
              "content": "Exit code 2\nmake: *** [deploy-staging] Error 2"}  # fmt: skip
    path = folder / f"{session}.jsonl"
    path.write_text(line(f"{session}-u1", None, "user", [{"type": "text", "text": "deploy"}])
                    + line(f"{session}-a1", f"{session}-u1", "assistant", [call])
                    + line(f"{session}-u2", f"{session}-a1", "user", [result]))  # fmt: skip
    return path


def _repo(state: Path) -> Path:
    from loopx_recall_core.testing import StateStore

    enablement = StateStore(state).read().find(agent_id="agent-a", project_id="proj-j")[0]
    return Path(enablement.binding["private"]["repository_roots"][0])


def _sessions_in(path: Path) -> set[str]:
    lines = path.read_bytes().split(b"\n")[1:]
    return {json.loads(line)["session"] for line in lines if line}


def _claim(cli, session: str) -> None:
    """The claim a SessionStart hook makes at once (its prefetch is what runs detached)."""
    done = cli("session", "claim", "--agent-id", "agent-a", "--project-id", "proj-j",
               "--runtime", "claude", "--session", session, "--force")  # fmt: skip
    assert done.returncode == 0, done.stderr


def _cli(loopx, tmp_path):
    def run(*args):
        return loopx(*args, extra_env={"LOOPX_RECALL_OBELISK_BIN": str(tmp_path / "obelisk")},
                     check=False)  # fmt: skip

    return run


def test_a_session_that_ended_guards_the_next_sessions_first_call(
    world, archive_home, loopx, tmp_path, obelisk_bin  # noqa: F811 - the imported fixture
):
    guard_on, _start, propose, counter, state, _ran = world
    home, repo, cli = archive_home.home, _repo(state), _cli(loopx, tmp_path)
    guard_on("warn")
    # a session starts (its SessionStart hook claims it and makes its set), then fails at
    # a deploy nobody ran before: its transcript is the runtime's record of it
    counter.write_text("")
    assert _fire(home, state, "SessionStart", _payload("S-ends", "SessionStart", repo, None)) == 1
    assert _wait_for_set(store.set_path(state, "claude", "S-ends"), home)
    transcript = _transcript(home, "S-ends", repo, DEPLOY)
    _end(home, state, "S-ends", repo, transcript)
    _settle(home)
    agent_set = store.agent_set_path(state, "claude", "agent-a", "proj-j")
    assert "S-ends" in _sessions_in(agent_set)  # made at its end, its own calls included
    # one provider process at the start, one at the end (SessionEnd right after Stop
    # finds the transcript as Stop left it and makes nothing again), and one more only
    # when the index was behind at the end: a real Obelisk before 0.2.4 refreshes at most
    # every 30 s and built at the start moments before, so the end's set is made again 31 s
    # later; from 0.2.4 on, every query's session lookup also runs a build that ignores the
    # 30 s (the double's README, R4), so the index is never behind here (the double: build
    # grace 0)
    release = Release.of(version_of(obelisk_bin))
    behind = 0 if obelisk_bin == OBELISK_WRAPPER or release.nonce_phase else 1
    assert _queries(counter) == 2 + behind
    # the next session proposes the deploy before any prefetch of its own has run
    _claim(cli, "S-next")
    answer = propose("S-next", DEPLOY)
    assert answer is not None
    warning = answer["hookSpecificOutput"]["additionalContext"]
    assert f"Failed: {DEPLOY}" in warning
    assert "deploy-staging] Error 2" in warning


def test_the_private_marker_drops_every_set_holding_the_session_at_once(
    world, archive_home, loopx, tmp_path  # noqa: F811 - the imported fixture
):
    guard_on, start, propose, _counter, state, _ran = world
    home, repo, cli = archive_home.home, _repo(state), _cli(loopx, tmp_path)
    guard_on("warn")
    own = start("S-live")  # another live session's set holds PRIOR_A's failure
    agent_set = store.agent_set_path(state, "claude", "agent-a", "proj-j")
    assert PRIOR_A in _sessions_in(own)
    assert PRIOR_A in _sessions_in(agent_set)
    # from here on the index is behind the transcripts (the double refreshes no more; the
    # real Obelisk refreshes at most every 30 s, and it built moments ago)
    double_settings(home, build_grace_ms=3_600_000)
    # PRIOR_A's user writes the marker; its turn ends
    transcript = next((home / ".claude" / "projects").rglob(f"{PRIOR_A}.jsonl"))
    marked = json.loads(transcript.read_text().splitlines()[0])
    marked.update(uuid=f"{PRIOR_A}-u9", parentUuid=f"{PRIOR_A}-u2",
                  message={"role": "user", "content": [{"type": "text", "text": MARKER}]})
    with transcript.open("a") as out:
        out.write(json.dumps(marked) + "\n")
    _end(home, state, PRIOR_A, repo, transcript)
    # before the hook returned: no set holding PRIOR_A is left, so the live session is not
    # warned from it, nor is a new session's first call
    for path in (own, agent_set):
        assert not path.exists() or PRIOR_A not in _sessions_in(path)
    assert propose("S-live", REPEATED) is None
    _claim(cli, "S-fresh")
    assert propose("S-fresh", REPEATED) is None
    # the sets made again leave PRIOR_A out although the index still holds no marker
    _settle(home)
    assert _wait_for_set(agent_set, home)
    assert PRIOR_A not in _sessions_in(agent_set)
    assert PRIOR_OK in _sessions_in(agent_set)  # the rest of the history is still there
    remade = start("S-later")
    assert PRIOR_A not in _sessions_in(remade)
    assert propose("S-later", REPEATED) is None
