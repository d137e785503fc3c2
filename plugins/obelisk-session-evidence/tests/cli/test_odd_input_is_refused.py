# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Defects a hostile review found after the first round of hardening, one test each."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from loopx_obelisk_session_evidence import executable
from loopx_obelisk_session_evidence.binding import bind
from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence

from loopx_recall_core.plugin_api import ProviderCache, ProviderFailure, digest
from loopx_recall_core.testing import ReplanSituationV0, build_request, query_terms, structure

from ..hostile import (
    answer,
    binding,
    configure,
    install_standin,
    request,
    standin_log,
    tool_row,
)

LOOPX = str(Path(sys.executable).parent / "loopx-recall")
CANARY = "CANARY-REVIEW-4e1a"


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(
        ["git", "-c", "user.email=a@b", "-c", "user.name=a", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def test_planted_worktree_metadata_cannot_widen_the_roots(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    repo = tmp_path / "repo"
    repo.mkdir()
    _git("init", "-q", cwd=repo)
    _git("commit", "-q", "--allow-empty", "-m", "root", cwd=repo)
    evil = repo / ".git" / "worktrees" / "evil"
    evil.mkdir(parents=True)
    (evil / "gitdir").write_text(f"{tmp_path}/.git\n")
    (evil / "commondir").write_text("../..\n")
    (evil / "HEAD").write_text("ref: refs/heads/master\n")
    bound = bind({"history_source": ["codex"]}, cwd=str(repo))
    assert bound["private"]["repository_roots"] == [str(repo)]


def test_a_root_at_or_above_home_is_refused(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for root in (home, tmp_path, Path("/")):
        with pytest.raises(ValueError, match="home folder"):
            bind({"history_source": ["codex"], "repository_root": [str(root)]}, cwd=str(home))


def test_a_replan_request_id_does_not_confirm_guessed_terms():
    data = {
        "schema_version": "loopx_replan_situation_v0",
        "situation_id": "sit-1",
        "trigger": "operator_requested_history",
        "agent_id": "agent-a",
        "project_id": "proj-j",
        "repository_id": "repo-r",
        "signals": {"operator_requested": True},
        "proposed_step": {"kind": "command", "command": f"pytest tests/test_{CANARY}.py"},
    }
    built = structure(data, ReplanSituationV0)
    terms = query_terms(built)
    request = build_request(built, terms, id_key=b"k" * 32)
    guess = digest(
        {
            "situation_id": "sit-1",
            "trigger": "operator_requested_history",
            "evidence_types": list(request.evidence_types),
            "query_terms": list(terms),
        }
    )
    assert request.request_id != guess
    assert build_request(built, terms, id_key=b"k" * 32).request_id == request.request_id


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


@pytest.fixture
def world(tmp_path, monkeypatch):
    home, root, state = tmp_path / "home", tmp_path / "repo", tmp_path / "state"
    home.mkdir()
    root.mkdir()
    state.mkdir(mode=0o700)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("LOOPX_RECALL_HOME", str(state))
    return home, root, state


def test_a_failed_query_shows_in_status_and_the_version_is_probed_again(world):
    home, root, _ = world
    obelisk = install_standin(home)
    configure(home, answer=answer([tool_row(str(root))]))
    provider, bound = ObeliskSessionEvidence(), binding(root, obelisk)
    provider.retrieve(request(), bound, timeout=10)
    configure(home, answer="not our template")  # the runtime now answers garbage
    with pytest.raises(ProviderFailure):
        provider.retrieve(request(), bound, timeout=10)
    versions_before = _versions(home)
    status = provider.readback(bound)
    assert status.ready is False
    assert status.unavailable_reason == "the last call failed: malformed_output"
    assert _versions(home) == versions_before + 1  # the failure made it probe again


def _versions(home: Path) -> int:
    return sum(1 for entry in standin_log(home) if entry.get("argv") == ["--version"])


def test_a_version_probe_expires(world, monkeypatch):
    home, root, _ = world
    obelisk = install_standin(home)
    configure(home, answer=answer([tool_row(str(root))]))
    provider, bound = ObeliskSessionEvidence(), binding(root, obelisk)
    provider.retrieve(request(), bound, timeout=10)
    configure(home, answer=answer([tool_row(str(root))]), version="0.9.0")
    provider.retrieve(request(), bound, timeout=10)  # still trusted within the hour
    monkeypatch.setattr(executable, "VERSION_TTL_S", 0.0)
    with pytest.raises(ProviderFailure) as failure:
        provider.retrieve(request(), bound, timeout=10)
    assert failure.value.reason == "unsupported_runtime_version"


def test_orphaned_cache_temp_files_are_swept(world):
    _, _, state = world
    cache = ProviderCache("obelisk-session-evidence")
    cache.store("probe", {"a": 1})
    folder = state / "providers" / "obelisk-session-evidence"
    orphan, fresh = folder / ".c-orphan", folder / ".c-live"
    for temp in (orphan, fresh):
        temp.write_text("{}")
    old = time.time() - 3600
    os.utime(orphan, (old, old))
    cache.store("probe", {"a": 2})
    assert not orphan.exists()
    assert fresh.exists()  # perhaps another writer's, mid-write
    assert cache.load("probe") == {"a": 2}


def test_unreadable_runtime_folders_are_skipped_not_fatal(world, monkeypatch):
    home, root, _ = world
    obelisk = install_standin(home)
    configure(home, answer=answer([tool_row(str(root))]))
    (home / ".codex" / "sessions").mkdir(parents=True)
    real = os.scandir

    def denied(path):
        if str(path).startswith(str(home / ".codex")):
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(os, "scandir", denied)
    result = ObeliskSessionEvidence().retrieve(request(), binding(root, obelisk), timeout=10)
    assert len(result.items) == 1


def _cli(env, *args, stdin=None):
    return subprocess.run(
        [LOOPX, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        input=stdin,
    )


@pytest.fixture
def cli_env(world):
    home, _, state = world
    return {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "LOOPX_RECALL_HOME": str(state),
        "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence",
    }


def test_a_fifo_given_as_json_input_is_refused_without_blocking(world, cli_env, tmp_path):
    fifo = tmp_path / "situation.json"
    os.mkfifo(fifo)
    done = _cli(cli_env, "recall", "validate", "request", str(fifo))
    assert done.returncode == 1
    assert "not a regular file" in done.stderr
    piped = _cli(cli_env, "recall", "validate", "request", "-", stdin="{}")
    assert piped.returncode == 1
    assert "required field missing" in piped.stderr


@pytest.mark.parametrize("value", [" abc", "abc\n", "a b", "", "abc\t"])
def test_a_malformed_current_session_is_refused(cli_env, value):
    done = _cli(
        cli_env,
        "recall",
        "history",
        "--agent-id",
        "a",
        "--project-id",
        "p",
        "--term",
        "pytest",
        "--current-session",
        value,
    )
    assert done.returncode == 2
    assert "session id" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_unknown_provider_is_not_echoed(cli_env):
    done = _cli(
        cli_env,
        "recall",
        "history",
        "--provider",
        CANARY,
        "--agent-id",
        "a",
        "--project-id",
        "p",
        "--term",
        "x",
    )
    assert done.returncode == 1
    assert CANARY not in done.stdout + done.stderr


def test_extension_list_uses_the_enabled_binary_and_a_refused_enable_changes_nothing(
    world, cli_env, tmp_path
):
    home, root, _ = world
    good = install_standin(home)
    configure(home, answer=answer([]))
    evil = tmp_path / "evil"
    evil.mkdir()
    env = {**cli_env, "PATH": "/usr/bin:/bin"}
    base = [
        "capability",
        "enable",
        "agent-turn-recall",
        "--provider",
        "obelisk-session-evidence",
        "--surface",
        "replan-history",
        "--project-id",
        "proj-j",
        "--history-source",
        "codex",
        "--repository-root",
        str(root),
        "--repository-id",
        "repo-r",
    ]
    refused = _cli(env, *base, "--agent-id", "x", "--stage", "2", "--obelisk-bin", str(evil))
    assert refused.returncode == 1
    listed = json.loads(_cli(env, "extension", "list", "--format", "json").stdout)
    assert listed["extensions"][0]["ready"] is False  # nothing configured yet
    assert _cli(env, *base, "--agent-id", "a", "--obelisk-bin", str(good)).returncode == 0
    listed = json.loads(_cli(env, "extension", "list", "--format", "json").stdout)
    assert listed["extensions"][0]["ready"] is True


def test_a_relative_state_home_is_refused(cli_env, tmp_path):
    env = {**cli_env, "LOOPX_RECALL_HOME": "relative-state"}
    done = subprocess.run([LOOPX, "capability", "status", "agent-turn-recall", "--provider",
                           "obelisk-session-evidence"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 2
    assert "must be an absolute path" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "relative-state").exists()


def test_hook_install_keeps_the_files_mode_and_bytes(cli_env, tmp_path):
    settings = tmp_path / "project" / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text("{}\n")
    settings.chmod(0o644)
    install = [LOOPX, "hook", "install", "claude", "--agent-id", "a", "--project-id", "p",
               "--settings", str(settings), "--yes"]  # fmt: skip
    done = subprocess.run(install, env=cli_env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert settings.stat().st_mode & 0o777 == 0o644
    config = tmp_path / "config.toml"
    config.write_bytes(b"# caf\xe9\nmodel = 'x'\n")
    codex = [LOOPX, "hook", "install", "codex", "--agent-id", "a", "--project-id", "p",
             "--settings", str(config), "--yes"]  # fmt: skip
    refused = subprocess.run(codex, env=cli_env, capture_output=True, text=True, check=False)
    assert refused.returncode == 1
    assert config.read_bytes() == b"# caf\xe9\nmodel = 'x'\n"
