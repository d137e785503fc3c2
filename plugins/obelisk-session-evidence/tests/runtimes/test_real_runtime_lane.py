# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The real-runtime lane (docs/real-runtime-lane.md): the guard inside the real Claude Code
and Codex CLIs, run headless against our scripted model server on 127.0.0.1, with the hooks
``loopx-recall hook install claude|codex --guard`` writes and the Obelisk double (or the
real Obelisk in the real-binary lane) as the provider.

Per runtime, four real sessions in one throw-away HOME, each claimed by the runtime's own
SessionStart hook, and each ending with the runtime's own Stop and SessionEnd, which make the
agent's set for the next session (asserted after session 2):

1. agent-b's session: ``sh build.sh`` fails (another agent's failure);
2. agent-a's first session: the test run (``pytest``) fails, ``sh lint.sh`` succeeds;
   these transcripts are the runtime's own, as it wrote them;
3. agent-a, guard ``warn``: a near miss, the prior success and agent-b's failure run
   silently, then the failed test run is warned in the model's next request with its
   decisive error line; one provider query in the whole session; the follow-ups are
   recorded at PostToolUse with the failed ones counted; two provider queries (its start,
   its end);
4. agent-a, guard ``deny-once``: the repeat is denied (the model sees the runtime's deny
   text, the command did not run), the retry runs.

What reached the model is read from the scripted server's record (see model_server.py for
the wire facts); the texts the runtimes use for a hook's context and deny are facts observed
from the real CLIs (AGENT_RUNTIMES.md):

* Claude Code 2.1.328: ``additionalContext`` arrives as text
  ``PreToolUse:Bash hook additional context: <text>``; a deny as the call's ``tool_result``
  with ``is_error: true`` and ``PreToolUse:Bash hook error: <reason>``.
* Codex 0.169.0: ``additionalContext`` arrives as a ``developer`` message before the call's
  output; a deny as the call's ``function_call_output``
  ``Command blocked by PreToolUse hook: <reason>. Command: <cmd>``.
"""

from __future__ import annotations

import json
import os
import select
from pathlib import Path

import pytest

from loopx_recall_core.plugin_api import index_session_name
from loopx_recall_core.testing import guard_stats
from loopx_recall_core.testing import guard_store as store

from ..conftest import processes_with_home
from ..guard.test_guard_end_to_end import _counting_wrapper, _wait_for_set, stage_two
from ..obelisk_double.fixtures import OBELISK_WRAPPER, run_obelisk
from . import lane
from .model_server import ScriptedModel

REPEATED = "pytest -q -p no:cacheprovider tests/test_api.py"
NEAR_MISS = "pytest -q -p no:cacheprovider tests/test_api.py -k smoke"
SUCCEEDED = "sh lint.sh"
OTHERS_FAILURE = "sh build.sh"
AFTER = "git --version"
#: The decisive line of REPEATED's failure (pytest's ``E`` line and short summary carry it).
DECISIVE = "GET /api/items answered 500"

#: A small project the sessions work in (content synthetic).
PROJECT = {
    "tests/test_api.py": (
        "from pathlib import Path\n\n\n"
        "def test_get():\n"
        "    with open(Path(__file__).parent.parent / 'runs.log', 'a') as log:\n"
        "        log.write('run\\n')\n"
        "    status = 500\n"
        f"    assert status == 200, {DECISIVE!r}\n\n\n"
        "def test_smoke():\n"
        "    assert True\n"
    ),
    "lint.sh": "echo 'lint: all clean'\n",
    "build.sh": "echo 'building...'\necho \"error: cannot find module 'left-pad'\" >&2\nexit 2\n",
}


def _skip_reason() -> str | None:
    if os.environ.get("LOOPX_RECALL_RUNTIMES") == "0":
        return "LOOPX_RECALL_RUNTIMES=0: the real-runtime lane was switched off"
    return lane.installed()


#: scripts/test installs the runtimes before pytest starts, so this is decided once, here
_SKIP = _skip_reason()
pytestmark = [pytest.mark.real_runtime, pytest.mark.real_obelisk,
              pytest.mark.skipif(_SKIP is not None, reason=str(_SKIP))]  # fmt: skip


def _texts(value: object) -> list[str]:
    """Every string inside a request body."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _texts(item)]
    if isinstance(value, list):
        return [text for item in value for text in _texts(item)]
    return []


