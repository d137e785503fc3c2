# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Tests of the obelisk protocol double, scripts/ensure-node22 and the transcript fixtures.

The plugin's tests trust the double to behave like the documented CLI, so each
documented behaviour and trap (OBELISK_PROTOCOL.md) is pinned here.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import signal
import sqlite3
import subprocess
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from loopx_recall_core.plugin_api import exit_code
from loopx_recall_core.testing import Archive, append_session, generate_archive

from .fixtures import (
    DOUBLE_DEFAULT_VERSION,
    DOUBLE_SETTINGS_FILE,
    ENSURE_NODE22,
    INDEX_FILE,
    OBELISK_WRAPPER,
    STDERR_CANARY,
    STDOUT_CANARY,
    WRITER_LOCK_FILE,
    LaneRuntime,
    ObeliskRun,
    double_env,
    double_settings,
    kill_group,
    run_obelisk,
)


def query(tmp_path: Path, home: Path, body: str, *, timeout: float = 60.0, **settings: object):
    """Run ``body`` with exactly the double ``settings`` given (build grace 0 by default)."""
    script = tmp_path / f"q{time.monotonic_ns()}.js"
    script.write_text(body, encoding="utf-8")
    return run_obelisk(["--query", str(script)], env=double_env(home, **settings), timeout=timeout)


def query_json(tmp_path: Path, home: Path, body: str, **settings: object):
    run = query(tmp_path, home, body, **settings)
    assert run.returncode == 0, run
    return json.loads(run.stdout)


def count_script(table: str, column: str, value: str) -> str:
    select = f"SELECT count(*) AS n FROM {table} WHERE {column} = ?"
    return f"return sql({json.dumps(select)}, {json.dumps(value)})[0].n"


def db_rows(home: Path, sql: str, *params) -> list[dict]:
    con = sqlite3.connect(f"file:{home / INDEX_FILE}?mode=ro", uri=True)
    con.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in con.execute(sql, params)]
    finally:
        con.close()


def build(home: Path) -> None:
    run = run_obelisk(["--build"], env=double_env(home))
    assert run.returncode == 0, run


# ------------------------------------------------------------------ ensure-node22 / wrapper


def _version_tuple(binary: str) -> tuple[int, int]:
    out = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True).stdout
    major, minor = re.match(r"v(\d+)\.(\d+)\.", out).groups()
    return int(major), int(minor)


def test_ensure_node22_prints_only_a_qualifying_absolute_path(obelisk_bin, tmp_path):
    proc = subprocess.run(
        [str(ENSURE_NODE22)], capture_output=True, text=True, cwd=tmp_path, check=True
    )
    lines = proc.stdout.splitlines()
    assert len(lines) == 1
    assert os.path.isabs(lines[0])
    assert _version_tuple(lines[0]) >= (22, 13)


def test_ensure_node22_is_offline_once_installed(obelisk_bin, tmp_path):
    # A failing `npm` first on PATH proves the installed case never calls npm.
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    fake_npm = fake_bin / "npm"
    fake_npm.write_text("#!/bin/sh\necho npm must not run >&2\nexit 99\n")
    fake_npm.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "LOOPX_RECALL_NODE22"}
    env["PATH"] = f"{fake_bin}:{env['PATH']}"
    proc = subprocess.run(
        [str(ENSURE_NODE22)], capture_output=True, text=True, env=env, cwd="/", check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert "npm must not run" not in proc.stderr
    assert _version_tuple(proc.stdout.strip()) >= (22, 13)


def test_wrapper_works_through_a_symlink_on_path_without_loopx_node22(obelisk_bin, tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "obelisk").symlink_to(OBELISK_WRAPPER)
    env = {k: v for k, v in os.environ.items() if k != "LOOPX_RECALL_NODE22"}
    env["PATH"] = f"{bin_dir}:{env['PATH']}"
    proc = subprocess.run(
        ["obelisk", "--version"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60
    )
    assert (proc.returncode, proc.stdout) == (0, f"{DOUBLE_DEFAULT_VERSION}\n")


# ------------------------------------------------------------------ verbs


@pytest.mark.parametrize("flag", ["--version", "-v"])
def test_version(obelisk_bin, tmp_path, flag):
    run = run_obelisk([flag], env=double_env(tmp_path))
    assert (run.returncode, run.stdout) == (0, f"{DOUBLE_DEFAULT_VERSION}\n")
    run = run_obelisk([flag], env=double_env(tmp_path, version="0.2.1"))
    assert (run.returncode, run.stdout) == (0, "0.2.1\n")


def test_build_prints_ok_and_db_path(obelisk_bin, archive_home):
    # The real 0.2.4 CLI: $HOME/.obelisk/obelisk.sqlite (db.ts), printed as {"ok","db"}.
    run = run_obelisk(["--build"], env=double_env(archive_home.home))
    assert run.returncode == 0
    assert run.stdout[-1] == "\n"
    assert run.stdout.count("\n") == 1
    out = json.loads(run.stdout)
    assert out == {"ok": True, "db": str(archive_home.home / ".obelisk" / "obelisk.sqlite")}
    assert Path(out["db"]).is_file()
    assert not (archive_home.home / ".obelisk" / "index.db").exists()


def test_obelisk_home_is_ignored(obelisk_bin, archive_home, tmp_path):
    # The real 0.2.4 build never reads OBELISK_HOME (paths.ts is not compiled in): the
    # index stays under HOME whatever the variable says.
    elsewhere = tmp_path / "obelisk-state"
    run = run_obelisk(
        ["--build"], env=double_env(archive_home.home, {"OBELISK_HOME": str(elsewhere)})
    )
    assert json.loads(run.stdout)["db"] == str(archive_home.home / INDEX_FILE)
    assert not elsewhere.exists()


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--frobnicate"],
        ["--query"],
        ["--query", "a.js", "b.js"],
        ["--build", "--force"],
        ["query", "x"],
    ],
)
def test_anything_else_prints_usage_on_stderr_only(obelisk_bin, tmp_path, args):
    run = run_obelisk(args, env=double_env(tmp_path))
    assert (run.returncode, run.stdout) == (1, "")
    assert "usage" in run.stderr.lower()


def test_search_returns_pretty_json_array(obelisk_bin, archive_home):
    run = run_obelisk(["--search", "reproduce", "failure"], env=double_env(archive_home.home))
    assert run.returncode == 0
    hits = json.loads(run.stdout)
    assert hits
    assert all("reproduce" in h["text"].lower() for h in hits)


# ------------------------------------------------------------------ --query semantics


def test_query_returns_pretty_json_with_binds(obelisk_bin, archive_home, tmp_path):
    run = query(
        tmp_path,
        archive_home.home,
        """
        const rows = sql(`SELECT source, count(*) AS n FROM sessions WHERE source IN (?, ?)
                          GROUP BY source ORDER BY source`,
                         "claude", "codex");
        return rows;
    """,
    )
    assert run.returncode == 0, run
    expected_counts = Counter(
        e.runtime for e in {(e.session_id, e.runtime): e for e in archive_home.events}.values()
    )
    expected = [
        {"source": "claude", "n": expected_counts["claude"]},
        {"source": "codex", "n": expected_counts["codex"]},
    ]
    # Byte-exact JSON.stringify(v, null, 2) + newline.
    assert run.stdout == json.dumps(expected, indent=2) + "\n"


def test_query_sees_index_built_before_it(obelisk_bin, archive_home, tmp_path):
    # No --build first: the query's own incremental build must create the index.
    rows = query_json(
        tmp_path, archive_home.home, "return sql('SELECT count(*) AS n FROM messages')"
    )
    assert rows[0]["n"] > 0


def test_query_allows_await_and_named_and_positional_binds(obelisk_bin, archive_home, tmp_path):
    out = query_json(
        tmp_path,
        archive_home.home,
        """
        await new Promise((r) => setTimeout(r, 10));
        const a = sql('SELECT ? AS x, ? AS y', 1, 'two');
        const b = sql('SELECT $v AS v', { v: 'named' });
        return { a, b, none: sql("SELECT 1 AS one WHERE 0") };
    """,
    )
    assert out == {"a": [{"x": 1, "y": "two"}], "b": [{"v": "named"}], "none": []}


def test_passing_one_array_as_binds_throws(obelisk_bin, archive_home, tmp_path):
    run = query(tmp_path, archive_home.home, "return sql('SELECT ? AS x', [1])")
    assert run.returncode == 1
    assert run.stdout.count("\n") == 1
    assert "separate arguments" in json.loads(run.stdout)["error"]


@pytest.mark.parametrize(
    "statement",
    [
        "DELETE FROM sessions",
        "INSERT INTO sessions (id) VALUES ('x')",
        "UPDATE messages SET text = ''",
        "DROP TABLE sessions",
        "PRAGMA writable_schema = 1",
        "ATTACH DATABASE ':memory:' AS other",
        "WITH x AS (SELECT 1) DELETE FROM sessions",
        "/* comment */ CREATE TABLE t (a)",
    ],
)
def test_write_statements_are_rejected(obelisk_bin, archive_home, tmp_path, statement):
    run = query(tmp_path, archive_home.home, f"return sql({json.dumps(statement)})")
    assert run.returncode == 1, run
    assert json.loads(run.stdout)["error"]
    assert db_rows(archive_home.home, "SELECT count(*) AS n FROM sessions")[0]["n"] > 0


