# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``PostToolUse`` (the same ``loopx-recall guard claude|codex`` command, installed with
``--guard``): a shell call that ran is recorded content-free, and a warning awaiting its
follow-up is settled there when the next call was not seen at ``PreToolUse``; never any
output, never a provider, exit 0."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from loopx_recall_core.guard import store
from loopx_recall_core.guard.stats import guard_stats, render_text
from tests.guard import helpers
from tests.state_builders import enablement, seed

FAILED = "Bash: pytest tests/test_api.py\noutcome: failed (exit 1)\nE   AssertionError: 500"
AT = (datetime.now(UTC) - timedelta(hours=2)).isoformat()
REPEATED = "pytest tests/test_api.py"


@pytest.fixture
def home(loopx_home):
    seed(enablement("fake-provider", stage=2, guard="warn", binding=helpers.BINDING))
    helpers.write(loopx_home, [helpers.item("prior_failure", FAILED, at=AT)])
    helpers.write(loopx_home, [helpers.item("prior_failure", FAILED, at=AT)], runtime="codex")
    return loopx_home


def _silent(home, runtime, payload):
    done = helpers.run_guard(home, runtime, payload)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def _pre(home, runtime, command, call):
    payload = (helpers.pre_tool_use(command, tool_use_id=call) if runtime == "claude"
               else {**helpers.codex_pre_tool_use(command), "tool_use_id": call})  # fmt: skip
    done = helpers.run_guard(home, runtime, payload)
    assert (done.returncode, done.stderr) == (0, b"")
    return json.loads(done.stdout) if done.stdout else None


def _post(runtime, command, call):
    make = helpers.post_tool_use if runtime == "claude" else helpers.codex_post_tool_use
    return make(command, call)


@pytest.mark.parametrize("runtime", ["claude", "codex"])
def test_the_warned_call_itself_completing_settles_nothing_the_next_call_does(home, runtime):
    assert _pre(home, runtime, REPEATED, "call-1") is not None  # warned (warn: it runs)
    _silent(home, runtime, _post(runtime, REPEATED, "call-1"))
    stats = guard_stats(home, "proj-j")
    assert (stats["ran"], stats["ran_warned_route"]) == (1, 1)
    assert stats["warned_then_avoided"] + stats["warned_then_repeated"] == 0
    # the next shell call is seen only after it ran (its PreToolUse was not seen)
    _silent(home, runtime, _post(runtime, "git status", "call-2"))
    stats = guard_stats(home, "proj-j")
    assert stats["warned_then_avoided"] == 1
    assert stats["follow_ups_seen_at"] == {"PreToolUse": 0, "PostToolUse": 1}
    assert stats["ran"] == 2
    assert "follow-ups seen at PreToolUse / PostToolUse: 0 / 1" in render_text(stats)


@pytest.mark.parametrize("runtime", ["claude", "codex"])
def test_running_the_warned_route_again_is_repeated_at_post_tool_use(home, runtime):
    assert _pre(home, runtime, REPEATED, "call-1") is not None
    _silent(home, runtime, _post(runtime, REPEATED, "call-2"))
    stats = guard_stats(home, "proj-j")
    assert stats["warned_then_repeated"] == 1
    assert stats["follow_ups_seen_at"]["PostToolUse"] == 1
    # settled once: the next PreToolUse settles nothing more
    assert _pre(home, runtime, "git status", "call-3") is None
    assert guard_stats(home, "proj-j")["warned_then_avoided"] == 0


def test_a_follow_up_seen_at_pre_tool_use_is_not_counted_again_after_it_ran(home):
    assert _pre(home, "claude", REPEATED, "call-1") is not None
    assert _pre(home, "claude", "git status", "call-2") is None  # settled here: avoided
    _silent(home, "claude", _post("claude", "git status", "call-2"))
    stats = guard_stats(home, "proj-j")
    assert (stats["warned_then_avoided"], stats["warned_then_repeated"]) == (1, 0)
    assert stats["follow_ups_seen_at"] == {"PreToolUse": 1, "PostToolUse": 0}