class Runtime:
    """What differs between the two runtimes, for the scenario below."""

    def __init__(self, name: str, home: Path, model: ScriptedModel, env: dict[str, str]):
        self.name, self.home, self.model, self.env = name, home, model, env
        if name == "codex":
            lane.codex_config(home / ".codex", model.port)

    def session(self, repo: Path) -> str:
        """Run one headless session in ``repo``; returns its session id."""
        if self.name == "claude":
            return lane.run_claude(self.home, repo, self.model.port, self.env)["session_id"]
        lane.run_codex(self.home, repo, self.model.port, self.env)
        return str(self.model.requests[0]["body"]["client_metadata"]["session_id"])

    def results(self) -> list[tuple[str, object, str]]:
        """What the model was told about each shell call, from the last request of the
        session: ``(command, is_error or None, the result's text)`` in call order."""
        body = self.model.requests[-1]["body"]
        if self.name == "claude":
            calls, out = {}, []
            for message in body["messages"]:
                for block in message["content"] if isinstance(message["content"], list) else []:
                    if block.get("type") == "tool_use":
                        calls[block["id"]] = block["input"]["command"]
                    elif block.get("type") == "tool_result":
                        content = block["content"]
                        text = content if isinstance(content, str) else "\n".join(_texts(content))
                        out.append((calls[block["tool_use_id"]], block.get("is_error"), text))
            return out
        calls, out = {}, []
        for item in body["input"]:
            if item.get("type") == "function_call":
                calls[item["call_id"]] = json.loads(item["arguments"])["cmd"]
            elif item.get("type") == "function_call_output":
                output = item["output"]
                text = output if isinstance(output, str) else "\n".join(_texts(output))
                out.append((calls[item["call_id"]], None, text))
        return out

    def context_after(self, command: str) -> list[str]:
        """The hook context texts that reached the model with ``command``'s result: Claude
        Code 2.1.328 sends them as a ``system`` message in ``messages`` right after the user
        turn that carries the result (observed), Codex in a developer message just before
        the call's output."""
        body = self.model.requests[-1]["body"]
        found: list[str] = []
        if self.name == "claude":
            calls: dict[str, str] = {}
            after = False  # inside the messages that follow the command's result
            for message in body["messages"]:
                blocks = message["content"] if isinstance(message["content"], list) else []
                if message["role"] == "assistant":
                    after = False
                for block in blocks:
                    if block.get("type") == "tool_use":
                        calls[block["id"]] = block["input"]["command"]
                ids = [b.get("tool_use_id") for b in blocks if b.get("type") == "tool_result"]
                if message["role"] == "user" and any(calls.get(i) == command for i in ids):
                    after = True
                    found += [t for b in blocks if b.get("type") == "text" for t in _texts(b)]
                elif after and message["role"] != "assistant":
                    found += _texts(message["content"])
            return found
        items, calls = body["input"], {}
        for index, item in enumerate(items):
            if item.get("type") == "function_call":
                calls[item["call_id"]] = json.loads(item["arguments"])["cmd"]
            if item.get("type") == "function_call_output" and calls.get(item["call_id"]) == command:
                back = index - 1
                while back >= 0 and items[back].get("type") == "message":
                    if items[back].get("role") == "developer":
                        found += _texts(items[back].get("content"))
                    back -= 1
        return found


