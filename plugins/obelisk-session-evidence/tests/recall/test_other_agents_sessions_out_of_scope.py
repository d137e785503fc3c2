# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""With claimed agent sessions, another agent's session on the same runtime and
repository is out of scope: the template's SQL does not select it, and a row of it that
still comes back (a hostile runtime) rejects the whole result."""

from __future__ import annotations

from datetime import timedelta

import pytest
from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence
from loopx_obelisk_session_evidence.scope import claimed_index_ids

from loopx_recall_core.plugin_api import ProviderFailure

from ..hostile import (
    answer,
    binding,
    claude_transcript,
    codex_transcript,
    configure,
    install_standin,
    now_iso,
    request,
    tool_row,
)

MINE, THEIRS = "thread-mine-1", "thread-theirs-2"


@pytest.fixture
def world(tmp_path, monkeypatch):
    home, root = tmp_path / "home", tmp_path / "repo"
    root.mkdir(parents=True)
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home, root


def _claimed(bound, *claims):
    return {
        **bound,
        "agent_sessions": "claimed",
        "claimed_sessions": [{"runtime": r, "session_id": s} for r, s in claims],
    }


def test_the_sql_selects_only_claimed_sessions(world, obelisk_bin, double_ready):
    home, root = world
    stamp = now_iso(-timedelta(hours=2))
    for thread in (MINE, THEIRS):
        codex_transcript(home, thread, cwd=str(root), timestamp=stamp)
    claude_transcript(home, "claude-mine", cwd=str(root), timestamp=stamp)
    bound = binding(root, obelisk_bin, sources=("codex", "claude"))
    provider = ObeliskSessionEvidence()
    everyone = provider.retrieve(request(), bound, timeout=30)
    assert {i.session_ref for i in everyone.items} == {
        f"codex:{MINE}",
        f"codex:{THEIRS}",
        "claude-mine",
    }
    assert everyone.scope_applied.cross_agent_used is True
    # Had the SQL selected THEIRS, the row check would have rejected the whole result.
    mine = provider.retrieve(
        request(), _claimed(bound, ("codex", MINE), ("claude", "claude-mine")), timeout=30
    )
    assert {i.session_ref for i in mine.items} == {f"codex:{MINE}", "claude-mine"}
    assert mine.scope_applied.cross_agent_used is False
    # a Codex id claimed as a Claude session is another session: not in scope
    crossed = provider.retrieve(request(), _claimed(bound, ("claude", MINE)), timeout=30)
    assert crossed.items == ()
    nothing = provider.retrieve(request(), _claimed(bound), timeout=30)
    assert nothing.items == ()


@pytest.mark.parametrize("claims", [[], [("codex", MINE)], [("claude", THEIRS)], [("pi", THEIRS)]])
def test_a_row_of_an_unclaimed_session_rejects_the_result(world, claims):
    home, root = world
    configure(home, answer=answer([tool_row(str(root), session=f"codex:{THEIRS}")]))
    bound = _claimed(binding(root, install_standin(home)), *claims)
    with pytest.raises(ProviderFailure) as failure:
        ObeliskSessionEvidence().retrieve(request(), bound, timeout=10)
    assert failure.value.reason == "scope_violation"


def test_claimed_mode_without_a_usable_list_is_empty_scope(world):
    _home, root = world
    bound = binding(root, sources=("codex",))
    assert claimed_index_ids({**bound, "agent_sessions": "claimed"}) == []
    assert claimed_index_ids({**bound, "agent_sessions": "claimed", "claimed_sessions": "x"}) == []
    assert claimed_index_ids(bound) is None
    assert claimed_index_ids(_claimed(bound, ("codex", MINE), ("claude", "c1"))) == [
        f"codex:{MINE}"  # claude is not a bound runtime here
    ]