@pytest.mark.parametrize(
    "text",
    [
        "SELECT 1; SELECT 2",
        "SELECT 1; DELETE FROM sessions",
        "SELECT 1 AS a;; SELECT 2",
        "select 1 -- x\n; select 2",
    ],
)
def test_multiple_statements_are_rejected(obelisk_bin, archive_home, tmp_path, text):
    run = query(tmp_path, archive_home.home, f"return sql({json.dumps(text)})")
    assert run.returncode == 1
    assert "one statement" in json.loads(run.stdout)["error"]


@pytest.mark.parametrize(
    "text",
    [
        "SELECT ';' AS a",
        "SELECT 1 AS a;",
        "  -- lead\n with t AS (SELECT 1 AS a) SELECT a FROM t ; -- tail",
        'SELECT 1 AS "a;b"',
    ],
)
def test_single_statements_with_semicolons_in_literals_or_at_end_pass(
    obelisk_bin, archive_home, tmp_path, text
):
    rows = query_json(tmp_path, archive_home.home, f"return sql({json.dumps(text)})")
    assert len(rows) == 1


def test_returning_nothing_prints_bare_undefined(obelisk_bin, archive_home, tmp_path):
    run = query(tmp_path, archive_home.home, "sql('SELECT 1')")
    assert (run.returncode, run.stdout) == (0, "undefined\n")


def test_exception_gives_one_line_error_envelope_exit_1(obelisk_bin, archive_home, tmp_path):
    run = query(tmp_path, archive_home.home, "const x = 1;\nthrow new Error('boom\\nsecond line');")
    assert run.returncode == 1
    assert run.stdout.endswith("\n")
    assert run.stdout.count("\n") == 1
    envelope = json.loads(run.stdout)
    assert set(envelope) == {"error", "stack"}
    assert envelope["error"] == "boom\nsecond line"
    assert "Error: boom" in envelope["stack"]


@pytest.mark.parametrize(
    "body", ["import fs from 'node:fs'; return 1", "return ((", "export const a = 1"]
)
def test_syntax_errors_use_the_error_envelope(obelisk_bin, archive_home, tmp_path, body):
    run = query(tmp_path, archive_home.home, body)
    assert run.returncode == 1
    assert json.loads(run.stdout)["error"]


def test_missing_script_file_is_an_error_envelope(obelisk_bin, archive_home, tmp_path):
    run = run_obelisk(["--query", str(tmp_path / "nope.js")], env=double_env(archive_home.home))
    assert run.returncode == 1
    assert json.loads(run.stdout)["error"]


def test_node_globals_are_not_visible(obelisk_bin, archive_home, tmp_path):
    out = query_json(
        tmp_path,
        archive_home.home,
        """
        return {
          process: typeof process, require: typeof require,
          fetch: typeof fetch, Buffer: typeof Buffer,
          globalProcess: typeof globalThis.process, module: typeof module,
          sql: typeof sql, console: typeof console,
          JSON: typeof JSON, setTimeout: typeof setTimeout,
        };
    """,
    )
    assert out == {
        "process": "undefined",
        "require": "undefined",
        "fetch": "undefined",
        "Buffer": "undefined",
        "globalProcess": "undefined",
        "module": "undefined",
        "sql": "function",
        "console": "object",
        "JSON": "object",
        "setTimeout": "function",
    }


def test_never_settling_promise_exits_0_with_empty_stdout(obelisk_bin, archive_home, tmp_path):
    run = query(tmp_path, archive_home.home, "await new Promise(() => {}); return 1;", timeout=30)
    assert not run.timed_out
    assert (run.returncode, run.stdout) == (0, "")


def test_console_log_shares_stdout_before_the_json(obelisk_bin, archive_home, tmp_path):
    run = query(tmp_path, archive_home.home, "console.log('hello from script'); return [1]")
    assert run.returncode == 0
    assert run.stdout == "hello from script\n[\n  1\n]\n"


def test_large_results_are_written_completely(obelisk_bin, archive_home, tmp_path):
    rows = query_json(
        tmp_path,
        archive_home.home,
        "return Array.from({length: 2000}, (_, i) => 'x'.repeat(1000) + i)",
    )
    assert len(rows) == 2000
    assert rows[-1].endswith("1999")


def test_stderr_warnings_do_not_mean_failure(obelisk_bin, archive_home, tmp_path):
    build(archive_home.home)
    # Default grace (no settings file): the refresh is skipped and says so on stderr, yet
    # the query succeeds.
    (archive_home.home / DOUBLE_SETTINGS_FILE).unlink()
    script = tmp_path / "q.js"
    script.write_text("return 1")
    run = run_obelisk(["--query", str(script)], env={"HOME": str(archive_home.home)})
    assert (run.returncode, run.stdout) == (0, "1\n")
    assert "index refresh skipped" in run.stderr


# ------------------------------------------------------------------ index contents


DOCUMENTED_COLUMNS = {
    "sessions": "id title project project_path started_at ended_at git_branch version "
    "message_count jsonl_path source",
    "messages": "uuid session_id type parent_uuid timestamp role text content_type is_meta "
    "visibility model "
    "is_sidechain agent_id input_tokens output_tokens cwd skill turn_duration_ms source",
    "tool_calls": "id message_uuid session_id name presentation input_json file_path",
    "tool_results": "tool_use_id message_uuid session_id content file_path is_error",
    "summaries": "id session_id timestamp source content visibility",
    "index_state": "jsonl_path mtime lines_processed cursor",
    "messages_fts": "uuid session_id text",
}


def test_documented_tables_and_columns_exist(obelisk_bin, archive_home, tmp_path):
    out = query_json(
        tmp_path,
        archive_home.home,
        f"""
        const tables = {json.dumps(sorted(DOCUMENTED_COLUMNS))};
        const columns = (t) => sql("SELECT name FROM pragma_table_info(?)", t).map((r) => r.name);
        return Object.fromEntries(tables.map((t) => [t, columns(t)]));
    """,
    )
    for table, columns in DOCUMENTED_COLUMNS.items():
        assert set(columns.split()) <= set(out[table]), table


def _sessions(archive: Archive) -> dict[str, tuple[str, str]]:
    return {e.session_id: (e.runtime, e.repo_root) for e in archive.events}


def test_sessions_map_runtime_id_and_project_path(obelisk_bin, archive_home):
    build(archive_home.home)
    rows = {r["id"]: r for r in db_rows(archive_home.home, "SELECT * FROM sessions")}
    expected = _sessions(archive_home)
    assert set(rows) == set(expected)
    for sid, (runtime, repo_root) in expected.items():
        row = rows[sid]
        assert row["source"] == runtime
        assert sid.startswith("codex:") == (runtime == "codex")
        # Most frequent cwd wins even though one Claude message ran from <repo>/src.
        assert row["project_path"] == repo_root
        assert row["message_count"] > 0
        assert row["started_at"] <= row["ended_at"]
        assert Path(row["jsonl_path"]).is_file()
    alpha2 = [r for r in rows.values() if r["project_path"] == str(archive_home.repos["alpha2"])]
    assert len(alpha2) == 1
    assert alpha2[0]["source"] == "claude"
    subdir = db_rows(archive_home.home, "SELECT count(*) AS n FROM messages WHERE cwd LIKE '%/src'")
    assert subdir[0]["n"] >= 1


def test_prior_failures_map_to_tool_results(obelisk_bin, archive_home):
    build(archive_home.home)
    results = db_rows(
        archive_home.home,
        """
        SELECT r.content, r.is_error, r.file_path, s.source, c.name, c.input_json,
               c.file_path AS call_file
        FROM tool_results r
        JOIN tool_calls c ON c.id = r.tool_use_id AND c.session_id = r.session_id
        JOIN sessions s ON s.id = r.session_id""",
    )
    by_content = {r["content"]: r for r in results}
    failures = [e for e in archive_home.events if e.kind == "prior_failure"]
    for event in failures:
        row = by_content[event.text]
        assert json.loads(row["input_json"]) is not None
        if event.runtime == "claude":
            assert row["is_error"] == 1
            assert row["content"].startswith("Exit code ")
            assert row["name"] == "Bash"
            assert json.loads(row["input_json"])["command"] == event.command
        else:  # the older `shell` form, and Codex 0.169's `exec_command` header
            form = "Exit code: " if row["name"] == "shell" else "Chunk ID: "
            assert row["content"].startswith(form)
            assert exit_code(row["content"]) not in (None, 0)
            assert row["name"] in {"shell", "exec_command"}
            arguments = json.loads(row["input_json"])
            if row["name"] == "exec_command":  # Codex 0.169.0 (recorded/codex-*.jsonl)
                assert arguments == {"cmd": event.command, "login": False}
            else:
                assert arguments["command"][-1] == event.command
    # both of Codex's output forms are in the archive, each read as the failure it is
    codex_failures = [by_content[e.text]["content"] for e in failures if e.runtime == "codex"]
    assert {text.split(":", 1)[0] for text in codex_failures} == {"Exit code", "Chunk ID"}
    # Codex is_error only when the transcript said so.
    said_error = sum(
        line.count('"is_error": true')
        for path in (archive_home.home / ".codex").rglob("*.jsonl")
        for line in path.read_text(encoding="utf-8").splitlines()
    )
    codex_errors = [r for r in results if r["source"] == "codex" and r["is_error"] == 1]
    assert 0 < said_error == len(codex_errors) < len([e for e in failures if e.runtime == "codex"])
    # Codex never has file paths.
    assert all(
        r["file_path"] is None and r["call_file"] is None for r in results if r["source"] == "codex"
    )


