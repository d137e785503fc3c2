# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The double models the real index's identity rules (facts and sources in
``tests/obelisk_double/README.md``). Codex call ids are namespaced by thread, so two
in-scope Codex sessions that reuse a call id both come back, each with its own output;
with raw ids one session's call replaced the other's. The row-level facts are tested on
the double itself in ``tests/obelisk_double/test_double.py``
(``test_codex_call_ids_are_namespaced_by_thread`` and its neighbours)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence

from ..hostile import binding, codex_transcript, now_iso, request


@pytest.fixture
def world(tmp_path, monkeypatch):
    home, root = tmp_path / "home", tmp_path / "repo"
    home.mkdir()
    root.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home, root


def test_two_sessions_reusing_a_call_id_keep_their_own_output(world, obelisk_bin, double_ready):
    home, root = world
    for thread, hours in (("thread-one", 3), ("thread-two", 1)):
        codex_transcript(
            home,
            thread,
            cwd=str(root),
            timestamp=now_iso(-timedelta(hours=hours)),
            call_id="call_reused",
            output=f"Exit code: 1\nFAILED in {thread}",
        )
    result = ObeliskSessionEvidence().retrieve(request(), binding(root, obelisk_bin), timeout=30)
    by_session = {item.session_ref: item.snippet for item in result.items}
    assert set(by_session) == {"codex:thread-one", "codex:thread-two"}
    assert "FAILED in thread-one" in by_session["codex:thread-one"]
    assert "FAILED in thread-two" in by_session["codex:thread-two"]
