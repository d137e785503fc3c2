# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The guard as users run it (issue 39): on a busy machine, with a command that looks like
it holds a secret, with parallel calls of one session, from a session's first call, and
every silence explained. Each test reproduces one way it went silent before.

(The guard from an environment whose PATH has neither Obelisk nor its Node: the plugin's
``tests/guard/test_guard_pinned_runtime.py``.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest

from loopx_recall_core import hook_log
from loopx_recall_core.guard import hotpath, store
from loopx_recall_core.guard.stats import guard_stats, render_text
from loopx_recall_core.recall.sessions.ledger import SessionLedger
from tests.guard import helpers
from tests.state_builders import enablement, seed

AN_HOUR_AGO = (datetime.now(UTC) - timedelta(hours=1)).isoformat()
FAILED = "Bash: pytest tests/test_api.py\noutcome: failed (exit 1)\nE   AssertionError: 500"


def _fail(command: str, ref: str) -> dict:
    return helpers.item("prior_failure", f"Bash: {command}\noutcome: failed (exit 1)\nE   boom",
                        at=AN_HOUR_AGO, ref=ref)  # fmt: skip


def _arrange(home, items=None, policy="warn", **overrides):
    overrides.setdefault("binding", helpers.BINDING)
    seed(enablement("fake-provider", stage=2, guard=policy, **overrides))
    helpers.write(home, items if items is not None else [helpers.item(
        "prior_failure", FAILED, at=AN_HOUR_AGO)])  # fmt: skip
    return home


def _env(home) -> dict[str, str]:
    return {"PATH": os.environ["PATH"], "HOME": str(home.parent),
            "LOOPX_RECALL_HOME": str(home), "LOOPX_RECALL_LOAD_PLUGINS": ""}  # fmt: skip


IDS = ("--agent-id", "agent-a", "--project-id", "proj-j")


def _decide(home, payload, **kwargs):
    return hotpath.decide_payload("claude", payload, agent_id="agent-a", project_id="proj-j",
                                  root=home, now=time.time(), started=time.monotonic(),
                                  **kwargs)  # fmt: skip


# 1. a busy machine: no deadline of our own


def test_a_slow_start_still_gets_its_warning(loopx_home):
    """Before: a 300 ms SIGALRM from the process start; a hook whose payload came later (a
    busy machine: the runtime's write, the interpreter's start) printed nothing. Now the
    bound is the runtime's hook timeout (600 s, less a margin): the warning comes late,
    but it comes. The payload is held back well past the old 300 ms here."""
    home = _arrange(loopx_home)
    process = subprocess.Popen([helpers.LOOPX, "guard", "claude", *IDS], env=_env(home),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)  # fmt: skip
    time.sleep(0.8)  # the machine is busy: the payload arrives late (never a flaky pass)
    out, err = process.communicate(json.dumps(helpers.pre_tool_use("pytest tests/test_api.py"))
                                   .encode(), timeout=120)  # fmt: skip
    assert (process.returncode, err) == (0, b"")
    assert "AssertionError: 500" in json.loads(out)["hookSpecificOutput"]["additionalContext"]


def test_the_bound_is_the_runtimes_hook_timeout_less_a_margin():
    assert hotpath.RUNTIME_HOOK_TIMEOUT_S == {"claude": 600.0, "codex": 600.0}
    assert hotpath._deadline("claude", []) == 600.0 - hotpath.MARGIN_S
    assert hotpath._deadline("codex", ["--deadline-ms", "30000"]) == 30.0
    assert hotpath._deadline("codex", ["--deadline-ms", "9999999"]) == 600.0 - hotpath.MARGIN_S


def test_a_run_truly_out_of_time_says_so_in_the_hook_log_and_stats(loopx_home):
    home = _arrange(loopx_home)
    # a 50 ms bound (the smallest --deadline-ms) with the payload 1 s late: out of time
    process = subprocess.Popen([helpers.LOOPX, "guard", "claude", *IDS, "--deadline-ms", "50"],
                               env=_env(home), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)  # fmt: skip
    time.sleep(1.0)
    out, err = process.communicate(json.dumps(helpers.pre_tool_use("pytest tests/test_api.py"))
                                   .encode(), timeout=120)  # fmt: skip
    assert (process.returncode, out, err) == (0, b"", b"")
    assert hook_log.read(home)[-1].endswith("guard claude: out_of_time")
    stats = guard_stats(home, "proj-j")
    assert stats["out_of_time"] == 1
    assert "last left unanswered: out_of_time" in render_text(stats)


# 2. a fixed, small hot path


@pytest.mark.parametrize("command", [
    "curl -H 'X-Auth: none' http://localhost:8080/api/health",
    "psql -h db.internal:5432 -c 'select api_version()'",
])  # fmt: skip
def test_a_command_that_looks_like_a_secret_never_loads_the_detector(loopx_home, command):
    """Before: ``auth``, ``api`` or ``host:port`` was enough for the hot path to load the
    secret detector (hundreds of ms, seconds on a busy machine): past the deadline, the
    repeat went unanswered. Now the proposed command is read by our cheap rules alone."""
    home = _arrange(loopx_home, [_fail(command, "m1")])
    code = (
        "import sys\n"
        "from loopx_recall_core.guard import hotpath\n"
        f"hotpath.main('claude', {list(IDS)!r})\n"
        "sys.stderr.write(repr(sorted(m for m in sys.modules if 'betterleaks' in m)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, **_env(home)},
                          input=json.dumps(helpers.pre_tool_use(command)).encode(),
                          capture_output=True, timeout=120, check=False)  # fmt: skip
    assert done.stderr == b"[]"
    assert "boom" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


def test_the_cheap_rules_still_redact_what_they_know_and_restore_the_detector_after():
    from loopx_recall_core import redaction

    command = "curl -H 'Authorization: Bearer sk-live-9f8a7b6c5d4e3f2a1b0c9d8e' https://x.io/a"
    with redaction.cheap_rules_only():
        cheap = redaction.redact_command(command)
    assert "sk-live-9f8a7b6c5d4e3f2a1b0c9d8e" not in cheap
    assert cheap == redaction.redact_cheap(command)
    assert redaction._CHEAP_ONLY == [False]


# 5. parallel calls of one session


def test_parallel_reads_of_one_session_record_lose_no_update(loopx_home, monkeypatch):
    """Before: each call read the session's record at its start and wrote it at its end;
    two calls whose read-modify-write overlapped lost one update (a deny-once route
    denied again). The first call here waits, after its read, for the second one's read
    (an event; at most 2 s, which the lock makes it wait out): with the record's lock the
    second reads only after the first wrote, and both routes stay warned."""
    commands = ["pytest tests/a.py", "npm run lint"]
    home = _arrange(loopx_home, [_fail(c, f"m{n}") for n, c in enumerate(commands)],
                    policy="deny-once")  # fmt: skip
    second_read = threading.Event()
    reads = []
    real_read = store.read_session

    def read_session(root, runtime, session):
        record = real_read(root, runtime, session)
        reads.append(1)
        if len(reads) == 1:
            second_read.wait(2.0)
        else:
            second_read.set()
        return record

    monkeypatch.setattr(store, "read_session", read_session)
    with ThreadPoolExecutor(2) as pool:
        futures = [pool.submit(_decide, home, helpers.pre_tool_use(c, tool_use_id=f"t{n}"),
                               deadline=60.0, refresh=False)
                   for n, c in enumerate(commands)]  # fmt: skip
        answers = [f.result(timeout=120) for f in futures]
    assert all(a["hookSpecificOutput"]["permissionDecision"] == "deny" for a in answers)
    assert len(real_read(home, "claude", "S-current")["warned"]) == 2
    for n, command in enumerate(commands):  # each retry passes
        assert _decide(home, helpers.pre_tool_use(command, tool_use_id=f"r{n}"),
                       deadline=60.0, refresh=False) is None  # fmt: skip


def test_six_parallel_hooks_deny_each_route_exactly_once_and_every_retry_passes(loopx_home):
    """Six PreToolUse hooks of one session at once, as a runtime runs parallel calls: three
    routes, each proposed twice. Each route is denied exactly once, whatever ran beside
    it, and every retry after passes."""
    routes = ["pytest tests/a.py", "npm run lint", "cargo test -p core"]
    home = _arrange(loopx_home, [_fail(c, f"m{n}") for n, c in enumerate(routes)],
                    policy="deny-once")  # fmt: skip

    def hook(n: int, command: str):
        return helpers.run_guard(home, "claude", helpers.pre_tool_use(command,
                                 tool_use_id=f"p{n}"))  # fmt: skip

    with ThreadPoolExecutor(6) as pool:
        done = list(pool.map(hook, range(6), routes * 2))
    assert all(d.returncode == 0 and d.stderr == b"" for d in done)
    denied = [routes[n % 3] for n, d in enumerate(done) if d.stdout]
    assert sorted(denied) == sorted(routes)
    for n, command in enumerate(routes):
        assert helpers.run_guard(home, "claude", helpers.pre_tool_use(
            command, tool_use_id=f"r{n}")).stdout == b""  # fmt: skip


# 6. the first calls


@pytest.mark.parametrize("mode", ["runtime", None])
def test_a_first_call_is_answered_by_the_agents_set_with_runtime_sessions(loopx_home, mode):
    """Before: the agent's set answered only a session claimed in the ledger, so with
    runtime agent sessions (every session of the bound runtimes in the repository is the
    agent's; also an enablement from before the ledger) a session's first calls were
    silent. The session here has no set of its own and no claim."""
    seed(enablement("fake-provider", stage=2, guard="warn", binding=helpers.BINDING,
                    agent_sessions=mode))  # fmt: skip
    items = [helpers.item("prior_failure", FAILED, at=AN_HOUR_AGO)]
    store.write_set(loopx_home, helpers.header(items, session="", scope="agent"), items)
    answer = _decide(loopx_home, helpers.pre_tool_use("pytest tests/test_api.py",
                                                      session="S-new"), refresh=False)
    assert "AssertionError: 500" in answer["hookSpecificOutput"]["additionalContext"]


def test_with_claimed_sessions_an_unclaimed_first_call_says_why(loopx_home):
    seed(enablement("fake-provider", stage=2, guard="warn", binding=helpers.BINDING,
                    agent_sessions="claimed"))  # fmt: skip
    items = [helpers.item("prior_failure", FAILED, at=AN_HOUR_AGO)]
    store.write_set(loopx_home, helpers.header(items, session="", scope="agent"), items)
    payload = helpers.pre_tool_use("pytest tests/test_api.py", session="S-new")
    assert _decide(loopx_home, payload, refresh=False) is None
    last = guard_stats(loopx_home, "proj-j")["last_silence"]
    assert last["reason"] == "session_not_claimed"
    assert "hook install" in last["fix"]
    SessionLedger(loopx_home).claim(agent_id="agent-a", project_id="proj-j", runtime="claude",
                                    session_id="S-new")  # fmt: skip
    assert _decide(loopx_home, payload, refresh=False) is not None


def test_with_no_set_at_all_the_first_call_waits_for_the_making_in_flight(
    loopx_home, monkeypatch
):
    """Before: no set at all (the agent's first session, or its sets just dropped) and the
    first calls were silent while the prefetch made one. Now the call waits for the
    making in flight (its pending marker) within the runtime's bound. The making here
    completes at the hook's first pause: the set appears and the marker goes, as the
    prefetch leaves them."""
    seed(enablement("fake-provider", stage=2, guard="warn", binding=helpers.BINDING))
    marker = store.set_path(loopx_home, "claude", "S-current", create=True).with_suffix(
        ".pending")
    started = []

    def start(*_args, **_kwargs):  # the detached prefetch: its marker, as start_detached
        if not marker.exists():
            marker.write_bytes(b"")
        started.append(1)

    def made(_seconds):
        helpers.write(loopx_home, [helpers.item("prior_failure", FAILED, at=AN_HOUR_AGO)])
        marker.unlink()

    monkeypatch.setattr(hotpath, "_start_prefetch", start)
    monkeypatch.setattr(hotpath, "_pause", made)
    answer = _decide(loopx_home, helpers.pre_tool_use("pytest tests/test_api.py"))
    assert started
    assert "AssertionError: 500" in answer["hookSpecificOutput"]["additionalContext"]


def test_a_making_that_ended_without_a_set_ends_the_wait_and_says_why(loopx_home, monkeypatch):
    seed(enablement("fake-provider", stage=2, guard="warn", binding=helpers.BINDING))
    marker = store.set_path(loopx_home, "claude", "S-current", create=True).with_suffix(
        ".pending")
    pauses = []

    def start(*_args, **_kwargs):
        marker.write_bytes(b"")

    def ended(_seconds):  # the prefetch wrote its outcome into the marker: no set
        pauses.append(1)
        marker.write_bytes(b"not_claimed")

    monkeypatch.setattr(hotpath, "_start_prefetch", start)
    monkeypatch.setattr(hotpath, "_pause", ended)
    assert _decide(loopx_home, helpers.pre_tool_use("pytest tests/test_api.py")) is None
    assert pauses == [1]
    assert guard_stats(loopx_home, "proj-j")["last_silence"]["reason"] == "no_set"


# 4. every silence explained


def test_a_refused_set_is_named_with_its_fix_in_stats_and_status(loopx_home):
    """Before: the set said ``refused: trigger_not_admitted_at_stage``, ``guard stats``
    said 0 and status said nothing of it."""
    from loopx_recall_core.capability_status import _public_enablement

    seed(enablement("fake-provider", stage=2, guard="warn", binding=helpers.BINDING))
    helpers.write(loopx_home, [], status="refused", reason="trigger_not_admitted_at_stage")
    home = loopx_home
    assert _decide(home, helpers.pre_tool_use("pytest tests/test_api.py"), refresh=False) is None
    last = guard_stats(home, "proj-j")["last_silence"]
    assert last["reason"] == "refused:trigger_not_admitted_at_stage"
    assert "capability enable" in last["fix"]
    assert "--agent-id AGENT" in last["fix"]
    from loopx_recall_core.state import StateStore

    row = _public_enablement(StateStore().read().enablements[0], False, 0, 0, ({}, {}, home))
    assert row["guard"]["last_silence"]["reason"] == "refused:trigger_not_admitted_at_stage"
    assert "--agent-id agent-a --project-id proj-j" in row["guard"]["last_silence"]["fix"]
    # before any call: the set itself says why it answers nothing
    from loopx_recall_core.guard.stats import guard_status, render_status_line, set_summaries

    status = guard_status(set_summaries(home), "agent-a", "proj-j", "warn")
    assert status["sets"]["last_unanswered"]["reason"] == "refused:trigger_not_admitted_at_stage"
    assert "newest set not answered: refused:" in render_status_line(status)


def _status_commands(text: str) -> list[str]:
    import re

    return re.findall(r"`(loopx-recall capability status [^`]*)`", text)


def _runs(home, command: str) -> str:
    from click.testing import CliRunner

    from loopx_recall_core.cli import cli

    result = CliRunner().invoke(cli, command.split()[1:], env={"LOOPX_RECALL_LOAD_PLUGINS": ""})
    assert result.exit_code == 0, (command, result.output)
    return result.stdout


def test_the_commands_status_names_for_a_refused_set_run_as_printed(loopx_home):
    """Before: status said `loopx-recall capability status --agent-id agent-a --project-id
    proj-j` names what is missing, a command that stops at once (`Missing argument
    '{agent-turn-recall}'`, then `Missing option '--provider'`, exit 2), and `capability
    enable ... --provider PROVIDER` where status knows the provider."""
    seed(enablement("fake-provider", stage=2, guard="warn", binding=helpers.BINDING))
    helpers.write(loopx_home, [], status="refused", reason="trigger_not_admitted_at_stage")
    shown = _runs(loopx_home, "loopx-recall capability status agent-turn-recall --provider "
                  "fake-provider --agent-id agent-a --project-id proj-j")  # fmt: skip
    line = next(x for x in shown.splitlines() if "newest set not answered" in x)
    assert "--provider PROVIDER" not in line
    assert "capability enable agent-turn-recall --provider fake-provider --agent-id agent-a" in line
    commands = _status_commands(line)
    assert commands
    for command in commands:
        assert "agent agent-a / project proj-j" in _runs(loopx_home, command)


@pytest.mark.parametrize("reason", ["no_set", "set_outdated", "failed:provider_failed"])
def test_every_other_status_command_a_silence_names_runs_as_printed(loopx_home, reason):
    from loopx_recall_core.guard.stats import fix_for

    seed(enablement("fake-provider", stage=2, guard="warn", binding=helpers.BINDING))
    commands = _status_commands(fix_for(reason, "agent-a", "proj-j", provider="fake-provider"))
    assert commands
    for command in commands:
        assert "agent agent-a / project proj-j" in _runs(loopx_home, command)


def test_guard_stats_names_the_one_guarded_agent_and_provider_in_its_fix(loopx_home):
    """Before: `guard stats` named `--agent-id AGENT` (and `--provider PROVIDER`) where the
    project has one guarded enablement: now its fix runs as printed."""
    seed(enablement("fake-provider", stage=2, guard="warn", binding=helpers.BINDING),
         enablement("fake-provider", agent_id="agent-b"))  # fmt: skip
    helpers.write(loopx_home, [], status="refused", reason="trigger_not_admitted_at_stage")
    assert _decide(loopx_home, helpers.pre_tool_use("pytest tests/test_api.py"),
                   refresh=False) is None  # fmt: skip
    shown = _runs(loopx_home, "loopx-recall guard stats --project-id proj-j")
    line = next(x for x in shown.splitlines() if x.startswith("last left unanswered"))
    assert "AGENT" not in line
    assert "PROVIDER" not in line
    commands = _status_commands(line)
    assert commands
    for command in commands:
        assert "agent agent-a / project proj-j" in _runs(loopx_home, command)