def test_file_history_paths(obelisk_bin, archive_home):
    build(archive_home.home)
    calls = db_rows(
        archive_home.home,
        """
        SELECT c.name, c.file_path, c.input_json, s.source
        FROM tool_calls c JOIN sessions s ON s.id = c.session_id""",
    )
    claude_paths = {
        c["file_path"] for c in calls if c["source"] == "claude" and c["name"] in {"Edit", "Write"}
    }
    for event in (e for e in archive_home.events if e.kind == "file_history"):
        if event.runtime == "claude":
            assert event.file_path in claude_paths
        else:
            patches = [c["input_json"] for c in calls if c["name"] == "apply_patch"]
            assert any(
                f"*** Update File: {event.file_path}" in json.loads(p)["input"] for p in patches
            )
    assert all(c["file_path"] is None for c in calls if c["source"] == "codex")
    reads = [c for c in calls if c["name"] == "Read"]
    assert reads
    assert all(c["file_path"] for c in reads)
    # tool_results inherit the call's file path for Claude.
    edits = db_rows(
        archive_home.home, "SELECT file_path FROM tool_results WHERE content LIKE 'The file %'"
    )
    assert edits
    assert all(r["file_path"] for r in edits)


def test_visibility_meta_and_timestamps(obelisk_bin, archive_home):
    build(archive_home.home)
    messages = db_rows(
        archive_home.home, "SELECT text, visibility, timestamp, is_meta, source FROM messages"
    )
    by_text = {m["text"]: m for m in messages if m["text"]}
    for event in (e for e in archive_home.events if e.kind == "decision"):
        row = by_text[event.text]
        assert (row["visibility"] == "visible") == event.visible
        assert row["timestamp"] == event.timestamp
    visibilities = Counter(m["visibility"] for m in messages)
    # Claude's isVisibleInTranscriptOnly (session #1); Codex's hidden message was written
    # in the older shape only, and session #1 is now in Codex 0.169's recorded shape
    assert visibilities["hidden"] >= 1
    assert visibilities["inactive"] >= 1
    assert any(m["is_meta"] == 1 and m["source"] == "claude" for m in messages)
    # Codex writes chat text twice (response_item + event_msg); the index keeps one copy.
    codex_texts = Counter(m["text"] for m in messages if m["source"] == "codex" and m["text"])
    # (only the older-shape sessions: Codex 0.169.0 writes its chat as `item_completed`
    # events, which the index does not read; recorded/codex-*.jsonl)
    older = [p for p in archive_home.home.glob(".codex/sessions/**/*.jsonl")
             if '"cli_version": "0.169.0"' not in p.read_text()]  # fmt: skip
    assert older
    assert max(codex_texts.values()) == len(older)


def test_summaries(obelisk_bin, archive_home):
    # Only Claude away_summary lines are summaries (README.md fact 17): the generator plants
    # one per Claude session; Codex `compacted` lines are in the archive but not indexed.
    build(archive_home.home)
    rows = {r["content"]: r for r in db_rows(archive_home.home, "SELECT * FROM summaries")}
    planted = [e for e in archive_home.events if e.kind == "summary"]
    assert planted
    assert {e.runtime for e in planted} == {"claude"}
    assert len(rows) == len(planted)
    for event in planted:
        row = rows[event.text]
        assert (row["session_id"], row["timestamp"], row["source"], row["visibility"]) == (
            event.session_id,
            event.timestamp,
            "away_summary",
            "visible",
        )
    raw = "".join(p.read_text(encoding="utf-8") for p in archive_home.home.rglob("*.jsonl"))
    assert '"type": "compacted"' in raw


def _summary_lines(session: str, start: datetime) -> list[dict]:
    at = _iso(start + timedelta(seconds=30))
    return [
        {"type": "summary", "summary": "OLD-STYLE summary line", "leafUuid": f"{session}-0001"},
        {
            "type": "system",
            "subtype": "away_summary",
            "content": "While you were away: pinned the parser and the tests pass.",
            "uuid": "away-0001",
            "timestamp": at,
            "sessionId": session,
            "cwd": "/work/agree",
        },
    ]


def _plant_summaries(home: Path) -> None:
    path = _claude_transcript(home, "s-sum", ["fix the parser", "done"])
    start = datetime.now(UTC) - timedelta(seconds=120)
    with path.open("a", encoding="utf-8") as fh:
        for line in _summary_lines("s-sum", start):
            fh.write(json.dumps(line) + "\n")
    stamp = _iso(start)
    _codex_session(home, "thread-sum", "/work/agree", stamp, "ok")
    rollout = next((home / ".codex").rglob("rollout-thread-sum.jsonl"))
    with rollout.open("a", encoding="utf-8") as fh:
        line = {"timestamp": stamp, "type": "compacted", "payload": {"message": "COMPACTED"}}
        fh.write(json.dumps(line) + "\n")


SUMMARY_ROWS = "SELECT id, session_id, timestamp, source, content, visibility FROM summaries"
#: Before 0.2.4 the summaries table has no `visibility` column (README.md, "Releases").
SUMMARY_ROWS_BEFORE_0_2_4 = "SELECT id, session_id, timestamp, source, content FROM summaries"


def test_only_claude_away_summaries_are_summaries(obelisk_bin, tmp_path):
    home = tmp_path / "home"
    _plant_summaries(home)
    build(home)
    rows = db_rows(home, SUMMARY_ROWS)
    assert [(r["id"], r["session_id"], r["source"], r["visibility"]) for r in rows] == [
        ("away-0001", "s-sum", "away_summary", "visible")
    ]
    assert rows[0]["content"].startswith("While you were away")
    assert rows[0]["timestamp"].endswith("Z")


def test_fts_is_unicode61_and_finds_non_ascii(obelisk_bin, archive_home, tmp_path):
    out = query_json(
        tmp_path,
        archive_home.home,
        """
        const hits = (q) => sql(`SELECT m.session_id, m.text FROM messages_fts f
            JOIN messages m ON m.uuid = f.uuid AND m.session_id = f.session_id
            WHERE messages_fts MATCH ?`, q);
        return { tokyo: hits('東京'), cafe: hits('cafe'), canary: hits('"CANARY-SECRET"') };
    """,
    )
    assert out["tokyo"]
    assert all("東京" in h["text"] for h in out["tokyo"])
    assert {h["session_id"].startswith("codex:") for h in out["tokyo"]} == {True, False}
    assert len(out["cafe"]) == len(out["tokyo"])  # unicode61 folds "café" to "cafe"
    assert out["canary"]


def test_index_state_rows_and_markers(obelisk_bin, archive_home):
    before = int(time.time() * 1000)
    build(archive_home.home)
    rows = {r["jsonl_path"]: r for r in db_rows(archive_home.home, "SELECT * FROM index_state")}
    files = list((archive_home.home / ".claude").rglob("*.jsonl")) + list(
        (archive_home.home / ".codex").rglob("*.jsonl")
    )
    assert {str(f) for f in files} | {"__last_build__", "__provider_version__"} == set(rows)
    for f in files:
        row = rows[str(f)]
        assert row["mtime"] == f.stat().st_mtime_ns // 1_000_000
        assert row["lines_processed"] == len(f.read_text(encoding="utf-8").splitlines())
        assert int(row["cursor"]) == f.stat().st_size
    assert before <= rows["__last_build__"]["mtime"] <= int(time.time() * 1000)
    assert rows["__provider_version__"]["cursor"] == DOUBLE_DEFAULT_VERSION


def test_transcript_mtimes_follow_last_event(archive_home):
    for path in list((archive_home.home / ".claude").rglob("*.jsonl")) + list(
        (archive_home.home / ".codex").rglob("*.jsonl")
    ):
        raw = path.read_bytes()
        assert raw.endswith(b"\n")  # every line is terminated
        stamps = [json.loads(x).get("timestamp") for x in raw.decode("utf-8").splitlines()]
        latest = datetime.strptime(max(s for s in stamps if s), "%Y-%m-%dT%H:%M:%S.%fZ").replace(
            tzinfo=UTC
        )
        assert path.stat().st_mtime_ns == round(latest.timestamp() * 1000) * 1_000_000