def test_post_tool_use_records_are_content_free_and_start_no_prefetch(home):
    _silent(home, "claude", _post("claude", REPEATED, "call-9"))
    _silent(home, "claude", helpers.post_tool_use(REPEATED, "call-1", session="S-no-set"))
    assert not store.set_path(home, "claude", "S-no-set").with_suffix(".pending").exists()
    (record,) = [r for r in store.decision_lines(home, "proj-j") if r["kind"] == "ran"]
    assert set(record) == {"kind", "at", "receipt_digest", "verdict", "failed", "warned_route",
                           "follow_up", "latency_ms"}  # fmt: skip
    assert record["verdict"] == "repeats_prior_failure"
    raw = b"".join(p.read_bytes() for p in (home / "private" / "guard" / "decisions").iterdir())
    for private in (b"pytest", b"S-current", b"call-9", b"AssertionError", b"proj-j"):
        assert private not in raw


@pytest.mark.parametrize(
    "payload",
    [
        {**helpers.post_tool_use(REPEATED, "c"), "tool_name": "Edit"},
        {**helpers.post_tool_use(REPEATED, "c"), "tool_input": {"command": 7}},
        {**helpers.post_tool_use(REPEATED, "c"), "hook_event_name": "Notification"},
        {**helpers.post_tool_use(REPEATED, "c"), "cwd": "/elsewhere"},
    ],
)
def test_post_tool_use_fault_paths_are_silent_and_record_nothing(home, payload):
    _silent(home, "claude", payload)
    assert guard_stats(home, "proj-j")["ran"] == 0


@pytest.mark.parametrize("event", ["PreToolUse", "PostToolUse"])
def test_past_the_bound_nothing_is_answered_and_the_run_says_it_ran_out_of_time(home, event):
    """Past its bound (the runtime's hook timeout less a margin) the hook answers nothing,
    marks nothing warned, and says so: the hook log and ``guard stats`` (issue 39: before,
    such a run left no trace at all)."""
    import time

    from loopx_recall_core import hook_log
    from loopx_recall_core.guard.hotpath import decide_payload

    payload = {**helpers.pre_tool_use(REPEATED), "hook_event_name": event}
    answer = decide_payload("claude", payload, agent_id="agent-a", project_id="proj-j",
                            root=home, now=time.time(), started=time.monotonic() - 1.0,
                            deadline=0.3)  # fmt: skip
    assert answer is None
    assert [r["kind"] for r in store.decision_lines(home, "proj-j")] == ["silent"]
    assert store.read_session(home, "claude", "S-current") == {}
    assert guard_stats(home, "proj-j")["out_of_time"] == 1
    assert guard_stats(home, "proj-j")["last_silence"]["reason"] == "out_of_time"
    assert hook_log.read(home)[-1].endswith("guard claude: out_of_time")


@pytest.mark.parametrize("event", ["PreToolUse", "PostToolUse"])
def test_a_lock_held_past_the_bound_answers_nothing_and_says_out_of_time(home, event):
    """Another call of the session holds its lock past this call's bound: nothing answered,
    one ``out_of_time`` said (before, after the hot path's split, taking the lock failed
    into ``RuntimeError: generator didn't yield``: an internal error in the hook log and a
    raise for a caller of decide_payload)."""
    import time

    from loopx_recall_core import hook_log
    from loopx_recall_core.guard.hotpath import decide_payload

    payload = {**helpers.pre_tool_use(REPEATED), "hook_event_name": event}
    with store.session_lock(home, "claude", "S-current", 5.0):  # another call holds it
        answer = decide_payload("claude", payload, agent_id="agent-a", project_id="proj-j",
                                root=home, now=time.time(), started=time.monotonic() - 1.0,
                                deadline=0.3)  # fmt: skip
    assert answer is None
    assert store.read_session(home, "claude", "S-current") == {}
    assert guard_stats(home, "proj-j")["out_of_time"] == 1
    assert [line.split(": ", 1)[1] for line in hook_log.read(home)] == ["out_of_time"]


