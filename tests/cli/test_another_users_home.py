# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Root with another user's HOME (``sudo -E``): every command refuses in one line and
writes nothing there; a runtime's hook stays silent and writes nothing either.

Before: ``hook install claude`` run as root with HOME=/home/<user> made ``~/.claude`` and
``settings.json`` root's (and a recall ``~/.local``, ``~/.local/state`` root's 0700), so
the user could no longer change their own folders. The user here is a folder owned by
uid 65534 (``nobody``), chowned as root; without root, root is modelled in the child by
its effective uid (``os.geteuid``), the one fact the refusal reads, over a folder of ours.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

OTHER_UID = 65534
IDS = ("--agent-id", "a", "--project-id", "p")
PAYLOAD = {"session_id": "S-1", "transcript_path": None, "cwd": "/", "hook_event_name": "Stop"}
PRE_TOOL_USE = {**PAYLOAD, "hook_event_name": "PreToolUse", "tool_name": "Bash",
                "tool_input": {"command": "ls"}, "tool_use_id": "t"}  # fmt: skip
#: (arguments, stdin, what it is: "refused" in one line and exit 2, or "hook": silent, 0)
COMMANDS = {
    "hook install": (["hook", "install", "claude", *IDS, "--yes"], b"", "refused"),
    "capability enable": (["capability", "enable", "agent-turn-recall", "--provider",
                           "obelisk-session-evidence", *IDS], b"", "refused"),
    "recall history": (["recall", "history", *IDS, "--term", "pytest"], b"", "refused"),
    "session claim": (["session", "claim", *IDS, "--runtime", "claude", "--session", "S-1"],
                      b"", "refused"),
    "cleanup": (["cleanup", "--remove", "--yes"], b"", "refused"),
    "loopx manifest": (["loopx", "manifest", "--into", "~/.config/loopx-recall-manifests"],
                       b"", "refused"),
    "hook claude": (["hook", "claude", *IDS], json.dumps(PAYLOAD).encode(), "hook"),
    "guard prefetch": (["guard", "prefetch"], b"{}", "hook"),
    "guard claude": (["guard", "claude", *IDS], json.dumps(PRE_TOOL_USE).encode(), "hook"),
}
AS_ROOT = """\
import os, sys
os.geteuid = lambda: 0  # root, as the refusal sees it
from loopx_recall_core.cli import main
sys.argv[0] = "loopx-recall"
main()
"""


def _home(tmp_path: Path) -> Path:
    home = tmp_path / "alice"
    home.mkdir()
    (home / ".bashrc").write_text("# the user's own file\n")
    if os.geteuid() == 0:
        os.chown(home / ".bashrc", OTHER_UID, OTHER_UID)
        os.chown(home, OTHER_UID, OTHER_UID)
    return home


def _run(home: Path, args: list[str], stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "LOOPX_RECALL_LOAD_PLUGINS": ""}
    if os.geteuid() == 0:
        command = [str(Path(sys.executable).parent / "loopx-recall"), *args]
    else:
        command = [sys.executable, "-c", AS_ROOT, *args]
    return subprocess.run(command, input=stdin, env=env, capture_output=True, timeout=60,
                          check=False, cwd=home)  # fmt: skip


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_root_with_another_users_home_writes_nothing_there(name, tmp_path):
    home = _home(tmp_path)
    before = sorted(p.relative_to(home) for p in home.rglob("*"))
    args, stdin, kind = COMMANDS[name]
    done = _run(home, args, stdin)
    assert b"Traceback" not in done.stderr
    assert sorted(p.relative_to(home) for p in home.rglob("*")) == before  # nothing made
    assert [p for p in home.rglob("*") if p.stat().st_uid != home.stat().st_uid] == []
    if kind == "hook":
        assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
        return
    assert done.returncode == 2
    (line,) = done.stderr.decode().splitlines()
    assert line.startswith("error: HOME belongs to another user (uid ")
    assert "sudo -u USER -H" in line
    assert str(home) not in line  # no path


def test_help_and_version_still_answer(tmp_path):
    home = _home(tmp_path)
    for args in (["--version"], ["hook", "install", "--help"]):
        done = _run(home, args, b"")
        assert done.returncode == 0, done.stderr
        assert done.stdout
    assert [p.name for p in home.iterdir()] == [".bashrc"]


def test_only_root_with_a_home_not_roots_is_refused(tmp_path, monkeypatch):
    from loopx_recall_core.cli import foreign_home

    own = tmp_path / "own"
    own.mkdir()
    monkeypatch.setenv("HOME", str(own))
    monkeypatch.setattr(os, "geteuid", lambda: 1234)
    assert foreign_home() is None  # not root: it cannot write into another's HOME anyway
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    assert (foreign_home() is None) == (own.stat().st_uid == 0)  # root's own HOME: fine
    monkeypatch.setenv("HOME", str(tmp_path / "missing"))
    assert foreign_home() is None
