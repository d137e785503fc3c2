# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A tool result is joined to its call within the call's session. Output from
another session with the same call id (another repository, outside the window) never
rides along with an in-scope call, and a row whose pieces name different sessions
rejects the whole result."""

from __future__ import annotations

from datetime import timedelta

import pytest
from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence

from loopx_recall_core.plugin_api import ProviderFailure

from ..hostile import (
    CANARY_OTHER,
    answer,
    binding,
    codex_transcript,
    configure,
    install_standin,
    now_iso,
    request,
    tool_row,
)


@pytest.fixture
def world(tmp_path, monkeypatch):
    home, root, other = tmp_path / "home", tmp_path / "alpha", tmp_path / "other"
    for folder in (home, root, other):
        folder.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home, root, other


@pytest.mark.parametrize("piece", ["message_session_id", "call_session_id", "result_session_id"])
def test_a_piece_from_another_session_rejects_the_result(world, piece):
    home, root, _ = world
    configure(home, answer=answer([tool_row(str(root), **{piece: "codex:elsewhere"})]))
    with pytest.raises(ProviderFailure) as failure:
        ObeliskSessionEvidence().retrieve(
            request(), binding(root, install_standin(home)), timeout=10
        )
    assert failure.value.reason == "scope_violation"


def test_output_without_its_session_rejects_the_result(world):
    home, root, _ = world
    row = tool_row(str(root))
    del row["result_session_id"]
    configure(home, answer=answer([row]))
    with pytest.raises(ProviderFailure):
        ObeliskSessionEvidence().retrieve(
            request(), binding(root, install_standin(home)), timeout=10
        )


def test_same_call_id_in_an_old_session_of_another_repo(world, obelisk_bin, double_ready):
    home, root, other = world
    codex_transcript(
        home,
        "in-window",
        cwd=str(root),
        timestamp=now_iso(-timedelta(hours=1)),
        call_id="call_shared",
        output="Exit code: 1\nFAILED in-window",
    )
    codex_transcript(
        home,
        "ninety-days-old",
        cwd=str(other),
        timestamp=now_iso(-timedelta(days=90)),
        call_id="call_shared",
        output=f"Exit code: 1\n{CANARY_OTHER}",
    )
    result = ObeliskSessionEvidence().retrieve(
        request(("pytest", CANARY_OTHER)), binding(root, obelisk_bin), timeout=30
    )
    assert [item.session_ref for item in result.items] == ["codex:in-window"]
    assert all(CANARY_OTHER not in item.snippet for item in result.items)
    assert "FAILED in-window" in result.items[0].snippet
