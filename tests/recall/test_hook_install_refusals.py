# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``hook install`` refuses a settings file it cannot merge into with one clear line and
leaves it as it was: a file that is not a JSON object names the shape it needs, a file
that is not valid JSON says so once (with the line), and answering "n" to the question is
click's ``Aborted!``, exit 1, with nothing written and no backup left behind.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

LOOPX = str(Path(sys.executable).with_name("loopx-recall"))


def _loopx(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(cwd), "LOOPX_RECALL_HOME": str(cwd / "loopx")}
    env.pop("CODEX_HOME", None)
    result = subprocess.run(
        [LOOPX, *args], input=stdin, capture_output=True, text=True, cwd=cwd, env=env,
        timeout=60, check=False,
    )  # fmt: skip
    assert "Traceback" not in result.stderr
    return result


def test_hook_install_names_the_settings_shape_and_says_invalid_json_once(tmp_path):
    settings = tmp_path / "settings.json"
    args = ("hook", "install", "claude", "--agent-id", "a", "--project-id", "j",
            "--settings", str(settings), "--yes")  # fmt: skip
    settings.write_text("[1, 2]\n")
    array = _loopx(*args, cwd=tmp_path)
    assert array.returncode == 1
    assert array.stderr == "error: the Claude Code settings file must hold a JSON object ({...})\n"
    settings.write_text('{"hooks": {}\n\n')
    broken = _loopx(*args, cwd=tmp_path)
    assert broken.returncode == 1
    assert broken.stderr.count("not valid JSON") == 1, broken.stderr
    assert "the Claude Code settings file is not valid JSON (line " in broken.stderr
    assert settings.read_text() == '{"hooks": {}\n\n'


def test_answering_no_is_aborted_exit_1_in_hook_install(tmp_path):
    import pty

    settings = tmp_path / "settings.json"
    original = {"permissions": {"allow": ["Bash(ls)"]}}
    settings.write_text(json.dumps(original))
    args = ("hook", "install", "claude", "--agent-id", "a", "--project-id", "j", "--settings",
            str(settings))  # fmt: skip
    env = {**os.environ, "HOME": str(tmp_path), "LOOPX_RECALL_HOME": str(tmp_path / "loopx")}
    controller, terminal = pty.openpty()  # a terminal: the question is asked; "n" aborts
    os.write(controller, b"n\n")
    declined = subprocess.run([LOOPX, *args], stdin=terminal, capture_output=True, text=True,
                              cwd=tmp_path, env=env, timeout=60, check=False)  # fmt: skip
    os.close(terminal)
    os.close(controller)
    assert declined.returncode == 1
    assert "Aborted!" in declined.stderr
    assert "nothing changed" not in declined.stdout
    assert json.loads(settings.read_text()) == original
    assert list(tmp_path.glob("settings.json.loopx-backup*")) == []
