# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The transcripts the real runtimes wrote in the real-runtime lane
(obelisk_double/recorded/, README there) are read as they happened: each failed shell call
as failed, each success as a success. Read by our native reader (Stage 0's arm (c)) and
through the plugin and the Obelisk double (or the real Obelisk in the real-binary lane): a
SessionStart's prefetched prior-outcome set, as the guard reads it.

Placing a recorded file: ``/home/lane`` (the recorded HOME) becomes this test's HOME, and
every timestamp moves by one offset so the session ended an hour ago (the binding's window
counts back from now); nothing else changes. Where the runtimes keep their files (Claude
Code ``~/.claude/projects/<cwd slug>/<session id>.jsonl``, the session id being the file
name; Codex ``~/.codex/sessions/YYYY/MM/DD/rollout-<stamp>-<thread id>.jsonl``) is what
the runtimes did in the lane (tests/runtimes/lane.py)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from loopx_recall_core.testing import guard_store as store
from loopx_recall_core.testing import read_transcripts

from ..conftest import LOOPX
from ..guard.test_guard_end_to_end import _counting_wrapper, _wait_for_set, stage_two

RECORDED = Path(__file__).parents[1] / "obelisk_double" / "recorded"
REPEATED = "pytest -q -p no:cacheprovider tests/test_api.py"
SUCCEEDED = "sh lint.sh"
#: What each recorded session ran, in order, and whether it failed (the lane's script; the
#: output the runtime recorded says the same). None: not asserted (a call the guard denied
#: never ran: whether a deny counts as a failure is not this test's question).
CALLS = {
    "claude-failed-and-ok": [(REPEATED, True), (SUCCEEDED, False)],
    "claude-denied-then-retried": [(REPEATED, None), (REPEATED, True)],
    # Claude Code 2.1.332 (the pin since issue 42) adds keys and a hook-summary line kind
    "claude-2.1.332-failed-and-ok": [(REPEATED, True), (SUCCEEDED, False)],
    "claude-2.1.332-denied-then-retried": [(REPEATED, None), (REPEATED, True)],
    "codex-failed-and-ok": [(REPEATED, True), (SUCCEEDED, False)],
    "codex-denied-then-retried": [(REPEATED, None), (REPEATED, True)],
}
_STAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z")


def test_every_recorded_file_is_listed_with_its_calls():
    assert {p.stem for p in RECORDED.glob("*.jsonl")} == set(CALLS)
    readme = (RECORDED / "README.md").read_text()
    assert all(f"`{name}.jsonl`" in readme for name in CALLS)


def _parse(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def place(home: Path, name: str) -> tuple[str, str, Path]:
    """Put a recorded transcript where its runtime keeps it under ``home``; returns
    ``(runtime, session id, the project folder it ran in)``."""
    text = (RECORDED / f"{name}.jsonl").read_text().replace("/home/lane", str(home))
    stamps = [_parse(s) for s in _STAMP.findall(text)]
    offset = datetime.now(UTC) - timedelta(hours=1) - max(stamps)

    def moved(match: re.Match) -> str:
        return (_parse(match.group()) + offset).isoformat(timespec="milliseconds")[:-6] + "Z"

    text = _STAMP.sub(moved, text)
    lines = [json.loads(line) for line in text.splitlines()]
    runtime = name.split("-", 1)[0]
    if runtime == "claude":
        session = next(line["sessionId"] for line in lines if "sessionId" in line)
        cwd = next(line["cwd"] for line in lines if "cwd" in line)
        folder = home / ".claude" / "projects" / "".join(c if c.isalnum() else "-" for c in cwd)
        path = folder / f"{session}.jsonl"
    else:
        meta = next(line for line in lines if line.get("type") == "session_meta")
        session, cwd = meta["payload"]["id"], meta["payload"]["cwd"]
        when = _parse(meta["timestamp"])
        path = (home / ".codex" / "sessions" / when.strftime("%Y/%m/%d")
                / f"rollout-{when.strftime('%Y-%m-%dT%H-%M-%S')}-{session}.jsonl")  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    Path(cwd).mkdir(parents=True, exist_ok=True)
    return runtime, session, Path(cwd)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_the_native_reader_reads_each_recorded_outcome(name, tmp_path):
    runtime, _session, _cwd = place(tmp_path, name)
    (transcript,) = read_transcripts(tmp_path, [runtime])
    read = [(call.command, call.failed) for call in transcript.calls]
    assert [command for command, _ in read] == [command for command, _ in CALLS[name]]
    for (command, failed), (_, expected) in zip(read, CALLS[name], strict=True):
        if expected is not None:
            assert failed is expected, (name, command)


@pytest.mark.real_obelisk
@pytest.mark.parametrize(
    "name", ["claude-failed-and-ok", "claude-2.1.332-failed-and-ok", "codex-failed-and-ok"]
)
def test_the_guard_set_reads_each_recorded_outcome(name, loopx, archive_home, obelisk_bin,
                                                   tmp_path):  # fmt: skip
    home = archive_home.home
    runtime, session, repo = place(home, name)
    wrapper, _counter = _counting_wrapper(tmp_path, obelisk_bin)
    state = tmp_path / "loopx"

    def cli(*args):
        return loopx(*args, extra_env={"LOOPX_RECALL_OBELISK_BIN": str(wrapper)})

    stage_two(cli, state, wrapper, repo, runtime, (session,))  # claimed by agent-a
    cli("hook", "install", runtime, "--agent-id", "agent-a", "--project-id", "proj-j",
        "--guard", "--policy", "warn", "--yes")  # fmt: skip
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "LOOPX_RECALL_HOME": str(state),
           "LOOPX_RECALL_OBELISK_BIN": str(wrapper),
           "LOOPX_RECALL_NODE22": os.environ["LOOPX_RECALL_NODE22"],
           "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence"}  # fmt: skip
    payload = {"session_id": "S-after-recorded", "transcript_path": None, "cwd": str(repo),
               "hook_event_name": "SessionStart", "source": "startup"}  # fmt: skip
    done = subprocess.run([LOOPX, "hook", runtime, "--agent-id", "agent-a", "--project-id",
                           "proj-j"], input=json.dumps(payload).encode(), env=env,
                          capture_output=True, timeout=60, check=False)  # fmt: skip
    assert (done.returncode, done.stderr) == (0, b"")
    path = store.set_path(state, runtime, "S-after-recorded")
    assert _wait_for_set(path, home), "the prefetch made no set"
    lines = path.read_bytes().split(b"\n")
    assert json.loads(lines[0])["status"] == "succeeded"
    snippets = [json.loads(line)["snippet"] for line in lines[1:] if line]
    failed = [s for s in snippets if f": {REPEATED}\noutcome: failed" in s]
    ok = [s for s in snippets if f": {SUCCEEDED}\noutcome: ok" in s]
    assert failed, snippets  # the recorded failure is read as a failure
    assert ok, snippets  # and the recorded success as a success
    assert not [s for s in snippets if f": {REPEATED}\noutcome: ok" in s], snippets
