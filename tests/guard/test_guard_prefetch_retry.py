# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A prefetch is not started again by the very next guarded call: not after one that made
no set (the pending marker keeps the retries to one per window), nor for a set the index
has just answered stale."""

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


def _propose(home, now):
    from loopx_recall_core.guard import hotpath

    payload = helpers.pre_tool_use("ls")
    return hotpath.decide_payload("claude", payload, agent_id="agent-a", project_id="proj-j",
                                  root=home, now=now, started=time.monotonic(),
                                  deadline=30.0)  # fmt: skip


def test_a_set_just_answered_stale_is_not_refreshed_at_every_call(loopx_home, monkeypatch):
    # before: a refresh that the index again answered stale removed its marker, and the
    # next guarded call started the next one: one provider request per shell call
    seed(enablement("fake-provider", stage=2, guard="warn", binding=helpers.BINDING))
    helpers.write(loopx_home, [], freshness="stale")
    spawned = _Spawned()
    monkeypatch.setattr(prefetch.subprocess, "Popen", spawned)
    _propose(loopx_home, time.time())
    assert spawned.count == 0
    _propose(loopx_home, time.time() + 3600)  # an hour later the stale set is refreshed
    assert spawned.count == 1
