# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""What the repository's prose cites is in the repository: no Markdown file names a file
of the machine it was written on (``/work/...``: the shared specification, a local build
of Obelisk), which a reader of a clone does not have. Examples of a user's own paths
(``/home/me/...``) are fine: they name nothing that should be there."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = re.compile(r"(?<![\w.~-])/work/[\w./-]+")


def test_no_markdown_file_cites_a_path_of_the_machine_it_was_written_on():
    listed = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.split()  # fmt: skip
    assert len(listed) > 3
    cited = [f"{name}: {match}" for name in listed
             for match in OUTSIDE.findall((ROOT / name).read_text(encoding="utf-8"))]  # fmt: skip
    assert not cited, cited


def test_the_check_finds_such_a_path():
    assert OUTSIDE.findall("follows `/work/shared/OBELISK_PROTOCOL.md`. (a build: /work/x)")
    assert not OUTSIDE.findall("see docs/work/notes.md and ~/work/project")
