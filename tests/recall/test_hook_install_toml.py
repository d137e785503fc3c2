# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``hook install|uninstall codex`` where the user keeps hooks inline in ``config.toml``
(``[hooks]`` tables): ours are written there, the user's text and comments stay byte for
byte, installing again changes nothing, a backup is kept, and uninstall removes exactly
ours; Codex's own ``[hooks.state]`` is never an event and never touched."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from loopx_recall_core.recall import hook_install
from loopx_recall_core.recall.hook_install import InstallRefused

LOOPX = str(Path(sys.executable).parent / "loopx-recall")
USER_TOML = """\
# my Codex settings
model = "gpt-5-codex"   # the model I use

[hooks]
# my own hooks, kept here on purpose

[[hooks.SessionStart]]
matcher = "startup"  # only fresh sessions

[[hooks.SessionStart.hooks]]
type = "command"
command = "echo hello"

[[hooks.PreToolUse]]
matcher = "Bash"

[[hooks.PreToolUse.hooks]]
type = "command"
command = "my-policy --strict"
timeout = 30

[hooks.state]
"user:abc" = { trusted = true }

[profiles.fast]
model = "o4-mini"  # trailing comment
"""


def _commands(text: str, event: str) -> list[list[str]]:
    groups = tomllib.loads(text).get("hooks", {}).get(event, [])
    return [shlex.split(h["command"])[1:] for g in groups for h in g["hooks"]]


def test_merge_adds_all_three_events_and_keeps_every_user_byte():
    new = hook_install.merge(USER_TOML.encode(), "codex", "agent-a", "proj-j", True, toml=True)
    text = new.decode()
    parsed = tomllib.loads(text)
    assert parsed["model"] == "gpt-5-codex"
    assert parsed["hooks"]["state"] == {"user:abc": {"trusted": True}}
    assert _commands(text, "SessionStart")[-1] == ["hook", "codex", "--agent-id", "agent-a",
                                                   "--project-id", "proj-j"]  # fmt: skip
    guard = ["guard", "codex", "--agent-id", "agent-a", "--project-id", "proj-j"]
    assert _commands(text, "PreToolUse") == [["--strict"], guard]
    assert _commands(text, "PostToolUse") == [guard]
    assert [g.get("matcher") for g in parsed["hooks"]["PostToolUse"]] == ["Bash"]
    assert parsed["hooks"]["PreToolUse"][1]["matcher"] == "Bash"
    # every line of the user's file is still there, in order
    remaining = iter(text.splitlines())
    assert all(line in remaining for line in USER_TOML.splitlines())  # a subsequence
    # idempotent; another agent or policy replaces ours; uninstall gives the bytes back
    assert hook_install.merge(new, "codex", "agent-a", "proj-j", True, toml=True) is None
    other = hook_install.merge(new, "codex", "agent-b", "proj-j", False, toml=True)
    assert "agent-a" not in other.decode()
    assert _commands(other.decode(), "PostToolUse") == []
    restored, pairs = hook_install.unmerge(new, "codex", toml=True)
    assert restored == USER_TOML.encode()
    assert pairs == [("agent-a", "proj-j")]
    assert hook_install.unmerge(USER_TOML.encode(), "codex", toml=True) == (None, [])


def test_inline_arrays_take_an_inline_table_and_give_it_back():
    source = 'hooks.SessionStart = [{hooks = [{type = "command", command = "echo"}]}]\n'
    new = hook_install.merge(source.encode(), "codex", "a", "j", False, toml=True)
    assert _commands(new.decode(), "SessionStart")[-1][:2] == ["hook", "codex"]
    assert hook_install.unmerge(new, "codex", toml=True)[0] == source.encode()


def test_a_shared_group_keeps_the_users_handler():
    ours = 'command = "loopx-recall guard codex --agent-id x --project-id y"'
    theirs = '[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "my-policy --strict"'
    source = USER_TOML.replace('command = "my-policy --strict"', f"{ours}\n\n{theirs}")
    new, pairs = hook_install.unmerge(source.encode(), "codex", toml=True)
    assert pairs == [("x", "y")]
    assert _commands(new.decode(), "PreToolUse") == [["--strict"]]


@pytest.mark.parametrize(
    ("source", "words"),
    [
        (b"[hooks\nx = 1\n", r"not valid TOML \(line"),
        (b"hooks = 3\n", "unexpected shape"),
        (b"\xff\xfe", "not UTF-8"),
    ],
)
def test_a_file_that_cannot_be_kept_is_refused(source, words):
    with pytest.raises(InstallRefused, match=words):
        hook_install.merge(source, "codex", "a", "j", False, toml=True)


def _run(*args, home, codex_home):
    env = {**os.environ, "HOME": str(home), "CODEX_HOME": str(codex_home)}
    done = subprocess.run([LOOPX, "hook", *args], env=env, cwd=home, capture_output=True,
                          text=True, timeout=30, check=False)  # fmt: skip
    assert "Traceback" not in done.stderr
    return done


