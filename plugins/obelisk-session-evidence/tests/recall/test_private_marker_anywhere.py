# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall:private`` works wherever it is written: a user message,
an assistant message or a tool's output, at any offset (also far past the snippet cap),
and `session candidates` never shows a private session's first words, wherever in the
transcript the marker is (here 300 KB in, past the 256 KiB it reads to name a session).
Codex transcripts through the installed CLI and the double (it indexes ``event_msg``
``user_message``/``agent_message`` as user/assistant messages and
``function_call_output`` as tool results: obelisk_double/README.md, fact 6, and
obelisk.mjs)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from loopx_obelisk_session_evidence.candidates import _candidate

from ..conftest import CAPABILITY
from ..hostile import codex_transcript, now_iso

pytestmark = pytest.mark.real_obelisk

MARKER = "loopx-recall:private"
CANARY = "CANARY-private-anywhere-5e2d"


def _append(path, timestamp, *payloads):
    with path.open("a") as handle:
        for kind, payload in payloads:
            handle.write(json.dumps({"timestamp": timestamp, "type": kind, "payload": payload}))
            handle.write("\n")


def test_the_marker_anywhere_keeps_the_session_out(loopx, archive_home):
    home = archive_home.home
    repo = home / "src" / "anywhere"
    repo.mkdir(parents=True)
    stamp = now_iso(-timedelta(hours=2))
    failed = f"Exit code: 1\n{CANARY}"
    places = {
        "assistant": [("event_msg", {"type": "agent_message",
                                     "message": f"noted, {MARKER}, I will forget it"})],
        "tool-output": [
            ("response_item", {"type": "function_call", "name": "shell", "call_id": "c9",
                               "arguments": json.dumps({"command": ["bash", "-lc", "cat notes"]})}),
            ("response_item", {"type": "function_call_output", "call_id": "c9",
                               "output": "x" * 300_000 + f" {MARKER} " + "y" * 100}),
        ],
        "tool-output-same-call": [],
        "user-far": [("event_msg", {"type": "user_message", "message": "z" * 9000 + MARKER})],
    }  # fmt: skip
    for name, extra in places.items():
        output = failed + ("w" * 5000 + MARKER if name == "tool-output-same-call" else "")
        path = codex_transcript(home, f"thread-{name}", cwd=str(repo), timestamp=stamp,
                                output=output, call_id=f"call-{name}")  # fmt: skip
        _append(path, stamp, *extra)
    codex_transcript(home, "thread-kept", cwd=str(repo), timestamp=stamp, call_id="call-k",
                     later=("no marker here",))  # fmt: skip
    loopx("capability", "enable", *CAPABILITY, "--agent-id", "agent-a", "--project-id",
          "proj-j", "--history-source", "codex", "--repository-root", str(repo),
          "--repository-id", "repo-x", "--agent-sessions", "runtime")  # fmt: skip
    # `session candidates` (first words are shown only on a terminal: read them here)
    transcripts = sorted((home / ".codex" / "sessions").rglob("rollout-thread-*.jsonl"))
    words = {c.session_id: c.first_words
             for c, _file_ms in (_candidate(str(p), "codex") for p in transcripts)}  # fmt: skip
    assert words.pop("thread-kept") == "run the tests"
    assert words == {f"thread-{name}": None for name in places}, words
    out = loopx("recall", "history", "--agent-id", "agent-a", "--project-id", "proj-j",
                "--term", "pytest", "--evidence-type", "prior_failure", "--format", "json",
                "--show-private", "--max-snippet-chars", "400").stdout  # fmt: skip
    data = json.loads(out)
    assert data["status"] == "succeeded", data
    assert {item["session_ref"] for item in data["items"]} == {"codex:thread-kept"}
    assert CANARY not in out
