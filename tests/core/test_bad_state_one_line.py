# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A bad state folder or store is a one-line error, never a traceback, no
path or private value in the message, nothing left behind.

Each case printed a Python traceback before this change: ``state.json`` nested 100,000
deep (RecursionError), a duplicate enablement (ValueError in admission), a corrupt private
record in ``recall show`` (JSONDecodeError), ``LOOPX_RECALL_HOME`` pointing at a file
(FileExistsError; ``qualify`` crashed only after its whole run), a state folder the user
cannot write (PermissionError), a symlinked lock file (OSError).
"""

from __future__ import annotations

import copy
import errno
import importlib
import json
import os

import pytest
from click.testing import CliRunner

from loopx_recall_core.cli import cli
from loopx_recall_core.plugin import manager as plugins_module
from loopx_recall_core.qualification import harness
from loopx_recall_core.recall.store import PrivateStore
from loopx_recall_core.state import StateError
from tests.fake_provider import FakeProvider, host_with

capability_cli = importlib.import_module("loopx_recall_core.cli.capability")
# the operator commands load the plugins in the library, not in cli/
recall_lib = importlib.import_module("loopx_recall_core.operator_requests")

CANARY = "CANARY-PATH-11b"
SECRET = "CANARY-PRIVATE-VALUE-11b"
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
    "--history-source",
    "codex",
]
STATUS = [
    "capability",
    "status",
    "agent-turn-recall",
    "--provider",
    "obelisk-session-evidence",
]
HISTORY = [
    "recall",
    "history",
    "--agent-id",
    "agent-a",
    "--project-id",
    "proj-j",
    "--term",
    "pytest",
    "--format",
    "json",
]
ENABLEMENT = {
    "capability": "agent-turn-recall",
    "provider_id": "obelisk-session-evidence",
    "surface": "replan-history",
    "agent_id": "agent-a",
    "project_id": "proj-j",
    "repository_id": "repo-fake",
    "stage": 1,
    "limits": {
        "max_sessions": 20,
        "max_items": 16,
        "max_snippet_chars": 800,
        "max_total_chars": 8000,
    },
    "binding": {"private": {"roots": [f"/home/{SECRET}"]}},
}


@pytest.fixture
def home(tmp_path):
    return tmp_path / f"{CANARY}-home"


@pytest.fixture
def run(monkeypatch, home):
    fake = FakeProvider()
    for module in (capability_cli, recall_lib, plugins_module):
        monkeypatch.setattr(module, "load_host", lambda *a, **k: host_with(fake))
    runner = CliRunner()

    def invoke(args, expected_exit):
        result = runner.invoke(
            cli, args, env={"LOOPX_RECALL_HOME": str(home)}, catch_exceptions=False
        )
        assert result.exit_code == expected_exit, result.output
        assert "Traceback" not in result.output
        assert CANARY not in result.output
        assert SECRET not in result.output
        if expected_exit:
            (line,) = result.stderr.strip().splitlines()
            assert line.startswith("error: ")
        return result

    return invoke


def _write_state(home, text):
    home.mkdir(mode=0o700, exist_ok=True)
    (home / "state.json").write_text(text)


def test_deeply_nested_state_is_one_error(home, run):
    nested = "[" * 100_000 + "]" * 100_000
    _write_state(home, '{"schema_version": "loopx_state_v0", "enablements": ' + nested + "}")
    assert "nests too deeply" in run(STATUS, 2).output
    assert "nests too deeply" in run(HISTORY, 2).output
    assert "nests too deeply" in run(ENABLE, 2).output


def test_duplicate_enablement_is_invalid_state(home, run):
    state = {
        "schema_version": "loopx_state_v0",
        "enablements": [ENABLEMENT, copy.deepcopy(ENABLEMENT)],
    }
    _write_state(home, json.dumps(state))
    before = (home / "state.json").read_bytes()
    assert "two enablements" in run(HISTORY, 2).output
    assert "two enablements" in run(STATUS, 2).output
    assert (home / "state.json").read_bytes() == before


def test_duplicate_key_in_state_is_corrupt(home, run):
    _write_state(home, '{"schema_version": "loopx_state_v0", "enablements": [], "enablements": []}')
    assert "duplicate key" in run(STATUS, 2).output


def test_corrupt_private_record_and_both_handles_in_show(home, run):
    run(ENABLE, 0)
    data = json.loads(run(HISTORY, 0).output)
    request_id, handle = data["receipt"]["request_id"], data["private_ref"]
    assert handle.startswith("private:")
    by_id = json.loads(run(["recall", "show", request_id, "--format", "json"], 0).output)
    by_handle = json.loads(run(["recall", "show", handle, "--format", "json"], 0).output)
    assert by_id == by_handle
    assert by_id["receipt"]["request_id"] == request_id
    (record,) = (home / "private" / "results").rglob("*.json")
    record.write_text('{"status": "succeeded", "receipt": ')
    assert "corrupt" in run(["recall", "show", request_id], 2).output
    record.write_text("[1, 2]")
    assert "corrupt" in run(["recall", "show", handle], 2).output
    assert "no stored result" in run(["recall", "show", "private:" + "0" * 32], 1).output


def test_loopx_home_pointing_at_a_file(home, run, monkeypatch):
    home.write_text("not a folder")
    assert "not a folder" in run(STATUS, 2).output
    assert "not a folder" in run(ENABLE, 2).output
    assert "not a folder" in run(HISTORY, 2).output
    assert "not a folder" in run(["recall", "show", "rq-1"], 2).output

    def never(**_kwargs):
        raise AssertionError("qualification started before the state root was checked")

    monkeypatch.setattr(harness, "run_qualification", never)
    result = run(["recall", "qualify", "--report", str(home.parent / "report")], 2)
    assert "not a folder" in result.output
    assert home.read_text() == "not a folder"


def test_state_folder_the_user_cannot_write(home, run, monkeypatch):
    home.mkdir(mode=0o700)
    real_open = os.open

    def denied(path, flags, *args, **kwargs):
        if str(path).startswith(str(home)) and flags & (os.O_WRONLY | os.O_RDWR):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", denied)
    assert "permission denied" in run(ENABLE, 2).output
    assert "permission denied" in run(["recall", "qualify"], 2).output
    monkeypatch.setattr(os, "open", real_open)
    assert list(home.iterdir()) == []


def test_symlinked_lock_file(home, run, tmp_path):
    home.mkdir(mode=0o700)
    target = tmp_path / f"{CANARY}-elsewhere"
    (home / "state.json.lock").symlink_to(target)
    assert "symbolic link" in run(ENABLE, 2).output
    assert not target.exists()
    dangling_dir = tmp_path / "no-such-folder" / "lock"
    (home / "state.json.lock").unlink()
    (home / "state.json.lock").symlink_to(dangling_dir)
    assert "symbolic link" in run(ENABLE, 2).output


def test_failed_record_write_leaves_no_temp_file(home, monkeypatch):
    store = PrivateStore(home)
    real_replace = os.replace

    def broken(*_args, **_kwargs):
        raise OSError(errno.EIO, "I/O error")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(StateError) as caught:
        store.save("agent-a", "req-1", {"request": SECRET})
    monkeypatch.setattr(os, "replace", real_replace)
    assert SECRET not in str(caught.value)
    # the state lock and the owner-decision generation a record is written under stay
    kept = {"state.json.lock", "generation"}
    assert [p for p in home.rglob("*") if p.is_file() and p.name not in kept] == []
    # A lone surrogate (a non-UTF-8 byte in an argument) no longer fails half-way.
    store.save("agent-a", "req-2", {"term": "bad-\udcff-byte"})
    assert store.load("req-2") == {"term": "bad-\udcff-byte"}
    assert [p.name for p in home.rglob(".*") if p.is_file()] == []
