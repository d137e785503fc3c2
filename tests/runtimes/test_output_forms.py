# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""One outcome rule for every shell-output form the supported runtimes write (issue 27,
item 2): the host's :func:`loopx_recall_core.runtimes.exit_status` and the plugin query
template's ``FAILED`` SQL read each runtime record's forms alike. The template's SQL is
run here in SQLite (the engine Obelisk's index is), over each form's sample, its success
twin and near misses; a form a record lists that either side misreads fails a test."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from loopx_recall_core.runtimes import OUTPUT_FORMS, RECORDS, exit_status, failed
from loopx_recall_core.transcript_rules import exit_code

TEMPLATE = (
    Path(__file__).resolve().parents[2]
    / "plugins/obelisk-session-evidence/loopx_obelisk_session_evidence/templates"
    / "session_evidence.v8.js"
)


def template_failed_sql() -> str:
    """The template's ``FAILED`` expression: its string literals joined (JSON-compatible)."""
    text = TEMPLATE.read_text(encoding="utf-8")
    block = re.search(r"\nconst FAILED =\n(.*?);\n", text, re.S)
    assert block, "the template defines FAILED from string literals"
    return "".join(json.loads(lit) for lit in re.findall(r'"(?:[^"\\]|\\.)*"', block.group(1)))


def template_says_failed(content: str, is_error: int = 0) -> bool:
    with sqlite3.connect(":memory:") as db:
        sql = f"SELECT {template_failed_sql()} FROM (SELECT ? AS content, ? AS is_error) AS tr"
        return bool(db.execute(sql, (content, is_error)).fetchone()[0])


def _with_status(sample: str, status: str) -> str:
    return re.sub(r"(Exit code:? |Process exited with code )3", rf"\g<1>{status}", sample, count=1)


def test_every_supported_runtime_lists_its_output_forms():
    names = {form.name for form in OUTPUT_FORMS}
    # the forms Claude Code 2.1.328 and Codex 0.169.0 (and Codex before it) write
    assert {"claude-exit-code", "codex-exit-code", "codex-process-exited"} <= names
    assert RECORDS["codex"].output_forms
    assert RECORDS["claude"].output_forms


@pytest.mark.parametrize("form", OUTPUT_FORMS, ids=lambda f: f.name)
def test_host_and_template_read_each_form_alike(form):
    assert exit_status(form.sample) == exit_code(form.sample) == 3
    assert failed(form.sample) is True
    assert template_says_failed(form.sample)
    for status, bad in (("0", False), ("1", True), ("127", True), ("-1", True)):
        text = _with_status(form.sample, status)
        assert exit_status(text) == int(status)
        assert failed(text) is bad
        assert template_says_failed(text) is bad, (form.name, status)


CODEX_0_169_OK = (
    "Chunk ID: 1a2b3c\nWall time: 0.0000 seconds\nProcess exited with code 0\n"
    "Original token count: 35\nOutput:\nProcess exited with code 1\n"
)


@pytest.mark.parametrize(
    ("text", "status"),
    [
        # the command's own output saying "Process exited with code 1" is not the status
        (CODEX_0_169_OK, 0),
        ("Chunk ID: 1a2b3c\nWall time: 1.2 seconds\nOutput:\nProcess exited with code 2\n", None),
        # a still-running process has no status yet
        (
            "Chunk ID: 9\nWall time: 10.0 seconds\nProcess running with session ID 4\nOutput:\n",
            None,
        ),
        ("Wall time: 0.1 seconds\nProcess exited with code 2\nOutput:\n", 2),
        ("error: Exit code 1 somewhere inside", None),
        ("Tests passed\nExit code: 1", None),
    ],
)
def test_near_misses_are_read_alike(text, status):
    assert exit_status(text) == status
    assert template_says_failed(text) is (status not in (None, 0))


def test_the_error_flag_alone_is_a_failure_on_both_sides():
    assert failed("anything", is_error=True) is True
    assert template_says_failed("anything", is_error=1)
    assert failed(None) is None
    assert failed("plain output") is None
