# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The suite never reads or writes the real HOME: every test runs with HOME, the XDG folders,
CODEX_HOME and the state folder in a temporary folder, and a run that changed anything under
the real HOME fails (the repository root's conftest.py, run here on a small suite of its own)."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SUITE = textwrap.dedent(
    """
    import os
    from pathlib import Path

    def test_writes_where_told():
        target = os.environ.get("WRITE_TO")
        if target:
            Path(target).write_text("written by a test")

    def test_writes_under_its_own_home():
        home = Path(os.environ["HOME"])
        (home / ".obelisk").mkdir()
        (home / ".obelisk" / "obelisk.sqlite").write_text("an index")
    """
)


def _run_suite(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(ROOT / "conftest.py", project / "conftest.py")
    (project / "pytest.ini").write_text("[pytest]\n")
    (project / "test_suite.py").write_text(SUITE)
    real = tmp_path / "real-home"
    (real / ".obelisk").mkdir(parents=True)
    (real / ".obelisk" / "obelisk.sqlite").write_text("the user's index")
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "XDG_"))}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"],
        cwd=project,
        env={**base, "HOME": str(real), **env},
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_a_run_that_writes_only_under_its_own_homes_passes(tmp_path):
    result = _run_suite(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "real HOME changed" not in result.stdout
    real = tmp_path / "real-home"
    assert (real / ".obelisk" / "obelisk.sqlite").read_text() == "the user's index"
    assert sorted(p.name for p in real.rglob("*")) == [".obelisk", "obelisk.sqlite"]


@pytest.mark.parametrize("planted", [".obelisk/obelisk.sqlite", ".claude.json"])
def test_a_run_that_changed_the_real_home_fails_and_says_where(tmp_path, planted):
    result = _run_suite(tmp_path, WRITE_TO=str(tmp_path / "real-home" / planted))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "2 passed" in result.stdout  # every test passed: the guard alone failed the run
    assert "the real HOME changed during the run" in result.stdout
    assert str(tmp_path / "real-home" / planted) in result.stdout


def test_this_test_runs_under_a_temporary_home_of_its_own(tmp_path_factory):
    home = Path(os.environ["HOME"])
    assert home != Path(pwd.getpwuid(os.getuid()).pw_dir)
    assert home.is_relative_to(tmp_path_factory.getbasetemp())
    for name in ("XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        assert Path(os.environ[name]).is_relative_to(home), name
    # These follow HOME when unset, as they do for a user who never set them.
    for name in ("CODEX_HOME", "CLAUDE_CONFIG_DIR", "OBELISK_HOME", "LOOPX_RECALL_HOME"):
        assert name not in os.environ, name