def test_claudes_post_tool_use_failure_records_a_failed_run_of_the_warned_route(home):
    """Claude Code fires PostToolUse after a call that succeeded and PostToolUseFailure
    (``error``, ``is_interrupt`` instead of ``tool_response``) after one that failed."""
    assert _pre(home, "claude", REPEATED, "call-1") is not None
    failure = {
        **helpers.pre_tool_use(REPEATED, tool_use_id="call-2"),
        "hook_event_name": "PostToolUseFailure",
        "error": "Command exited with non-zero status code 1",
        "is_interrupt": False,
    }
    _silent(home, "claude", failure)
    stats = guard_stats(home, "proj-j")
    assert (stats["warned_then_repeated"], stats["ran_failed"], stats["ran_warned_route"]) == (
        1,
        1,
        1,
    )
    assert "1 on a warned route, 1 failed" in render_text(stats)


# -- Codex: no exit status in PostToolUse (issue 27 item 5) ------------------------------
# Fact (Codex 0.169.0, observed with a PostToolUse hook reading the rollout as it ran; see
# loopx_recall_core/runtimes/codex.py): tool_response is the command's output alone, and
# the rollout's last line is the call's item_completed event with its exit_code.


def _rollout(home, call: str, exit_code: int, *, where: str = ".codex/sessions") -> str:
    """A rollout ending as Codex 0.169.0 leaves it when PostToolUse runs (shape observed;
    ids and output synthetic)."""
    folder = home.parent / where / "2026" / "12" / "05"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "rollout-2026-12-05T07-22-20-01a24515-183f-78c2-83da-d65fc4eb5e8c.jsonl"
    item = {"type": "CommandExecution", "id": call, "process_id": "5202",
            "command": ["/bin/bash", "-c", REPEATED], "source": "unified_exec_startup",
            "status": "failed" if exit_code else "completed",
            "aggregated_output": "E   AssertionError: 500\n", "exit_code": exit_code}  # fmt: skip
    lines = [
        {"timestamp": "2026-12-05T07:22:20.181Z", "type": "response_item",
         "payload": {"type": "function_call", "name": "exec_command", "call_id": call,
                     "arguments": json.dumps({"cmd": REPEATED, "login": False})}},
        {"timestamp": "2026-12-05T07:22:20.264Z", "type": "event_msg",
         "payload": {"type": "item_completed", "thread_id": "t", "turn_id": "u", "item": item}},
    ]  # fmt: skip
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return str(path)


@pytest.mark.parametrize(("exit_code", "counted"), [(1, 1), (0, 0)])
def test_codex_post_tool_use_reads_the_exit_status_its_rollout_holds(home, exit_code, counted):
    assert _pre(home, "codex", REPEATED, "call-1") is not None
    post = {**helpers.codex_post_tool_use(REPEATED, "call-2"),
            "tool_response": "E   AssertionError: 500\n",
            "transcript_path": _rollout(home, "call-2", exit_code)}  # fmt: skip
    _silent(home, "codex", post)
    stats = guard_stats(home, "proj-j")
    assert (stats["warned_then_repeated"], stats["ran_failed"]) == (1, counted)


def test_codex_rollout_elsewhere_or_for_another_call_is_not_read(home):
    outside = _rollout(home, "call-2", 1, where="elsewhere/sessions")
    other = _rollout(home, "call-9", 1)
    for path in (outside, other):
        post = {**helpers.codex_post_tool_use("git status", "call-2"),
                "tool_response": "boom\n", "transcript_path": path}  # fmt: skip
        _silent(home, "codex", post)
    assert guard_stats(home, "proj-j")["ran_failed"] == 0


def test_codex_post_tool_use_text_in_an_output_form_is_read_by_the_one_rule(home):
    text = ("Chunk ID: 1a2b3c\nWall time: 0.0000 seconds\nProcess exited with code 2\n"
            "Original token count: 3\nOutput:\nboom\n")  # fmt: skip
    post = {**helpers.codex_post_tool_use("git status", "call-2"), "tool_response": text}
    _silent(home, "codex", post)
    assert guard_stats(home, "proj-j")["ran_failed"] == 1
