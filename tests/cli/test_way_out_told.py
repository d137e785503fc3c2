# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Every step of the way out says what stays and the command that removes it (issue 42):
``capability disable`` and ``capability status`` name the hooks an enablement leaves
behind; ``hook uninstall`` names the backup that still holds our hooks; ``extension
uninstall`` lists the enablements only when it kept some; ``cleanup`` says in list mode
what ``--remove`` would do and, after it, what is left; and a hook whose ``loopx-recall``
is gone (a deleted venv) is found and removed by ``python3 -m loopx_recall_core.cleanup``
on the standard library alone, from a clone, with no install."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from loopx_recall_core.cli import cli
from loopx_recall_core.plugin import manager as plugins_module

from ..fake_provider import FakeProvider, host_with
from ..state_builders import enablement, seed

ROOT = Path(__file__).resolve().parents[2]
capability_cli = importlib.import_module("loopx_recall_core.cli.capability")
IDS = ["--agent-id", "agent-a", "--project-id", "proj-j"]
CAPABILITY = ["agent-turn-recall", "--provider", "obelisk-session-evidence"]


@pytest.fixture
def world(monkeypatch, loopx_home, tmp_path):
    fake = FakeProvider()
    for module in (capability_cli, plugins_module):
        monkeypatch.setattr(module, "load_host", lambda *a, **k: host_with(fake))
    monkeypatch.chdir(tmp_path)  # no repository here: only the user's hook files count
    return Path(os.environ["HOME"])


def _run(*args: str):
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert "Traceback" not in result.output
    return result


def test_disable_names_the_hooks_it_leaves_and_status_shows_them(world):
    enabled = _run("capability", "enable", *CAPABILITY, *IDS, "--history-source", "codex",
                   "--agent-sessions", "runtime")  # fmt: skip
    assert enabled.exit_code == 0, enabled.output
    assert _run("hook", "install", "claude", *IDS, "--yes").exit_code == 0
    settings = world / ".claude" / "settings.json"

    disabled = _run("capability", "disable", *CAPABILITY, "--project-id", "proj-j")
    assert disabled.exit_code == 0, disabled.output
    lines = disabled.stdout.splitlines()
    assert lines[0] == "disabled 1 enablement(s); provider data untouched"
    assert lines[1] == (
        f"left: claude hooks in {settings} still run at every session: "
        "`loopx-recall hook uninstall claude` removes them"
    )
    assert "`loopx-recall cleanup --remove`" in lines[2]  # the state folder and the rest

    status = _run("capability", "status", *CAPABILITY, "--project-id", "proj-j")
    assert "  no enablement (default off)" in status.stdout.splitlines()
    assert (
        "  claude hooks for agent agent-a / project proj-j still run at every session, with "
        "no enablement: `loopx-recall hook uninstall claude` removes them"
    ) in status.stdout.splitlines()
    record = json.loads(_run("capability", "status", *CAPABILITY, "--format", "json").stdout)
    assert record["hooks_without_enablement"] == [
        {"runtime": "claude", "agent_id": "agent-a", "project_id": "proj-j",
         "remove_with": "loopx-recall hook uninstall claude"}
    ]  # fmt: skip
    assert str(world) not in json.dumps(record)  # no path in the public record

    # the command it names does remove them; then neither says a word of hooks
    assert _run("hook", "uninstall", "claude", "--yes").exit_code == 0
    again = _run("capability", "status", *CAPABILITY, "--format", "json").stdout
    assert json.loads(again)["hooks_without_enablement"] == []


def test_disable_leaves_hooks_unnamed_while_another_enablement_uses_them(world):
    seed(enablement("obelisk-session-evidence"), enablement("another-provider"))
    assert _run("hook", "install", "claude", *IDS, "--yes").exit_code == 0
    disabled = _run("capability", "disable", *CAPABILITY, "--project-id", "proj-j",
                    "--format", "json")  # fmt: skip
    assert disabled.exit_code == 0, disabled.output
    record = json.loads(disabled.stdout)
    assert len(record["removed"]) == 1
    assert not [line for line in record["left"] if "hooks" in line]


def test_hook_uninstall_names_the_backup_that_still_holds_our_hooks(world):
    settings = world / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"model": "opus"}\n')
    assert _run("hook", "install", "claude", *IDS, "--yes").exit_code == 0
    removed = _run("hook", "uninstall", "claude", "--yes")
    assert removed.exit_code == 0, removed.output
    backup = Path(f"{settings}.loopx-backup")
    assert "loopx-recall hook claude" in backup.read_text()  # what the line says is so
    assert (
        f"left: the backup {backup} holds the file as it was before, our hooks included: "
        f"`rm {backup}` deletes it"
    ) in removed.stdout.splitlines()


