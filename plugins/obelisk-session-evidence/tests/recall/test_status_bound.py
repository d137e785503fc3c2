# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""`capability status` has its own bound. A runtime whose ``--version``
never answers (a stand-in that sleeps) took 25 s (the readback's 20 s version check, then
the stage gate's 5 s identity check); status now answers within 5 s, says which runtime did
not answer, and leaves no process behind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

LOOPX = str(Path(sys.executable).parent / "loopx-recall")


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_status_answers_within_its_bound_and_names_the_silent_runtime(tmp_path):
    pid_file = tmp_path / "pid"
    hanging = tmp_path / "obelisk"
    hanging.write_text(f'#!/bin/sh\necho $$ > "{pid_file}"\nexec sleep 600\n')
    hanging.chmod(0o755)
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "LOOPX_RECALL_HOME":
           str(tmp_path / "state"), "LOOPX_RECALL_OBELISK_BIN": str(hanging),
           "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence"}  # fmt: skip
    # a bound, not a benchmark: 25 s (the old behaviour) fails, a busy machine passes
    done = subprocess.run(
        [LOOPX, "capability", "status", "agent-turn-recall", "--provider",
         "obelisk-session-evidence", "--format", "json"],
        env=env, capture_output=True, text=True, timeout=12, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    provider = json.loads(done.stdout)["provider"]
    assert provider["ready"] is False
    assert "obelisk did not answer --version" in provider["unavailable_reason"]
    assert str(tmp_path) not in done.stdout  # the path stays private
    assert not _alive(int(pid_file.read_text()))
