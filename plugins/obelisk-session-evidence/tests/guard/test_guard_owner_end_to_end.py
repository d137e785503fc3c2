# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The guard obeys the owner at once and guards a session's first call (issue 28 items
1, 2, 4), end to end on the double through the installed CLI (the world of
``test_guard_end_to_end``: agent-a's failure in PRIOR_A, its success in PRIOR_OK).

Before: after ``session forget``, the private marker, a re-enable with another scope or
``capability disable``, the guard still warned from its cached set; any ``capability
enable`` (even "already enabled, no change") turned the guard off; a new session's first
call, proposed before its SessionStart prefetch ended, was never guarded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loopx_recall_core.testing import guard_store as store

from .test_guard_end_to_end import (
    CAPABILITY,
    PRIOR_A,
    REPEATED,
    _claude_transcript,  # noqa: F401 - the world's transcripts
    _queries,
    _wait_for_set,
    world,  # noqa: F401 - the fixture
)

MARKER = "loopx-recall:private"  # the plugin's PRIVATE_MARKER (scope.py), as a user types it


def _sets(state: Path) -> list[Path]:
    folder = state / "private" / "guard" / "sets"
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


@pytest.fixture
def cli(loopx, tmp_path):
    """The installed CLI on the world's state folder and its counting wrapper."""

    def run(*args):
        return loopx(*args, extra_env={"LOOPX_RECALL_OBELISK_BIN": str(tmp_path / "obelisk")},
                     check=False)  # fmt: skip

    return run


def test_forget_drops_every_set_at_once(world, cli):  # noqa: F811 - the imported fixture
    guard_on, start, propose, _counter, state, _ran = world
    guard_on("warn")
    start("S-own-1")
    assert _sets(state)
    done = cli("session", "forget", "--agent-id", "agent-a", "--project-id", "proj-j",
                       "--runtime", "claude", "--session", PRIOR_A)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert _sets(state) == []  # before the command returned
    assert propose("S-own-1", REPEATED) is None


def test_a_changed_scope_drops_the_sets_and_enabling_again_keeps_the_guard(world, cli):  # noqa: F811 - the imported fixture
    guard_on, start, propose, _counter, state, _ran = world
    guard_on("warn")
    start("S-own-2")
    same = cli("capability", "enable", *CAPABILITY, "--agent-id", "agent-a", "--project-id",
               "proj-j", "--history-source", "claude", "--repository-root",
               _root(state), "--repository-id", "repo-g", "--stage", "2")  # fmt: skip
    assert same.returncode == 0, same.stderr
    assert "already enabled, no change" in same.stdout
    assert _guard(state) == "warn"  # before: off, silently
    narrower = cli("capability", "enable", *CAPABILITY, "--agent-id", "agent-a", "--project-id",
                   "proj-j", "--history-source", "claude", "--repository-root", _root(state),
                   "--repository-id", "repo-g", "--stage", "2", "--max-items", "8",
                   "--yes")  # fmt: skip
    assert narrower.returncode == 0, narrower.stderr
    assert _sets(state) == []
    assert _guard(state) == "warn"
    assert "guard" not in narrower.stdout  # the guard did not change, so it is not listed
    # no set made before the change answers: with no set at all, the call waits for the
    # one made now (issue 39 item 6), which is made after the change, in the new scope
    changed = (state / "state.json").stat().st_mtime
    propose("S-own-2", REPEATED)
    headers = [store.read_header(store.read_set_lines(path)) for path in _sets(state)]
    assert headers
    assert all(header["as_of"] >= changed for header in headers)


def _guard(state: Path) -> str | None:
    from loopx_recall_core.testing import StateStore

    return StateStore(state).read().find(agent_id="agent-a", project_id="proj-j")[0].guard


def _root(state: Path) -> str:
    from loopx_recall_core.testing import StateStore

    enablement = StateStore(state).read().find(agent_id="agent-a", project_id="proj-j")[0]
    return enablement.binding["private"]["repository_roots"][0]


def test_disable_drops_the_sets(world, cli):  # noqa: F811 - the imported fixture
    guard_on, start, _propose, _counter, state, _ran = world
    guard_on("warn")
    start("S-own-3")
    done = cli("capability", "disable", *CAPABILITY, "--project-id", "proj-j", "--agent-id",
               "agent-a")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert _sets(state) == []


def test_the_private_marker_reaches_the_sets_when_its_turn_ends(world, archive_home):  # noqa: F811 - the imported fixture
    guard_on, start, propose, _counter, state, _ran = world
    guard_on("warn")
    path = start("S-own-4")
    assert propose("S-own-4", REPEATED) is not None
    # the user of PRIOR_A marks it private; its turn ends (Stop)
    transcript = next((archive_home.home / ".claude" / "projects").rglob(f"{PRIOR_A}.jsonl"))
    marked = json.loads(transcript.read_text().splitlines()[0])
    marked.update(uuid=f"{PRIOR_A}-u9", parentUuid=f"{PRIOR_A}-u2",
                  message={"role": "user", "content": [{"type": "text", "text": MARKER}]})
    with transcript.open("a") as out:
        out.write(json.dumps(marked) + "\n")
    before = path.stat().st_mtime_ns
    _hook(world, archive_home, PRIOR_A, "Stop")
    assert _wait_for_rebuild(path, before, archive_home.home)
    lines = path.read_bytes().split(b"\n")[1:]
    assert PRIOR_A not in {json.loads(line)["session"] for line in lines if line}
    store.read_session(state, "claude", "S-own-4")  # the guard record stays readable
    assert propose("S-new-4", REPEATED) is None


def _hook(world, archive_home, session, event):  # noqa: F811 - the fixture's value
    import os
    import subprocess

    from ..conftest import LOOPX

    state = world[4]
    payload = {"session_id": session, "transcript_path": None, "cwd": _root(state),
               "hook_event_name": event, "stop_hook_active": False}  # fmt: skip
    env = {"PATH": os.environ["PATH"], "HOME": str(archive_home.home),
           "LOOPX_RECALL_HOME": str(state),
           "LOOPX_RECALL_OBELISK_BIN": str(state.parent / "obelisk"),
           "LOOPX_RECALL_NODE22": os.environ["LOOPX_RECALL_NODE22"],
           "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence",
           "LOOPX_RECALL_AGENT_ID": "agent-a", "LOOPX_RECALL_PROJECT_ID": "proj-j"}  # fmt: skip
    done = subprocess.run([LOOPX, "hook", "claude"], input=json.dumps(payload).encode(), env=env,
                          capture_output=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0


def _wait_for_rebuild(path: Path, before: int, home: Path) -> bool:
    marker = path.with_suffix(".pending")
    _wait_for_set(marker.with_suffix(".never"), home)  # waits for the prefetch processes
    return path.exists() and path.stat().st_mtime_ns != before


def _claim(cli, session: str) -> None:
    """The claim a SessionStart hook makes at once (its prefetch is what runs detached)."""
    done = cli("session", "claim", "--agent-id", "agent-a", "--project-id", "proj-j",
               "--runtime", "claude", "--session", session, "--force")  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_a_new_sessions_first_call_is_guarded_by_the_agents_set(world, archive_home, cli):  # noqa: F811 - the imported fixture
    guard_on, start, propose, counter, state, _ran = world
    guard_on("warn")
    start("S-own-5")
    agent_set = store.agent_set_path(state, "claude", "agent-a", "proj-j")
    agent_set.unlink()  # the copy SessionStart kept: made again here, when a turn ends
    counter.write_text("")
    _hook(world, archive_home, "S-own-5", "Stop")
    assert _wait_for_set(agent_set, archive_home.home)
    assert _queries(counter) == 1  # one provider process for the one set made
    # a new session proposes the repeat before any prefetch of its own has run
    assert propose("S-new-5", REPEATED) is None  # not claimed by agent-a: never answered
    _claim(cli, "S-new-5")
    answer = propose("S-new-5", REPEATED)
    assert answer is not None
    assert f"Failed: {REPEATED}" in answer["hookSpecificOutput"]["additionalContext"]


def _busy_session(home: Path, session: str, cwd: str, calls: int) -> None:
    """One Claude Code session with ``calls`` newer Bash calls (every other one failed),
    in Claude's transcript lines as the index reads them (test_guard_end_to_end)."""
    from datetime import timedelta

    from ..hostile import now_iso

    folder = home / ".claude" / "projects" / "-guard"
    lines, parent = [], None
    for n in range(calls):
        stamp = now_iso(-timedelta(minutes=60 - n * 0.5))
        failed = n % 2 == 0
        tool = f"toolu_{session}_{n}"
        command = f"make target-{n}"
        output = f"Exit code 2\nmake: *** [target-{n}] Error 2" if failed else "done"
        for uuid, role, content in (
            (f"{session}-a{n}", "assistant",
             [{"type": "tool_use", "id": tool, "name": "Bash", "input": {"command": command}}]),
            (f"{session}-u{n}", "user",
             [{"type": "tool_result", "tool_use_id": tool, "content": output,
               "is_error": failed}]),
        ):  # fmt: skip
            lines.append(json.dumps({"type": role, "uuid": uuid, "parentUuid": parent,
                                     "sessionId": session, "timestamp": stamp, "cwd": cwd,
                                     "version": "2.0.0",
                                     "message": {"role": role, "content": content}}))  # fmt: skip
            parent = uuid
    (folder / f"{session}.jsonl").write_text("\n".join(lines) + "\n")


def test_the_set_covers_the_whole_window_not_the_newest_16(world, archive_home, cli):  # noqa: F811
    # issue 28: 40+ newer calls hid every older failure (the set was the newest 16 items)
    guard_on, start, propose, counter, state, _ran = world
    _busy_session(archive_home.home, "S-busy", _root(state), 60)
    claimed = cli("session", "claim", "--agent-id", "agent-a", "--project-id", "proj-j",
                  "--runtime", "claude", "--session", "S-busy", "--force")  # fmt: skip
    assert claimed.returncode == 0, claimed.stderr
    guard_on("warn")
    path = start("S-now-6")
    assert _queries(counter) == 1  # one provider process for the whole set
    header = json.loads(path.read_bytes().split(b"\n", 1)[0])
    assert (header["status"], header["reason"]) == ("succeeded", None)
    assert header["count"] >= 61
    assert header["pages"] >= 4
    answer = propose("S-now-6", REPEATED)  # the oldest failure, behind 60 newer calls
    assert answer is not None
    assert f"Failed: {REPEATED}" in answer["hookSpecificOutput"]["additionalContext"]
    assert propose("S-now-6", "make target-0") is not None  # and the newest ones too


def test_a_session_start_leaves_the_agents_set_for_the_next_first_call(world, cli):  # noqa: F811
    # before any session's end (its Stop may never come: a killed runtime), the set made
    # at one SessionStart (one provider process) is kept as the agent's set too, so the
    # next session is guarded at once
    guard_on, start, propose, counter, state, _ran = world
    guard_on("warn")
    start("S-own-7")
    assert _queries(counter) == 1
    assert store.agent_set_path(state, "claude", "agent-a", "proj-j").exists()
    _claim(cli, "S-new-7")
    answer = propose("S-new-7", REPEATED)  # no set of its own yet
    assert answer is not None
    assert f"Failed: {REPEATED}" in answer["hookSpecificOutput"]["additionalContext"]