def test_install_writes_config_toml_with_a_backup_and_uninstall_removes_exactly_ours(tmp_path):
    codex_home = tmp_path / "codex"
    codex_home.mkdir()
    config = codex_home / "config.toml"
    config.write_text(USER_TOML)
    config.chmod(0o640)
    ids = ("--agent-id", "agent-a", "--project-id", "proj-j", "--yes")
    done = _run("install", "codex", *ids, home=tmp_path, codex_home=codex_home)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == f"hooks installed in {config} (backup kept beside it)"
    assert not (codex_home / "hooks.json").exists()  # never split over two files
    assert _commands(config.read_text(), "SessionStart")[-1][:2] == ["hook", "codex"]
    assert oct(config.stat().st_mode & 0o777) == oct(0o640)
    (backup,) = codex_home.glob("config.toml.loopx-backup*")
    assert backup.read_text() == USER_TOML
    again = _run("install", "codex", *ids, home=tmp_path, codex_home=codex_home)
    assert again.stdout == f"{config}: already has these hooks; no change\n"
    removed = _run("uninstall", "codex", "--yes", home=tmp_path, codex_home=codex_home)
    assert removed.returncode == 0, removed.stderr
    assert removed.stdout.startswith(f"hooks removed from {config}")
    assert config.read_text() == USER_TOML
    nothing = _run("uninstall", "codex", "--yes", home=tmp_path, codex_home=codex_home)
    assert "no change" in nothing.stdout


def test_invalid_toml_named_with_settings_is_refused_and_left_alone(tmp_path):
    config = tmp_path / "config.toml"
    config.write_bytes(b"[hooks\n# CANARY-secret-path\n")
    done = _run("install", "codex", "--agent-id", "a", "--project-id", "j", "--settings",
                str(config), "--yes", home=tmp_path, codex_home=tmp_path)  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1
    assert "not valid TOML" in done.stderr
    assert "CANARY" not in done.stderr
    assert config.read_bytes() == b"[hooks\n# CANARY-secret-path\n"


def test_our_entries_left_in_hooks_json_are_moved_and_found_by_uninstall(tmp_path):
    """An earlier install wrote hooks.json; the user now keeps hooks in config.toml: a new
    install moves ours there (Codex would run both), and uninstall finds ours in either."""
    import json

    codex_home = tmp_path / "codex"
    codex_home.mkdir()
    hooks_json = codex_home / "hooks.json"
    theirs = {"type": "command", "command": "echo theirs"}
    old = {"type": "command", "command": "loopx-recall hook codex --agent-id old --project-id j"}
    hooks_json.write_text(json.dumps({"hooks": {"SessionStart": [{"hooks": [theirs, old]}]}}))
    config = codex_home / "config.toml"
    config.write_text(USER_TOML)
    done = _run("install", "codex", "--agent-id", "agent-a", "--project-id", "proj-j", "--yes",
                home=tmp_path, codex_home=codex_home)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"hooks removed from {hooks_json} (backup kept beside it)" in done.stdout
    assert json.loads(hooks_json.read_text()) == {"hooks": {"SessionStart": [{"hooks": [theirs]}]}}
    assert _commands(config.read_text(), "SessionStart")[-1][3] == "agent-a"
    # ours only in hooks.json again (as before this install), config.toml keeps the user's
    config.write_text(USER_TOML)
    hooks_json.write_text(json.dumps({"hooks": {"SessionStart": [{"hooks": [theirs, old]}]}}))
    removed = _run("uninstall", "codex", "--yes", home=tmp_path, codex_home=codex_home)
    assert removed.returncode == 0, removed.stderr
    assert removed.stdout.startswith(f"hooks removed from {hooks_json}")
    assert config.read_text() == USER_TOML
    assert json.loads(hooks_json.read_text()) == {"hooks": {"SessionStart": [{"hooks": [theirs]}]}}


def test_a_file_without_a_final_newline_stays_valid_toml_and_uninstall_restores_it():
    # before: our first table was glued to the user's last line (`command = "echo"[[hooks.
    # PreToolUse]]`), a config.toml Codex cannot load and uninstall then refused to read
    source = USER_TOML.partition("\n[hooks.state]")[0].rstrip("\n").encode()
    assert source.endswith(b"timeout = 30")
    new = hook_install.merge(source, "codex", "agent-a", "proj-j", True, toml=True)
    parsed = tomllib.loads(new.decode())
    assert len(parsed["hooks"]["PreToolUse"]) == 2
    assert hook_install.merge(new, "codex", "agent-a", "proj-j", True, toml=True) is None
    removed, _pairs = hook_install.unmerge(new, "codex", toml=True)
    assert removed.decode().rstrip("\n") == source.decode()


def test_hooks_as_one_inline_table_is_refused_rather_than_written_invalid():
    # before: ours went inside the user's `hooks = { ... }` as table headers, and the file
    # written was no longer TOML (Codex could not load its config)
    source = (
        b'hooks = { PreToolUse = [ { matcher = "Bash", hooks = [ { type = "command", '
        b'command = "echo x" } ] } ] }\n'
    )
    with pytest.raises(InstallRefused, match="inline table"):
        hook_install.merge(source, "codex", "a", "j", True, toml=True)


@pytest.mark.parametrize(
    "source", [b"[hooks]\nSessionStart = { a = 1 }\n", b"[hooks.PreToolUse]\nx = 1\n"]
)
def test_an_event_that_is_not_an_array_is_refused_in_one_line(source):
    # before: a TypeError from tomlkit, a traceback from `hook install codex`
    with pytest.raises(InstallRefused, match="unexpected shape at hooks"):
        hook_install.merge(source, "codex", "a", "j", True, toml=True)
