# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The runtime records (issue 32 move 1) and the one list of shell tool names (issue 28
item 10): every reader takes its runtime knowledge from ``loopx_recall_core.runtimes``."""

from __future__ import annotations

import pytest

from loopx_recall_core import runtimes, snippet_rules
from loopx_recall_core.guard import hotpath
from loopx_recall_core.recall.sessions import ledger


def test_one_list_of_shell_tool_names_each_with_its_source():
    assert snippet_rules.SHELL_TOOLS is runtimes.SHELL_TOOLS
    assert hotpath.SHELL_TOOLS is runtimes.SHELL_TOOLS
    # the names the two old lists disagreed on are in the one list
    assert {"unified_exec", "run_shell_command", "terminal", "bash", "exec_command"} <= (
        runtimes.SHELL_TOOLS
    )
    tools = [t for r in runtimes.RECORDS.values() for t in r.shell_tools]
    for tool in (*tools, *runtimes.OTHER_SHELL_TOOLS):
        assert tool.source.strip()
    named = {t.name.casefold() for t in (*tools, *runtimes.OTHER_SHELL_TOOLS)}
    assert named == runtimes.SHELL_TOOLS


def test_the_ledger_and_the_hook_commands_take_the_runtimes_from_the_records():
    assert ledger.RUNTIMES == runtimes.HISTORY_SOURCES == ("claude", "codex", "kimi", "pi")
    assert runtimes.HOOK_RUNTIMES == ("claude", "codex")
    from loopx_recall_core.cli.guard import guard
    from loopx_recall_core.cli.hook import hook

    for group in (guard, hook):
        assert set(runtimes.HOOK_RUNTIMES) <= set(group.commands)


@pytest.mark.parametrize("name", ["claude", "codex"])
def test_a_hook_runtime_record_is_complete(name):
    record = runtimes.record(name)
    assert record.hook_events[0] == "SessionStart"
    assert record.hook_matcher == "Bash"
    assert any(f.scope == "user" and f.form == "json" for f in record.hook_files)
    assert record.output_forms
    assert runtimes.index_session_name(name, "x").endswith("x")


def test_config_folders_follow_the_runtimes_variables(monkeypatch, tmp_path):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "c"))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "x"))
    assert runtimes.hook_file("claude", "user") == tmp_path / "c" / "settings.json"
    assert runtimes.hook_file("codex", "user", "toml") == tmp_path / "x" / "config.toml"
    assert runtimes.hook_file("claude", "project-local", root=tmp_path) == (
        tmp_path / ".claude" / "settings.local.json"
    )
    with pytest.raises(ValueError, match="unknown runtime"):
        runtimes.record("nope")


@pytest.mark.parametrize("name", sorted(runtimes.RECORDS))
def test_every_record_says_which_end_events_it_has_and_where_that_was_seen(name):
    rec = runtimes.record(name)
    assert rec.end_events_source.strip()
    if rec.hook_files:  # Claude Code 2.1.328 and Codex 0.169.0 both fire these (observed)
        assert rec.end_events == ("Stop", "SessionEnd")
        for event in rec.end_events:
            assert {"session_id", "transcript_path", "cwd", "hook_event_name"} <= set(
                rec.payload_keys[event]
            )
        assert "observed" in rec.end_events_source
    else:  # a history source only: no hook, said so
        assert rec.end_events == ()
        assert "no hooks" in rec.end_events_source
