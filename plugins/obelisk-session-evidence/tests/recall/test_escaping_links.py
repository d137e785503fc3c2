# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""One odd transcript must not deny service (issue 18, item 7): a session whose working
directory passes through a symlink inside the repository that leads outside it is left out
by the query itself, so the other sessions of the repository are still answered; a row
that gets through anyway still rejects the whole result."""

from __future__ import annotations

import json
import subprocess
from datetime import timedelta

import pytest
from loopx_obelisk_session_evidence.escapes import find_escapes

from ..conftest import CAPABILITY
from ..hostile import codex_transcript, now_iso

pytestmark = pytest.mark.real_obelisk

CANARY = "CANARY-escaped-output-5d2e"


def _git(repo, *args):
    subprocess.run(["git", "-c", "user.email=a@b", "-c", "user.name=a", *args], cwd=repo,
                   check=True, capture_output=True)  # fmt: skip


@pytest.fixture
def repository(archive_home):
    home = archive_home.home
    repo = home / "src" / "linked-repo"
    outside = home / "elsewhere" / "vendor"
    (outside / "sub").mkdir(parents=True)
    repo.mkdir(parents=True)
    _git(repo, "init", "-q")
    (repo / "tracked-out").symlink_to(outside)  # committed: git lists it
    (repo / "inside").mkdir()
    (repo / "inside-link").symlink_to(repo / "inside")  # stays in the repository
    _git(repo, "add", "tracked-out")
    _git(repo, "commit", "-q", "-m", "link")
    (repo / "untracked-out").symlink_to(outside / "sub")  # never committed
    return home, repo, outside


def test_links_leading_outside_are_found_tracked_or_not(repository):
    _home, repo, _outside = repository
    assert find_escapes([str(repo)], [str(repo.resolve())]) == sorted(
        {str(repo / "tracked-out"), str(repo / "untracked-out"),
         str(repo.resolve() / "tracked-out"), str(repo.resolve() / "untracked-out")}
    )  # fmt: skip


def test_a_session_under_an_escaping_link_leaves_the_others_answered(loopx, repository):
    home, repo, _outside = repository
    stamp = now_iso(-timedelta(hours=2))
    codex_transcript(home, "thread-escaped", cwd=str(repo / "untracked-out"), timestamp=stamp,
                     output=f"Exit code: 1\n{CANARY}")  # fmt: skip
    codex_transcript(home, "thread-tracked", cwd=str(repo / "tracked-out" / "sub"),
                     timestamp=stamp, output=f"Exit code: 1\n{CANARY}")  # fmt: skip
    codex_transcript(home, "thread-control", cwd=str(repo / "inside-link"), timestamp=stamp)
    loopx("capability", "enable", *CAPABILITY, "--agent-id", "agent-a", "--project-id",
          "proj-j", "--history-source", "codex", "--repository-root", str(repo),
          "--agent-sessions", "runtime")  # fmt: skip
    out = loopx("recall", "history", "--agent-id", "agent-a", "--project-id", "proj-j",
                "--term", "pytest", "--evidence-type", "prior_failure", "--format", "json",
                "--show-private").stdout  # fmt: skip
    data = json.loads(out)
    # Before: the escaped sessions were selected, then rejected the whole result.
    assert (data["status"], data["reason"]) == ("succeeded", None), data
    assert {i["session_ref"] for i in data["items"]} == {"codex:thread-control"}
    assert CANARY not in out
    status = loopx("capability", "status", *CAPABILITY, "--format", "json").stdout
    assert "untracked-out" not in status
    assert json.loads(status)["runtime"]["escaping_links"] == 2  # tracked-out, untracked-out
