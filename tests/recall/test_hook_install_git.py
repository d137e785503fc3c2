# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``hook install claude --scope project-local`` keeps the file it creates out of git, as
Claude Code does for ``.claude/settings.local.json``: the hook names this machine's venv
and the agent, which a newcomer's ``git add -A`` must not commit. Checked with real git."""

from __future__ import annotations

import subprocess

from tests.recall.test_hook_install import _install

INSTALL = ("install", "claude", "--agent-id", "a", "--project-id", "j", "--scope",
           "project-local", "--yes")  # fmt: skip


def _git(*args, cwd):
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=30, check=True).stdout  # fmt: skip


def _untracked(repo):
    return _git("status", "--porcelain", "--untracked-files=all", cwd=repo)


def test_the_local_settings_file_is_kept_out_of_git_once(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    _git("init", "-q", cwd=repo)
    done = _install(*INSTALL, cwd=repo, home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (repo / ".claude" / "settings.local.json").is_file()
    assert "kept out of git" in done.stdout
    assert "settings.local.json" not in _untracked(repo)
    again = _install("install", "claude", "--agent-id", "b", "--project-id", "j", "--scope",
                     "project-local", "--yes", cwd=repo, home=tmp_path)  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert "kept out of git" not in again.stdout
    exclude = (repo / ".git" / "info" / "exclude").read_text()
    assert exclude.count("settings.local.json") == 1


def test_a_gitignore_that_names_it_is_left_alone(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    _git("init", "-q", cwd=repo)
    (repo / ".gitignore").write_text(".claude/settings.local.json\n")
    before = (repo / ".git" / "info" / "exclude").read_bytes()
    done = _install(*INSTALL, cwd=repo, home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "kept out of git" not in done.stdout
    assert (repo / ".git" / "info" / "exclude").read_bytes() == before
    assert "settings.local.json" not in _untracked(repo)


def test_a_linked_worktree_uses_the_clones_shared_exclude(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    _git("init", "-q", cwd=repo)
    _git("-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-q",
         "--allow-empty", "-m", "init", cwd=repo)  # fmt: skip
    tree = tmp_path / "tree"
    _git("worktree", "add", "-q", str(tree), cwd=repo)
    done = _install(*INSTALL, cwd=tree, home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tree / ".claude" / "settings.local.json").is_file()
    assert "settings.local.json" not in _untracked(tree)


def test_a_dot_git_file_naming_another_folder_is_not_followed(tmp_path):
    # issue 31 item 12: the `gitdir:` line of a `.git` file was followed, and folders were
    # created and written outside the repository; now git is asked, and only the
    # repository's own git folder is written
    repo = tmp_path / "repo"
    repo.mkdir()
    outside = tmp_path / "outside" / "not-a-git-folder"
    (repo / ".git").write_text(f"gitdir: {outside}\n")
    done = _install(*INSTALL, cwd=repo, home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (repo / ".claude" / "settings.local.json").is_file()
    assert not (tmp_path / "outside").exists()
    assert "kept out of git" not in done.stdout


def test_git_is_asked_where_the_exclude_file_is(tmp_path):
    # a submodule-style `.git` file naming a real git folder: git's own answer is used
    repo = tmp_path / "repo"
    repo.mkdir()
    store = tmp_path / "store.git"
    _git("init", "-q", "--separate-git-dir", str(store), str(repo), cwd=tmp_path)
    assert (repo / ".git").is_file()
    done = _install(*INSTALL, cwd=repo, home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "/.claude/settings.local.json" in (store / "info" / "exclude").read_text()
    assert "settings.local.json" not in _untracked(repo)
