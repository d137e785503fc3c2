# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Transcript text never reaches the operator's terminal raw.

A tool output in a transcript can hold terminal control sequences: OSC 52 writes the
clipboard, OSC 0 sets the window title, ``ESC [2J`` and ``ESC c`` clear the screen, a C1
CSI does what ``ESC [`` does, a bidi override reorders what is shown. ``recall show``,
``recall history --show-private`` and ``session list --show-private`` printed them as they
were. Text output now shows each such character as its escape (``\\x1b``); newline and
tab stay; JSON output is unchanged (it escapes C0 itself, and a program reads it).
"""

from __future__ import annotations

import importlib
import json

import pytest
from click.testing import CliRunner

from loopx_recall_core.cli import cli
from loopx_recall_core.cli._render import dumps, terminal_text
from loopx_recall_core.plugin import manager as plugins_module
from loopx_recall_core.recall.sessions.ledger import SessionLedger

from ..fake_provider import FakeProvider, host_with

capability_cli = importlib.import_module("loopx_recall_core.cli.capability")
# the operator commands load the plugins in the library, not in cli/
recall_lib = importlib.import_module("loopx_recall_core.operator_requests")

HOSTILE = (
    "pytest failed\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07"  # clipboard write
    "\x1b]0;owned\x07"  # window title
    "\x1b[2J\x1bc"  # clear screen, full reset
    "\x9b31m\x9d0;t\x9c"  # the same through C1 controls
    "\u202egnp.exe\u202c\u2066x\u2069"  # bidi override and isolate
    "\x7f\x00\r\x08"  # DEL, NUL, carriage return, backspace
    "\nnext line\tafter a tab"
)
RAW = ["\x1b", "\x07", "\x9b", "\x9c", "\x9d", "\u202e", "\u202c", "\u2066", "\u2069",
       "\x7f", "\x00", "\r", "\x08"]  # fmt: skip
AGENT = ["--agent-id", "agent-a", "--project-id", "proj-j"]
ENABLE = ["capability", "enable", "agent-turn-recall", "--provider", "obelisk-session-evidence",
          *AGENT, "--agent-sessions", "runtime", "--history-source", "codex"]  # fmt: skip
HISTORY = ["recall", "history", *AGENT, "--term", "pytest"]


@pytest.fixture
def run(monkeypatch, loopx_home):
    fake = FakeProvider(snippet=HOSTILE, session="sess-\x1b[2J-", items=1)
    for module in (capability_cli, recall_lib, plugins_module):
        monkeypatch.setattr(module, "load_host", lambda *a, **k: host_with(fake))
    runner = CliRunner()

    def invoke(args):
        result = runner.invoke(cli, args, catch_exceptions=False)
        assert result.exit_code == 0, result.output
        assert "Traceback" not in result.output
        return result.stdout

    invoke(ENABLE)
    return invoke


def _is_neutral(text: str) -> None:
    for raw in RAW:
        assert raw not in text, repr(raw)
    assert "\\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\\x07" in text  # shown, visibly
    assert "\\x1b[2J\\x1bc\\x9b31m" in text
    assert "\\u202egnp.exe\\u202c\\u2066x\\u2069\\x7f\\x00\\x0d\\x08" in text
    assert "\nnext line\tafter a tab" in text  # newline and tab are layout, kept


def test_history_show_private_and_show_print_no_control_sequence(run):
    text = run([*HISTORY, "--show-private"])
    _is_neutral(text)
    assert "sess-\\x1b[2J-0: " in text  # the session ref, also from the transcript
    handle = json.loads(run([*HISTORY, "--format", "json"]))["private_ref"]
    _is_neutral(run(["recall", "show", handle]))


def test_json_output_keeps_the_text_as_it_was(run):
    out = run([*HISTORY, "--show-private", "--format", "json"])
    data = json.loads(out)
    assert data["items"][0]["snippet"] == HOSTILE
    assert data["items"][0]["session_ref"] == "sess-\x1b[2J-0"
    assert out == dumps(data) + "\n"  # the one JSON rendering, not the text one
    assert "\\u001b]52;c;" in out  # json.dumps escapes C0 itself
    assert "\x1b" not in out
    shown = json.loads(run(["recall", "show", data["private_ref"], "--format", "json"]))
    assert shown["result"]["items"][0]["snippet"] == HOSTILE


def test_replan_text_output_prints_no_control_sequence(run):
    text = run(["recall", "replan", "--proposed-command", "pytest", *AGENT, "--show-private"])
    for raw in RAW:
        assert raw not in text


def test_session_list_prints_no_control_sequence(run):
    # a hook's payload names the session: printable for the ledger, but C1 and bidi pass
    SessionLedger().claim(
        agent_id="agent-a", project_id="proj-j", runtime="claude", session_id="s\x9b2J\u202e"
    )
    text = run(["session", "list", "--agent-id", "agent-a", "--show-private"])
    assert "claude s\\x9b2J\\u202e (first seen" in text


def test_terminal_text_shows_what_a_terminal_would_act_on():
    assert terminal_text("plain ünïcode ✓ text\n\tindented") == "plain ünïcode ✓ text\n\tindented"
    assert terminal_text("\x1b\x7f\x85\x9f\xa0") == "\\x1b\\x7f\\x85\\x9f\xa0"
    assert terminal_text("\u202a\u202e\u2066\u2069\u200b") == "\\u202a\\u202e\\u2066\\u2069\u200b"
    # a lone surrogate (JSON can hold one) cannot be written as UTF-8: shown, not raised
    assert terminal_text("a\ud800b") == "a\\ud800b"
