# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The README says which Obelisk release the protocol double answers as (issue 42: a
newcomer with Obelisk 0.2.1 saw ``runtime_version=0.2.4`` from the quickstart and no word
why). Asked of the double itself, so the README follows when the double's default moves."""

from __future__ import annotations

from pathlib import Path

from ..obelisk_double.fixtures import double_env, run_obelisk

README = Path(__file__).resolve().parents[4] / "README.md"


def test_the_readme_names_the_release_the_double_answers_as(obelisk_bin, tmp_path):
    answer = run_obelisk(["--version"], env=double_env(tmp_path))
    assert answer.returncode == 0, answer
    version = answer.stdout.strip()
    text = " ".join(README.read_text().split())
    said = f"the double answers as Obelisk {version}, so its outputs say `runtime_version="
    said += f"{version}`"
    assert said in text
