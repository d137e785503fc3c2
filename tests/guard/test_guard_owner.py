# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The guard's hot path and the session ledger: one statement of the ledger's file."""

from __future__ import annotations


def test_the_hot_path_reads_the_ledger_where_and_as_the_ledger_writes_it(tmp_path):
    """The hot path reads claims raw (no attrs) through the one format module the ledger
    writes by (``recall/sessions/ledger_file.py``)."""
    from loopx_recall_core.guard import hotpath
    from loopx_recall_core.recall.sessions import ledger_file
    from loopx_recall_core.recall.sessions.ledger import SessionLedger

    assert hotpath.ledger_file is ledger_file
    claimed = ledger_file.holds_claim
    book = SessionLedger(tmp_path)
    assert book.path == ledger_file.path(tmp_path)
    assert not claimed(tmp_path, "claude", "s-1", "agent-a", "proj")  # no ledger
    book.claim(agent_id="agent-a", project_id="proj", runtime="claude", session_id="s-1")
    assert claimed(tmp_path, "claude", "s-1", "agent-a", "proj")
    assert not claimed(tmp_path, "claude", "s-1", "agent-b", "proj")
    assert not claimed(tmp_path, "codex", "s-1", "agent-a", "proj")
    book.path.write_text("{not json")
    book.path.chmod(0o600)
    assert not claimed(tmp_path, "claude", "s-1", "agent-a", "proj")  # corrupt
