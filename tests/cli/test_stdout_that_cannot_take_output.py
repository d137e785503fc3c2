# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A standard output that cannot take the output is an environment
problem (one line on stderr, exit 2), not a traceback.

Before: stdout on ``/dev/full`` (``OSError: [Errno 28]``) and ``PYTHONIOENCODING=latin-1``
with a provider id the user gave in a non-Latin-1 script (``UnicodeEncodeError``) each
ended in a traceback, on the click path and on the fast path alike. Each case runs the
installed ``loopx-recall`` as a child process; nothing here depends on timing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

LOOPX = Path(sys.executable).with_name("loopx-recall")
TOKYO = "東京"  # not Latin-1: a provider id the user typed

#: (command line, which path answers it with UTF-8 streams)
COMMANDS = {
    "root-help": (["--help"], "fast"),
    "version": (["--version"], "fast"),
    "status": (["capability", "status", "agent-turn-recall", "--provider", "x"], "fast"),
    "status-json": (
        ["capability", "status", "agent-turn-recall", "--provider", "x", "--format", "json"],
        "fast",
    ),
    "group-help": (["recall", "--help"], "click"),
    "extension-list": (["extension", "list", "--available", "--format", "json"], "click"),
    "state-path": (["state", "path"], "click"),
}


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {
        **os.environ,
        "LOOPX_RECALL_HOME": str(tmp_path / "home"),
        "LOOPX_RECALL_LOAD_PLUGINS": "",
        **extra,
    }
    env.pop("COLUMNS", None)
    return env


def _one_error_line(stderr: bytes) -> str:
    text = stderr.decode("utf-8", "replace")
    assert "Traceback" not in text, text
    assert "Exception ignored" not in text, text
    (line,) = text.splitlines()
    assert line.startswith("error: "), text
    return line


@pytest.mark.parametrize("case", sorted(COMMANDS))
def test_stdout_on_a_full_device_is_one_line_and_exit_2(case, tmp_path):
    args, _path = COMMANDS[case]
    with open("/dev/full", "wb") as full:
        completed = subprocess.run(
            [str(LOOPX), *args],
            stdout=full,
            stderr=subprocess.PIPE,
            env=_env(tmp_path),
            timeout=120,
            check=False,
        )
    line = _one_error_line(completed.stderr)
    assert completed.returncode == 2, completed.stderr
    assert line == "error: cannot write to standard output (ENOSPC)"


def test_an_ascii_stdout_on_a_full_device_too(tmp_path):
    """click writes UTF-8 bytes to ``sys.stdout.buffer`` itself when stdout says ASCII:
    the bytes layer is guarded too."""
    with open("/dev/full", "wb") as full:
        completed = subprocess.run(
            [str(LOOPX), *COMMANDS["extension-list"][0]],
            stdout=full,
            stderr=subprocess.PIPE,
            env=_env(tmp_path, PYTHONIOENCODING="ascii"),
            timeout=120,
            check=False,
        )
    assert _one_error_line(completed.stderr) == "error: cannot write to standard output (ENOSPC)"
    assert completed.returncode == 2


def test_stdout_and_stderr_on_a_full_device_still_exit_2(tmp_path):
    # nothing can be said; the status still says it was the environment
    with open("/dev/full", "wb") as full:
        completed = subprocess.run(
            [str(LOOPX), "extension", "list"],
            stdout=full,
            stderr=full,
            env=_env(tmp_path),
            timeout=120,
            check=False,
        )
    assert completed.returncode == 2


STATUS = ["capability", "status", "agent-turn-recall", "--provider", TOKYO]


@pytest.mark.parametrize("output", ["text", "json"])
def test_an_encoding_that_cannot_say_the_output_is_one_line_and_exit_2(output, tmp_path):
    env = _env(tmp_path, PYTHONIOENCODING="latin-1")
    completed = subprocess.run(
        [str(LOOPX), *STATUS, "--format", output],
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    line = _one_error_line(completed.stderr)
    assert completed.returncode == 2, completed.stderr
    assert line == (
        "error: standard output's encoding (latin-1) cannot represent the output "
        "(set PYTHONIOENCODING=utf-8 or use a UTF-8 locale)"
    )
    assert TOKYO.encode("utf-8") not in completed.stderr  # the value is not repeated
    # with UTF-8 the same command answers
    fine = subprocess.run(
        [str(LOOPX), *STATUS, "--format", output],
        capture_output=True,
        env=_env(tmp_path, PYTHONIOENCODING="utf-8"),
        timeout=120,
        check=False,
    )
    assert fine.returncode == 0, fine.stderr
    assert TOKYO in fine.stdout.decode("utf-8")
    if output == "json":
        assert json.loads(fine.stdout)["provider"]["provider_id"] == TOKYO


@pytest.mark.parametrize("case", sorted(COMMANDS))
def test_a_reader_that_went_away_stays_silent(case, tmp_path):
    """A closed pipe is click's case (exit 1, nothing printed), on both paths, and
    Python's own flush at exit prints nothing either."""
    args, _path = COMMANDS[case]
    read_end, write_end = os.pipe()
    os.close(read_end)  # closed before the child starts: every write is EPIPE
    try:
        completed = subprocess.run(
            [str(LOOPX), *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            env=_env(tmp_path),
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)
    assert completed.returncode == 1
    assert completed.stderr == b""


CAUGHT = """\
from loopx_recall_core.cli import _output
_output.guard()
try:
    print("x" * 100_000)
except _output.OutputFailed as failed:
    caught = str(failed)
print("more")  # a caller that went on (a runtime hook never fails) writes again
import sys
sys.stderr.write(caught)
"""


def test_a_caller_that_goes_on_leaves_nothing_for_the_exit_flush(tmp_path):
    """Python flushes stdout again at exit: what could not be written must not come back
    as "Exception ignored ... OSError" when the failure was caught and the caller went on."""
    with open("/dev/full", "wb") as full:
        completed = subprocess.run(
            [sys.executable, "-c", CAUGHT],
            stdout=full,
            stderr=subprocess.PIPE,
            env=_env(tmp_path),
            timeout=120,
            check=False,
        )
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == b"cannot write to standard output (ENOSPC)"
