# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall hook claude|codex``: payloads exactly as Claude Code and Codex send them
claim the session; anything wrong exits 0 with one private log line and no id in it.
``hook install`` is tested in tests/recall/test_hook_install.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from loopx_recall_core.recall.sessions import ledger as ledger_module
from loopx_recall_core.recall.sessions.ledger import SessionLedger
from loopx_recall_core.session_hook import read_log, run_hook

LOOPX = str(Path(sys.executable).parent / "loopx-recall")
SESSION = "CANARY-5e0c2a1b-session"
THREAD = "CANARY-0199a7c3-thread"
AGENT = "CANARY-AGENT-a"
OTHER = "CANARY-AGENT-b"
CWD = "/home/CANARY-CWD/src/repo"
CANARIES = ("CANARY",)

# Claude Code: one JSON object on stdin (common fields + SessionStart's `source`).
CLAUDE_SESSION_START = {
    "session_id": SESSION,
    "transcript_path": f"/home/CANARY-CWD/.claude/projects/-repo/{SESSION}.jsonl",
    "cwd": CWD,
    "permission_mode": "default",
    "hook_event_name": "SessionStart",
    "source": "startup",
}
CLAUDE_PROMPT = {
    **CLAUDE_SESSION_START,
    "hook_event_name": "UserPromptSubmit",
    "prompt": "CANARY prompt text",
}
CLAUDE_PROMPT.pop("source")
# Codex `notify`: the JSON is appended as the last argv argument.
CODEX_NOTIFY = {
    "type": "agent-turn-complete",
    "thread-id": THREAD,
    "turn-id": "CANARY-turn-1",
    "cwd": CWD,
    "input-messages": ["CANARY run the tests"],
    "last-assistant-message": "CANARY done",
}
# Codex lifecycle hooks: JSON on stdin.
CODEX_SESSION_START = {
    "session_id": THREAD,
    "transcript_path": None,
    "cwd": CWD,
    "hook_event_name": "SessionStart",
    "model": "gpt-5-codex",
    "permission_mode": "default",
    "source": "startup",
}


@pytest.fixture
def hook(loopx_home):
    def run(*args, stdin: bytes | str | None = None, agent=AGENT, project="proj-j", env=None):
        environ = {k: v for k, v in os.environ.items() if not k.startswith("LOOPX_RECALL_")}
        environ["LOOPX_RECALL_HOME"] = str(loopx_home)
        if agent:
            environ["LOOPX_RECALL_AGENT_ID"] = agent
        if project:
            environ["LOOPX_RECALL_PROJECT_ID"] = project
        environ.update(env or {})
        data = stdin.encode() if isinstance(stdin, str) else stdin
        result = subprocess.run(
            [LOOPX, "hook", *args],
            input=data if data is not None else b"",
            capture_output=True,
            env=environ,
            timeout=30,
            check=False,
        )
        assert result.returncode == 0
        assert result.stdout == b""  # Claude Code would put stdout into the agent's context
        assert b"Traceback" not in result.stderr
        return result

    return run


def _log_is_clean(home: Path) -> list[str]:
    lines = read_log(home)
    assert not any(c in line for line in lines for c in CANARIES)
    return lines


def test_claude_session_start_then_later_events(hook, loopx_home):
    hook("claude", stdin=json.dumps(CLAUDE_SESSION_START))
    hook("claude", stdin=json.dumps(CLAUDE_PROMPT))
    (claim,) = SessionLedger().claims(agent_id=AGENT, project_id="proj-j")
    assert (claim.runtime, claim.session_id) == ("claude", SESSION)
    assert claim.cwd_digest.startswith("sha256:")
    lines = _log_is_clean(loopx_home)
    assert [line.split(" ", 1)[1] for line in lines] == [
        "hook claude: claimed",
        "hook claude: already_claimed",
    ]


def test_claude_agent_from_flags(hook):
    hook("claude", "--agent-id", OTHER, "--project-id", "proj-k",
         stdin=json.dumps(CLAUDE_SESSION_START), agent=None, project=None)
    assert [c.agent_id for c in SessionLedger().claims(project_id="proj-k")] == [OTHER]


def test_codex_notify_argv_payload(hook, loopx_home):
    hook("codex", json.dumps(CODEX_NOTIFY))
    (claim,) = SessionLedger().claims(agent_id=AGENT)
    assert (claim.runtime, claim.session_id) == ("codex", THREAD)
    _log_is_clean(loopx_home)


def test_codex_notify_with_flags_then_payload(hook):
    # notify = ["loopx-recall", "hook", "codex", "--agent-id", A, "--project-id", J] + JSON
    hook("codex", "--agent-id", OTHER, "--project-id", "proj-k", json.dumps(CODEX_NOTIFY),
         agent=None, project=None)
    assert [c.agent_id for c in SessionLedger().claims()] == [OTHER]


def test_codex_lifecycle_hook_stdin(hook):
    hook("codex", stdin=json.dumps(CODEX_SESSION_START))
    hook("codex", json.dumps(CODEX_NOTIFY))  # the same thread, later: idempotent
    (claim,) = SessionLedger().claims(agent_id=AGENT)
    assert claim.session_id == THREAD


