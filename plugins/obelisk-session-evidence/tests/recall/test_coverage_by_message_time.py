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
