# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The folder a shell call ran in is part of its route (issue 38), so the provider writes a
call made below a repository root as run from that root (``cd <folder> && <command>``).

Before, a failure run in ``frontend/`` was stored without its folder: the same command at
the repository root was denied as its repeat, and ``cd frontend && npm run lint`` missed.
"""

from __future__ import annotations

import json

import pytest
from loopx_obelisk_session_evidence.evidence import snippet_for

ROOTS = ["/home/u/repo", "/home/u/repo-wt"]


def _row(command, cwd=None, **input_extra):
    return {
        "tool": "Bash" if not input_extra else "exec_command",
        "input": json.dumps({"command": command, **input_extra}),
        "output": "Exit code 1\nerror",
        "failed": True,
        "cwd": cwd,
    }


@pytest.mark.parametrize(
    ("cwd", "header"),
    [
        ("/home/u/repo/frontend", "Bash: cd frontend && npm run lint"),
        ("/home/u/repo/web/app/", "Bash: cd web/app && npm run lint"),
        ("/home/u/repo-wt/frontend", "Bash: cd frontend && npm run lint"),  # another root
        ("/home/u/repo", "Bash: npm run lint"),
        ("/home/u/repository/x", "Bash: npm run lint"),  # a sibling, not below a root
        ("/tmp", "Bash: npm run lint"),
        (None, "Bash: npm run lint"),
    ],
)
def test_a_call_below_a_root_is_written_from_the_root(cwd, header):
    snippet = snippet_for("prior_failure", _row("npm run lint", cwd), 800, ROOTS)
    assert snippet.split("\n")[0] == header


def test_codex_s_own_workdir_comes_first():
    row = _row("pytest -x", "/home/u/repo", workdir="/home/u/repo/api")
    assert snippet_for("prior_failure", row, 800, ROOTS).startswith(
        "exec_command: cd api && pytest -x\n"
    )


def test_a_folder_that_needs_quoting_is_quoted():
    row = _row("make", "/home/u/repo/my dir")
    assert snippet_for("prior_failure", row, 800, ROOTS).startswith("Bash: cd 'my dir' && make")
