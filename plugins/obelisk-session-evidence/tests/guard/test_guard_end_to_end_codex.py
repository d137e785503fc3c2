# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The repetition guard end to end for Codex on the double, through the installed CLI and
Codex's documented hook payloads: ``hook install codex --guard`` writes the three hooks,
a ``SessionStart`` claims the thread and ONE provider ``--query`` makes its set (counted
by a wrapper), a repeated failing command is warned in Codex's documented output shape, a
near miss, a prior success and another agent's failure are not, ``PostToolUse`` records
the follow-up, a ``deny-once`` retry passes, and every fault path is silent with exit 0.

Codex's documented hook facts used here (openai/codex
``codex-rs/hooks/schema/generated/*.command.{input,output}.schema.json`` and
developers.openai.com/codex/hooks):

* every payload carries ``session_id`` (the thread id), ``transcript_path`` (string or
  null), ``cwd``, ``hook_event_name`` and ``model``; ``SessionStart`` adds ``source``
  (``startup``, ``resume``, ``clear``);
* ``PreToolUse`` input: exactly ``cwd``, ``hook_event_name`` (``PreToolUse``), ``model``,
  ``permission_mode``, ``session_id``, ``tool_input`` (``{"command": str}``, nothing
  else), ``tool_name`` (``Bash``), ``tool_use_id``, ``transcript_path``;
* ``PostToolUse`` input: those plus ``tool_response`` (any JSON) and ``turn_id``;
* ``PreToolUse`` output: an object whose keys are among ``continue``,
  ``hookSpecificOutput``, ``stopReason``, ``suppressOutput``, ``systemMessage``;
  ``hookSpecificOutput`` has keys among ``hookEventName`` (required: ``PreToolUse``),
  ``permissionDecision`` (``allow``, ``deny``, ``ask``), ``permissionDecisionReason``,
  ``additionalContext``, ``updatedInput``. ``deny`` blocks the call with the reason;
  ``additionalContext`` without a decision adds context (a bare ``allow`` was rejected
  by released versions, openai/codex#20756).
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from datetime import timedelta
from pathlib import Path

import pytest

from loopx_recall_core.testing import guard_stats, secret_canaries, vendor_canaries
from loopx_recall_core.testing import guard_store as store

from ..conftest import LOOPX
from ..hostile import codex_transcript, now_iso
from .test_guard_end_to_end import _counting_wrapper, _wait_for_set, stage_two

pytestmark = pytest.mark.real_obelisk

REPEATED = "pytest tests/test_api.py"
NEAR_MISS = "pytest tests/test_api.py -k smoke"
SUCCEEDED = "make lint"
OTHERS_FAILURE = "npm run build"
PRIOR_A, PRIOR_OK, PRIOR_B = (
    "019d0000-0000-7000-8000-00000000a001",
    "019d0000-0000-7000-8000-00000000a002",
    "019d0000-0000-7000-8000-00000000b001",
)
CANARIES = secret_canaries() + vendor_canaries()
SECRETS = "\n".join(c.text for c in CANARIES[::-1])


def _leaks(text: str) -> list[str]:
    return sorted({c.kind for c in CANARIES if c.leaked(text)})


OUTPUT_KEYS = {"continue", "hookSpecificOutput", "stopReason", "suppressOutput", "systemMessage"}
SPECIFIC_KEYS = {"hookEventName", "permissionDecision", "permissionDecisionReason",
                 "additionalContext", "updatedInput"}  # fmt: skip


def _valid_pre_tool_use_output(answer: object) -> dict:
    """Codex's pre-tool-use.command.output schema, field by field; returns the specific
    output."""
    assert isinstance(answer, dict)
    assert set(answer) <= OUTPUT_KEYS
    specific = answer["hookSpecificOutput"]
    assert isinstance(specific, dict)
    assert set(specific) <= SPECIFIC_KEYS
    assert specific["hookEventName"] == "PreToolUse"
    assert specific.get("permissionDecision", "deny") in ("allow", "deny", "ask")
    for key in ("permissionDecisionReason", "additionalContext"):
        assert isinstance(specific.get(key, ""), str)
    return specific


@pytest.fixture
def world(loopx, archive_home, obelisk_bin, tmp_path):
    home = archive_home.home
    repo = home / "src" / "CANARY-codex-repo"
    (repo / "pkg").mkdir(parents=True)
    stamp = now_iso(-timedelta(hours=2))
    # the failure's output carries every canary secret (issue 29): none reaches the set,
    # the warning or the log, redacted before the snippet cap and every cut after it; the
    # success's output carries them too, since a success's opening is what its item shows
    # (a failure shows its decisive lines, here the AssertionError)
    codex_transcript(home, PRIOR_A, cwd=str(repo), timestamp=stamp, command=REPEATED,
                     output="Exit code: 1\nE   AssertionError: 500\n" + SECRETS)  # fmt: skip
    codex_transcript(home, PRIOR_OK, cwd=str(repo), timestamp=stamp, command=SUCCEEDED,
                     call_id="call_ok", output="Exit code: 0\nall clean\n" + SECRETS)  # fmt: skip
    codex_transcript(home, PRIOR_B, cwd=str(repo), timestamp=stamp, command=OTHERS_FAILURE,
                     call_id="call_b", output="Exit code: 1\nnpm ERR! build")  # fmt: skip
    wrapper, counter = _counting_wrapper(tmp_path, obelisk_bin)
    state = tmp_path / "loopx"
    extra = {"LOOPX_RECALL_OBELISK_BIN": str(wrapper)}

    def cli(*args):
        return loopx(*args, extra_env=extra)

    stage_two(cli, state, wrapper, repo, "codex", (PRIOR_A, PRIOR_OK, PRIOR_B))

    def guard_on(policy):
        """The owner's one command: the hooks in ~/.codex/hooks.json, the guard on."""
        done = cli("hook", "install", "codex", "--agent-id", "agent-a", "--project-id",
                   "proj-j", "--guard", "--policy", policy, "--yes")  # fmt: skip
        assert f"guard on ({policy})" in done.stdout
        hooks = json.loads((home / ".codex" / "hooks.json").read_text())["hooks"]
        # Stop and SessionEnd: Codex 0.169.0 fires both (observed), the claiming command
        assert set(hooks) == {"SessionStart", "Stop", "SessionEnd", "PreToolUse", "PostToolUse"}
        assert [g["matcher"] for g in hooks["PreToolUse"] + hooks["PostToolUse"]] == ["Bash"] * 2

    def run(kind, payload, *, raw=None, deadline="30000"):
        env = {"PATH": os.environ["PATH"], "HOME": str(home), "LOOPX_RECALL_HOME": str(state),
               "LOOPX_RECALL_OBELISK_BIN": str(wrapper),
               "LOOPX_RECALL_NODE22": os.environ["LOOPX_RECALL_NODE22"],
               "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence",
               "LOOPX_RECALL_AGENT_ID": "agent-a", "LOOPX_RECALL_PROJECT_ID": "proj-j"}  # fmt: skip
        args = ["--deadline-ms", deadline] if kind == "guard" else []
        data = raw if raw is not None else json.dumps(payload).encode()
        done = subprocess.run([LOOPX, kind, "codex", *args], input=data, env=env,
                              capture_output=True, timeout=60, check=False)  # fmt: skip
        assert (done.returncode, done.stderr) == (0, b"")
        return json.loads(done.stdout) if done.stdout else None

    def common(thread, event, cwd=repo):
        return {"session_id": thread, "transcript_path": None, "cwd": str(cwd),
                "hook_event_name": event, "model": "gpt-5-codex"}  # fmt: skip

    def start(thread):
        """SessionStart for ``thread``; returns the set's path once the prefetch made it."""
        counter.write_text("")
        assert run("hook", {**common(thread, "SessionStart"), "source": "startup"}) is None
        path = store.set_path(state, "codex", thread)
        assert _wait_for_set(path, home), "the prefetch made no set"
        return path

    def propose(thread, command, call="call_now", cwd=repo):
        return run("guard", {**common(thread, "PreToolUse", cwd), "permission_mode": "default",
                             "tool_name": "Bash", "tool_input": {"command": command},
                             "tool_use_id": call})  # fmt: skip

    def ran(thread, command, call):
        return run("guard", {**common(thread, "PostToolUse"), "permission_mode": "default",
                             "tool_name": "Bash", "tool_input": {"command": command},
                             "tool_response": "Exit code: 1", "tool_use_id": call,
                             "turn_id": "turn-1"})  # fmt: skip

    return guard_on, start, propose, ran, run, common, counter, state, repo


def _queries(counter: Path) -> int:
    return len(counter.read_text().splitlines())


def test_codex_start_prefetches_once_the_repeat_is_warned_and_post_tool_use_follows_up(world):
    guard_on, start, propose, ran, _run, _common, counter, state, repo = world
    guard_on("warn")
    path = start("T-now-1")
    assert _queries(counter) == 1  # exactly one provider process made the set
    header = json.loads(path.read_bytes().split(b"\n", 1)[0])
    assert header["status"] == "succeeded", header
    items = [json.loads(line) for line in path.read_bytes().split(b"\n")[1:] if line]
    assert {PRIOR_A, PRIOR_OK} <= {item["session"].removeprefix("codex:") for item in items}
    assert all(PRIOR_B not in item["session"] for item in items)  # never agent-b's

    assert propose("T-now-1", NEAR_MISS) is None
    assert propose("T-now-1", SUCCEEDED) is None  # a prior success
    assert propose("T-now-1", OTHERS_FAILURE) is None  # another agent's failure
    # the folder it runs in is part of its route (issue 28 item 6): the failure ran at the root
    assert propose("T-now-1", REPEATED, call="call_in_pkg", cwd=repo / "pkg") is None
    answer = propose("T-now-1", REPEATED, call="call_warned")
    specific = _valid_pre_tool_use_output(answer)
    assert set(specific) == {"hookEventName", "additionalContext"}  # no bare allow
    warning = specific["additionalContext"]
    assert 0 < len(warning) <= 600
    assert warning.startswith("loopx-recall guard: this command repeats one that failed ")
    assert f"Failed: {REPEATED}" in warning
    assert "AssertionError: 500" in warning
    assert "CANARY" not in warning
    assert _leaks(warning) == []
    assert "[redacted:" in path.read_text()  # the canaries' lines reached the set, redacted
    stored = {p: p.read_bytes().decode(errors="replace") for p in state.rglob("*") if p.is_file()}
    assert {str(p): _leaks(text) for p, text in stored.items() if _leaks(text)} == {}
    assert ran("T-now-1", REPEATED, "call_warned") is None  # the warned call completing
    assert ran("T-now-1", "git status", "call_next") is None  # then something else ran
    assert propose("T-now-1", REPEATED) is None  # once per route per session
    stats = guard_stats(state, "proj-j")
    assert stats["warned_then_avoided"] == 1
    assert stats["follow_ups_seen_at"] == {"PreToolUse": 0, "PostToolUse": 1}
    assert stats["ran"] == 2
    assert _queries(counter) == 1  # the hot path started no provider process


def test_codex_deny_once_denies_and_the_retry_passes(world):
    guard_on, start, propose, _ran, _run, _common, counter, state, _repo = world
    guard_on("deny-once")
    start("T-now-2")
    assert _queries(counter) == 1
    specific = _valid_pre_tool_use_output(propose("T-now-2", REPEATED))
    assert set(specific) == {"hookEventName", "permissionDecision", "permissionDecisionReason"}
    assert specific["permissionDecision"] == "deny"
    assert 0 < len(specific["permissionDecisionReason"]) <= 600
    assert f"Failed: {REPEATED}" in specific["permissionDecisionReason"]
    assert propose("T-now-2", REPEATED, call="call_retry") is None  # the retry passes
    assert guard_stats(state, "proj-j")["warned_then_repeated"] == 1
    log = (state / "private" / "hooks.log").read_text()
    assert "CANARY" not in log
    assert "T-now-2" not in log


def test_codex_fault_paths_are_silent_with_exit_0(world, tmp_path):
    guard_on, start, propose, _ran, run, common, _counter, state, _repo = world
    guard_on("warn")
    start("T-now-3")
    elsewhere = tmp_path / "other-repo"
    elsewhere.mkdir()
    started = time.monotonic()
    faults = [
        lambda: run("guard", None, raw=b""),
        lambda: run("guard", None, raw=b"not json"),
        lambda: run("guard", None, raw=b"\xff\xfe"),
        lambda: run("guard", None, raw=b'{"a": 1, "a": 2}'),
        lambda: run(
            "guard",
            {
                **common("T-now-3", "PreToolUse"),
                "tool_name": "apply_patch",
                "tool_input": {"command": REPEATED},
            },
        ),
        lambda: run("guard", {**common("T-now-3", "UserPromptSubmit"), "prompt": REPEATED}),
        lambda: propose("T-unknown", REPEATED),  # no set: a detached prefetch, no answer
        lambda: propose("T-now-3", REPEATED, cwd=elsewhere),  # another repository
        lambda: run("hook", None, raw=b"[]"),
        lambda: run("hook", {**common("T-else", "SessionStart", elsewhere), "source": "startup"}),
    ]
    for fault in faults:
        assert fault() is None
    assert time.monotonic() - started < 60 * len(faults)
    log = (state / "private" / "hooks.log").read_text()
    assert "guard codex: outside_repository" in log
    assert "hook codex: outside_repository" in log
    claims = subprocess.run([LOOPX, "session", "list", "--agent-id", "agent-a", "--project-id",
                             "proj-j", "--format", "json"], capture_output=True, timeout=60,
                            env={**os.environ, "LOOPX_RECALL_HOME": str(state)},
                            check=False)  # fmt: skip
    assert b"T-else" not in claims.stdout
    # none of the faults used up the warning: the repeat is still answered once
    assert propose("T-now-3", REPEATED) is not None
