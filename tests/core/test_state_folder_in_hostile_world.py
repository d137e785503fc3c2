# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The private store and the state folder in a hostile or odd world.

Each test failed on the code before this change: the store followed a symlink planted in
a shared ``LOOPX_RECALL_HOME`` (chmodded another user's folder, wrote into it, pruned its files),
a no-op ``capability disable`` chmodded a 1777 folder to 0700, a read-only folder was
chmodded and written, and temp files survived a failed write.
"""

from __future__ import annotations

import errno
import importlib
import os
import stat

import pytest
from click.testing import CliRunner

from loopx_recall_core.cli import cli
from loopx_recall_core.plugin import manager as plugins_module
from loopx_recall_core.recall.store import PrivateStore
from loopx_recall_core.state import StateError, StateStore
from tests.fake_provider import FakeProvider, host_with

capability_cli = importlib.import_module("loopx_recall_core.cli.capability")
# the operator commands load the plugins in the library, not in cli/
recall_lib = importlib.import_module("loopx_recall_core.operator_requests")

CANARY = "CANARY-PATH-6f1a"
OWN_RECORD = "0123456789abcdef0123456789abcdef.json"
DISABLE = [
    "capability",
    "disable",
    "agent-turn-recall",
    "--provider",
    "obelisk-session-evidence",
    "--project-id",
    "proj-j",
]
ENABLE = [
    "capability",
    "enable",
    "agent-turn-recall",
    "--provider",
    "obelisk-session-evidence",
    "--agent-id",
    "agent-a",
    "--project-id",
    "proj-j",
]
STATUS = [
    "capability",
    "status",
    "agent-turn-recall",
    "--provider",
    "obelisk-session-evidence",
]


@pytest.fixture
def run(monkeypatch):
    fake = FakeProvider()
    for module in (capability_cli, recall_lib, plugins_module):
        monkeypatch.setattr(module, "load_host", lambda *a, **k: host_with(fake))
    runner = CliRunner()

    def invoke(args, home):
        result = runner.invoke(
            cli, args, env={"LOOPX_RECALL_HOME": str(home)}, catch_exceptions=False
        )
        assert "Traceback" not in result.output
        assert CANARY not in result.output  # errors name the problem, never the path
        return result

    return invoke


def _victim(tmp_path, files=205):
    """Another user's folder full of *.json files (mode 0755, as a home folder might be)."""
    victim = tmp_path / f"{CANARY}-victim"
    victim.mkdir()
    for i in range(files):
        (victim / f"note-{i}.json").write_text("{}")
    victim.chmod(0o755)
    return victim


def _snapshot(folder):
    return (stat.S_IMODE(folder.stat().st_mode), sorted(p.name for p in folder.iterdir()))


def test_shared_world_writable_root_is_refused(tmp_path):
    shared = tmp_path / f"{CANARY}-shared"
    shared.mkdir()
    shared.chmod(0o1777)
    victim = _victim(tmp_path)
    (shared / "private").symlink_to(victim)
    before = _snapshot(victim)
    with pytest.raises(StateError, match="writable by group or others") as caught:
        PrivateStore(shared, retention=200).save("agent-a", "req-1", {"n": 1})
    assert CANARY not in str(caught.value)
    assert _snapshot(victim) == before
    assert stat.S_IMODE(shared.stat().st_mode) == 0o1777


@pytest.mark.parametrize("planted", ["private", "private/results", "private/results/agent"])
def test_store_never_follows_a_symlink_inside_the_root(tmp_path, planted):
    root = tmp_path / f"{CANARY}-root"
    store = PrivateStore(root, retention=200)
    store.save("agent-a", "req-0", {"n": 0})
    agent_folder = next((root / "private" / "results").iterdir())
    target = {
        "private": root / "private",
        "private/results": root / "private" / "results",
        "private/results/agent": agent_folder,
    }[planted]
    for child in sorted(target.rglob("*"), reverse=True):
        child.unlink() if not child.is_dir() else child.rmdir()
    target.rmdir()
    victim = _victim(tmp_path)
    target.symlink_to(victim)
    before = _snapshot(victim)
    with pytest.raises(StateError, match="symbolic link") as caught:
        store.save("agent-a", "req-1", {"n": 1})
    assert CANARY not in str(caught.value)
    assert _snapshot(victim) == before
    if planted.endswith("agent"):
        assert store.load("req-0") is None  # a linked agent folder is skipped, not read
    else:
        with pytest.raises(StateError, match="symbolic link"):
            store.load("req-0")


def test_root_that_is_a_symlink_is_refused(tmp_path, run):
    victim = _victim(tmp_path, files=3)
    victim.chmod(0o700)
    link = tmp_path / f"{CANARY}-link"
    link.symlink_to(victim)
    before = _snapshot(victim)
    result = run(ENABLE, link)
    assert result.exit_code == 2
    assert "symbolic link" in result.output
    assert _snapshot(victim) == before


def test_pruning_touches_only_the_store_own_records(tmp_path):
    root = tmp_path / "root"
    store = PrivateStore(root, retention=2)
    store.save("agent-a", "req-0", {"n": 0})
    folder = next((root / "private" / "results").iterdir())
    outside = tmp_path / f"{CANARY}-outside.json"
    outside.write_text("keep")
    foreign = ["notes.json", "ABCDEF0123456789abcdef0123456789.json", "0123.json", "x.txt"]
    for name in foreign:
        (folder / name).write_text("keep")
    os.utime(folder / "notes.json", ns=(1, 1))  # the oldest file there
    (folder / OWN_RECORD).symlink_to(outside)  # named like a record, but a link
    for i in range(1, 6):
        store.save("agent-a", f"req-{i}", {"n": i})
    names = {p.name for p in folder.iterdir()}
    assert set(foreign) <= names
    assert (folder / OWN_RECORD).is_symlink()
    assert outside.read_text() == "keep"
    own = [n for n in names if n not in foreign and n != OWN_RECORD]
    assert len(own) == 2
    assert store.load("req-5") == {"n": 5}
    assert store.load("req-1") is None


def test_noop_disable_never_chmods_a_sticky_shared_folder(tmp_path, run):
    shared = tmp_path / f"{CANARY}-tmp"
    shared.mkdir()
    shared.chmod(0o1777)
    result = run(DISABLE, shared)
    assert result.exit_code == 2
    assert "writable by group or others" in result.output
    assert stat.S_IMODE(shared.stat().st_mode) == 0o1777
    assert list(shared.iterdir()) == []


def test_read_only_commands_create_nothing(tmp_path, run):
    home = tmp_path / f"{CANARY}-absent" / "loopx"
    assert run(DISABLE, home).exit_code == 0
    assert run(STATUS, home).exit_code == 0
    assert run(["recall", "show", "rq-1"], home).exit_code == 1
    assert not home.parent.exists()


def test_existing_folder_is_never_chmodded(tmp_path, run):
    home = tmp_path / f"{CANARY}-mine"
    home.mkdir()
    home.chmod(0o500)
    try:
        result = run([*ENABLE, "--history-source", "codex"], home)
        assert stat.S_IMODE(home.stat().st_mode) == 0o500
        if os.geteuid() != 0:  # root may write anyway; nobody else can
            assert result.exit_code == 2
            assert "permission denied" in result.output
            assert list(home.iterdir()) == []
        home.chmod(0o755)  # owner's own choice: readable by others is allowed
        result = run([*ENABLE, "--history-source", "codex"], home)
        assert result.exit_code == 0, result.output
        assert stat.S_IMODE(home.stat().st_mode) == 0o755
        assert stat.S_IMODE((home / "state.json").stat().st_mode) == 0o600
    finally:
        home.chmod(0o700)


def test_root_not_owned_by_the_user_is_refused(tmp_path, run, monkeypatch):
    home = tmp_path / f"{CANARY}-theirs"
    home.mkdir(mode=0o700)
    if os.geteuid() == 0:
        os.chown(home, 65534, 65534)
    else:
        monkeypatch.setattr(os, "getuid", lambda: os.geteuid() + 1)
    result = run(STATUS, home)
    assert result.exit_code == 2
    assert "not owned by you" in result.output
    assert list(home.iterdir()) == []


@pytest.mark.parametrize("failing", ["write", "fsync", "replace"])
def test_temp_files_are_removed_on_every_failure_path(tmp_path, run, monkeypatch, failing):
    home = tmp_path / "home"
    real = getattr(os, failing)

    def broken(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, failing, broken)
    result = run([*ENABLE, "--history-source", "codex"], home)
    assert result.exit_code == 2
    assert "no space left" in result.output
    with pytest.raises(StateError, match="no space left"):
        PrivateStore(home).save("agent-a", "req-1", {"n": 1})
    monkeypatch.setattr(os, failing, real)
    leftovers = [p.name for p in home.rglob(".*") if p.name.startswith((".state-", ".r-"))]
    assert leftovers == []
    assert not (home / "state.json").exists()
    assert StateStore(home).read().enablements == ()
