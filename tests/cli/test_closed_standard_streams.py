# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A closed standard input or output is one line and an exit code for every command,
never a traceback, and never a silent exit 0.

Before: with stdin closed (``<&-``: Python sets ``sys.stdin`` to None), ``hook install``
without ``--yes``, ``cleanup --remove``, ``--proposed-command-file -`` and ``--terms-file -``
ended in ``AttributeError: 'NoneType' object has no attribute ...``; with stdout closed
(``>&-``) ``recall history`` printed nothing and exited 0. Each command runs as the
installed ``loopx-recall`` in a child whose descriptor 0 or 1 is closed before it starts
(``pass_fds`` cannot close one: a ``preexec_fn`` does, in the child only).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

LOOPX = str(Path(sys.executable).parent / "loopx-recall")
IDS = ("--agent-id", "a", "--project-id", "p")

#: Every command (the table is checked against click's tree below), with arguments that
#: reach its reading of stdin or its first printed line without work of minutes, and
#: whether it answers on stdout (a hook never does: a runtime reads nothing there).
COMMANDS: dict[str, tuple[list[str], bool]] = {
    "capability disable": (
        ["capability", "disable", "agent-turn-recall", "--provider", "x", "--project-id", "p"],
        True,
    ),
    "capability enable": (
        ["capability", "enable", "agent-turn-recall", "--provider", "x", *IDS],
        True,
    ),
    "capability status": (["capability", "status", "agent-turn-recall", "--provider", "x"], True),
    "cleanup": (["cleanup", "--remove"], True),
    "extension install": (["extension", "install", "--", "-r"], True),
    "extension list": (["extension", "list"], True),
    "extension uninstall": (["extension", "uninstall", "loopx-no-such-extension"], True),
    "external-evidence admit": (
        [
            "external-evidence",
            "admit",
            "--plan-json",
            "-",
            "--receipt-json",
            "-",
            "--decision",
            "reject",
            "--reason",
            "r",
        ],
        True,
    ),
    "external-evidence discover": (["external-evidence", "discover"], True),
    "external-evidence plan": (["external-evidence", "plan", "--request-json", "-"], True),
    "external-evidence receipt": (
        ["external-evidence", "receipt", "--plan-json", "-", "--receipt-json", "-"],
        True,
    ),
    "external-evidence retire": (["external-evidence", "retire", "--admission-json", "-"], True),
    "guard claude": (["guard", "claude", *IDS], False),
    "guard codex": (["guard", "codex", *IDS], False),
    "guard prefetch": (["guard", "prefetch"], False),
    "guard stats": (["guard", "stats", "--project-id", "p"], True),
    "hook claude": (["hook", "claude", *IDS], False),
    "hook codex": (["hook", "codex", *IDS], False),
    "hook install": (["hook", "install", "claude", *IDS], True),
    "hook uninstall": (["hook", "uninstall", "claude"], True),
    "loopx manifest": (["loopx", "manifest"], True),
    "recall history": (["recall", "history", *IDS, "--terms-file", "-"], True),
    "recall qualify": (["recall", "qualify", "--provider", "loopx-no-such-provider"], True),
    "recall receipt": (["recall", "receipt", "--request-json", "-", "--result-json", "-"], True),
    "recall replan": (["recall", "replan", "--proposed-command-file", "-", *IDS], True),
    "recall show": (["recall", "show", "req-1"], True),
    "recall validate": (["recall", "validate", "request", "-"], True),
    "session candidates": (["session", "candidates", *IDS], True),
    "session claim": (["session", "claim", *IDS, "--runtime", "claude", "--session", "s"], True),
    "session forget": (["session", "forget", *IDS, "--runtime", "claude", "--session", "s"], True),
    "session list": (["session", "list", "--agent-id", "a"], True),
    "session release": (
        ["session", "release", *IDS, "--runtime", "claude", "--session", "s"],
        True,
    ),
    "state path": (["state", "path"], True),
}


def _leaves(group: click.Group, path: tuple[str, ...] = ()) -> set[str]:
    context = click.Context(group)
    found: set[str] = set()
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        if isinstance(command, click.Group):
            found |= _leaves(command, (*path, name))
        else:
            found.add(" ".join((*path, name)))
    return found


