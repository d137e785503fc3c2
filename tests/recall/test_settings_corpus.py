# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``hook install`` then ``hook uninstall`` give the user's file
back byte for byte, over a corpus of real-world-shaped settings files
(:mod:`tests.settings_corpus`); install changes only our entries (the user's bytes
around them are the same), one backup is kept however often it runs, a hard link stays
a link, and another user's file keeps its owner and mode."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from loopx_recall_core.cli import cli
from loopx_recall_core.recall import hook_install

from ..settings_corpus import JSON_FILES, LOOKALIKE, TOML_FILES

CORPUS = {**JSON_FILES, **TOML_FILES}
#: Files whose own bytes removing ours cannot tell from another file's (an empty file,
#: ``{ }`` and ``{}`` all become the same document; a user's empty ``"Stop": []`` that our
#: Stop group went into reads as a Stop event we added): uninstall gives them back from
#: the backup instead (the CLI test below covers them too).
ONLY_FROM_THE_BACKUP = {"empty", "whitespace-only", "spaced-empty-object", "empty-hooks-later-keys"}


def _runtime(name: str) -> tuple[str, bool]:
    toml = name.startswith("toml")
    return ("codex" if toml else "claude"), toml


def test_the_corpus_is_large_and_varied_enough():
    assert len(CORPUS) >= 30
    texts = list(CORPUS.values())
    assert any("\r\n" in t for t in JSON_FILES.values())
    assert any("\r\n" in t for t in TOML_FILES.values())
    assert any(t and not t.endswith("\n") for t in JSON_FILES.values())
    assert any(t and not t.endswith("\n") for t in TOML_FILES.values())
    assert any("\\ud800" in t for t in texts)
    assert any("1.50" in t for t in texts)
    assert any("\t" in t for t in texts)
    assert any("#" in t for t in TOML_FILES.values())


@pytest.mark.parametrize("name", sorted(CORPUS))
@pytest.mark.parametrize("guard", [True, False])
def test_merge_changes_only_our_entries_and_unmerge_gives_the_bytes_back(name, guard):
    runtime, toml = _runtime(name)
    original = CORPUS[name].encode("utf-8")
    merged = hook_install.merge(original, runtime, "agent-a", "proj-j", guard, toml=toml)
    assert merged is not None
    value = tomllib.loads(merged.decode()) if toml else json.loads(merged)
    commands = [h["command"] for g in value["hooks"]["SessionStart"] for h in g["hooks"]]
    assert sum(hook_install.is_ours({"command": c}, runtime) for c in commands) == 1
    # installing again: no change
    assert hook_install.merge(merged, runtime, "agent-a", "proj-j", guard, toml=toml) is None
    new, pairs = hook_install.unmerge(merged, runtime, toml=toml)
    assert pairs == [("agent-a", "proj-j")]
    if name not in ONLY_FROM_THE_BACKUP:
        assert new == original


def _run(*args: str) -> None:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_install_then_uninstall_gives_back_the_original_bytes(name, tmp_path, loopx_home):
    runtime, toml = _runtime(name)
    path = tmp_path / ("config.toml" if toml else "settings.json")
    original = CORPUS[name].encode("utf-8")
    path.write_bytes(original)
    ids = ("--agent-id", "agent-a", "--project-id", "proj-j")
    _run("hook", "install", runtime, *ids, "--settings", str(path), "--yes")
    assert path.read_bytes() != original
    _run("hook", "install", runtime, "--agent-id", "agent-b", "--project-id", "proj-j",
         "--settings", str(path), "--yes")  # fmt: skip
    _run("hook", "install", runtime, *ids, "--settings", str(path), "--yes")
    backups = list(tmp_path.glob("*.loopx-backup*"))
    assert [b.name for b in backups] == [path.name + ".loopx-backup"]  # one, not one a run
    assert backups[0].read_bytes() == original
    _run("hook", "uninstall", runtime, "--settings", str(path), "--yes")
    assert path.read_bytes() == original


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_the_guards_hooks_come_out_byte_for_byte_through_the_backup(name, tmp_path):
    # with --guard, install adds more events (the tool events and the end events, Stop and
    # SessionEnd); uninstall's backup path (what `hook uninstall` runs when nothing else
    # changed since install) gives back every corpus file as it was
    runtime, toml = _runtime(name)
    path = tmp_path / ("config.toml" if toml else "settings.json")
    original = CORPUS[name].encode("utf-8")
    path.write_bytes(original)
    merged = hook_install.merge(original, runtime, "agent-a", "proj-j", True, toml=toml)
    assert merged is not None
    hook_install.write_with_backup(path, merged, original)
    assert hook_install.original_if_unchanged(path, merged, runtime, toml=toml) == original


def test_a_lookalike_of_the_users_is_neither_replaced_nor_removed(tmp_path, loopx_home):
    path = tmp_path / "settings.json"
    original = CORPUS["lookalike-handler"].encode()
    path.write_bytes(original)
    _run("hook", "install", "claude", "--agent-id", "a", "--project-id", "j", "--settings",
         str(path), "--yes")  # fmt: skip
    commands = [h["command"] for g in json.loads(path.read_bytes())["hooks"]["SessionStart"]
                for h in g["hooks"]]  # fmt: skip
    assert json.loads(LOOKALIKE)["command"] in commands
    assert len(commands) == 2
    _run("hook", "uninstall", "claude", "--settings", str(path), "--yes")
    assert path.read_bytes() == original
    for backup in tmp_path.glob("*.loopx-backup*"):
        backup.unlink()
    path.write_bytes(original)  # uninstall alone: nothing of ours, nothing changes
    _run("hook", "uninstall", "claude", "--settings", str(path), "--yes")
    assert path.read_bytes() == original
    assert not list(tmp_path.glob("*.loopx-backup*"))


def test_a_hard_link_stays_a_link_and_shows_the_change(tmp_path, loopx_home):
    path = tmp_path / "settings.json"
    original = CORPUS["two-space"].encode()
    path.write_bytes(original)
    dotfiles = tmp_path / "dotfiles-settings.json"
    os.link(path, dotfiles)
    _run("hook", "install", "claude", "--agent-id", "a", "--project-id", "j", "--settings",
         str(path), "--yes")  # fmt: skip
    assert os.path.samefile(path, dotfiles)
    assert dotfiles.read_bytes() != original
    _run("hook", "uninstall", "claude", "--settings", str(path), "--yes")
    assert os.path.samefile(path, dotfiles)
    assert dotfiles.read_bytes() == original


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_another_users_file_keeps_its_owner_and_mode(tmp_path, loopx_home):
    path = tmp_path / "settings.json"
    path.write_bytes(CORPUS["tabs"].encode())
    os.chown(path, 4321, 4321)
    os.chmod(path, 0o640)
    _run("hook", "install", "claude", "--agent-id", "a", "--project-id", "j", "--settings",
         str(path), "--yes")  # fmt: skip
    info = path.stat()
    assert (info.st_uid, info.st_gid, info.st_mode & 0o7777) == (4321, 4321, 0o640)
    backup = Path(str(path) + ".loopx-backup").stat()
    assert (backup.st_uid, backup.st_gid, backup.st_mode & 0o777) == (4321, 4321, 0o600)
    _run("hook", "uninstall", "claude", "--settings", str(path), "--yes")
    info = path.stat()
    assert (info.st_uid, info.st_gid, info.st_mode & 0o7777) == (4321, 4321, 0o640)
