# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A prefetch that made no set (the session is not claimed) is not started again by the
very next guarded call: the pending marker keeps the retries to one per window."""

from __future__ import annotations

import time

from loopx_recall_core.guard import prefetch, store
from tests.guard import helpers
from tests.state_builders import enablement, seed


class _Spawned:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, *args, **kwargs):
        self.count += 1
        return _Process()


class _Process:
    class stdin:  # stands in for the pipe's file object
        @staticmethod
        def write(_data: bytes) -> None:
            pass

        @staticmethod
        def close() -> None:
            pass


def test_a_prefetch_that_made_no_set_is_not_restarted_by_the_next_call(loopx_home, monkeypatch):
    # before: the marker was removed whatever the outcome, so in a session that is not
    # claimed every shell call started one more detached prefetch process
    seed(enablement("fake-provider", stage=2, guard="warn", binding=helpers.BINDING))
    spawned = _Spawned()
    monkeypatch.setattr(prefetch.subprocess, "Popen", spawned)
    facts = {"runtime": "claude", "session_id": "S-unclaimed", "agent_id": "agent-a",
             "project_id": "proj-j", "requested_at": time.time()}  # fmt: skip
    start = {key: facts[key] for key in facts if key != "requested_at"}
    assert prefetch.start_detached(loopx_home, **start, requested_at=time.time())
    assert prefetch.run_prefetch(loopx_home, facts) == "not_claimed"
    assert not prefetch.start_detached(loopx_home, **start, requested_at=time.time())
    assert spawned.count == 1
    assert store.read_set_lines(store.set_path(loopx_home, "claude", "S-unclaimed")) is None
