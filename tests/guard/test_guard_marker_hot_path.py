# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The private marker reaches another live session's set before the marked session's turn
ends: the marked session's next guarded call reads what its transcript gained since its
last call and, finding ``loopx-recall:private``, drops every set holding that session, so
another session proposing a repeat of its failure is not warned with its content."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta

from loopx_recall_core.guard import store
from loopx_recall_core.private_marker import PRIVATE_MARKER
from tests.guard import helpers
from tests.state_builders import enablement, seed

MARKED = "S-marked-live"  # the session that becomes private mid-turn
FAILED = "Bash: pytest tests/test_api.py\noutcome: failed (exit 1)\nE   AssertionError: 500"
AT = (datetime.now(UTC) - timedelta(hours=2)).isoformat()


def test_a_marker_written_mid_turn_reaches_another_sessions_set_at_the_next_call(
    loopx_home, tmp_path
):
    seed(enablement("fake-provider", stage=2, guard="warn", binding=helpers.BINDING))
    # the live session S-current's set holds MARKED's failure (MARKED's turn is under way)
    items = [helpers.item("prior_failure", FAILED, at=AT, session=MARKED)]
    live = helpers.write(loopx_home, items, sessions=store.key_of(MARKED)[:16])
    transcript = tmp_path / f"{MARKED}.jsonl"
    transcript.write_text('{"type": "user", "message": {"content": "fix the api"}}\n' * 200)

    def marked_call() -> None:  # MARKED proposes an unrelated shell call
        payload = helpers.pre_tool_use("ls -la", session=MARKED, transcript_path=str(transcript))
        done = helpers.run_guard(loopx_home, "claude", payload)
        assert done.returncode == 0
        assert done.stdout == b""

    marked_call()
    assert live.exists()  # no marker: nothing dropped
    with transcript.open("a") as out:  # the owner marks MARKED private, mid-turn
        out.write(json.dumps({"type": "user", "message": {"content": PRIVATE_MARKER}}) + "\n")
    started = time.time()
    marked_call()
    assert not live.exists()
    assert store.outdated(loopx_home, {"as_of": started - 1})  # a making under way: unused
    # S-current proposes the repeat: no warning from the marked session's content
    done = helpers.run_guard(loopx_home, "claude", helpers.pre_tool_use("pytest tests/test_api.py"))
    assert done.returncode == 0
    assert done.stdout == b""
    assert store.read_session(loopx_home, "claude", MARKED)["marked_private"] is True
