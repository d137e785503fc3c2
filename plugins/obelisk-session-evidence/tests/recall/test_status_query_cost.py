# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Status fits the real cost of a query (issue 41, item 1). From outside an agent session
every ``--query`` of Obelisk 0.2.4 and later looks for the invoking session for about 4 s
(docs/obelisk-releases.md); status gave its readback 3 s and called such a working binary
unready (``provider readback timed out``, no version, no freshness). The readback either
reuses what the last call learnt for the same binary, or waits the query's real time,
bounded, and says which."""

from __future__ import annotations

import json

import pytest

from ..conftest import CAPABILITY
from ..obelisk_double.fixtures import OBELISK_WRAPPER, double_settings

#: The real CLI's poll after a missed session lookup (README.md of the double, fact 15).
REAL_POLL_MS = 4000


def _status(loopx) -> dict:
    out = loopx("capability", "status", *CAPABILITY, "--project-id", "proj-j", "--format", "json")
    return json.loads(out.stdout)


@pytest.fixture
def slow_lookup(archive_home, obelisk_bin):
    """The double answering as 0.2.4 with the real CLI's 4 s session-lookup poll."""
    if obelisk_bin != OBELISK_WRAPPER:  # pragma: no cover - the lane's own binaries
        pytest.skip("a setting of the double")
    double_settings(archive_home.home, version="0.2.4", nonce_poll_ms=REAL_POLL_MS)


def test_status_waits_a_slow_query_and_says_it_queried(loopx, enable_alpha, slow_lookup):
    enable_alpha("claude")
    status = _status(loopx)
    provider, runtime = status["provider"], status["runtime"]
    assert provider["ready"] is True, provider
    assert provider["unavailable_reason"] is None
    assert runtime["runtime_version"] == "0.2.4"
    assert runtime["freshness"] == "fresh"
    assert runtime["readback_source"] == "query"
    # the query took the lookup's poll, and status says how long it waited
    assert runtime["query_ms"] >= REAL_POLL_MS


def test_status_after_a_recall_reuses_what_the_recall_learnt(loopx, enable_alpha, slow_lookup):
    enable_alpha("claude")
    recall = loopx(
        "recall", "history", "--agent-id", "agent-a", "--project-id", "proj-j",
        "--term", "pytest", "--format", "json",
    )  # fmt: skip
    assert json.loads(recall.stdout)["status"] == "succeeded"
    status = _status(loopx)
    assert status["provider"]["ready"] is True
    assert status["runtime"]["readback_source"] == "last_call"
    assert status["runtime"]["readback_taken_at"]
    assert status["runtime"]["freshness"] == "fresh"
    assert status["runtime"]["query_ms"] >= REAL_POLL_MS
