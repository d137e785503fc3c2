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


def _linked_claude_folder(tmp_path):
    """``~/.claude`` (the guard's HOME is the state folder's parent: helpers.run_guard)
    linked to a dotfiles folder, as many keep it."""
    kept = tmp_path / "dotfiles" / "claude"
    (kept / "projects" / "-repo").mkdir(parents=True)
    (tmp_path / ".claude").symlink_to(kept)
    return tmp_path / ".claude" / "projects" / "-repo" / f"{MARKED}.jsonl"


def _marked_call(loopx_home, transcript) -> None:
    payload = helpers.pre_tool_use("ls -la", session=MARKED, transcript_path=str(transcript))
    done = helpers.run_guard(loopx_home, "claude", payload)
    assert (done.returncode, done.stdout) == (0, b"")


def test_the_hot_path_follows_a_linked_transcript_inside_the_runtimes_folder(
    loopx_home, tmp_path
):
    # before: O_NOFOLLOW alone, so the marker in a transcript under a linked ~/.claude
    # was never read on the hot path
    seed(enablement("fake-provider", stage=2, guard="warn", binding=helpers.BINDING))
    items = [helpers.item("prior_failure", FAILED, at=AT, session=MARKED)]
    live = helpers.write(loopx_home, items, sessions=store.key_of(MARKED)[:16])
    transcript = _linked_claude_folder(tmp_path)
    moved = transcript.parent.parent / "-repo-old" / transcript.name  # where it really is
    moved.parent.mkdir()
    moved.write_text(json.dumps({"type": "user", "message": PRIVATE_MARKER}) + "\n")
    transcript.symlink_to(moved)  # the payload's transcript_path is itself a link
    _marked_call(loopx_home, transcript)
    assert not live.exists()


def test_the_hot_path_refuses_a_linked_transcript_leading_out_of_it(loopx_home, tmp_path):
    seed(enablement("fake-provider", stage=2, guard="warn", binding=helpers.BINDING))
    items = [helpers.item("prior_failure", FAILED, at=AT, session=MARKED)]
    live = helpers.write(loopx_home, items, sessions=store.key_of(MARKED)[:16])
    transcript = _linked_claude_folder(tmp_path)
    outside = tmp_path / "notes"  # a folder of the user's, outside the runtime's folders
    outside.mkdir()
    (outside / transcript.name).write_text(f"{PRIVATE_MARKER}\n")
    transcript.parent.rmdir()
    transcript.parent.symlink_to(outside)  # before: a folder link on the way was followed
    _marked_call(loopx_home, transcript)
    assert live.exists()  # never read: what it holds counts for nothing
    assert "hot_scan" not in store.read_session(loopx_home, "claude", MARKED)