@pytest.mark.parametrize("kept", [0, 2])
def test_extension_uninstall_names_the_enablements_only_when_it_kept_some(world, kept):
    """Before: the line named `capability status` (which stops without its capability and
    --provider) and `capability disable CAPABILITY --provider ID --project-id ID`: now the
    command of each provider and project kept, as it runs."""
    from loopx_recall_core.cli.extension import _left_behind
    from loopx_recall_core.state import StateStore

    assert _run("hook", "install", "claude", *IDS, "--yes").exit_code == 0
    if kept:
        seed(enablement("obelisk-session-evidence"),
             enablement("obelisk-session-evidence", agent_id="agent-b"))  # fmt: skip
    lines = _left_behind(list(StateStore().read().enablements))
    enablements = [line for line in lines if "enablement" in line]
    if kept:
        command = ("loopx-recall capability disable agent-turn-recall --provider "
                   "obelisk-session-evidence --project-id proj-j")  # fmt: skip
        assert enablements == [f"left: 2 enablement(s) naming its providers: `{command}` "
                               "removes them"]  # fmt: skip
        ran = _run(*command.split()[1:])
        assert ran.exit_code == 0, ran.output
        assert StateStore().read().enablements == ()
    else:
        assert enablements == []
    assert any("`loopx-recall hook uninstall claude` removes them" in line for line in lines)
    assert all(line.startswith("left: ") and "`" in line for line in lines)


def test_cleanup_says_what_remove_would_do_and_then_what_is_left(world, loopx_home):
    assert _run("hook", "install", "claude", *IDS, "--yes").exit_code == 0
    loopx_home.mkdir(exist_ok=True)
    listed = _run("cleanup").stdout
    rows = [line.strip() for line in listed.splitlines() if line.startswith(" ")]
    assert len(rows) == 2  # the hooks and the state folder (no earlier file: no backup)
    for row in rows:  # what --remove would do, never as done
        assert row.rsplit(": ", 1)[1] in (
            "--remove removes our entries and keeps the rest", "--remove deletes it",
            "--remove deletes it (hook install made it, with ours only)")
    assert "removed" not in listed.replace("--remove", "")
    assert "deleted" not in listed
    done = _run("cleanup", "--remove", "--yes").stdout
    assert [line.rsplit(": ", 1)[1] for line in done.splitlines() if line.startswith(" ")] == [
        "removed", "removed"]  # fmt: skip
    assert done.splitlines()[-1].startswith("left: the installed packages: ")
    assert "`pip uninstall loopx-recall-core`" in done.splitlines()[-1]


def _gone_program_hooks(home: Path, project: Path) -> tuple[Path, Path, bytes, bytes]:
    """Hooks as `hook install` writes them, run by a venv that was deleted since: in the
    user's Claude settings and in a project's personal settings."""
    gone = home / "deleted-venv" / "bin" / "loopx-recall"
    user = home / ".claude" / "settings.json"
    local = project / ".claude" / "settings.local.json"
    user.parent.mkdir(parents=True)
    local.parent.mkdir(parents=True)
    user_bytes, local_bytes = b'{\n  "model": "opus"\n}\n', b'{"env": {"A": "1"}}'
    user.write_bytes(user_bytes)
    local.write_bytes(local_bytes)
    assert _run("hook", "install", "claude", *IDS, "--yes").exit_code == 0
    assert _run("hook", "install", "claude", *IDS, "--settings", str(local),
                "--yes").exit_code == 0  # fmt: skip
    ours = str(Path(sys.executable).parent / "loopx-recall").encode()
    for path in (user, local):
        path.write_bytes(path.read_bytes().replace(ours, str(gone).encode()))
    return user, local, user_bytes, local_bytes


