# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A forget and a ``cleanup --remove`` raced against the real detached making, end to end
on the double (and on the real Obelisk in the real-binary lane), round after round: after
every round no planted canary is in any file of the state folder or in any command's
output, and a removed state folder stays removed.

Each round plants a session whose failed call's output is a canary of its own, claims it
for the agent, starts the session's making with Claude Code's ``SessionStart`` payload to
``loopx-recall hook claude`` (the hook starts the detached prefetch and returns), and
decides at once, or a little later (the round's delay walks 0 to 1.35 s, so the decision
lands before, during and after the provider's query). Then it waits for every detached
making to end (on their exit, never on the clock) and looks. The deterministic proof of
each race is in ``tests/guard/test_owner_decisions_win.py``; this is the stress check.

``LOOPX_RECALL_RACE_ROUNDS`` sets the rounds of each decision (1 in the suite;
``scripts/race-decisions`` runs 100)."""

from __future__ import annotations

import json
import os
import select
import subprocess
from datetime import timedelta
from pathlib import Path

import pytest

from ..conftest import LOOPX
from ..hostile import now_iso
from .test_guard_end_to_end import _counting_wrapper, _wait_for_set, stage_two

pytestmark = pytest.mark.real_obelisk

ROUNDS = int(os.environ.get("LOOPX_RECALL_RACE_ROUNDS", "1"))
FAILED_COMMAND = "pytest tests/test_race.py"


def _transcript(home: Path, session: str, cwd: Path, canary: str) -> None:
    """A Claude Code session with one failed Bash call whose output is ``canary`` (lines
    as test_guard_end_to_end writes them)."""
    folder = home / ".claude" / "projects" / "-race"
    folder.mkdir(parents=True, exist_ok=True)
    stamp = now_iso(-timedelta(hours=1))
    tool = f"toolu_{session}"

    def line(uuid: str, parent: str | None, role: str, content: list) -> str:
        return json.dumps({"type": role, "uuid": uuid, "parentUuid": parent, "sessionId": session,
                           "timestamp": stamp, "cwd": str(cwd), "version": "2.0.0",
                           "message": {"role": role, "content": content}}) + "\n"  # fmt: skip

    call = {"type": "tool_use", "id": tool, "name": "Bash", "input": {"command": FAILED_COMMAND}}
    result = {"type": "tool_result", "tool_use_id": tool, "is_error": True,
              "content": f"Exit code 1\nE   AssertionError: {canary}"}  # fmt: skip
    (folder / f"{session}.jsonl").write_text(
        line(f"{session}-u1", None, "user", [{"type": "text", "text": "run it"}])
        + line(f"{session}-a1", f"{session}-u1", "assistant", [call])
        + line(f"{session}-u2", f"{session}-a1", "user", [result])
    )


class _Race:
    def __init__(self, home: Path, state: Path, wrapper: Path, repo: Path) -> None:
        self.home, self.state, self.wrapper, self.repo = home, state, wrapper, repo
        self.outputs: list[bytes] = []
        self.env = {"PATH": os.environ["PATH"], "HOME": str(home), "LOOPX_RECALL_HOME": str(state),
                    "LOOPX_RECALL_OBELISK_BIN": str(wrapper),
                    "LOOPX_RECALL_NODE22": os.environ["LOOPX_RECALL_NODE22"],
                    "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence",
                    "LOOPX_RECALL_AGENT_ID": "agent-a",
                    "LOOPX_RECALL_PROJECT_ID": "proj-j"}  # fmt: skip

    def cli(self, *args: str, payload: dict | None = None) -> None:
        done = subprocess.run([LOOPX, *args], env=self.env, capture_output=True, timeout=120,
                              input=json.dumps(payload).encode() if payload else b"",
                              check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert b"Traceback" not in done.stderr
        self.outputs.append(done.stdout + done.stderr)

    def enable(self, sessions: tuple[str, ...]) -> None:
        """Stage 2, the guard on, ``sessions`` claimed by agent-a (a fresh state folder)."""

        def cli(*args: str) -> None:
            self.cli(*args)

        stage_two(cli, self.state, self.wrapper, self.repo, "claude", ())
        for session in sessions:
            self.claim(session)
        self.cli("hook", "install", "claude", "--agent-id", "agent-a", "--project-id",
                 "proj-j", "--guard", "--policy", "warn", "--yes")  # fmt: skip

    def claim(self, session: str) -> None:
        self.cli("session", "claim", "--agent-id", "agent-a", "--project-id", "proj-j",
                 "--runtime", "claude", "--session", session, "--force")  # fmt: skip

    def start(self, session: str) -> None:
        """Claude Code's SessionStart for ``session``: the hook starts the detached making."""
        payload = {"session_id": session, "transcript_path": None, "cwd": str(self.repo),
                   "hook_event_name": "SessionStart", "source": "startup"}  # fmt: skip
        self.cli("hook", "claude", payload=payload)

    def settle(self) -> None:
        """Wait, on their exit, for every detached making still running."""
        _wait_for_set(self.home / "never-written", self.home)

    def holding(self, canary: bytes) -> list[str]:
        found = [str(p) for p in self.state.rglob("*") if p.is_file()
                 and canary in p.read_bytes()] if self.state.exists() else []  # fmt: skip
        return found + [f"output {i}" for i, out in enumerate(self.outputs) if canary in out]


def _done(decision: str, number: int) -> None:
    """A line per round in LOOPX_RECALL_RACE_LOG, when set (the script's progress)."""
    log = os.environ.get("LOOPX_RECALL_RACE_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as out:
            out.write(f"{decision} round {number}: no canary\n")


def _delay(round_number: int) -> None:
    """The round's delay before the decision: 0, 0.15, ... 1.35 s (select: no sleep call
    the seams of the deterministic tests could stand in for)."""
    select.select([], [], [], (round_number % 10) * 0.15)


@pytest.fixture
def race(archive_home, obelisk_bin, tmp_path, loopx):
    home = archive_home.home
    repo = home / "src" / "race-repo"
    repo.mkdir(parents=True)
    wrapper, _counter = _counting_wrapper(tmp_path, obelisk_bin)
    return _Race(home, tmp_path / "loopx", wrapper, repo)


def test_a_racing_forget_leaves_no_canary(race):
    race.enable(())
    for number in range(ROUNDS):
        session, canary = f"S-forget-{number}", f"CANARY-race-forget-{number:03d}-b71e"
        _transcript(race.home, session, race.repo, canary)
        race.claim(session)
        race.start(f"S-live-{number}")
        _delay(number)
        race.cli("session", "forget", "--agent-id", "agent-a", "--project-id", "proj-j",
                 "--runtime", "claude", "--session", session)  # fmt: skip
        race.settle()
        assert race.holding(canary.encode()) == [], f"round {number}"
        race.cli("recall", "history", "--agent-id", "agent-a", "--project-id", "proj-j",
                 "--term", "pytest", "--show-private")  # fmt: skip
        assert race.holding(canary.encode()) == [], f"round {number}: recall history"
        _done("forget", number)


def test_a_racing_cleanup_leaves_no_canary_and_no_state_folder(race):
    for number in range(ROUNDS):
        session, canary = f"S-clean-{number}", f"CANARY-race-cleanup-{number:03d}-4c0d"
        _transcript(race.home, session, race.repo, canary)
        race.enable((session,))
        race.start(f"S-live-{number}")
        _delay(number)
        race.cli("cleanup", "--remove", "--yes")
        race.settle()
        assert not race.state.exists(), f"round {number}: the state folder came back"
        assert race.holding(canary.encode()) == [], f"round {number}"
        _done("cleanup", number)
