# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Real wheels, a real fresh virtual environment, real pip: the distributions as users get them."""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "plugins" / "obelisk-session-evidence"

pytestmark = pytest.mark.slow


def _names(archive: Path) -> list[str]:
    if archive.suffix == ".whl":
        return zipfile.ZipFile(archive).namelist()
    with tarfile.open(archive) as tar:
        return tar.getnames()


def test_each_distribution_contains_only_its_own_package(wheelhouse):
    host_wheel = next(wheelhouse.glob("loopx_recall_core-*.whl"))
    plugin_wheel = next(wheelhouse.glob("loopx_obelisk_session_evidence-*.whl"))
    host_sdist = next(wheelhouse.glob("loopx_recall_core-*.tar.gz"))
    host_files = _names(host_wheel)
    assert all(n.startswith(("loopx_recall_core/", "loopx_recall_core-")) for n in host_files), (
        host_files
    )
    assert any(n.endswith("licenses/LICENSES/Apache-2.0.txt") for n in host_files)
    # the extension catalogue is package data, read by plugin.catalogue.catalogue()
    assert "loopx_recall_core/plugin/catalogue.json" in host_files
    assert all(
        n.startswith(("loopx_obelisk_session_evidence/", "loopx_obelisk_session_evidence-"))
        for n in _names(plugin_wheel)
    )
    sdist_files = _names(host_sdist)
    assert not any("/plugins/" in n or "/tests/" in n for n in sdist_files), sdist_files
    metadata = (
        zipfile.ZipFile(host_wheel)
        .read(next(n for n in host_files if n.endswith("METADATA")))
        .decode()
    )
    assert "License-Expression: Apache-2.0" in metadata


def test_fresh_venv_lists_plugin_and_broken_plugin(wheelhouse, venvs, tmp_path):
    # nothing here runs the venv's own pip: a venv without pip, installed into by ours
    venv = venvs.create(tmp_path / "venv")
    wheels = [str(p) for p in sorted(wheelhouse.glob("*.whl"))]
    venvs.pip(venv, "install", *wheels)
    env = {
        "PATH": f"{venv / 'bin'}:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "LOOPX_RECALL_HOME": str(tmp_path / "state"),
    }
    result = subprocess.run(
        [str(venv / "bin" / "loopx-recall"), "extension", "list", "--format", "json"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "CANARY-BROKEN-PLUGIN" not in result.stdout + result.stderr
    rows = {row["distribution"]: row for row in json.loads(result.stdout)["extensions"]}
    obelisk = rows["loopx-obelisk-session-evidence"]
    assert obelisk["name"] == "obelisk-session-evidence"
    assert obelisk["version"] == "0.1.0"
    assert obelisk["ready"] is False
    assert obelisk["providers"][0]["unavailable_reason"].startswith(
        "obelisk not found: "
    )
    broken = rows["broken-loopx-plugin"]
    assert broken["status"] == "broken"
    assert broken["error_class"] == "RuntimeError"
    text = subprocess.run(
        [str(venv / "bin" / "loopx-recall"), "extension", "list"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert text.returncode == 0
    assert "BROKEN (RuntimeError" in text.stdout


def test_extension_and_capability_journey_in_fresh_venv(wheelhouse, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    host_wheel = next(wheelhouse.glob("loopx_recall_core-*.whl"))
    subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q",
         "--disable-pip-version-check", str(host_wheel)],
        check=True, capture_output=True,
    )
    home = tmp_path / "home"
    index = home / ".obelisk" / "obelisk.sqlite"
    index.parent.mkdir(parents=True)
    index.write_bytes(b"SQLite format 3\x00 stand-in for the user's Obelisk index")
    before = index.read_bytes()
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(["git", "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q",
                    "--allow-empty", "-m", "root"], cwd=repo, check=True)
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(home),
           "LOOPX_RECALL_HOME": str(tmp_path / "state")}

    def loopx(*args, check=True):
        result = subprocess.run([str(venv / "bin" / "loopx-recall"), *args], capture_output=True,
                                text=True, env=env, cwd=repo, check=False)
        assert "Traceback" not in result.stderr
        if check:
            assert result.returncode == 0, result.stderr + result.stdout
        return result

    installed = loopx("extension", "install", str(PLUGIN), "--format", "json")
    rows = json.loads(installed.stdout)["extensions"]
    assert rows[0]["distribution"] == "loopx-obelisk-session-evidence"
    assert rows[0]["providers"][0]["unavailable_reason"].startswith(
        "obelisk not found: "
    )
    listed = json.loads(loopx("extension", "list", "--format", "json").stdout)
    assert listed["extensions"][0]["name"] == "obelisk-session-evidence"

    base = ["agent-turn-recall", "--provider", "obelisk-session-evidence"]
    loopx("capability", "enable", *base, "--surface", "replan-history", "--agent-id", "agent-a",
          "--project-id", "proj-j", "--history-source", "codex")
    status = json.loads(loopx("capability", "status", *base, "--project-id", "proj-j",
                              "--format", "json").stdout)
    assert status["schema_version"] == "loopx_capability_status_v0"
    assert status["provider"]["installed"] is True
    assert status["provider"]["enabled"] is True
    assert status["enablements"][0]["repository_id"].startswith("git-roots:")
    assert str(repo) not in json.dumps(status)

    loopx("capability", "disable", *base, "--project-id", "proj-j")
    loopx("capability", "enable", *base, "--agent-id", "agent-a", "--project-id", "proj-j",
          "--history-source", "codex")
    removed = loopx("extension", "uninstall", "obelisk-session-evidence", "--yes")
    assert "enablement(s) kept" in removed.stdout
    status = json.loads(loopx("capability", "status", *base, "--project-id", "proj-j",
                              "--format", "json").stdout)
    assert status["provider"]["installed"] is False
    assert len(status["enablements"]) == 1
    assert index.read_bytes() == before