def test_hooks_whose_program_is_gone_are_found_and_removed_without_an_install(
    world, loopx_home, tmp_path
):
    project = tmp_path / "project"
    seed(enablement("obelisk-session-evidence",
                    binding={"private": {"repository_roots": [str(project)]}}))  # fmt: skip
    user, local, user_bytes, local_bytes = _gone_program_hooks(world, project)
    # `python -S`: no site-packages, so none of the package's dependencies (click, attrs,
    # platformdirs, tomlkit) and no installed loopx_recall_core: the clone's, found
    # because `-m` puts the working folder (the clone) first on sys.path
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    bare = [sys.executable, "-S", "-m", "loopx_recall_core.cleanup"]
    probe = subprocess.run([sys.executable, "-S", "-c", "import click"], capture_output=True,
                           cwd=ROOT, env=env, check=False)  # fmt: skip
    assert probe.returncode == 1  # really without the dependencies

    listed = subprocess.run(bare, capture_output=True, text=True, cwd=ROOT, env=env,
                            timeout=60, check=False)  # fmt: skip
    assert listed.returncode == 0, listed.stderr
    assert listed.stderr == ""
    gone = world / "deleted-venv" / "bin" / "loopx-recall"
    for path in (user, local):  # the project's found through state.json's enablement
        assert (
            f"hooks     {path}\n          claude hooks for 1 agent(s) (their program {gone} is "
            "gone: every call fails): --remove removes our entries and keeps the rest"
        ) in listed.stdout
    assert listed.stdout.splitlines()[-1].startswith(
        "`python3 -m loopx_recall_core.cleanup --remove` does what each line says")

    refused = subprocess.run([*bare, "--remove"], capture_output=True, text=True, cwd=ROOT,
                             env=env, timeout=60, check=False,
                             stdin=subprocess.DEVNULL)  # fmt: skip
    assert (refused.returncode, refused.stdout) == (1, "")
    assert refused.stderr.endswith(": pass --yes to go ahead (no terminal to ask)\n")

    removed = subprocess.run([*bare, "--remove", "--yes"], capture_output=True, text=True,
                             cwd=ROOT, env=env, timeout=60, check=False)  # fmt: skip
    assert removed.returncode == 0, removed.stderr
    assert (user.read_bytes(), local.read_bytes()) == (user_bytes, local_bytes)
    assert not loopx_home.exists()  # the state folder went last
    assert not list(user.parent.glob("*.loopx-backup*"))


def test_the_installed_cleanup_finds_hooks_another_environment_left(world, tmp_path):
    user, _local, user_bytes, _ = _gone_program_hooks(world, tmp_path / "project")
    listed = _run("cleanup", "--format", "json")
    (item,) = [i for i in json.loads(listed.stdout)["items"] if i["path"] == str(user)]
    assert "is gone: every call fails" in item["what"]
    assert _run("cleanup", "--remove", "--yes").exit_code == 0
    assert user.read_bytes() == user_bytes


@pytest.mark.parametrize("args", [["--bogus"], ["--format"], ["--format", "xml"], ["--yes", "x"]])
def test_the_bare_cleanup_refuses_bad_arguments_in_one_line(args):
    bare = [sys.executable, "-S", "-m", "loopx_recall_core.cleanup", *args]
    done = subprocess.run(bare, capture_output=True, text=True, cwd=ROOT, timeout=60,
                          check=False)  # fmt: skip
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("error: usage: python3 -m loopx_recall_core.cleanup")


@pytest.mark.parametrize("runtime", ["claude", "codex"])
@pytest.mark.parametrize("way", ["hook uninstall", "cleanup --remove"])
def test_a_hooks_file_install_made_from_nothing_is_taken_away(world, runtime, way):
    """Before: the way out left a `{}` of ours (0600) where the user had no file
    (`~/.claude/settings.json`, `~/.codex/hooks.json`), which nothing listed or removed.
    A file the user changed since, or had before, stays (with the user's bytes)."""
    from loopx_recall_core.recall import hook_install

    path = hook_install.default_path(runtime, "user")
    assert not path.exists()
    assert _run("hook", "install", runtime, *IDS, "--yes").exit_code == 0
    assert path.is_file()
    command = [*way.split(), *([runtime] if way == "hook uninstall" else []), "--yes"]
    removed = _run(*command)
    assert removed.exit_code == 0, removed.output
    assert not path.exists()
    assert not hook_install.backup_path(path).exists()
    if way == "hook uninstall":
        assert (f"hooks removed: {path} held only ours (hook install made it), so it is gone"
                in removed.stdout.splitlines())  # fmt: skip
    # the user's own entry added since: the file stays, without ours
    assert _run("hook", "install", runtime, *IDS, "--yes").exit_code == 0
    text = path.read_text().replace('"hooks": {', '"model": "mine", "hooks": {', 1)
    path.write_text(text)
    assert _run(*command).exit_code == 0
    assert json.loads(path.read_text())["model"] == "mine"
    assert "loopx-recall" not in path.read_text()
