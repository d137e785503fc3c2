# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A binding's repository roots are the repository the user named and no more: worktree
metadata planted in ``.git/worktrees`` cannot add a root, and no root may be the home
folder or hold it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from loopx_obelisk_session_evidence.binding import bind


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