@pytest.fixture
def lane_world(loopx, archive_home, obelisk_bin, tmp_path):
    home = archive_home.home
    repo = home / "src" / "lane-project"
    for name, text in PROJECT.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    wrapper, counter = _counting_wrapper(tmp_path, obelisk_bin)
    state = tmp_path / "loopx"
    env = {"LOOPX_RECALL_OBELISK_BIN": str(wrapper), "LOOPX_RECALL_HOME": str(state),
           "LOOPX_RECALL_NODE22": os.environ["LOOPX_RECALL_NODE22"],
           "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence"}  # fmt: skip

    def cli(*args):
        return loopx(*args, extra_env={"LOOPX_RECALL_OBELISK_BIN": str(wrapper)})

    def catch_up():
        """Time passes before the next session: the index takes in what the runtime wrote.
        The real Obelisk refreshes at most every 30 s on its own (fact 15 in
        obelisk_double/README.md), so a session starting seconds after the last one would
        not see it yet; a forced ``--build`` ignores that debounce (fact 14)."""
        built = run_obelisk(["--build"], env={"HOME": str(home)}, binary=obelisk_bin)
        assert built.returncode == 0, built.stderr[-2000:]

    with ScriptedModel() as model:
        yield home, repo, state, counter, cli, model, env, catch_up


def _settle(home: Path) -> None:
    """Wait (on their exit, never the clock) for detached prefetches still running."""
    for pid in processes_with_home(home):
        try:
            descriptor = os.pidfd_open(pid)
        except (ProcessLookupError, OSError):
            continue
        try:
            select.select([descriptor], [], [], 90)
        finally:
            os.close(descriptor)


