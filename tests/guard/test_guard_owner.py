# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The guard's hot path and the session ledger: the raw read agrees with the ledger."""

from __future__ import annotations


def test_the_hot_path_reads_the_ledger_where_and_as_the_ledger_writes_it(tmp_path):
    """The hot path reads claims raw (no attrs); its idea of the file is the ledger's."""
    from loopx_recall_core.guard import hotpath
    from loopx_recall_core.recall.sessions import ledger as ledger_module
    from loopx_recall_core.recall.sessions.ledger import SessionLedger

    book = SessionLedger(tmp_path)
    assert book.path == tmp_path.joinpath(*hotpath.LEDGER_PARTS)
    assert hotpath.LEDGER_VERSION == ledger_module.LEDGER_VERSION
    assert hotpath.LEDGER_MAX_BYTES == ledger_module._MAX_BYTES
    assert not hotpath._claimed(tmp_path, "claude", "s-1", "agent-a", "proj")  # no ledger
    book.claim(agent_id="agent-a", project_id="proj", runtime="claude", session_id="s-1")
    assert hotpath._claimed(tmp_path, "claude", "s-1", "agent-a", "proj")
    assert not hotpath._claimed(tmp_path, "claude", "s-1", "agent-b", "proj")
    assert not hotpath._claimed(tmp_path, "codex", "s-1", "agent-a", "proj")
    book.path.write_text("{not json")
    book.path.chmod(0o600)
    assert not hotpath._claimed(tmp_path, "claude", "s-1", "agent-a", "proj")  # corrupt
