# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The scripts' output is plain and copyable.

The quickstart's output helpers (sourced alone: the script returns after defining them)
print no escape code when stdout is not a terminal, and show each command quoted so that
bash parses the shown line back to the same words; scripts/test says what its slow pip
step is doing, before and after it (run against a stand-in venv: no pip runs here).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
QUICKSTART = ROOT / "scripts" / "quickstart"

ARGVS = [
    ["loopx-recall", "recall", "replan", "--proposed-command",
     "cargo build --release --target wasm32-unknown-unknown", "--agent-id", "agent-a"],
    ["loopx-recall", "hook", "codex", '{"cwd": "/tmp/a b", "thread-id": "it\'s"}'],
    ["env", "A=1", "echo", "$HOME", "*", "~", "", "tab\there", "back\\slash", "new\nline"],
]  # fmt: skip


def _source(code: str, *args: str, **kwargs) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        ["bash", "-c", f'source "$0"; {code}', str(QUICKSTART), *args],
        capture_output=True, timeout=30, check=False, **kwargs,
    )  # fmt: skip


def _words(line: str) -> list[str]:
    parsed = subprocess.run(
        ["bash", "-c", f"printf '%s\\0' {line}"], capture_output=True, timeout=30, check=True
    )
    return parsed.stdout.decode().split("\0")[:-1]


@pytest.mark.parametrize("argv", ARGVS)
def test_a_shown_command_is_plain_and_parses_back_to_its_words(argv):
    shown = _source('show "$@"', *argv)
    assert shown.returncode == 0, shown.stderr
    assert b"\x1b" not in shown.stdout
    text = shown.stdout.decode()
    assert text.startswith("\n$ ")
    assert _words(text[3:].removesuffix("\n")) == argv


def test_a_note_is_a_comment_bash_ignores():
    argv = ["loopx-recall", "recall", "validate", "request", "/tmp/bad request.json"]
    shown = _source('show --note "rejected, exit 1" "$@"', *argv)
    line = shown.stdout.decode().strip()
    assert line.endswith("   # rejected, exit 1")
    assert _words(line.removeprefix("$ ")) == argv


def test_step_shows_then_runs():
    ran = _source('step printf "%s|" "a b" "c"')
    assert ran.stdout == b"\n$ printf '%s|' 'a b' c\na b|c|"


def test_bold_only_on_a_terminal():
    main, secondary = os.openpty()
    try:
        proc = subprocess.run(
            ["bash", "-c", 'source "$0"; show echo hi', str(QUICKSTART)],
            stdout=secondary, stderr=subprocess.PIPE, timeout=30, check=False,
        )  # fmt: skip
        os.close(secondary)
        secondary = -1
        assert proc.returncode == 0, proc.stderr
        assert b"\x1b[1m$ echo hi\x1b[0m" in os.read(main, 4096)
    finally:
        os.close(main)
        if secondary >= 0:
            os.close(secondary)


def test_quickstart_prints_escape_codes_only_through_its_terminal_check():
    lines = [line for line in QUICKSTART.read_text().splitlines() if "\\033" in line]
    assert lines == [
        "if [ -t 1 ]; then BOLD=$'\\033[1m' RESET=$'\\033[0m'; else BOLD='' RESET=''; fi"
    ]


def _stand_in_venv(venv: Path, log: Path) -> None:
    (venv / "bin").mkdir(parents=True)
    python = f"""#!/bin/sh
case "$1" in
  -c) echo 3.11.stand-in ;;
  -m) echo "pip ran: $*" | tee -a {log} ;;
  *) cat >/dev/null ;;
esac
"""
    for name, body in {"python": python, "ruff": "#!/bin/sh\n", "reuse": "#!/bin/sh\n",
                       "pytest": "#!/bin/sh\necho pytest ran\n"}.items():  # fmt: skip
        (venv / "bin" / name).write_text(body)
        (venv / "bin" / name).chmod(0o755)


def test_scripts_test_says_what_its_pip_step_does(tmp_path):
    venv, log = tmp_path / "venv", tmp_path / "pip.log"
    _stand_in_venv(venv, log)
    env = {**os.environ, "LOOPX_RECALL_DEV_VENV": str(venv), "LOOPX_RECALL_DEV_REINSTALL": "1"}
    proc = subprocess.run(
        [str(ROOT / "scripts" / "test")], env=env, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    ran = lines.index(next(line for line in lines if line.startswith("pip ran: -m pip install")))
    assert lines[ran - 1].startswith("== pip install -e . -e plugins/obelisk-session-evidence")
    assert lines[ran + 1] == "== pip install done"
    assert lines[-1] == "pytest ran"
