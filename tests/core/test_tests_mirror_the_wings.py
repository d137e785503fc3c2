# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The tests mirror the package's wings and are named by behaviour (docs/development.md).

A test file sits in its wing's folder, never at the top of ``tests/`` (there only the
conftest and the support modules every wing imports); the folders under ``tests/`` are the
wings; no test file is named by its history and no docstring opens with the issue it came
from ("Issue 21, item 9: ..."): it says the behaviour. Read from the files (``ast``), the
plugin's tests held to the same rules.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WINGS = {
    "runtimes",
    "recall",
    "guard",
    "qualification",
    "external_evidence",
    "cli",
    "loopx_protocol",
    "core",
}
TREES = {
    ROOT / "tests": WINGS,
    # the Obelisk protocol double and its own test live beside the fixtures that run it
    ROOT / "plugins" / "obelisk-session-evidence" / "tests": WINGS | {"obelisk_double"},
}
HISTORY_NAME = re.compile(r"issue|fixes|defects|review|next_steps|misc", re.IGNORECASE)
ISSUE_OPENING = re.compile(r"\s*\(?issues?\s+\d", re.IGNORECASE)


def _python_files(tests: Path) -> list[Path]:
    return sorted(p for p in tests.rglob("*.py") if "__pycache__" not in p.parts)


def top_level_tests(tests: Path) -> list[str]:
    return sorted(p.name for p in tests.glob("test_*.py"))


def odd_folders(tests: Path, wings: set[str]) -> list[str]:
    folders = {p.name for p in tests.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))}
    return sorted(folders - wings)


def history_names(tests: Path) -> list[str]:
    return [
        str(p.relative_to(tests))
        for p in _python_files(tests)
        if p.name.startswith("test_") and HISTORY_NAME.search(p.stem)
    ]


def issue_openings(tests: Path) -> list[str]:
    found = []
    for path in _python_files(tests):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(
                node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
            ):
                continue
            doc = ast.get_docstring(node, clean=False)
            if doc and ISSUE_OPENING.match(doc):
                found.append(f"{path.relative_to(tests)}:{getattr(node, 'lineno', 1)}")
    return found


TREE_IDS = {"ids": lambda p: str(p.relative_to(ROOT))}


@pytest.mark.parametrize("tests", TREES, **TREE_IDS)
def test_no_test_file_sits_at_the_top(tests):
    assert tests.is_dir(), tests
    assert top_level_tests(tests) == [], "move these into their wing's folder"


@pytest.mark.parametrize("tests", TREES, **TREE_IDS)
def test_the_folders_are_the_wings(tests):
    assert odd_folders(tests, TREES[tests]) == [], f"the wings are {sorted(TREES[tests])}"


@pytest.mark.parametrize("tests", TREES, **TREE_IDS)
def test_no_test_file_is_named_by_its_history(tests):
    assert history_names(tests) == [], "name each file by the behaviour it tests"


@pytest.mark.parametrize("tests", TREES, **TREE_IDS)
def test_no_docstring_opens_with_an_issue(tests):
    assert issue_openings(tests) == [], "open with the behaviour, not the issue it came from"


def test_the_rules_catch_what_they_forbid(tmp_path):
    """Each check, on a planted tree, finds what it exists to find and nothing else."""
    (tmp_path / "conftest.py").write_text('"""Fixtures (issue 3 added one)."""\n')
    (tmp_path / "test_small_fixes.py").write_text('"""Issue 21, item 9: x."""\n')
    (tmp_path / "cli").mkdir()
    (tmp_path / "adversarial").mkdir()
    (tmp_path / "cli" / "test_stale_next_step.py").write_text(
        'def test_a():\n    """Issues 22 and 29: y."""\n'
    )
    assert top_level_tests(tmp_path) == ["test_small_fixes.py"]
    assert odd_folders(tmp_path, WINGS) == ["adversarial"]
    assert history_names(tmp_path) == ["test_small_fixes.py"]
    assert issue_openings(tmp_path) == ["cli/test_stale_next_step.py:1", "test_small_fixes.py:1"]
