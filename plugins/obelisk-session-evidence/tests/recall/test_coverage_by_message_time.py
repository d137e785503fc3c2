# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Coverage follows the messages' times, not the file's date. A transcript
copied or restored with an old date (``cp -p``, ``rsync -t``, a backup) still holds recent
messages, and the index answers from them: it is a candidate, and until it is claimed a
recall's coverage is incomplete (before: left out, and replan answered fresh with no
prior match while the failure was in the index)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from ..conftest import CAPABILITY

IDS = ("--agent-id", "agent-a", "--project-id", "proj-j")
FORTY_DAYS = 40 * 24 * 3600


def test_a_transcript_with_recent_messages_and_an_old_file_date_is_covered(
    loopx, archive_home
):
    alpha = str(archive_home.repos["alpha"])
    failure = next(
        e for e in archive_home.events
        if e.kind == "prior_failure" and e.visible and e.repo_root == alpha and e.command
    )  # fmt: skip
    loopx("capability", "enable", *CAPABILITY, "--surface", "replan-history", *IDS,
          "--history-source", "claude", "--repository-root", alpha,
          "--repository-id", "repo-alpha")  # fmt: skip
    old = time.time() - FORTY_DAYS
    claude = Path(archive_home.home) / ".claude" / "projects"
    aged = [path for path in claude.rglob("*.jsonl")]
    assert aged
    for path in aged:  # the messages stay recent; only the files' dates go back
        os.utime(path, (old, old))
    listed = json.loads(loopx("session", "candidates", *IDS, "--format", "json").stdout)
    assert listed, "a session with recent messages is a candidate whatever its file's date"
    before = loopx("recall", "replan", "--proposed-command", failure.command, *IDS).stdout
    assert "coverage incomplete" in before
    assert "comparison: no_prior_match" not in before


def test_an_old_dated_session_is_listed_from_the_index_whatever_its_file_ends_with(
    loopx, archive_home
):
    """A session whose last record is longer than what a file's end can be read for (a long
    pasted log) and whose file carries an old date: the index holds its messages, so it is
    a candidate, and its last activity is its last message's time as the index holds it
    (before, the file's end was read for times, found none and the session was left out)."""
    alpha = str(archive_home.repos["alpha"])
    loopx("capability", "enable", *CAPABILITY, "--surface", "replan-history", *IDS,
          "--history-source", "claude", "--repository-root", alpha,
          "--repository-id", "repo-alpha")  # fmt: skip
    claude = Path(archive_home.home) / ".claude" / "projects"
    folder = next(p for p in claude.iterdir() if p.name.endswith("-alpha"))
    transcripts = sorted(folder.glob("*.jsonl"))
    assert transcripts
    session = transcripts[0]
    last = json.loads(session.read_text().splitlines()[-1])
    pasted = {
        "parentUuid": last["uuid"], "isSidechain": False, "userType": "external",
        "cwd": alpha, "sessionId": session.stem, "version": last.get("version", "2.0.3"),
        "type": "user", "uuid": "0c5e7c1e-5a3e-4c55-9d6c-1a2b3c4d5e6f",
        "timestamp": last["timestamp"],
        "message": {"role": "user", "content": "the build log:\n" + "x" * 300_000},
    }  # fmt: skip
    with session.open("a") as handle:
        handle.write(json.dumps(pasted) + "\n")
    old = time.time() - FORTY_DAYS
    for path in transcripts:
        os.utime(path, (old, old))
    listed = json.loads(loopx("session", "candidates", *IDS, "--format", "json").stdout)
    found = [c for c in listed["sessions"] if c["session_id"] == session.stem]
    assert found, listed
    assert found[0]["last_activity"] == last["timestamp"][:19] + "Z"