@pytest.mark.parametrize("name", ["claude", "codex"])
def test_the_guard_inside_the_real_runtime(name, lane_world, obelisk_bin):
    home, repo, state, counter, cli, model, env, catch_up = lane_world
    runtime = Runtime(name, home, model, env)
    stage_two(cli, state, Path(env["LOOPX_RECALL_OBELISK_BIN"]), repo, name, ())

    def install(agent, *guard):
        cli("hook", "install", name, "--agent-id", agent, "--project-id", "proj-j", *guard,
            "--yes")  # fmt: skip

    def claimed(agent) -> str:
        return cli("session", "list", "--agent-id", agent, "--project-id", "proj-j",
                   "--show-private", "--format", "json").stdout  # fmt: skip

    def with_set(session):
        """The gate before a guarded session's first answer: its prefetched set exists."""
        assert _wait_for_set(store.set_path(state, name, session), home), "no prefetched set"

    # 1. agent-b's failure, and 2. agent-a's failure and success: the runtime's own records
    install("agent-b")
    model.script([OTHERS_FAILURE])
    session_b = runtime.session(repo)
    assert [command for command, _, _ in runtime.results()] == [OTHERS_FAILURE]
    install("agent-a", "--guard", "--policy", "warn")
    model.script([REPEATED, SUCCEEDED], gate=with_set)
    session_a1 = runtime.session(repo)
    lane.record(name, "failed-and-ok", home, session_a1)
    first = runtime.results()
    assert [c for c, _, _ in first] == [REPEATED, SUCCEEDED]
    assert DECISIVE in first[0][2]  # the real failure the runtime recorded
    _settle(home)
    assert session_b in claimed("agent-b")
    assert session_a1 in claimed("agent-a")
    assert session_b not in claimed("agent-a")
    # the runtime's own Stop/SessionEnd ran the claiming hook when a1 ended: the agent's set
    # was made then, with a1's calls (the set its SessionStart kept left a1 out), so the
    # next session's first call is guarded from a1 however early it comes
    agent_set = store.agent_set_path(state, name, "agent-a", "proj-j")
    header = json.loads(agent_set.read_bytes().split(b"\n", 1)[0])
    assert store.key_of(index_session_name(name, session_a1))[:16] in header["sessions"].split()
    assert header["status"] == "succeeded"
    catch_up()

    # 3. guard warn: silent for the near miss, the success and agent-b's failure; the repeat
    # is warned in the model's next request with its decisive line
    before = guard_stats(state, "proj-j")
    counter.write_text("")
    model.script([NEAR_MISS, SUCCEEDED, OTHERS_FAILURE, REPEATED, AFTER], gate=with_set)
    session_a2 = runtime.session(repo)
    _settle(home)
    assert session_a2 in claimed("agent-a")  # SessionStart claimed it
    # one provider query at its start (its own set) and one at its end (the agent's set:
    # Stop, then SessionEnd finding the transcript as Stop left it). The real Obelisk takes
    # a session in at most every 30 s on its own (fact 15 in obelisk_double/README.md), so
    # its index may still be behind at that end: then the agent's set is made once more,
    # once, BEHIND_RETRY_S later (observed on the real 0.2.1: 3 queries); the double's index
    # is current, so never there
    queries = len(counter.read_text().splitlines())
    assert queries == 2 or (queries == 3 and obelisk_bin != OBELISK_WRAPPER), queries
    ran = runtime.results()
    assert [c for c, _, _ in ran] == [NEAR_MISS, SUCCEEDED, OTHERS_FAILURE, REPEATED, AFTER]
    for quiet in (NEAR_MISS, SUCCEEDED, OTHERS_FAILURE, AFTER):
        assert not [t for t in runtime.context_after(quiet) if "loopx-recall guard" in t], quiet
    warned = [t for t in runtime.context_after(REPEATED) if "loopx-recall guard" in t]
    assert len(warned) == 1, (runtime.context_after(REPEATED), model.errors)
    if name == "claude":
        assert "PreToolUse:Bash hook additional context: loopx-recall guard:" in warned[0]
    assert f"Failed: {REPEATED}" in warned[0]
    assert DECISIVE in warned[0], warned[0]
    assert str(home) not in warned[0]
    after = guard_stats(state, "proj-j")
    # PostToolUse saw every call of the session; the failed ones (agent-b's build and the
    # repeat; the near miss runs the passing smoke test) are counted as failed
    assert after["ran"] - before["ran"] == 5
    assert after["ran_failed"] - before["ran_failed"] == 2
    assert after["ran_warned_route"] - before["ran_warned_route"] == 1
    # the warned call's follow-up (the next command, another one: avoided) is settled by
    # the next call's PreToolUse, which the runtime runs before any later PostToolUse
    assert after["warned_then_avoided"] - before["warned_then_avoided"] == 1
    seen = {k: after["follow_ups_seen_at"][k] - before["follow_ups_seen_at"][k]
            for k in ("PreToolUse", "PostToolUse")}  # fmt: skip
    assert seen == {"PreToolUse": 1, "PostToolUse": 0}, (before, after)

    # 4. deny-once: denied (not run), then the retry runs
    install("agent-a", "--guard", "--policy", "deny-once")
    runs = (repo / "runs.log").read_text().count("run")
    model.script([REPEATED, REPEATED], gate=with_set)
    session_a3 = runtime.session(repo)
    lane.record(name, "denied-then-retried", home, session_a3)
    _settle(home)
    assert session_a3 in claimed("agent-a")
    (denied_cmd, denied_error, denied), (retry_cmd, _, retried) = runtime.results()
    assert denied_cmd == retry_cmd == REPEATED
    if name == "claude":
        assert denied_error is True
        assert denied.startswith("PreToolUse:Bash hook error: "), denied
    else:
        assert denied.startswith("Command blocked by PreToolUse hook: "), denied
    assert f"Failed: {REPEATED}" in denied
    assert DECISIVE in retried  # the retry ran: the real output
    assert (repo / "runs.log").read_text().count("run") == runs + 1  # the denied one did not
    assert model.proxied == []  # nothing left the loopback model
    assert model.errors == []  # every guarded session's set was there before its first answer