def test_the_table_names_every_command():
    from loopx_recall_core.cli._root import cli

    assert _leaves(cli) == set(COMMANDS)


def _run(args: list[str], closed: int, tmp_path: Path) -> subprocess.CompletedProcess[bytes]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {**os.environ, "HOME": str(home), "LOOPX_RECALL_HOME": str(home / "state"),
           "LOOPX_RECALL_LOAD_PLUGINS": ""}  # fmt: skip
    return subprocess.run(
        [LOOPX, *args],
        stdout=subprocess.PIPE if closed != 1 else None,
        stderr=subprocess.PIPE,
        input=b"" if closed != 0 else None,
        preexec_fn=lambda: os.close(closed),  # in the child only, before exec
        cwd=home,
        env=env,
        timeout=120,
        check=False,
    )


def _said(completed: subprocess.CompletedProcess[bytes]) -> list[str]:
    """stderr's lines (none is a traceback); external-evidence answers an error as its
    wire record on stdout instead, its one ``error`` line."""
    text = completed.stderr.decode("utf-8", "replace")
    if not text and completed.stdout and completed.returncode:
        import json

        text = json.loads(completed.stdout)["error"]
    assert "Traceback" not in text, text
    assert "Exception ignored" not in text, text
    return text.splitlines()


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_closed_stdin_is_one_line_and_an_exit_code(name, tmp_path):
    args, _prints = COMMANDS[name]
    completed = _run(args, 0, tmp_path)
    lines = _said(completed)
    assert len(lines) <= 1, lines
    if "-" in args:  # it reads standard input: it says that it cannot, and fails
        assert completed.returncode != 0
        assert lines, completed
        assert "cannot read standard input (EBADF)" in lines[0], lines
    if name in ("cleanup", "hook install", "capability disable"):
        assert completed.returncode in (0, 1), lines  # nothing to remove, or asks for --yes


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_closed_stdout_is_one_line_and_exit_2_never_a_silent_0(name, tmp_path):
    args, prints = COMMANDS[name]
    completed = _run(args, 1, tmp_path)
    lines = _said(completed)
    assert len(lines) <= 1, lines
    if not prints:
        assert completed.returncode == 0
        return
    assert completed.returncode != 0, "a command whose answer went nowhere exited 0"
    if completed.returncode == 2 and lines and "standard output" in lines[0]:
        assert lines == ["error: cannot write to standard output (EBADF)"]


def test_recall_history_with_stdout_closed_says_so(tmp_path):
    completed = _run(["recall", "history", *IDS, "--term", "x"], 1, tmp_path)
    assert _said(completed) == ["error: cannot write to standard output (EBADF)"]
    assert completed.returncode == 2


PROVIDER = str(Path(sys.executable).parent / "loopx-recall-loopx-provider")


@pytest.mark.parametrize("args", [["capability"], ["decision-context"], ["--doctor"]])
def test_the_loopx_provider_with_a_closed_stdout_says_so(args, tmp_path):
    """LoopX's extension entry point, the other console script: before, a closed stdout
    was ``AttributeError: 'NoneType' object has no attribute 'flush'``."""
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "LOOPX_RECALL_HOME": str(home / "state")}
    completed = subprocess.run([PROVIDER, *args], input=b"{}", stderr=subprocess.PIPE,
                               preexec_fn=lambda: os.close(1), env=env, timeout=120,
                               check=False)  # fmt: skip
    assert _said(completed) == [
        "loopx-recall-loopx-provider: cannot write to standard output (EBADF)"
    ]
    assert completed.returncode == 2


def test_the_loopx_provider_with_a_closed_stdin_answers_an_error(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "LOOPX_RECALL_HOME": str(home / "state")}
    completed = subprocess.run([PROVIDER, "capability"], capture_output=True,
                               preexec_fn=lambda: os.close(0), env=env, timeout=120,
                               check=False)  # fmt: skip
    assert completed.stderr.decode().splitlines() == [
        "loopx-recall-loopx-provider: invalid_request"
    ]
    assert completed.returncode == 1
    assert b'"reason_code":"invalid_request"' in completed.stdout