@pytest.mark.parametrize(
    ("args", "stdin", "code"),
    [
        (("claude",), "{not json CANARY", "malformed_payload"),
        (("claude",), '{"session_id": "a", "session_id": "b"}', "malformed_payload"),
        (("claude",), "[1, 2]", "malformed_payload"),
        (("claude",), json.dumps({**CLAUDE_SESSION_START, "session_id": 7}), "no_session_id"),
        (("claude",), json.dumps({**CLAUDE_SESSION_START, "session_id": "CANARY x"}),
         "invalid_session_or_agent"),
        (("claude",), "", "no_payload"),
        (("codex", '{"type": "agent-turn-complete", "thread-id": CANARY'), None,
         "malformed_payload"),
        (("codex", json.dumps({**CODEX_NOTIFY, "type": "approval-requested"})), None,
         "not_a_turn_event"),
        (("codex", json.dumps({k: v for k, v in CODEX_NOTIFY.items() if k != "thread-id"})),
         None, "no_session_id"),
        (("claude", "--agent-id"), json.dumps(CLAUDE_SESSION_START), "no_payload"),
    ],
)
def test_malformed_payload_exits_0_claims_nothing_one_log_line(
    hook, loopx_home, args, stdin, code
):
    result = hook(*args, stdin=stdin)
    assert result.stderr == b""
    assert SessionLedger().claims() == []
    lines = _log_is_clean(loopx_home)
    assert len(lines) == 1
    assert lines[0].endswith(f": {code}")


def test_non_utf8_payload_exits_0(hook, loopx_home):
    result = subprocess.run(
        [LOOPX, "hook", "codex", b'{"thread-id": "\xff"}'],
        env={**os.environ, "LOOPX_RECALL_HOME": str(loopx_home),
             "LOOPX_RECALL_AGENT_ID": AGENT, "LOOPX_RECALL_PROJECT_ID": "p"},
        capture_output=True, timeout=30, check=False,
    )
    assert result.returncode == 0
    assert result.stdout == b""
    assert _log_is_clean(loopx_home)[0].endswith(": malformed_payload")


def test_no_agent_configured_and_claimed_by_another(hook, loopx_home):
    hook("claude", stdin=json.dumps(CLAUDE_SESSION_START), agent=None)
    hook("claude", stdin=json.dumps(CLAUDE_SESSION_START), agent=OTHER)
    hook("claude", stdin=json.dumps(CLAUDE_SESSION_START))
    lines = _log_is_clean(loopx_home)
    assert [line.rsplit(": ", 1)[1] for line in lines] == [
        "no_agent_configured",
        "claimed",
        "claimed_by_another",
    ]
    assert [c.agent_id for c in SessionLedger().claims()] == [OTHER]


# Issue 18 item 17: the hook log named outcomes wrongly. Another runtime's session id was
# logged `claimed_by_another` (that outcome means another agent holds the session), and a
# stdin that never closes was logged `no_payload` (`stdin_timeout` was never written).


@pytest.mark.parametrize(
    ("runtime", "session"), [("claude", f"codex:{THREAD}"), ("codex", f"claude:{SESSION}")]
)
def test_another_runtimes_session_is_logged_wrong_runtime(hook, loopx_home, runtime, session):
    hook(runtime, stdin=json.dumps({**CLAUDE_SESSION_START, "session_id": session}))
    assert SessionLedger().claims() == []
    assert [line.rsplit(": ", 1)[1] for line in _log_is_clean(loopx_home)] == ["wrong_runtime"]


def test_a_full_ledger_is_logged_ledger_full(loopx_home, monkeypatch):
    monkeypatch.setattr(ledger_module, "MAX_CLAIMS", 1)
    SessionLedger().claim(agent_id=AGENT, project_id="p", runtime="claude", session_id="s-1")
    outcome = run_hook("claude", agent_id=AGENT, project_id="p",
                       stdin=json.dumps({**CLAUDE_SESSION_START, "session_id": "s-2"}).encode())
    assert outcome == "ledger_full"
    assert read_log(loopx_home)[-1].endswith(": ledger_full")


@pytest.mark.parametrize("runtime", ["claude", "codex"])
def test_a_stdin_that_never_closes_is_logged_stdin_timeout(loopx_home, runtime):
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LOOPX_RECALL_")}
    environ.update(LOOPX_RECALL_HOME=str(loopx_home), LOOPX_RECALL_AGENT_ID=AGENT,
                   LOOPX_RECALL_PROJECT_ID="proj-j")  # fmt: skip
    # The test holds the pipe's write end open (half a payload, never closed) and waits
    # for the hook to exit on its own stdin deadline: no clock in the test.
    with subprocess.Popen(
        [LOOPX, "hook", runtime], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env=environ,
    ) as process:  # fmt: skip
        assert process.stdin is not None
        process.stdin.write(b'{"session_id": "' + SESSION.encode())
        process.stdin.flush()
        stdout, stderr = process.stdout.read(), process.stderr.read()  # EOF: it exited
        assert process.wait() == 0
        process.stdin.close()
    assert (stdout, stderr) == (b"", b"")
    assert SessionLedger().claims() == []
    assert [line.rsplit(": ", 1)[1] for line in _log_is_clean(loopx_home)] == ["stdin_timeout"]


def test_unusable_state_folder_still_exits_0(hook, loopx_home):
    loopx_home.mkdir()
    os.chmod(loopx_home, 0o777)
    result = hook("claude", stdin=json.dumps(CLAUDE_SESSION_START))
    assert result.stderr == b""


@pytest.mark.parametrize("where", ["relative", "a-file"])
@pytest.mark.parametrize("runtime", ["claude", "codex"])
def test_a_state_folder_that_cannot_be_used_at_all_still_exits_0(hook, tmp_path, where, runtime):
    # a relative LOOPX_RECALL_HOME, or one that is a file: no private folder to log to
    home = "relative-state"
    if where == "a-file":
        (tmp_path / "state-file").write_text("")
        home = str(tmp_path / "state-file")
    result = hook(runtime, stdin=json.dumps(CLAUDE_SESSION_START),
                  env={"LOOPX_RECALL_HOME": home})  # fmt: skip
    assert result.stderr == b""