# ------------------------------------------------------------------ identity of rows (README.md)


def _write_jsonl(path: Path, lines: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


def _iso(at: datetime) -> str:
    return at.strftime("%Y-%m-%dT%H:%M:%S.") + f"{at.microsecond // 1000:03d}Z"


def _claude_transcript(
    home: Path, session: str, texts: list[str], *, cwd: str = "/work/agree", age_s: float = 120
) -> Path:
    """A Claude transcript whose messages (user/assistant alternating) are ``age_s`` seconds
    old or newer: recent enough for the real CLI's 15-minute invocation lookup."""
    start = datetime.now(UTC) - timedelta(seconds=age_s)
    path = home / ".claude" / "projects" / "-work-agree" / f"{session}.jsonl"
    _write_jsonl(path, [_claude_line(session, i, text, start, cwd) for i, text in enumerate(texts)])
    return path


def _claude_line(session: str, i: int, text: str, start: datetime, cwd: str = "/work/agree"):
    role = "user" if i % 2 == 0 else "assistant"
    return {
        "type": role,
        "uuid": f"{session}-{i:04d}",
        "timestamp": _iso(start + timedelta(seconds=i)),
        "cwd": cwd,
        "sessionId": session,
        "message": {"role": role, "content": text},
    }


def _append_claude(path: Path, text: str, i: int) -> None:
    """Append one message line (stamped now) to the Claude transcript ``path``."""
    line = _claude_line(path.stem, i, text, datetime.now(UTC) - timedelta(seconds=i))
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(line) + "\n")


def _codex_session(
    home: Path, thread: str, cwd: str, stamp: str, output: str, meta: dict | None = None
) -> None:
    """A Codex rollout with one shell call ``call_same`` (the id Codex reuses) and its output
    (``meta``: more ``session_meta`` payload, e.g. ``forked_from_id``)."""
    day = home / ".codex" / "sessions" / "2026" / "03" / "01"
    payload = {"id": thread, "cwd": cwd, **(meta or {})}
    _write_jsonl(
        day / f"rollout-{thread}.jsonl",
        [
            {"timestamp": stamp, "type": "session_meta", "payload": payload},
            {"timestamp": stamp, "type": "turn_context", "payload": {"cwd": cwd, "model": "m"}},
            {
                "timestamp": stamp,
                "type": "event_msg",
                "payload": {"type": "user_message", "message": f"run the tests in {thread}"},
            },
            {
                "timestamp": stamp,
                "type": "response_item",
                "payload": {
                    "type": "function_call",
                    "name": "shell",
                    "arguments": json.dumps({"command": ["pytest"]}),
                    "call_id": "call_same",
                },
            },
            {
                "timestamp": stamp,
                "type": "response_item",
                "payload": {
                    "type": "function_call_output",
                    "call_id": "call_same",
                    "output": output,
                },
            },
        ],
    )


def test_codex_call_ids_are_namespaced_by_thread(obelisk_bin, tmp_path):
    # The same call_id in two threads (an old one and a fresh one) must stay two rows: with
    # raw ids the later file replaced the earlier one's call, and a join on the call id
    # alone attached one session's output to the other's call.
    home = tmp_path / "home"
    _codex_session(home, "thread-old", "/work/repo", "2025-11-01T10:00:00.000Z", "OLD OUTPUT")
    _codex_session(home, "thread-new", "/work/repo", "2026-03-01T10:00:00.000Z", "NEW OUTPUT")
    build(home)
    calls = db_rows(home, "SELECT id, session_id, message_uuid FROM tool_calls ORDER BY id")
    results = db_rows(
        home, "SELECT tool_use_id, session_id, message_uuid, content FROM tool_results ORDER BY 1"
    )
    assert [(c["id"], c["session_id"]) for c in calls] == [
        ("codex:thread-new:call_same", "codex:thread-new"),
        ("codex:thread-old:call_same", "codex:thread-old"),
    ]
    assert [(r["tool_use_id"], r["session_id"], r["content"]) for r in results] == [
        ("codex:thread-new:call_same", "codex:thread-new", "NEW OUTPUT"),
        ("codex:thread-old:call_same", "codex:thread-old", "OLD OUTPUT"),
    ]
    # Joining on the id alone now pairs each call with its own session's output only.
    joined = db_rows(
        home,
        "SELECT c.session_id AS call_session, r.session_id AS result_session FROM tool_calls c"
        " JOIN tool_results r ON r.tool_use_id = c.id",
    )
    assert sorted((j["call_session"], j["result_session"]) for j in joined) == [
        ("codex:thread-new", "codex:thread-new"),
        ("codex:thread-old", "codex:thread-old"),
    ]
    # Message uuids: thread and 1-based line ordinal (6 digits). The call is line 4; its
    # output has no message row and points at the call's message.
    assert [c["message_uuid"] for c in calls] == [
        "codex:thread-new:000004",
        "codex:thread-old:000004",
    ]
    assert [r["message_uuid"] for r in results] == [c["message_uuid"] for c in calls]
    uuids = {m["uuid"] for m in db_rows(home, "SELECT uuid FROM messages")}
    assert uuids == {
        f"codex:{t}:{n}" for t in ("thread-old", "thread-new") for n in ("000003", "000004")
    }


def test_claude_tool_ids_are_not_namespaced_and_a_later_row_replaces(obelisk_bin, tmp_path):
    # Claude rows keep the transcript's ids and every id is a whole primary key, so the
    # same tool_use id in two sessions leaves ONE row: the one indexed last (files are
    # indexed in path order). A consumer must not assume an id is unique per session.
    home = tmp_path / "home"
    for sid, output in (("a-session", "FIRST"), ("b-session", "SECOND")):
        stamp = "2026-03-01T10:00:00.000Z"
        base = {"timestamp": stamp, "cwd": "/work/repo", "sessionId": sid}
        _write_jsonl(
            home / ".claude" / "projects" / "-work-repo" / f"{sid}.jsonl",
            [
                {
                    **base,
                    "type": "assistant",
                    "uuid": f"{sid}-call",
                    "message": {
                        "role": "assistant",
                        "content": [
                            {"type": "tool_use", "id": "toolu_same", "name": "Bash", "input": {}}
                        ],
                    },
                },
                {
                    **base,
                    "type": "user",
                    "uuid": f"{sid}-result",
                    "message": {
                        "role": "user",
                        "content": [
                            {"type": "tool_result", "tool_use_id": "toolu_same", "content": output}
                        ],
                    },
                },
            ],
        )
    build(home)
    assert db_rows(home, "SELECT id, session_id FROM tool_calls") == [
        {"id": "toolu_same", "session_id": "b-session"}
    ]
    assert db_rows(home, "SELECT tool_use_id, session_id, content FROM tool_results") == [
        {"tool_use_id": "toolu_same", "session_id": "b-session", "content": "SECOND"}
    ]


def test_codex_cwd_is_normalized_and_claude_cwd_kept_as_written(obelisk_bin, tmp_path):
    home = tmp_path / "home"
    _codex_session(home, "thread-dots", "/work/repo/../beta/", "2026-03-01T10:00:00.000Z", "x")
    stamp = "2026-03-01T11:00:00.000Z"
    _write_jsonl(
        home / ".claude" / "projects" / "-work-repo" / "c-session.jsonl",
        [
            {
                "type": "user",
                "uuid": "c-1",
                "timestamp": stamp,
                "cwd": "/work/repo/../beta",
                "message": {"role": "user", "content": "hello"},
            }
        ],
    )
    build(home)
    cwds = {
        (r["session_id"], r["cwd"])
        for r in db_rows(home, "SELECT DISTINCT session_id, cwd FROM messages")
    }
    assert cwds == {("codex:thread-dots", "/work/beta"), ("c-session", "/work/repo/../beta")}
    # project_path is normalized for every runtime.
    paths = {r["id"]: r["project_path"] for r in db_rows(home, "SELECT * FROM sessions")}
    assert paths == {"codex:thread-dots": "/work/beta", "c-session": "/work/beta"}


def test_codex_file_without_session_meta_gives_no_rows(obelisk_bin, tmp_path):
    home = tmp_path / "home"
    path = home / ".codex" / "sessions" / "rollout-orphan.jsonl"
    _write_jsonl(
        path,
        [
            {
                "timestamp": "2026-03-01T10:00:00.000Z",
                "type": "event_msg",
                "payload": {"type": "user_message", "message": "no thread id here"},
            }
        ],
    )
    build(home)
    assert db_rows(home, "SELECT count(*) AS n FROM messages") == [{"n": 0}]
    assert db_rows(home, "SELECT count(*) AS n FROM sessions") == [{"n": 0}]
    assert db_rows(home, "SELECT lines_processed FROM index_state WHERE jsonl_path = ?", str(path))


# ------------------------------------------------------------------ incremental build & freshness


