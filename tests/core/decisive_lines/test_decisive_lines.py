# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The evidence carries the error.

Every output captured from a real failing tool (``captured/``, how each was made and its
hand-chosen decisive line in ``captured/README.md`` and ``cases.json``), stored the way
each runtime stores it (``runtime_forms.py``), makes a snippet and a guard warning that
hold the decisive line and none of the runtime's header. The rate over all of them, paired
with today's first-lines cut, is ``benchmarks/decisive_lines.py``'s to report.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from loopx_recall_core.decisive_lines import (
    LINE_CAP,
    OUTPUT_WINDOW,
    decisive_excerpt,
    joined_output,
)
from loopx_recall_core.guard.decide import MAX_WARNING_CHARS, Match, warning_text
from loopx_recall_core.runtimes import OUTPUT_FORMS
from loopx_recall_core.runtimes.output import strip_header
from loopx_recall_core.snippet_rules import format_tool_snippet
from loopx_recall_core.transcript_rules import exit_code
from tests.core.decisive_lines.runtime_forms import FORMS

CAPTURED = Path(__file__).with_name("captured")
CASES = json.loads((CAPTURED / "cases.json").read_text())
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
TOOL = {"claude": "Bash", "codex": "exec_command", "codex_old": "shell"}
HEADER_LINE = re.compile(
    r"(?:Chunk ID|Wall time|Process exited with|Original token count|Exit code)\b"
)


def _windows(content: str) -> str:
    """The template's ``output``/``output_tail``/``output_length`` of ``content`` (its SQL
    evaluated in Python), joined as the provider joins them."""
    tail = content[max(OUTPUT_WINDOW, len(content) - OUTPUT_WINDOW) :]
    return joined_output(content[:OUTPUT_WINDOW], tail or None, len(content))


def _warning(snippet: str, next_command: str | None = None) -> str:
    steps = [{"snippet": next_command}] if next_command else []
    failure = {"snippet": snippet, "at": "2026-01-01T00:00:00+00:00"}
    return warning_text(Match("repeats_prior_failure", failure, steps), time.time())


def test_at_least_forty_real_outputs_were_captured():
    assert len(CASES) >= 40
    assert len({case["tool"] for case in CASES}) >= 15
    for case in CASES:
        output = ANSI.sub("", (CAPTURED / f"{case['name']}.out").read_text())
        assert case["decisive"] in output, case["name"]  # the label is the tool's own text
        assert case["exit_code"] != 0


@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_the_decisive_line_is_in_the_snippet_and_the_warning(case, form):
    raw = (CAPTURED / f"{case['name']}.out").read_text()
    stored = FORMS[form](raw, case["exit_code"])
    tool = TOOL[form]
    snippet = format_tool_snippet(
        tool, case["command"], outcome=False, exit_code=None, output=_windows(stored),
        max_chars=800,
    )  # fmt: skip
    lines = snippet.split("\n")
    assert lines[:2] == [
        f"{tool}: {case['command']}",
        f"outcome: failed (exit {case['exit_code']})",
    ]
    assert case["decisive"] in snippet
    assert not any(HEADER_LINE.match(line) or line == "Output:" for line in lines[2:])
    assert len(snippet) <= 800
    warning = _warning(snippet, f"{tool}: {case['command']} --retry-with-a-fix")
    assert case["decisive"] in warning
    assert len(warning) <= MAX_WARNING_CHARS
    assert "Error: Chunk ID" not in warning


def test_the_guard_warning_starts_with_the_error_not_the_codex_header():
    """As seen with the real Codex 0.169: ``Error: Chunk ID: 688cb0 | Wall time: ...``."""
    raw = (CAPTURED / "pytest_assert_equal.out").read_text()
    snippet = format_tool_snippet(
        "exec_command", "pytest", outcome=False, exit_code=None,
        output=FORMS["codex"](raw, 1), max_chars=800,
    )  # fmt: skip
    error = _warning(snippet).split("\nError: ", 1)[1]
    assert error.startswith("E assert -1 == 5")
    assert "[100%]" not in error  # pytest's progress line was the first shown line


def test_a_snippet_of_elsewhere_with_a_header_still_warns_with_the_error():
    snippet = "Bash: make\noutcome: failed\nExit code 2\nmake: *** [all] Error 1"
    assert _warning(snippet).endswith("Error: make: *** [all] Error 1")


