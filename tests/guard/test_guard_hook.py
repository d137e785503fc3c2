# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The installed `loopx-recall guard claude|codex` with each runtime's documented payload:
a repeat is answered in the documented shape, everything else is silent with exit 0."""

from __future__ import annotations

import json
import stat
import time
from datetime import UTC, datetime, timedelta

import pytest

from loopx_recall_core.guard import store
from loopx_recall_core.guard.stats import guard_stats
from tests.guard import helpers
from tests.state_builders import enablement, seed

FAILED = "Bash: pytest tests/test_api.py\noutcome: failed (exit 1)\nE   AssertionError: 500"
TWO_HOURS_AGO = (datetime.now(UTC) - timedelta(hours=2)).isoformat()


@pytest.fixture
def guarded(loopx_home):
    def arrange(policy="warn", items=None, **overrides):
        overrides.setdefault("binding", helpers.BINDING)
        seed(enablement("fake-provider", stage=2, guard=policy, **overrides))
        items = items if items is not None else [
            helpers.item("prior_failure", FAILED, at=TWO_HOURS_AGO),
            helpers.item("prior_failure", "Bash: npm run lint\noutcome: failed", at=TWO_HOURS_AGO,
                         ref="m9"),
        ]  # fmt: skip
        helpers.write(loopx_home, items)
        return loopx_home

    return arrange


def _answer(done):
    assert done.returncode == 0
    assert done.stderr == b""
    return json.loads(done.stdout) if done.stdout else None


def test_a_repeat_is_warned_once_in_claudes_documented_shape(guarded):
    home = guarded()
    done = helpers.run_guard(home, "claude", helpers.pre_tool_use("pytest  tests/test_api.py"))
    answer = _answer(done)
    assert set(answer) == {"hookSpecificOutput"}
    specific = answer["hookSpecificOutput"]
    # warn: context only; a permissionDecision of allow would skip the user's prompt
    assert set(specific) == {"hookEventName", "additionalContext"}
    assert specific["hookEventName"] == "PreToolUse"
    warning = specific["additionalContext"]
    assert isinstance(warning, str)
    assert len(warning) <= 600
    assert "Failed: pytest tests/test_api.py" in warning
    assert "AssertionError: 500" in warning
    assert "2 h ago" in warning
    assert "npm" not in warning
    # each route at most once per session
    again = helpers.run_guard(home, "claude", helpers.pre_tool_use("pytest tests/test_api.py"))
    assert _answer(again) is None
    stats = guard_stats(home, "proj-j")
    assert stats["guarded_calls"] == 2
    assert stats["matches"] == 2
    assert stats["answered"] == 1
    assert stats["warned_then_repeated"] == 1
    assert stats["warned_then_avoided"] == 0
    folder = home / "private" / "guard"
    for path in folder.rglob("*"):
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode == (0o700 if path.is_dir() else 0o600), path.name
    decisions = b"".join(p.read_bytes() for p in (folder / "decisions").iterdir())
    for private in (b"pytest", b"S-current", b"proj-j", b"agent-a", b"AssertionError"):
        assert private not in decisions


def test_codex_gets_the_same_documented_shape(guarded):
    home = guarded(items=[])
    helpers.write(home, [helpers.item("prior_failure", FAILED, at=TWO_HOURS_AGO)], runtime="codex")
    done = helpers.run_guard(home, "codex",
                             helpers.codex_pre_tool_use("pytest tests/test_api.py"))  # fmt: skip
    specific = _answer(done)["hookSpecificOutput"]
    assert specific["hookEventName"] == "PreToolUse"
    assert "permissionDecision" not in specific  # Codex rejects a bare allow
    assert "Failed: pytest tests/test_api.py" in specific["additionalContext"]


def test_deny_once_denies_the_first_proposal_and_lets_the_retry_pass(guarded):
    home = guarded("deny-once")
    payload = helpers.pre_tool_use("pytest tests/test_api.py")
    first = _answer(helpers.run_guard(home, "claude", payload))
    specific = first["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert "Failed: pytest tests/test_api.py" in specific["permissionDecisionReason"]
    assert len(specific["permissionDecisionReason"]) <= 600
    retry = helpers.run_guard(home, "claude", helpers.pre_tool_use("pytest tests/test_api.py"))
    assert _answer(retry) is None
    stats = guard_stats(home, "proj-j")
    assert stats["warned_then_repeated"] == 1


def test_avoiding_the_warned_route_is_counted(guarded):
    home = guarded()
    payload = helpers.pre_tool_use("pytest tests/test_api.py")
    assert _answer(helpers.run_guard(home, "claude", payload))
    assert _answer(helpers.run_guard(home, "claude", helpers.pre_tool_use("git status"))) is None
    stats = guard_stats(home, "proj-j")
    assert stats["warned_then_avoided"] == 1
    assert stats["warned_then_repeated"] == 0


@pytest.mark.parametrize(
    "command",
    [
        "pytest tests/test_api.py -k smoke",  # near miss
        "pytest tests/test_other.py",  # another target
        "npm test",  # same program as a failure, another script
        "ls -la",
    ],
)
def test_what_is_not_a_repeat_is_silent(guarded, command):
    home = guarded()
    assert _answer(helpers.run_guard(home, "claude", helpers.pre_tool_use(command))) in (None,)


def test_a_prior_success_is_not_warned(guarded):
    ok = "Bash: pytest tests/test_api.py\noutcome: ok"
    home = guarded(items=[helpers.item("tool_outcome", ok, at=TWO_HOURS_AGO)])
    payload = helpers.pre_tool_use("pytest tests/test_api.py")
    assert _answer(helpers.run_guard(home, "claude", payload)) is None


@pytest.mark.parametrize(
    "payload",
    [
        b"",
        b"not json",
        b"[1, 2]",
        json.dumps(helpers.pre_tool_use("pytest tests/test_api.py", tool_name="Edit")).encode(),
        json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash"}).encode(),
        json.dumps(helpers.pre_tool_use("pytest tests/test_api.py", session="S-unknown")).encode(),
        json.dumps({**helpers.pre_tool_use("x"), "tool_input": {"command": 7}}).encode(),
        b'{"a": 1, "a": 2}',
        b"\xff\xfe",
    ],
)
def test_every_fault_path_is_silent_with_exit_0_inside_the_deadline(guarded, payload):
    home = guarded()
    started = time.monotonic()
    done = helpers.run_guard(home, "claude", payload)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert time.monotonic() - started < 30  # the process, not the 300 ms decision deadline


@pytest.mark.parametrize(
    "arrange",
    [
        lambda home: seed(enablement("fake-provider", stage=2)),  # guard off
        lambda home: seed(enablement("fake-provider", stage=1, guard="warn")),  # not stage 2
        lambda home: seed(enablement("fake-provider", stage=2, guard="warn", agent_id="b")),
        lambda home: (home / "state.json").write_text("{corrupt"),
    ],
)
def test_no_guard_for_this_agent_is_silent(loopx_home, arrange):
    loopx_home.mkdir(mode=0o700, parents=True, exist_ok=True)
    helpers.write(loopx_home, [helpers.item("prior_failure", FAILED, at=TWO_HOURS_AGO)])
    arrange(loopx_home)
    done = helpers.run_guard(loopx_home, "claude", helpers.pre_tool_use("pytest tests/test_api.py"))
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def test_no_agent_configured_is_silent(guarded):
    home = guarded()
    done = helpers.run_guard(home, "claude", helpers.pre_tool_use("pytest tests/test_api.py"),
                             "--agent-id", "agent-a")  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def test_the_hot_path_imports_no_click_pluggy_attrs_or_contracts(guarded):
    # each is milliseconds of a 100 ms budget: attrs alone was about 15 ms a call
    home = guarded()
    code = (
        "import sys, runpy; sys.argv = ['loopx-recall', 'guard', 'claude', '--agent-id', "
        "'agent-a', '--project-id', 'proj-j', '--deadline-ms', '30000']\n"
        "from loopx_recall_core.guard import hotpath\n"
        "hotpath.main('claude', sys.argv[3:])\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('click', 'pluggy', "
        "'cattrs', 'attr', 'attrs', 'secrets', 'platformdirs', 'tomlkit') "
        "or m.startswith('loopx_recall_core.contracts') or m == 'subprocess')\n"
        "sys.stderr.write(repr(bad))\n"
    )
    import os
    import subprocess
    import sys

    env = {**os.environ, "LOOPX_RECALL_HOME": str(home)}
    done = subprocess.run([sys.executable, "-c", code], input=json.dumps(
        helpers.pre_tool_use("pytest tests/test_api.py")).encode(), env=env,
        capture_output=True, timeout=60, check=False)  # fmt: skip
    assert done.stderr == b"[]"
    assert json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


def test_release_removes_the_sessions_set(guarded):
    home = guarded()
    path = store.set_path(home, "claude", "S-current")
    assert path.exists()
    assert store.remove_set(home, "claude", "S-current")
    assert not path.exists()


def test_a_warning_is_never_marked_given_unless_it_is_returned(guarded, monkeypatch):
    """The session record (route warned) is written last: an interruption before it (the
    deadline's alarm in the decision log's write, here) leaves the route unwarned, so the
    next proposal is answered; before, the route was marked first and the warning lost."""
    from loopx_recall_core.guard.hotpath import decide_payload

    home = guarded()
    payload = helpers.pre_tool_use("pytest tests/test_api.py")

    def decide():
        return decide_payload("claude", payload, agent_id="agent-a", project_id="proj-j",
                              root=home, now=time.time(), started=time.monotonic(),
                              deadline=30.0)  # fmt: skip

    def alarm(*_args, **_kwargs):
        raise TimeoutError("the deadline's alarm")

    with monkeypatch.context() as patched:
        patched.setattr(store, "append_decision", alarm)
        with pytest.raises(TimeoutError):
            decide()
    assert decide() is not None  # not lost: answered now
    assert decide() is None  # and then once per route per session


def test_the_hot_path_record_is_written_without_fsync_and_the_state_with_it(
    monkeypatch, tmp_path
):
    """The guard's per-session record is bookkeeping (lost: a route warned again), so its
    atomic write skips the fsync that costs milliseconds on the hot path; every other
    private write keeps it."""
    import os

    from loopx_recall_core.private_files import write_atomic

    synced = []
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd))
    store.write_session(tmp_path, "claude", "S", {"warned": {}})
    assert synced == []
    assert store.read_session(tmp_path, "claude", "S") == {"warned": {}}
    folder = tmp_path / "other"
    folder.mkdir(mode=0o700)
    write_atomic(folder, "f.json", b"{}", prefix=".t-", what="a test file")
    assert len(synced) == 1
