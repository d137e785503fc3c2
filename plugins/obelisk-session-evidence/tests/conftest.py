# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The plugin's test fixtures: the Obelisk protocol double's (obelisk_double/fixtures.py), a
``loopx`` runner whose environment points at the double and a generated sample archive. Each
test's own HOME and state folder and ``once_per_run`` come from the repository root's
conftest.py (reached with ``--confcutdir`` when these tests run from this folder)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .obelisk_double.fixtures import (
    archive_home,
    archive_now,
    double_bin,
    double_settings,
    obelisk_bin,
    runtime_bin,
)

__all__ = [
    "archive_home",
    "archive_now",
    "double_bin",
    "enable_alpha",
    "loopx",
    "obelisk_bin",
    "runtime_bin",
]

LOOPX = str(Path(sys.executable).parent / "loopx-recall")
CAPABILITY = ["agent-turn-recall", "--provider", "obelisk-session-evidence"]
#: Each runtime fault (``FAULT_KINDS`` but ``stale``, which is late content, not a fault of
#: the run) and the one reason the provider must type it as, wherever it is staged: by the
#: double's ``fault`` setting or by the qualification runtime's stand-in executables.
FAULT_REASONS = (
    ("hang", "provider_timeout"),
    ("flood", "output_too_large"),
    ("garbage", "malformed_output"),
    ("undefined", "malformed_output"),
    ("empty", "malformed_output"),
    ("noise", "malformed_output"),
    ("error", "provider_failed"),
    ("crash", "provider_failed"),
    ("inject", "scope_violation"),
)


@pytest.fixture
def loopx(archive_home, obelisk_bin, tmp_path):
    """``loopx(*args, extra_env=None, check=True)``: the real CLI in a subprocess.

    The double's switches live in its settings file under HOME (build grace 0 here; a
    test sets a fault with ``double_settings(archive_home.home, fault=...)``)."""
    double_settings(archive_home.home)
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(archive_home.home),
        "LOOPX_RECALL_HOME": str(tmp_path / "loopx"),
        "LOOPX_RECALL_OBELISK_BIN": str(obelisk_bin),
        "LOOPX_RECALL_NODE22": os.environ["LOOPX_RECALL_NODE22"],
        "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence",
    }

    def run(*args, extra_env=None, check=True):
        result = subprocess.run(
            [LOOPX, *args],
            capture_output=True,
            text=True,
            check=False,
            env={**env, **(extra_env or {})},
            timeout=60,
        )
        assert "Traceback" not in result.stderr
        if check:
            assert result.returncode == 0, result.stdout + result.stderr
        return result

    return run


@pytest.fixture
def enable_alpha(loopx, archive_home):
    """``enable_alpha(*sources, agent_sessions="runtime")``: enable agent-a in proj-j for the
    archive's alpha repo (runtime identity unless told: the archive claims no sessions)."""

    def enable(*sources, agent_sessions="runtime"):
        history = [arg for source in sources for arg in ("--history-source", source)]
        loopx(
            "capability",
            "enable",
            *CAPABILITY,
            "--agent-id",
            "agent-a",
            "--project-id",
            "proj-j",
            *history,
            "--repository-root",
            str(archive_home.repos["alpha"]),
            "--repository-id",
            "repo-a",
            "--agent-sessions",
            agent_sessions,
        )

    return enable


def processes_with_home(home) -> list[int]:
    """Pids of live processes whose environment has ``HOME=home`` (the double's children
    inherit it), so a test can prove nothing it started was left behind."""
    needle = f"HOME={home}".encode() + b"\0"
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if (b"\0" + environ).find(b"\0" + needle) != -1:
            found.append(int(entry.name))
    return found


@pytest.fixture
def leftovers(archive_home):
    """``leftovers()``: processes still running with the sample archive as HOME."""
    return lambda: processes_with_home(archive_home.home)
