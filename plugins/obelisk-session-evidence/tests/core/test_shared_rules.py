# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The plugin applies the host's transcript rules, not copies of them: its window starts
where the host's Stage 0 bench starts one, to the millisecond (issue 12, item 6)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from loopx_obelisk_session_evidence import binding, evidence, scope
from loopx_obelisk_session_evidence.scope import FUTURE_SKEW, Window, instant_ms, path_in_scope

from loopx_recall_core import plugin_api
from loopx_recall_core.testing import transcript_rules

NOW = datetime(2026, 3, 31, 12, 0, 7, 123999, tzinfo=UTC)


def test_the_plugin_window_starts_where_the_host_window_starts():
    window = Window.last_days(30, NOW)
    assert window.since_ms == transcript_rules.window_start_ms(30, NOW)
    assert instant_ms(transcript_rules.window_start(30, NOW)) == window.since_ms
    assert window.until_ms == transcript_rules.epoch_ms(NOW + FUTURE_SKEW)


def test_the_window_boundary_in_the_plugin():
    window = Window.last_days(30, NOW)
    assert window.contains("2026-03-01T12:00:07.123Z")  # exactly the host's start
    # one millisecond of SQLite rounding slack, no more (the old host start was .000Z)
    assert window.contains("2026-03-01T12:00:07.122Z")
    assert not window.contains("2026-03-01T12:00:07.121Z")
    assert not window.contains("2026-03-01T12:00:07.000Z")
    end = NOW + FUTURE_SKEW
    assert window.contains(end.strftime("%Y-%m-%dT%H:%M:%S.123Z"))
    assert not window.contains((end + timedelta(milliseconds=2)).strftime("%Y-%m-%dT%H:%M:%S.%fZ"))


def test_no_private_copies_of_the_shared_rules_remain():
    assert scope.under is transcript_rules.under
    assert evidence.exit_code is transcript_rules.exit_code
    assert evidence.cwd_folder_name is plugin_api.cwd_folder_name
    for module in (scope, evidence):
        for name in ("_under", "_EXIT_CODE", "_claude_dir_name"):
            assert not hasattr(module, name)


def test_every_source_the_index_holds_has_a_host_runtime_record():
    """The index's session names come from the host's runtime records (issue 32 move 1)."""
    # the choices are the host's records, not a second list (issue 43)
    assert binding.HISTORY_SOURCES is plugin_api.HISTORY_SOURCES
    # Obelisk 0.2.4 indexes the sessions of exactly these (docs/real-obelisk.md; its
    # `--history-source` choices): a record for a runtime it does not hold fails here
    assert binding.HISTORY_SOURCES == ("claude", "codex", "kimi", "pi")
    assert scope.session_aliases(["t1"], ["codex"]) == ["codex:t1", "t1"]
    assert plugin_api.index_session_name("claude", "s1") == "s1"


def test_path_scope_still_uses_a_separator_boundary(tmp_path):
    root = tmp_path / "repo"
    (root / "sub").mkdir(parents=True)
    (tmp_path / "repo2").mkdir()
    assert path_in_scope(str(root / "sub"), [str(root)])
    assert not path_in_scope(str(tmp_path / "repo2"), [str(root)])
