# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A stale answer says what to do next (refresh the index), status does
not say ``fresh`` right after a recall said ``stale``, and ``no_prior_match`` says it covers
only the window."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from ..conftest import CAPABILITY
from ..obelisk_double.fixtures import double_settings

IDS = ("--agent-id", "agent-a", "--project-id", "proj-j")


def _status_freshness(loopx) -> str:
    out = loopx("capability", "status", *CAPABILITY, "--agent-id", "agent-a", "--format",
                "json").stdout  # fmt: skip
    return json.loads(out)["runtime"]["freshness"]


def test_a_stale_answer_names_the_refresh_and_status_agrees(loopx, enable_alpha, archive_home):
    enable_alpha("claude")
    assert _status_freshness(loopx) == "fresh"  # remembered by the provider
    double_settings(archive_home.home, fault="stale")  # the next query skips its refresh
    later = time.time() + 5
    for path in (Path(archive_home.home) / ".claude" / "projects").rglob("*.jsonl"):
        os.utime(path, (later, later))  # written after the index was built
    asked = loopx("recall", "history", *IDS, "--term", "pytest").stdout
    assert "freshness stale" in asked
    assert "next: " in asked
    assert "obelisk --build" in asked
    assert _status_freshness(loopx) == "stale"


def test_no_prior_match_says_it_covers_only_the_window(loopx, enable_alpha):
    enable_alpha("claude")
    asked = loopx("recall", "replan", "--proposed-command", "never-run-zz --flag", *IDS).stdout
    assert "comparison: no_prior_match" in asked
    assert "within the last 30 days" in asked


def test_a_stale_index_is_said_beside_unclaimed_sessions(loopx, enable_alpha, archive_home):
    # Before: with sessions nobody claimed, the coverage line stood alone and the index's
    # own lag (a fork written after the last refresh, on the real 0.2.1) went unsaid.
    enable_alpha("claude", agent_sessions="claimed")
    double_settings(archive_home.home, fault="stale")
    later = time.time() + 5
    for path in (Path(archive_home.home) / ".claude" / "projects").rglob("*.jsonl"):
        os.utime(path, (later, later))
    asked = loopx("recall", "history", *IDS, "--term", "pytest").stdout
    assert "coverage incomplete" in asked
    assert "obelisk --build" in asked


def test_unclaimed_sessions_alone_name_no_refresh(loopx, enable_alpha):
    enable_alpha("claude", agent_sessions="claimed")
    asked = loopx("recall", "history", *IDS, "--term", "pytest").stdout
    assert "coverage incomplete" in asked
    assert "obelisk --build" not in asked
    assert "the index is" not in asked
