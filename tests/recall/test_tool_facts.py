# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The route tables' facts about the tools that are always here, checked against the tools
themselves: pytest (the suite's own runner) and git. Each option spelling the tables equate
is printed as one option by the tool's help, and each default the tables drop is the one
the tool reports."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from loopx_recall_core.routes.programs import FLAG_ALIASES
from loopx_recall_core.routes.toolchains import (
    DEFAULT_VALUES,
    SUBCOMMAND_OPTION_ALIASES,
)

PYTEST = [sys.executable, "-m", "pytest"]
#: From pytest-xdist, not pytest: "-n numprocesses, --numprocesses=numprocesses".
PLUGIN_OPTIONS = {"-n"}


def _help(argv: list[str], cwd: Path | None = None) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False, cwd=cwd)
    return done.stdout + done.stderr


def _one_option(text: str, short: str, long: str) -> bool:
    """Whether a line of the help gives ``short`` and ``long`` as one option."""
    short_re = re.escape(short) + r"(?![\w-])"
    long_re = re.escape(long) + r"(?![\w-])"
    return any(re.search(short_re, line) and re.search(long_re, line) for line in text.splitlines())


def test_pytest_option_spellings_are_those_of_pytest_help():
    text = _help([*PYTEST, "--help"])
    for alias, canonical in FLAG_ALIASES["pytest"].items():
        if alias in PLUGIN_OPTIONS:
            continue
        name, _, value = canonical.partition("=")
        if value:  # "-s  Shortcut for --capture=no"
            assert any(alias in line and canonical in line for line in text.splitlines()), alias
        else:
            assert _one_option(text, alias, name), (alias, name)


def test_pytest_defaults_are_the_ones_pytest_uses(tmp_path: Path):
    """pytest's parsed options when none is given (its capture is captured: a file)."""
    (tmp_path / "conftest.py").write_text(
        "import pathlib\n"
        "def pytest_configure(config):\n"
        "    out = pathlib.Path(__file__).with_name('defaults.txt')\n"
        "    out.write_text(f'{config.option.capture} {config.option.importmode}')\n"
    )
    (tmp_path / "test_x.py").write_text("def test_x():\n    pass\n")
    argv = [*PYTEST, "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "-p", "no:xdist"]
    _help([*argv, "--rootdir", str(tmp_path), str(tmp_path)])
    capture, import_mode = (tmp_path / "defaults.txt").read_text().split()
    defaults = {name: values for _, name, values, _ in DEFAULT_VALUES["pytest"]}
    assert capture in defaults["--capture"]
    assert import_mode in defaults["--import-mode"]


def test_git_option_spellings_are_those_of_git_help(tmp_path: Path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)  # stash -h needs one
    for subcommand, aliases in SUBCOMMAND_OPTION_ALIASES["git"].items():
        argv = ["git", subcommand, *(["push"] if subcommand == "stash" else []), "-h"]
        text = _help(argv, cwd=tmp_path)
        for alias, canonical in aliases.items():
            assert _one_option(text, alias, canonical), (subcommand, alias, canonical)
