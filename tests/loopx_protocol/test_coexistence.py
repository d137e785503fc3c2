# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Living beside the real LoopX (PyPI ``loopx`` 2.1.1) in one environment, in both install
orders: ``loopx`` is LoopX's command and only LoopX's (we ship no ``loopx`` script), so
installing and uninstalling ours leaves every file LoopX installed byte-identical."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.network]

LOOPX_RELEASE = "2.1.1"  # what the root conftest.py's ``loopx_wheel`` fetches


def _run(venv: Path, tmp_path: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": f"{venv / 'bin'}:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "LOOPX_RECALL_HOME": str(tmp_path / "state"),
    }
    return subprocess.run(
        [str(venv / "bin" / argv[0]), *argv[1:]],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )


def _files_of(venv: Path, distribution: str) -> dict[str, bytes]:
    """Every file ``distribution`` installed in ``venv`` (its RECORD), with its bytes."""
    python = str(venv / "bin" / "python")
    listed = subprocess.run(
        [python, "-c", _LIST_FILES, distribution], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    return {name: Path(name).read_bytes() for name in listed if not name.endswith(".pyc")}


_LIST_FILES = (
    "import os, sys; from importlib.metadata import distribution as d; "
    "[print(os.path.normpath(f.locate())) for f in d(sys.argv[1]).files or ()]"
)


def _assert_loopx_is_loopx(venv: Path, tmp_path: Path) -> None:
    version = _run(venv, tmp_path, "loopx", "--version")
    assert version.returncode == 0, version.stderr
    assert version.stdout.strip() == f"loopx {LOOPX_RELEASE}"
    # LoopX has no `capability enable`: its argparse refuses it.
    enable = _run(venv, tmp_path, "loopx", "capability", "enable", "agent-turn-recall")
    assert enable.returncode == 2
    assert "invalid choice: 'enable'" in enable.stderr
    assert not (tmp_path / "state").exists()


@pytest.mark.parametrize("order", ["loopx-first", "ours-first"])
def test_installing_and_uninstalling_ours_leaves_loopx_byte_identical(
    wheelhouse, loopx_wheel, venvs, tmp_path, order
):
    venv, _pip = venvs.create(tmp_path / "venv"), venvs.pip
    ours = [str(p) for p in sorted(wheelhouse.glob("loopx_*.whl"))]  # host and plugin
    assert len(ours) == 2
    if order == "loopx-first":
        _pip(venv, "install", str(loopx_wheel))
        loopx_files = _files_of(venv, "loopx")
        assert loopx_files[str(venv / "bin" / "loopx")]  # LoopX's own script is there
        _pip(venv, "install", *ours)
    else:
        _pip(venv, "install", *ours)
        assert not (venv / "bin" / "loopx").exists()  # no `loopx` of ours
        _pip(venv, "install", str(loopx_wheel))
        loopx_files = _files_of(venv, "loopx")
    assert _files_of(venv, "loopx") == loopx_files
    _assert_loopx_is_loopx(venv, tmp_path)
    recall = _run(venv, tmp_path, "loopx-recall", "--version")
    assert recall.stdout.startswith("loopx-recall, version ")
    # None of our distributions lists a file LoopX lists.
    for distribution in ("loopx-recall-core", "loopx-obelisk-session-evidence"):
        assert not _files_of(venv, distribution).keys() & loopx_files.keys()

    _pip(venv, "uninstall", "-y", "loopx-obelisk-session-evidence", "loopx-recall-core")
    assert _files_of(venv, "loopx") == loopx_files
    _assert_loopx_is_loopx(venv, tmp_path)
    assert not (venv / "bin" / "loopx-recall").exists()


def test_without_loopx_there_is_no_loopx_command(wheelhouse, venvs, tmp_path):
    venv = venvs.create(tmp_path / "venv")
    venvs.pip(venv, "install", str(next(wheelhouse.glob("loopx_recall_core-*.whl"))))
    assert not (venv / "bin" / "loopx").exists()
    module = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "loopx_recall_core", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert module.stdout.startswith("loopx-recall, version ")
