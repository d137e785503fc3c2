# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``python -m loopx_recall_core`` loads plugins from the environment only: a ``*.dist-info``
planted in the working directory is never imported."""

from __future__ import annotations

import os
import subprocess
import sys


def test_python_dash_m_does_not_load_plugins_from_the_working_directory(tmp_path):
    planted = tmp_path / "untrusted"
    info = planted / "evilplug-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: evilplug\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[loopx_recall_core.providers]\nevil = evilmod\n")
    marker = tmp_path / "PWNED"
    (planted / "evilmod.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    env = {**os.environ, "LOOPX_RECALL_HOME": str(tmp_path / "state")}
    env.pop("LOOPX_RECALL_LOAD_PLUGINS", None)
    done = subprocess.run(
        [sys.executable, "-m", "loopx_recall_core", "extension", "list"],
        cwd=planted,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert not marker.exists()