def test_incremental_build_picks_up_new_changed_and_removed_transcripts(
    obelisk_bin, archive_home, tmp_path
):
    home = archive_home.home
    build(home)
    grown = append_session(
        archive_home, at=datetime.now(UTC), repo="beta", runtime="codex", seed=4242
    )
    new_session = grown.events[-1].session_id
    assert query_json(tmp_path, home, count_script("sessions", "id", new_session)) == 1

    # Rewrite an existing Claude transcript: the next query re-indexes it.
    claude_file = next((home / ".claude").rglob("*.jsonl"))
    session_id = claude_file.stem
    lines = claude_file.read_text(encoding="utf-8").splitlines()
    extra = dict(json.loads(next(x for x in reversed(lines) if '"assistant"' in x)))
    extra.update(uuid="added-uuid-1", timestamp="2099-01-01T00:00:00.000Z")
    extra["message"] = dict(
        extra["message"], content=[{"type": "text", "text": "freshly appended zebra line"}]
    )
    with claude_file.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(extra) + "\n")
    hit = query_json(
        tmp_path, home, "return sql(\"SELECT session_id FROM messages WHERE text LIKE '%zebra%'\")"
    )
    assert hit == [{"session_id": session_id}]

    claude_file.unlink()
    gone = query_json(
        tmp_path,
        home,
        count_script("messages", "session_id", session_id),
    )
    assert gone == 0
    assert not db_rows(home, "SELECT 1 FROM index_state WHERE jsonl_path = ?", str(claude_file))


COUNT_MESSAGES = "return sql('SELECT count(*) AS n FROM messages')[0].n"


def _count(home: Path, script: Path, **settings: object) -> ObeliskRun:
    """Run ``script`` against ``home`` with the double ``settings`` given (the build grace
    left at its default 30 s unless given), the way an agent would."""
    double_settings(home, **{"build_grace_ms": 30_000, **settings})
    return run_obelisk(["--query", str(script)], env={"HOME": str(home)})


def test_an_agent_session_caller_sees_the_debounce(obelisk_bin, tmp_path):
    # The query file's path is in a recent message: the nonce resolves at once, no extra
    # build runs, so a line appended within the debounce after the last build stays
    # invisible (README.md fact 15).
    home = tmp_path / "home"
    script = tmp_path / "agent.js"
    script.write_text(COUNT_MESSAGES)
    agent = _claude_transcript(home, "s-agent", [f"obelisk --query {script}", "ran it"])
    build(home)
    _append_claude(agent, "appended after the build", 2)
    run = _count(home, script, build_grace_ms=600_000)
    assert (run.returncode, run.stdout) == (0, "2\n")
    assert "recent_build" in run.stderr


def test_outside_an_agent_session_the_query_refreshes_despite_debounce_and_heartbeat(
    obelisk_bin, tmp_path
):
    # No recent message names the query file (nor holds its text): the nonce misses, and
    # one more incremental build runs that ignores the debounce and the heartbeat.
    home = tmp_path / "home"
    script = tmp_path / "outside.js"
    script.write_text(COUNT_MESSAGES)
    path = _claude_transcript(home, "s-other", ["one", "two"])
    build(home)
    _append_claude(path, "three", 2)
    run = _count(home, script, build_grace_ms=600_000)
    assert (run.returncode, run.stdout) == (0, "3\n")
    assert "recent_build" in run.stderr  # the pre-query refresh was skipped...
    set_heartbeat(home, age_ms=0)
    _append_claude(path, "four", 3)
    run = _count(home, script)
    assert (run.returncode, run.stdout) == (0, "4\n")  # ...the nonce-phase build was not
    assert "daemon_active" in run.stderr
    # The lease still rules: held, neither build runs.
    _append_claude(path, "five", 4)
    with hold_writer_lease(home):
        run = _count(home, script, build_grace_ms=0)
    assert (run.returncode, run.stdout) == (0, "4\n")
    assert "writer_busy" in run.stderr


def test_a_mention_older_than_15_minutes_does_not_resolve(obelisk_bin, tmp_path):
    home = tmp_path / "home"
    script = tmp_path / "q.js"
    script.write_text(COUNT_MESSAGES)
    path = _claude_transcript(home, "s-old", [f"obelisk --query {script}", "ok"], age_s=16 * 60)
    build(home)
    _append_claude(path, "three", 2)
    assert _count(home, script, build_grace_ms=600_000).stdout == "3\n"


@pytest.mark.parametrize(("invoked", "expected"), [(True, "2\n"), (False, "4\n")])
def test_the_script_text_resolves_only_for_a_session_that_invoked_the_cli(
    obelisk_bin, tmp_path, invoked, expected
):
    # A script of >= 40 characters is also looked for by its text, strictly: exactly one
    # recent session holds the text AND a recent `obelisk --...` invocation record.
    home = tmp_path / "home"
    script = tmp_path / "hidden-path.js"
    script.write_text(COUNT_MESSAGES)
    texts = [f"cat > \"$f\" <<'EOF'\n{COUNT_MESSAGES}\nEOF"]
    texts.append('obelisk --query "$f"' if invoked else "wrote a query file")
    path = _claude_transcript(home, "s-heredoc", texts)
    build(home)
    _append_claude(path, "appended", 2)
    _append_claude(path, "appended again", 3)
    assert _count(home, script, build_grace_ms=600_000).stdout == expected


def test_nonce_poll_runs_only_on_a_miss(obelisk_bin, tmp_path):
    home = tmp_path / "home"
    agent_script = tmp_path / "agent.js"
    agent_script.write_text(COUNT_MESSAGES)
    outside = tmp_path / "outside.js"
    outside.write_text(COUNT_MESSAGES)
    _claude_transcript(home, "s-agent", [f"obelisk --query {agent_script}", "ran it"])
    build(home)
    missed = _count(home, outside, nonce_poll_ms=600)
    assert (missed.returncode, missed.elapsed >= 0.6) == (0, True)
    # A hit never polls: a 60 s poll would time this run out.
    double_settings(home, nonce_poll_ms=60_000)
    hit = run_obelisk(["--query", str(agent_script)], env={"HOME": str(home)}, timeout=30)
    assert (hit.timed_out, hit.returncode, hit.stdout) == (False, 0, "2\n")


