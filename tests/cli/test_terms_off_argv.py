# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Terms stay off the command line by default. Every local user can read
a process's arguments (``ps``, ``/proc/<pid>/cmdline``: proc(5)), so the help and the
usage error lead with the file/stdin form, and a person at a terminal who puts terms or a
proposed command on the command line is warned, once per run, on stderr. A script (no
terminal) is not warned: its output stays as it was."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

LOOPX = str(Path(sys.executable).parent / "loopx-recall")
WARNING = "is visible to other local users"


def _on_a_terminal(args: list[str], home: Path) -> str:
    """What the command writes to stderr when stderr is a pseudo-terminal."""
    main, child = pty.openpty()
    env = {**os.environ, "LOOPX_RECALL_HOME": str(home), "LOOPX_RECALL_LOAD_PLUGINS": ""}
    process = subprocess.Popen([LOOPX, *args], stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=child, env=env)
    os.close(child)
    chunks = []
    while True:  # until the child closes its end (it exited): an event, not a clock
        try:
            chunk = os.read(main, 4096)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=60)
    os.close(main)
    return b"".join(chunks).decode(errors="replace")


HISTORY = ["recall", "history", "--agent-id", "a", "--project-id", "p"]


@pytest.mark.parametrize(
    ("args", "option"),
    [
        ([*HISTORY, "--term", "deploy", "--term", "hunter2"], "--term"),
        (["recall", "replan", "--proposed-command", "make", "--agent-id", "a",
          "--project-id", "p"], "--proposed-command"),
    ],
)
def test_terms_on_the_command_line_are_warned_once_on_a_terminal(tmp_path, args, option):
    err = _on_a_terminal(args, tmp_path / "home")
    assert err.count(WARNING) == 1, err
    assert option in err
    assert "hunter2" not in err
    assert "deploy" not in err


def test_no_warning_without_a_terminal_nor_for_the_file_form(tmp_path):
    env = {**os.environ, "LOOPX_RECALL_HOME": str(tmp_path / "h"), "LOOPX_RECALL_LOAD_PLUGINS": ""}
    done = subprocess.run([LOOPX, *HISTORY, "--term", "deploy"], capture_output=True,
                          env=env, timeout=60, check=False)
    assert WARNING not in done.stderr.decode()
    terms = tmp_path / "terms"
    terms.write_text("deploy\n")
    assert WARNING not in _on_a_terminal([*HISTORY, "--terms-file", str(terms)], tmp_path / "h")


def test_help_and_the_usage_error_lead_with_the_file_form(tmp_path):
    env = {**os.environ, "LOOPX_RECALL_HOME": str(tmp_path / "h"), "LOOPX_RECALL_LOAD_PLUGINS": ""}
    done = subprocess.run([LOOPX, *HISTORY], capture_output=True, env=env, timeout=60,
                          check=False)
    assert "--terms-file -" in done.stderr.decode()
    shown = subprocess.run([LOOPX, "recall", "history", "--help"], capture_output=True,
                           env=env, timeout=60, check=False).stdout.decode()
    assert shown.index("--terms-file") < shown.index("--term TEXT")
