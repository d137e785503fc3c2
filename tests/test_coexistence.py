# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Living beside the real LoopX (PyPI ``loopx`` 2.1.1) in one environment, in both install
orders: ``loopx`` stays LoopX's command, ``loopx-recall`` is ours, and pip's shared-script
caveat has the documented way back."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.network]

LOOPX_RELEASE = "2.1.1"


@pytest.fixture(scope="session")
def loopx_wheel(once_per_run) -> Path:
    """LoopX's real wheel from the package index (skipped only when the index is unreachable),
    fetched once per test run whatever the number of workers."""
    return next(once_per_run("loopx-wheel", _download_loopx).glob("loopx-*.whl"))


def _download_loopx(folder: Path) -> None:
    fetched = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "-q",
            "--no-deps",
            "--disable-pip-version-check",
            f"loopx=={LOOPX_RELEASE}",
            "-d",
            str(folder),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    if fetched.returncode != 0 or not list(folder.glob("loopx-*.whl")):
        pytest.skip(f"the package index could not provide loopx=={LOOPX_RELEASE} (no network?)")


def _venv(tmp_path: Path) -> Path:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    return venv


def _pip(venv: Path, *args: str) -> None:
    subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "-q", "--disable-pip-version-check", *args],
        check=True,
        capture_output=True,
        timeout=600,
    )


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


def _assert_loopx_is_loopx(venv: Path, tmp_path: Path) -> None:
    version = _run(venv, tmp_path, "loopx", "--version")
    assert version.returncode == 0, version.stderr
    assert version.stdout.strip() == f"loopx {LOOPX_RELEASE}"
    ours = _run(venv, tmp_path, "loopx-recall", "--version")
    assert ours.stdout.startswith("loopx-recall, version ")
    # LoopX has no `capability enable`: its argparse refuses it; ours would have run it.
    enable = _run(
        venv,
        tmp_path,
        "loopx",
        "capability",
        "enable",
        "agent-turn-recall",
        "--provider",
        "obelisk-session-evidence",
    )
    assert enable.returncode == 2
    assert "usage: loopx capability" in enable.stderr
    assert "invalid choice: 'enable'" in enable.stderr
    assert not (tmp_path / "state").exists()


@pytest.mark.parametrize("order", ["loopx-first", "ours-first"])
def test_loopx_keeps_its_command_in_either_install_order(wheelhouse, loopx_wheel, tmp_path, order):
    venv = _venv(tmp_path)
    host = str(next(wheelhouse.glob("loopx_recall_core-*.whl")))
    for wheel in [str(loopx_wheel), host] if order == "loopx-first" else [host, str(loopx_wheel)]:
        _pip(venv, "install", wheel)
    _assert_loopx_is_loopx(venv, tmp_path)
    recall = _run(venv, tmp_path, "loopx-recall", "capability", "--help")
    assert recall.returncode == 0
    assert "enable" in recall.stdout


def test_the_documented_way_back_after_uninstalling_us(wheelhouse, loopx_wheel, tmp_path):
    venv = _venv(tmp_path)
    _pip(venv, "install", str(loopx_wheel), str(next(wheelhouse.glob("loopx_recall_core-*.whl"))))
    _pip(venv, "uninstall", "-y", "loopx-recall-core")
    # pip removed the shared bin/loopx with our RECORD: the caveat the README states ...
    assert not (venv / "bin" / "loopx").exists()
    # ... and its documented remedy.
    _pip(venv, "install", "--force-reinstall", "--no-deps", str(loopx_wheel))
    version = _run(venv, tmp_path, "loopx", "--version")
    assert version.stdout.strip() == f"loopx {LOOPX_RELEASE}"


def test_without_loopx_the_loopx_script_is_ours(wheelhouse, tmp_path):
    venv = _venv(tmp_path)
    _pip(venv, "install", str(next(wheelhouse.glob("loopx_recall_core-*.whl"))))
    help_text = _run(venv, tmp_path, "loopx", "capability", "--help")
    assert help_text.returncode == 0
    assert "Usage: loopx capability" in help_text.stdout
    module = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "loopx_recall_core", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert module.stdout.startswith("loopx-recall, version ")