@pytest.mark.parametrize(
    ("stored", "code", "body"),
    [
        ("Exit code 3\nboom", 3, "boom"),  # Claude Code 2.x
        ("Exit code: 1\nWall time: 0.4 seconds\nOutput:\nboom\n", 1, "boom\n"),  # older Codex
        (
            "Chunk ID: 6c585d\nWall time: 0.0000 seconds\nProcess exited with code 1\n"
            "Original token count: 35\nOutput:\nboom",
            1,
            "boom",
        ),  # Codex 0.169
        (
            "Chunk ID: 6c585d\r\nWall time: 0.0001 seconds\r\nProcess exited with code 0\r\n"
            "Original token count: 1\r\nOutput:\r\nok",
            0,
            "ok",
        ),
        (
            "Chunk ID: f800eb\nWall time: 1.0024 seconds\nProcess running with session ID 32244\n"
            "Original token count: 63\nOutput:\nready in 7 ms\n",
            None,
            "ready in 7 ms\n",
        ),  # Codex, the process still running
        ("boom\nExit code 1", None, "boom\nExit code 1"),  # only at the very start
        ("Exit code one\nboom", None, "Exit code one\nboom"),
        ("", None, ""),
    ],
)
def test_each_runtime_header_is_stripped_and_its_status_read(stored, code, body):
    assert strip_header(stored) == body
    assert exit_code(stored) == code


@pytest.mark.parametrize("form", OUTPUT_FORMS, ids=[form.name for form in OUTPUT_FORMS])
def test_every_recorded_output_form_loses_exactly_its_header(form):
    """The runtime records (loopx_recall_core/runtimes) and the header stripper agree on
    every form a supported runtime writes: a new form without its header lines fails."""
    assert strip_header(form.sample).startswith("error: synthetic failure")
    snippet = format_tool_snippet(
        "Bash", "make", outcome=False, exit_code=None, output=form.sample, max_chars=200
    )
    assert snippet == "Bash: make\noutcome: failed (exit 3)\nerror: synthetic failure"


def test_codex_0169_exit_status_reaches_the_outcome_line():
    snippet = format_tool_snippet(
        "exec_command", "pytest", outcome=False, exit_code=None,
        output=FORMS["codex"]("E   boom\n", 4), max_chars=200,
    )  # fmt: skip
    assert snippet == "exec_command: pytest\noutcome: failed (exit 4)\nE   boom"


def test_a_success_shows_its_opening_without_the_header():
    snippet = format_tool_snippet(
        "Bash", "ls", outcome=True, exit_code=None, output="a.py\nb.py", max_chars=200
    )
    assert snippet == "Bash: ls\noutcome: ok\na.py\nb.py"
    codex = format_tool_snippet(
        "exec_command", "ls", outcome=True, exit_code=None,
        output=FORMS["codex"]("a.py\n", 0), max_chars=200,
    )  # fmt: skip
    assert codex == "exec_command: ls\noutcome: ok\na.py"


def test_secrets_are_redacted_before_any_cut():
    """A token cut in half by the line cap would no longer be recognised by the redactor:
    the redactor runs on the whole output first."""
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    line = "E   AssertionError: " + "x" * (LINE_CAP - 30) + " token=" + token
    excerpt = decisive_excerpt(line + "\n", 2000)
    assert token[:8] not in excerpt
    long_line = "fatal: " + "y" * (LINE_CAP - 12) + token
    assert token[:6] not in decisive_excerpt(long_line, 2000)
    assert "ghp_" not in decisive_excerpt("error: bad token " + token, 30)


def test_excerpts_stay_in_their_room_and_lines_in_their_cap():
    output = "\n".join(f"src/m{i}.py:{i}: error: " + "z" * 400 for i in range(50))
    for room in (0, 1, 50, 299, 300, 301, 800):
        excerpt = decisive_excerpt(output, room)
        assert len(excerpt) <= room
        assert all(len(line) <= LINE_CAP for line in excerpt.split("\n"))


def test_output_with_no_known_line_gives_its_last_lines():
    output = "\n".join(f"step {i}" for i in range(100)) + "\nsomething odd happened\n"
    assert decisive_excerpt(output, 40).split("\n")[-1] == "something odd happened"


def test_colour_codes_and_redraws_are_cleaned():
    output = "\x1b[31mdownloading 10%\rdownloading 100%\x1b[0m\n\x1b[1merror\x1b[0m: it broke\n"
    assert decisive_excerpt(output, 200) == "error: it broke"


@pytest.mark.parametrize(
    "length", [10, OUTPUT_WINDOW, OUTPUT_WINDOW + 1, 2 * OUTPUT_WINDOW, 3 * OUTPUT_WINDOW]
)
def test_the_two_windows_join_back_without_overlap_or_loss(length):
    content = "".join(chr(ord("a") + i % 26) for i in range(length))
    joined = _windows(content)
    if length <= 2 * OUTPUT_WINDOW:
        assert joined == content
    else:
        assert joined == content[:OUTPUT_WINDOW] + "\n…\n" + content[-OUTPUT_WINDOW:]
