# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The docs agree with each other and with what the code pins (issue 42, item 8): the tested
runtime versions are the pins of scripts/ensure-runtimes wherever they are named; the
guard's set covers the whole window in guard.md and guard-internals.md alike; no page
speaks of one Obelisk release as if it were the user's."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _text(name: str) -> str:
    return " ".join((ROOT / name).read_text(encoding="utf-8").split())  # lines joined


def _pins() -> tuple[str, str]:
    script = (ROOT / "scripts" / "ensure-runtimes").read_text()
    claude = re.search(r"^CLAUDE_CODE_VERSION=(\S+)$", script, re.M)
    codex = re.search(r"^CODEX_VERSION=(\S+)$", script, re.M)
    assert claude
    assert codex
    return claude[1], codex[1]


def test_the_tested_runtime_versions_are_the_pins_wherever_named():
    claude, codex = _pins()
    lane = (ROOT / "plugins/obelisk-session-evidence/tests/runtimes/lane.py").read_text()
    assert f'CLAUDE_CODE_VERSION = "{claude}"' in lane
    assert f'CODEX_VERSION = "{codex}"' in lane
    assert f"installs the real Claude Code {claude} and Codex {codex} from npm" in _text(
        "README.md")  # fmt: skip
    assert f"Tested versions: **Claude Code {claude}** and **Codex {codex}**" in _text(
        "docs/runtimes.md")  # fmt: skip
    assert f"the real Claude Code {claude} and Codex {codex} CLIs" in _text(
        "docs/development.md")  # fmt: skip
    table = _text("docs/real-runtime-lane.md")
    assert f"| **{claude}** | `scripts/ensure-runtimes` |" in table
    assert f"| **{codex}** | `scripts/ensure-runtimes` |" in table


def test_the_guard_pages_agree_that_the_set_covers_the_whole_window():
    assert "## What the set holds: the whole window" in (ROOT / "docs/guard.md").read_text()
    internals = _text("docs/guard-internals.md")
    bullet = internals.split("**Prior-outcome set.**", 1)[1].split("* **", 1)[0]
    assert "The set covers the whole window" in bullet
    assert "newest first" not in bullet  # the set of one request, before pages


def test_no_page_speaks_of_one_obelisk_release_as_the_users():
    # the user may run any accepted release (0.2.1 or later): a fact checked on one
    # release says so, and does not read as the behaviour of "Obelisk 0.2.4" alone
    for name in ("README.md", "docs/runtimes.md", "docs/guard.md", "docs/guard-internals.md"):
        assert not re.search(r"\*\*Obelisk 0\.2\.\d [a-z]", (ROOT / name).read_text()), name
