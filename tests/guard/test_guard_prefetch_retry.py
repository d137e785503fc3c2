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


def _failed_recall(request):
    """A recall whose provider failed, as the service answers it (a typed outcome)."""
    import secrets

    from loopx_recall_core.recall.outcome import RecallOutcome
    from loopx_recall_core.recall.receipts import failure_receipt

    receipt = failure_receipt(request, provider_id="fake-provider", provider_version="1",
                              status="failed", reason="provider_failed",
                              key=secrets.token_bytes(32))  # fmt: skip
    return RecallOutcome(status="failed", reason="provider_failed", receipt=receipt)


def test_a_failed_set_is_retried_soon_with_a_bounded_backoff(loopx_home, monkeypatch):
    # issue 28 item 3; before: a failed set was kept the full TTL (6 h) and nothing retried
    from loopx_recall_core.state import StateStore

    seed(enablement("fake-provider", stage=2, guard="warn", binding=helpers.BINDING))
    guarded = StateStore(loopx_home).read().enablements[0]
    fetched = prefetch.fetch_set(_failed_recall, guarded, runtime="claude", session_id="S-current")
    assert fetched.header["status"] == "failed"
    assert fetched.header["ttl_s"] == store.RETRY_FIRST_S
    again = prefetch.fetch_set(_failed_recall, guarded, runtime="claude", session_id="S-current",
                               failures=fetched.header["failures"])  # fmt: skip
    assert again.header["ttl_s"] == 2 * store.RETRY_FIRST_S  # then 60 s, 120 s, ...
    assert store.retry_after(40) == store.DEFAULT_TTL_S  # bounded by the TTL
    store.write_set(loopx_home, fetched.header, fetched.items)
    spawned = _Spawned()
    monkeypatch.setattr(prefetch.subprocess, "Popen", spawned)
    _propose(loopx_home, time.time() + 10)
    assert spawned.count == 0  # not at every call
    _propose(loopx_home, time.time() + 200)  # past the retry delay (and the pending window)
    assert spawned.count == 1
