# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The host's fixtures: valid v0 records to mutate and an isolated LOOPX_RECALL_HOME. Each
test's own HOME and state folder, ``once_per_run``, the ``wheelhouse``, LoopX's real wheel
(``loopx_wheel``) and ``scratch_venv`` come from the repository root's conftest.py.
"""

from __future__ import annotations

import copy
import os
from typing import Any

import pytest

REQUEST: dict[str, Any] = {
    "schema_version": "historical_evidence_request_v0",
    "request_id": "req-1",
    "situation_id": "sit-1",
    "trigger": "operator_requested_history",
    "scope": {
        "agent_id": "agent-a",
        "project_id": "proj-j",
        "repository_id": "repo-r",
        "allow_cross_agent": False,
        "allow_cross_project": False,
    },
    "revision": {"current": "abc123", "merge_base": "def456"},
    "evidence_types": ["prior_failure", "decision"],
    "query_terms": ["pytest", "tests/test_x.py"],
    "limits": {"max_sessions": 5, "max_items": 4, "max_snippet_chars": 200, "max_total_chars": 600},
}

RESULT: dict[str, Any] = {
    "schema_version": "historical_evidence_result_v0",
    "request_id": "req-1",
    "provider_id": "obelisk-session-evidence",
    "provider_version": "0.1.0",
    "index_revision": "build-1700000000000",
    "scope_applied": {
        "agent_id": "agent-a",
        "project_id": "proj-j",
        "repository_id": "repo-r",
        "cross_agent_used": False,
    },
    "freshness": "fresh",
    "items": [
        {
            "session_ref": "session-1",
            "message_ref": "msg-1",
            "evidence_type": "prior_failure",
            "observed_at": "2026-11-01T10:00:00.000Z",
            "snippet": "Exit code 1: pytest tests/test_x.py failed",
        },
        {"session_ref": "session-2", "evidence_type": "decision", "snippet": "switch to tox"},
    ],
    "truncated": False,
    "omitted_count": 0,
}


@pytest.fixture
def request_data() -> dict[str, Any]:
    return copy.deepcopy(REQUEST)


@pytest.fixture
def result_data() -> dict[str, Any]:
    return copy.deepcopy(RESULT)


@pytest.fixture
def loopx_home(tmp_path, monkeypatch):
    home = tmp_path / "loopx-home"
    monkeypatch.setenv("LOOPX_RECALL_HOME", str(home))
    return home


#: The markers of the tests that take the better part of a minute each: wheels and fresh
#: venvs, and the real-runtime lane (about 25 s per runtime on a busy 2-core machine).
HEAVY = ("slow", "real_runtime")


def _heavy(item: pytest.Item) -> bool:
    return any(item.get_closest_marker(name) is not None for name in HEAVY)


def pytest_collection_modifyitems(config, items):
    """The heavy tests (``HEAVY``) start first, dealt one by one to the heads of the
    workers' initial shares, in collection order otherwise.

    pytest-xdist's ``--dist worksteal`` (what scripts/test runs) hands worker k of the
    ``PYTEST_XDIST_WORKER_COUNT`` workers ``len(pending) // (workers - k)`` consecutive
    tests of the collection at the start, and an idle worker steals the tail of the longest
    queue (source: xdist/scheduler/worksteal.py, ``check_schedule``, pytest-xdist 3.8).
    Sorted to the front of the collection, all the slow tests landed in the first worker's
    share, ahead of what could be stolen, and ran one after another there (about 280 s of
    one worker's time on this 2-core machine), and the real-runtime lane sat near the end
    of the last share, where a late steal made it the run's tail; dealt out, each worker
    starts with some and the quick tests behind them fill the others' time. Without
    xdist: heavy ones first."""
    heavy = [item for item in items if _heavy(item)]
    quick = [item for item in items if not _heavy(item)]
    workers = max(1, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))
    ordered: list[pytest.Item] = []
    remaining = len(items)
    for k in range(workers):
        share = remaining // (workers - k)
        remaining -= share
        heads = heavy[k::workers]
        ordered += heads
        take = max(0, share - len(heads))
        ordered += quick[:take]
        quick = quick[take:]
    items[:] = ordered + quick
