# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Nothing outlives ``loopx-recall``. SIGTERM, SIGINT or SIGHUP during a hanging query,
or the deadline, kills the query's process group and any descendant that left it with
``setsid``; the query script (terms and roots) is 0600 in a 0700 folder and is removed
on every exit path; the transcript scan counts against the one deadline."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from loopx_obelisk_session_evidence import evidence
from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence

from loopx_recall_core.plugin_api import ProviderFailure

from ..hostile import binding, configure, install_standin, request, standin_log

LOOPX = str(Path(sys.executable).parent / "loopx-recall")
CANARY_TERM = "CANARY-TERM-SIGNAL-3c9d"


def _processes_with_home(home: Path) -> list[int]:
    needle = b"\0HOME=" + str(home).encode() + b"\0"
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environ = b"\0" + (entry / "environ").read_bytes()
        except OSError:
            continue
        if needle in environ:
            found.append(int(entry.name))
    return found


def _wait_for(condition, seconds: float = 30.0) -> bool:
    """Poll ``condition`` until it holds (an event), failing only after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@pytest.fixture
def cli(tmp_path):
    home, root, scratch = tmp_path / "home", tmp_path / "repo", tmp_path / "tmp"
    for folder in (home, root, scratch):
        folder.mkdir()
    obelisk = install_standin(home)
    configure(home, mode="hang")
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "TMPDIR": str(scratch),
        "LOOPX_RECALL_HOME": str(tmp_path / "state"),
        "LOOPX_RECALL_OBELISK_BIN": str(obelisk),
        "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence",
    }
    enabled = subprocess.run(
        [
            LOOPX,
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
            "--repository-root",
            str(root),
            "--repository-id",
            "repo-r",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert enabled.returncode == 0, enabled.stderr
    # enable reads the provider's readiness back (its query hangs here until the readback's
    # deadline): nothing of it outlives enable, and the test's query starts from nothing
    assert _wait_for(lambda: not _processes_with_home(home)), "enable's readback outlived it"
    (home / "ready").unlink(missing_ok=True)
    history = [
        LOOPX,
        "recall",
        "history",
        "--agent-id",
        "agent-a",
        "--project-id",
        "proj-j",
        "--term",
        CANARY_TERM,
    ]
    yield home, scratch, env, history
    for pid in _processes_with_home(home):  # never leave a stray behind, even on failure
        os.kill(pid, signal.SIGKILL)


def _assert_clean(home: Path, scratch: Path, stderr: str) -> None:
    assert _wait_for(lambda: not _processes_with_home(home)), "processes outlived loopx"
    assert list(scratch.iterdir()) == [], "the query script outlived loopx"
    assert "Traceback" not in stderr
    assert CANARY_TERM not in stderr


#: The signals these tests send. A run started in the background (``scripts/test &``) starts
#: with SIGINT ignored, nohup ignores SIGHUP, and a child inherits an ignored signal (the
#: CLI keeps it ignored, on purpose: tests/core/test_contain.py): each child here starts
#: with the default handlers, as from a terminal.
SENT = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def _default_handlers() -> None:
    for signum in SENT:
        signal.signal(signum, signal.SIG_DFL)


def _spawn(argv: list[str], env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        argv,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_default_handlers,
    )


def _ignored(pid: int) -> set[int]:
    """The signals process ``pid`` ignores (its SigIgn mask in /proc)."""
    status = Path(f"/proc/{pid}/status").read_text()
    (mask,) = (int(row.split()[1], 16) for row in status.splitlines() if row.startswith("SigIgn"))
    return {n for n in range(1, 65) if mask >> (n - 1) & 1}


def test_the_signalled_child_has_default_handlers_when_the_run_ignores_them():
    # as in a run started with `&` (SIGINT) under nohup (SIGHUP)
    before = {n: signal.signal(n, signal.SIG_IGN) for n in (signal.SIGINT, signal.SIGHUP)}
    try:
        child = _spawn(["sleep", "600"], dict(os.environ))
    finally:
        for n, handler in before.items():
            signal.signal(n, handler)
    try:
        assert _ignored(child.pid) & set(SENT) == set()
    finally:
        child.kill()
        child.communicate()


@pytest.mark.parametrize("signum", SENT)
def test_a_signal_mid_query_leaves_nothing_behind(cli, signum):
    home, scratch, env, history = cli
    process = _spawn(history, env)
    try:
        assert _wait_for(lambda: (home / "ready").exists()), "the query never started"
        # the stand-in, its same-group child and its setsid grandchild are all alive now
        assert len(_processes_with_home(home)) >= 3
        process.send_signal(signum)
        _, stderr = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 128 + signum
    _assert_clean(home, scratch, stderr)


def test_the_deadline_kills_the_query_and_its_escaped_grandchild(cli):
    home, scratch, env, history = cli
    done = subprocess.run(
        [*history, "--timeout", "2", "--format", "json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["reason"] == "provider_timeout"
    assert (home / "ready").exists()
    _assert_clean(home, scratch, done.stderr)


def test_the_query_script_is_private(cli):
    home, scratch, env, history = cli
    configure(home, mode="answer", answer={"not": "ours"})
    done = subprocess.run(history, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    modes = [entry for entry in standin_log(home) if "script_mode" in entry]
    assert modes
    assert modes[0]["script_mode"] == 0o600
    assert modes[0]["folder_mode"] == 0o700
    assert not Path(modes[0]["script"]).exists()
    _assert_clean(home, scratch, done.stderr)


def test_the_transcript_scan_counts_against_the_deadline(tmp_path, monkeypatch):
    home, root = tmp_path / "home", tmp_path / "repo"
    home.mkdir()
    root.mkdir()
    monkeypatch.setenv("HOME", str(home))
    configure(home, mode="answer", answer={})

    def endless(*_args):
        while True:
            yield home / "never.jsonl"

    monkeypatch.setattr(evidence, "_transcripts", endless)
    with pytest.raises(ProviderFailure) as failure:
        ObeliskSessionEvidence().retrieve(
            request(), binding(root, install_standin(home)), timeout=1.5
        )
    assert failure.value.reason == "provider_timeout"
    assert not [entry for entry in standin_log(home) if entry.get("argv", [""])[0] == "--query"]