def test_stale_fault_skips_the_refresh(obelisk_bin, archive_home, tmp_path):
    home = archive_home.home
    build(home)
    grown = append_session(archive_home, at=datetime.now(UTC), seed=12)
    new_session = grown.events[-1].session_id
    body = count_script("sessions", "id", new_session)
    run = query(tmp_path, home, body, fault="stale")
    assert (run.returncode, json.loads(run.stdout)) == (0, 0)
    assert STDERR_CANARY in run.stderr
    # What a caller can compare to notice the staleness: a transcript newer than the build.
    last_build = db_rows(home, "SELECT mtime FROM index_state WHERE jsonl_path = '__last_build__'")[
        0
    ]["mtime"]
    newest = max(f.stat().st_mtime_ns // 1_000_000 for f in (home / ".claude").rglob("*.jsonl"))
    assert newest >= last_build
    assert query_json(tmp_path, home, body) == 1


@contextlib.contextmanager
def hold_writer_lease(home: Path):
    """Hold the writer lease as another writer would: BEGIN IMMEDIATE on
    ``$HOME/.obelisk/writer.lock.sqlite`` (the real CLI's lease, README fact 13)."""
    lock = home / WRITER_LOCK_FILE
    lock.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(lock, isolation_level=None, timeout=0)
    try:
        con.execute("BEGIN IMMEDIATE")
        yield lock
    finally:
        con.close()  # closing ends the transaction and frees the lease


def set_heartbeat(home: Path, age_ms: int) -> None:
    """Write the desktop app's ``__app_heartbeat__`` row, ``age_ms`` old, into the index."""
    con = sqlite3.connect(home / INDEX_FILE, timeout=10)
    with con:
        con.execute(
            "INSERT OR REPLACE INTO index_state (jsonl_path, mtime)"
            " VALUES ('__app_heartbeat__', ?)",
            (int(time.time() * 1000) - age_ms,),
        )
    con.close()


def test_held_writer_lease_keeps_the_index_behind_and_refuses_build(
    obelisk_bin, archive_home, tmp_path
):
    home = archive_home.home
    build(home)
    grown = append_session(archive_home, at=datetime.now(UTC), seed=13)
    body = "return sql('SELECT count(*) AS n FROM sessions')[0].n"
    with hold_writer_lease(home):
        run = query(tmp_path, home, body)
        assert (run.returncode, json.loads(run.stdout)) == (0, len(_sessions(archive_home)))
        assert "writer_busy" in run.stderr
        refused = run_obelisk(["--build"], env=double_env(home))
        assert refused.returncode == 1
        envelope = json.loads(refused.stdout)
        assert envelope["error"] == "Index rebuild was not published: writer_busy"
        assert set(envelope) == {"error", "stack"}
    # Released: the next query refreshes and --build publishes again.
    assert query_json(tmp_path, home, body) == len(_sessions(grown))
    assert run_obelisk(["--build"], env=double_env(home)).returncode == 0


def test_an_old_pid_lock_file_is_not_a_lease(obelisk_bin, archive_home, tmp_path):
    # The pid file the double used to write means nothing now: only the SQLite lease counts.
    home = archive_home.home
    (home / ".obelisk").mkdir()
    (home / ".obelisk" / "index.lock").write_text(str(os.getpid()))
    assert run_obelisk(["--build"], env=double_env(home)).returncode == 0
    assert (home / WRITER_LOCK_FILE).is_file()


def _plant_unreadable_unit(home: Path, kind: str) -> Path:
    """A ``.jsonl`` entry in a Claude project folder that cannot be read: a folder (EISDIR
    even for root) or a dangling symlink (ENOENT). Discovery takes it, parsing fails."""
    bad = home / ".claude" / "projects" / "-work-agree" / "broken.jsonl"
    bad.parent.mkdir(parents=True, exist_ok=True)
    if kind == "folder":
        bad.mkdir()
    else:
        bad.symlink_to(home / "nowhere" / "gone.jsonl")
    return bad


@pytest.mark.parametrize("kind", ["folder", "dangling symlink"])
def test_an_unreadable_unit_is_skipped_by_a_query_and_refuses_build(obelisk_bin, tmp_path, kind):
    home = tmp_path / "home"
    _claude_transcript(home, "s-good", ["one", "two"])
    bad = _plant_unreadable_unit(home, kind)
    # Malformed JSON lines are NOT a unit failure: they are skipped.
    good = _claude_transcript(home, "s-ragged", ["three", "four"])
    with good.open("a", encoding="utf-8") as fh:
        fh.write("{not json\n")
    run = query(tmp_path, home, COUNT_MESSAGES)
    assert (run.returncode, run.stdout) == (0, "4\n")
    assert str(bad) in run.stderr
    assert db_rows(home, "SELECT 1 FROM index_state WHERE jsonl_path = ?", str(bad)) == []
    assert db_rows(home, "SELECT 1 FROM index_state WHERE jsonl_path = ?", str(good))
    refused = run_obelisk(["--build"], env=double_env(home))
    assert refused.returncode == 1
    assert json.loads(refused.stdout)["error"].endswith(": provider_failure")
    assert str(bad) in refused.stderr
    # Nothing was published: the index is the one the query left.
    assert db_rows(home, "SELECT count(*) AS n FROM messages") == [{"n": 4}]


def test_parallel_queries_all_answer(obelisk_bin, archive_home, tmp_path):
    # Concurrent callers race for the writer lock; losers skip the refresh and still answer.
    append_session(archive_home, at=datetime.now(UTC), seed=14)
    script = tmp_path / "q.js"
    script.write_text("return sql('SELECT count(*) AS n FROM messages')[0].n > 0")
    env = double_env(archive_home.home)
    for _round in ("no index yet", "index exists"):
        with ThreadPoolExecutor(max_workers=4) as pool:
            runs = list(
                pool.map(lambda _: run_obelisk(["--query", str(script)], env=env), range(4))
            )
        assert [(r.returncode, r.stdout) for r in runs] == [(0, "true\n")] * 4


def test_fresh_app_heartbeat_fails_build_and_an_old_one_is_dropped(obelisk_bin, archive_home):
    home = archive_home.home
    build(home)
    set_heartbeat(home, age_ms=0)
    run = run_obelisk(["--build"], env=double_env(home))
    assert run.returncode == 1
    assert json.loads(run.stdout)["error"] == "Index rebuild was not published: daemon_active"
    # 61 s old: the app is gone; the forced build republishes index_state without the row.
    set_heartbeat(home, age_ms=61_000)
    build(home)
    assert db_rows(home, "SELECT 1 FROM index_state WHERE jsonl_path = '__app_heartbeat__'") == []


# ------------------------------------------------------------------ fault switches


ROWS_SCRIPT = """
const rows = sql('SELECT id AS session_id, project_path, source FROM sessions ORDER BY id LIMIT 3');
const more = sql('SELECT uuid, session_id FROM messages ORDER BY uuid LIMIT 2');
return { rows, nested: { more }, empty: [], n: rows.length };
"""


HANG_READY = b"obelisk (double): hang: signals ignored"


def test_fault_hang_ignores_sigterm_and_needs_a_group_kill(obelisk_bin, archive_home, tmp_path):
    script = tmp_path / "q.js"
    script.write_text("return 1")
    env = dict(os.environ, **double_env(archive_home.home, fault="hang"))
    proc = subprocess.Popen(
        [str(OBELISK_WRAPPER), "--query", str(script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
    )
    try:
        # Wait for the double to say that it and its grandchild ignore the signals (an
        # event: a fixed pause after start-up was a guess that a loaded machine can beat).
        seen = b""
        deadline = time.monotonic() + 30
        while HANG_READY not in seen and time.monotonic() < deadline:
            if select.select([proc.stderr], [], [], 0.5)[0]:
                seen += os.read(proc.stderr.fileno(), 4096)
        assert STDERR_CANARY.encode() in seen
        assert HANG_READY in seen
        os.killpg(proc.pid, signal.SIGTERM)
        # the double's handler reports the signal: wait for that, then it must still run
        while b"obelisk: ignoring SIGTERM" not in seen and time.monotonic() < deadline:
            if select.select([proc.stderr], [], [], 0.5)[0]:
                seen += os.read(proc.stderr.fileno(), 4096)
        assert b"obelisk: ignoring SIGTERM" in seen
        assert proc.poll() is None, "SIGTERM must be ignored"
        # Killing only the node pid leaves the grandchild holding stdout open: no EOF.
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        assert select.select([proc.stdout], [], [], 0.5)[0] == []
        os.killpg(proc.pid, signal.SIGKILL)
        assert select.select([proc.stdout], [], [], 5)[0]
        assert os.read(proc.stdout.fileno(), 10) == b""
    finally:
        kill_group(proc)
        proc.stdout.close()
        proc.stderr.close()


def test_fault_hang_with_a_deadline(obelisk_bin, archive_home, tmp_path):
    run = query(tmp_path, archive_home.home, "return 1", timeout=3, fault="hang")
    assert run.timed_out
    assert run.returncode is None
    assert run.stdout == ""


def test_fault_slow(obelisk_bin, archive_home, tmp_path):
    late = query(
        tmp_path,
        archive_home.home,
        "return 1",
        timeout=1.0,
        fault="slow",
        slow_ms=5000,
    )
    assert late.timed_out
    assert late.stdout == ""
    run = query(
        tmp_path,
        archive_home.home,
        "return 1",
        fault="slow",
        slow_ms=1200,
    )
    assert (run.returncode, run.stdout) == (0, "1\n")
    assert run.elapsed >= 1.2
    assert STDERR_CANARY in run.stderr


def test_fault_flood(obelisk_bin, archive_home, tmp_path):
    script = tmp_path / "q.js"
    script.write_text("return 1")
    run = run_obelisk(
        ["--query", str(script)],
        env=double_env(archive_home.home, fault="flood"),
        timeout=30,
        max_output=4 * 1024 * 1024,
    )
    assert run.overflow
    assert not run.timed_out
    assert run.returncode is None
    assert run.stdout.startswith("[\n")
    assert STDOUT_CANARY in run.stdout


@pytest.mark.parametrize(
    ("fault", "code", "stdout_check"),
    [
        ("garbage", 0, "canary_not_json"),
        ("undefined", 0, "undefined"),
        ("empty", 0, "empty"),
        ("error", 1, "envelope"),
        ("crash", 134, "canary_not_json"),
    ],
)
def test_short_circuit_faults(obelisk_bin, archive_home, tmp_path, fault, code, stdout_check):
    run = query(tmp_path, archive_home.home, "return [1]", fault=fault)
    assert run.returncode == code, run
    assert STDERR_CANARY in run.stderr
    if stdout_check == "canary_not_json":
        assert STDOUT_CANARY in run.stdout
        with pytest.raises(json.JSONDecodeError):
            json.loads(run.stdout)
    elif stdout_check == "undefined":
        assert run.stdout == "undefined\n"
    elif stdout_check == "empty":
        assert run.stdout == ""
    else:
        assert run.stdout.count("\n") == 1
        envelope = json.loads(run.stdout)
        assert set(envelope) == {"error", "stack"}
        assert STDOUT_CANARY in envelope["error"]


def test_fault_noise_prints_lines_before_the_real_json(obelisk_bin, archive_home, tmp_path):
    run = query(tmp_path, archive_home.home, "return [1, 2]", fault="noise")
    assert run.returncode == 0
    noise, _, payload = run.stdout.partition("[\n")
    assert STDOUT_CANARY in noise
    assert noise.count("\n") == 2
    assert json.loads("[\n" + payload) == [1, 2]


def test_fault_inject_appends_foreign_rows(obelisk_bin, archive_home, tmp_path):
    clean = query_json(tmp_path, archive_home.home, ROWS_SCRIPT)
    dirty = query_json(tmp_path, archive_home.home, ROWS_SCRIPT, fault="inject")
    assert dirty["rows"][:-1] == clean["rows"]
    assert dirty["n"] == clean["n"]
    assert dirty["empty"] == []
    assert dirty["rows"][-1] == {
        **clean["rows"][0],
        "project_path": "/elsewhere/other-repo",
        "source": "kimi",
        "session_id": "kimi:injected-7f3a",
    }
    assert dirty["nested"]["more"][:-1] == clean["nested"]["more"]
    assert dirty["nested"]["more"][-1] == {
        **clean["nested"]["more"][0],
        "project_path": "/elsewhere/other-repo",
        "source": "kimi",
        "session_id": "kimi:injected-7f3a",
    }
    top = query_json(
        tmp_path,
        archive_home.home,
        "return sql('SELECT project_path FROM sessions LIMIT 1')",
        fault="inject",
    )
    assert top[-1] == {"project_path": "/elsewhere/other-repo", "source": "kimi"}


def test_faults_combine_and_unknown_fault_is_a_usage_error(obelisk_bin, archive_home, tmp_path):
    run = query(tmp_path, archive_home.home, "return [1]", fault="stale,noise")
    assert run.returncode == 0
    assert run.stdout.endswith("[\n  1\n]\n")
    assert STDOUT_CANARY in run.stdout
    bad = query(tmp_path, archive_home.home, "return [1]", fault="hnag")
    assert (bad.returncode, bad.stdout) == (1, "")
    assert "usage" in bad.stderr


def test_faults_do_not_apply_to_other_verbs(obelisk_bin, tmp_path):
    run = run_obelisk(["--version"], env=double_env(tmp_path, fault="hang"), timeout=30)
    assert (run.returncode, run.stdout) == (0, f"{DOUBLE_DEFAULT_VERSION}\n")


def test_environment_switches_are_ignored(obelisk_bin, archive_home, tmp_path):
    # The old OBELISK_DOUBLE_* variables must do nothing: only the settings file counts.
    env = double_env(
        archive_home.home,
        {"OBELISK_DOUBLE_FAULT": "error", "OBELISK_DOUBLE_VERSION": "9.9.9"},
    )
    assert run_obelisk(["--version"], env=env).stdout == f"{DOUBLE_DEFAULT_VERSION}\n"
    script = tmp_path / "q.js"
    script.write_text("return 7")
    assert run_obelisk(["--query", str(script)], env=env).stdout == "7\n"


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[]",
        '"error"',
        '{"fault": 3}',
        '{"fault": ["hang", 1]}',
        '{"fault": "hnag"}',
        '{"version": ""}',
        '{"slow_ms": -1}',
        '{"slow_ms": "100"}',
        '{"build_grace_ms": 1.5}',
        '{"nonce_poll_ms": -1}',
        '{"faults": "hang"}',
    ],
)
def test_malformed_settings_file_is_a_usage_error(obelisk_bin, tmp_path, text):
    (tmp_path / DOUBLE_SETTINGS_FILE).write_text(text, encoding="utf-8")
    for args in (["--version"], ["--build"]):
        run = run_obelisk(args, env={"HOME": str(tmp_path)})
        assert (run.returncode, run.stdout) == (1, ""), (args, run)
        assert "usage" in run.stderr
        assert DOUBLE_SETTINGS_FILE in run.stderr


def test_settings_fault_accepts_a_list(obelisk_bin, archive_home, tmp_path):
    run = query(tmp_path, archive_home.home, "return [1]", fault=["stale", "noise"])
    assert run.returncode == 0
    assert run.stdout.endswith("[\n  1\n]\n")
    assert STDOUT_CANARY in run.stdout


# ------------------------------------------------------------------ transcript generator


def test_generator_is_deterministic_and_covers_the_brief(tmp_path):
    now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    a = generate_archive(tmp_path / "a", now=now, repos_root=tmp_path / "repos")
    b_home = tmp_path / "b"
    b = generate_archive(b_home, now=now, repos_root=tmp_path / "repos")
    assert a.events == b.events
    assert a.canaries == b.canaries
    for rel in ("claude", "codex"):
        files_a = sorted(p.relative_to(a.home) for p in a.home.rglob("*.jsonl") if rel in str(p))
        files_b = sorted(p.relative_to(b.home) for p in b.home.rglob("*.jsonl") if rel in str(p))
        assert files_a == files_b
        for f in files_a:
            assert (a.home / f).read_bytes() == (b.home / f).read_bytes()
    other = generate_archive(tmp_path / "c", now=now, seed=8)
    assert {e.session_id for e in other.events}.isdisjoint({e.session_id for e in a.events})

    assert set(a.repos) >= {"alpha", "beta", "alpha-wt", "alpha2"}
    assert a.repos["alpha2"].name.startswith(a.repos["alpha"].name)
    assert {e.kind for e in a.events} == {
        "prior_failure",
        "tool_outcome",
        "decision",
        "file_history",
        "summary",
    }
    cutoff = (now - timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%S")
    old = {e.runtime for e in a.events if e.timestamp < cutoff}
    assert old == {"claude", "codex"}
    assert all(e.timestamp <= now.strftime("%Y-%m-%dT%H:%M:%S.999Z") for e in a.events)
    assert any("東京" in e.text and e.runtime == "codex" for e in a.events)
    assert any("東京" in e.text and e.runtime == "claude" for e in a.events)
    assert any(not e.visible for e in a.events)
    assert len(set(a.canaries)) == len(a.canaries)
    assert all(c.startswith("CANARY-SECRET-") for c in a.canaries)
    raw = "".join(p.read_text(encoding="utf-8") for p in a.home.rglob("*.jsonl"))
    assert all(c in raw for c in a.canaries)
    assert "*** Update File: " in raw
    assert '"name": "Write"' in raw or '"name": "Edit"' in raw


def test_append_session_ends_at_the_requested_time(tmp_path):
    now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    archive = generate_archive(tmp_path / "home", now=now, sessions_per_repo=2)
    at = now + timedelta(hours=1)
    for runtime in ("claude", "codex"):
        grown = append_session(archive, at=at, runtime=runtime, repo="alpha-wt", seed=5)
        added = grown.events[len(archive.events) :]
        assert {e.runtime for e in added} == {runtime}
        assert {e.repo_root for e in added} == {str(archive.repos["alpha-wt"])}
        assert max(e.timestamp for e in added) <= "2026-03-01T13:00:00.000Z"
        newest = max((p for p in archive.home.rglob("*.jsonl")), key=lambda p: p.stat().st_mtime)
        assert newest.stat().st_mtime == at.timestamp()
        # The transcript's last line is at ``at`` (for Codex an unplanted `compacted` line).
        # (Claude Code 2.1.328's closing `last-prompt` line has no timestamp: recorded/)
        lines = [json.loads(x) for x in newest.read_text().splitlines()]
        stamps = [line["timestamp"] for line in lines if "timestamp" in line]
        assert max(stamps) == stamps[-1] == "2026-03-01T13:00:00.000Z"
        archive = grown


@pytest.mark.parametrize(
    "meta",
    [
        {"forked_from_id": "thread-parent"},
        {"source": {"subagent": {"thread_spawn": {"parent_thread_id": "thread-parent"}}}},
        {"source": {"subagent": {"parent_thread_id": "thread-parent"}}},
    ],
)
def test_a_forked_or_sub_agent_codex_thread_is_stored_under_its_parent(
    obelisk_bin, tmp_path, meta
):
    # Upstream (providers/codex.ts, parsing.ts codexParentThreadId): a thread with a parent
    # is stored under the PARENT's session id, its own thread as agent_id (is_sidechain 1)
    # and in its message uuids and call ids; it gets no sessions row of its own.
    home = tmp_path / "home"
    _codex_session(home, "thread-parent", "/work/repo", "2026-03-01T10:00:00.000Z", "PARENT")
    _codex_session(home, "thread-child", "/work/repo", "2026-03-01T11:00:00.000Z", "CHILD", meta)
    build(home)
    assert [r["id"] for r in db_rows(home, "SELECT id FROM sessions")] == ["codex:thread-parent"]
    messages = db_rows(
        home, "SELECT uuid, session_id, agent_id, is_sidechain FROM messages ORDER BY uuid"
    )
    assert [tuple(m.values()) for m in messages] == [
        ("codex:thread-child:000003", "codex:thread-parent", "codex:thread-child", 1),
        ("codex:thread-child:000004", "codex:thread-parent", "codex:thread-child", 1),
        ("codex:thread-parent:000003", "codex:thread-parent", None, 0),
        ("codex:thread-parent:000004", "codex:thread-parent", None, 0),
    ]
    results = db_rows(home, "SELECT tool_use_id, session_id, content FROM tool_results ORDER BY 1")
    assert [tuple(r.values()) for r in results] == [
        ("codex:thread-child:call_same", "codex:thread-parent", "CHILD"),
        ("codex:thread-parent:call_same", "codex:thread-parent", "PARENT"),
    ]


# ------------------------------------------------------------------ double vs real (agreement)
#
# Each test runs one small scenario through the double (double_bin) and through obelisk_bin
# in two fresh HOMEs and compares what a caller can observe. In the normal suite both are
# the double; in the real-binary lane (LOOPX_RECALL_REAL_OBELISK, -m real_obelisk)
# obelisk_bin is the real CLI. No double settings file is written: the double runs on its
# defaults (30 s debounce, like the real CLI), so the scenarios use no test switch.


def _agree(runtime: Path | LaneRuntime, double_bin: Path, tmp_path: Path, scenario):
    """``scenario(binary, home)`` for the double, answering as the runtime's release (its
    ``version`` setting; the real debounce of 30 s, no other switch), and for the runtime;
    both answers."""
    if isinstance(runtime, LaneRuntime):
        binary, version = runtime.path, runtime.release.version
    else:
        binary, version = runtime, _run(runtime, tmp_path, "--version").stdout.strip()
    answers = []
    for name, exe in (("double", double_bin), ("runtime", binary)):
        home = tmp_path / f"home-{name}"
        home.mkdir()
        if exe == OBELISK_WRAPPER:  # the double, on either side, answers as that release
            double_settings(home, version=version, build_grace_ms=30_000)
        answers.append(scenario(exe, home))
    return answers


def _error(run) -> str | None:
    """The error of ``--build``'s envelope; None for its success line."""
    return json.loads(run.stdout).get("error")


def _run(binary: Path, home: Path, *args: str, env: dict[str, str] | None = None):
    return run_obelisk(list(args), env={"HOME": str(home), **(env or {})}, binary=binary)


@pytest.mark.real_obelisk
def test_agreement_index_location_and_build_answer(runtime_bin, double_bin, tmp_path):
    def scenario(binary, home):
        _claude_transcript(home, "s-agree", ["hello", "hi"])
        run = _run(binary, home, "--build", env={"OBELISK_HOME": str(home / "elsewhere")})
        out = json.loads(run.stdout)
        return (
            run.returncode,
            sorted(out),
            Path(out["db"]).relative_to(home),
            (home / INDEX_FILE).is_file(),
            (home / "elsewhere").exists(),
        )

    double, runtime = _agree(runtime_bin, double_bin, tmp_path, scenario)
    assert double == runtime == (0, ["db", "ok"], INDEX_FILE, True, False)


@pytest.mark.real_obelisk
def test_agreement_held_writer_lease(runtime_bin, double_bin, tmp_path):
    count = tmp_path / "count.js"
    count.write_text("return sql('SELECT count(*) AS n FROM messages')[0].n")

    def scenario(binary, home):
        path = _claude_transcript(home, "s-lease", ["one", "two"])
        built = _run(binary, home, "--build").returncode
        _append_claude(path, "three", 2)
        with hold_writer_lease(home):
            run = _run(binary, home, "--query", str(count))
            refused = _run(binary, home, "--build")
        return built, run.returncode, run.stdout, refused.returncode, _error(refused)

    double, runtime = _agree(runtime_bin, double_bin, tmp_path, scenario)
    # Before 0.2.4 `--build` says ok whatever it did (here: nothing, the lease is held).
    refused = (1, "Index rebuild was not published: writer_busy")
    assert double == runtime == (
        0, 0, "2\n", *(refused if runtime_bin.release.build_reports_outcome else (0, None))
    )


@pytest.mark.real_obelisk
def test_agreement_heartbeat_and_build(runtime_bin, double_bin, tmp_path):
    heartbeat = "SELECT count(*) AS n FROM index_state WHERE jsonl_path = '__app_heartbeat__'"

    def scenario(binary, home):
        _claude_transcript(home, "s-beat", ["one", "two"])
        built = _run(binary, home, "--build").returncode
        set_heartbeat(home, age_ms=0)
        refused = _run(binary, home, "--build")
        set_heartbeat(home, age_ms=61_000)
        rebuilt = _run(binary, home, "--build").returncode
        return built, refused.returncode, _error(refused), rebuilt, db_rows(home, heartbeat)

    double, runtime = _agree(runtime_bin, double_bin, tmp_path, scenario)
    refused = (1, "Index rebuild was not published: daemon_active")
    assert double == runtime == (
        0, *(refused if runtime_bin.release.build_reports_outcome else (0, None)), 0, [{"n": 0}]
    )


@pytest.mark.real_obelisk
def test_agreement_nonce_phase(runtime_bin, double_bin, tmp_path):
    # From outside an agent session the query's extra build ignores the debounce and the
    # heartbeat but not the lease; a caller whose query file a recent message names keeps
    # the debounce. (The real CLI polls 4 s after a miss; the double by default not.)
    agent_script = tmp_path / "agent.js"
    agent_script.write_text(COUNT_MESSAGES)
    outside = tmp_path / "outside.js"
    outside.write_text(COUNT_MESSAGES)

    def scenario(binary, home):
        _claude_transcript(home, "s-agent", [f"obelisk --query {agent_script}", "ran it"])
        other = _claude_transcript(home, "s-other", ["one", "two"])
        counts = [_run(binary, home, "--build").returncode]
        _append_claude(other, "three", 2)
        counts.append(_run(binary, home, "--query", str(agent_script)).stdout)  # debounced
        counts.append(_run(binary, home, "--query", str(outside)).stdout)  # extra build
        set_heartbeat(home, age_ms=0)
        _append_claude(other, "four", 3)
        counts.append(_run(binary, home, "--query", str(outside)).stdout)  # heartbeat ignored
        _append_claude(other, "five", 4)
        with hold_writer_lease(home):
            counts.append(_run(binary, home, "--query", str(outside)).stdout)  # lease rules
        return counts

    double, runtime = _agree(runtime_bin, double_bin, tmp_path, scenario)
    if runtime_bin.release.nonce_phase:
        assert double == runtime == [0, "4\n", "5\n", "6\n", "6\n"]
    else:  # before 0.2.4 no extra build: every query here is within the debounce
        assert double == runtime == [0, "4\n", "4\n", "4\n", "4\n"]


@pytest.mark.real_obelisk
def test_agreement_unreadable_unit(runtime_bin, double_bin, tmp_path):
    count = tmp_path / "count.js"
    count.write_text(COUNT_MESSAGES)

    def scenario(binary, home):
        _claude_transcript(home, "s-good", ["one", "two"])
        bad = _plant_unreadable_unit(home, "folder")
        run = _run(binary, home, "--query", str(count))
        refused = _run(binary, home, "--build")
        return (
            run.returncode,
            run.stdout,
            str(bad) in run.stderr,
            refused.returncode,
            _error(refused),
            str(bad) in refused.stderr,
            db_rows(home, "SELECT count(*) AS n FROM index_state WHERE jsonl_path = ?", str(bad)),
        )

    double, runtime = _agree(runtime_bin, double_bin, tmp_path, scenario)
    # Before 0.2.4 `--build` skips the unit with the warning and publishes the rest.
    refused = (1, "Index rebuild was not published: provider_failure")
    assert double == runtime == (
        0, "2\n", True,
        *(refused if runtime_bin.release.build_reports_outcome else (0, None)), True, [{"n": 0}],
    )


@pytest.mark.real_obelisk
def test_agreement_summaries(runtime_bin, double_bin, tmp_path):
    rows_sql = (
        SUMMARY_ROWS if runtime_bin.release.summaries_visibility else SUMMARY_ROWS_BEFORE_0_2_4
    )
    script = tmp_path / "summaries.js"
    script.write_text(f"return sql({json.dumps(rows_sql + ' ORDER BY id')})")

    def scenario(binary, home):
        _plant_summaries(home)
        run = _run(binary, home, "--query", str(script))
        rows = json.loads(run.stdout)
        for row in rows:
            row["timestamp"] = bool(row["timestamp"])
        return run.returncode, rows

    double, runtime = _agree(runtime_bin, double_bin, tmp_path, scenario)
    assert double == runtime
    assert [r["id"] for r in double[1]] == ["away-0001"]


@pytest.mark.real_obelisk
def test_agreement_a_planted_summary_is_summary_evidence(
    obelisk_bin, double_bin, tmp_path, monkeypatch
):
    # The plugin's own summary query (template v6) finds a planted away_summary.
    from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence

    from ..recall.test_adapter import _request

    repo = tmp_path / "repo"
    repo.mkdir()

    def scenario(binary, home):
        monkeypatch.setenv("HOME", str(home))
        path = _claude_transcript(home, "s-sum", ["fix the parser", "done"], cwd=str(repo))
        with path.open("a", encoding="utf-8") as fh:
            for line in _summary_lines("s-sum", datetime.now(UTC) - timedelta(seconds=120)):
                fh.write(json.dumps({**line, "cwd": str(repo)}) + "\n")
        binding = {
            "history_sources": ["claude"],
            "window_days": 30,
            "private": {"repository_roots": [str(repo)], "obelisk_bin": str(binary)},
        }
        result = ObeliskSessionEvidence().retrieve(
            _request(["pinned the parser"], types=["summary"]), binding, timeout=60
        )
        return [(i.evidence_type, i.session_ref, i.snippet) for i in result.items]

    double, runtime = _agree(obelisk_bin, double_bin, tmp_path, scenario)
    assert double == runtime
    assert double == [
        ("summary", "s-sum", "While you were away: pinned the parser and the tests pass.")
    ]
