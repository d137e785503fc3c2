# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The owner's decisions win against work in flight: a set making that
started before a forget, the private marker, an exclusion, a disable, an uninstall or a
``cleanup --remove`` writes nothing after it (no set, no stored result), and a making or
its retry never makes a state folder that is gone again.

Reproduced before: forget returned while a set was being made, then the making wrote 2
sets and 1 stored result holding the forgotten session (``recall show`` printed it);
``cleanup --remove`` reported the state folder removed and the making (or the real
Obelisk's 31 s stale-index retry) made it again. Each race is driven from a seam inside
the making, deterministically and without a sleep: the provider's answer (the decision is
taken while the provider is being asked) or the wait before the retry
(``prefetch._wait``). The decisions are the owner's real commands where one exists
(``session forget``, ``capability disable``, ``cleanup --remove`` run as the installed CLI),
else the function the command or hook calls.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import attrs
import pytest

from loopx_recall_core import owner_decisions
from loopx_recall_core.guard import prefetch
from loopx_recall_core.plugin.records import RuntimeIdentity
from loopx_recall_core.private_marker import PRIVATE_MARKER
from loopx_recall_core.recall.sessions.ledger import SessionLedger
from loopx_recall_core.recall.store import PrivateStore
from loopx_recall_core.state import QualificationVerdict, StateStore
from tests.fake_provider import FakeProvider, host_with
from tests.state_builders import enablement

LOOPX = str(Path(sys.executable).parent / "loopx-recall")
CANARY = b"CANARY-raced-snippet-5b1f"
LIVE = "S-live"  # the session whose set is being made
GONE = "CANARY-sess-gone-"  # the provider's items come from GONE0 and GONE1
LIMITS = {"max_sessions": 5, "max_items": 4, "max_snippet_chars": 200, "max_total_chars": 600}
IDENTITY = RuntimeIdentity(runtime_version="0.2.4", binary_digest="sha256:" + "a" * 64)


class _Provider(FakeProvider):
    """The fake provider with a runtime identity (stage 2 needs a verdict for it) and a
    seam: ``during`` runs while it is being asked, before it answers."""

    def __init__(self, during, freshness: str = "fresh") -> None:
        super().__init__(snippet=CANARY.decode() + " exit 1", session=GONE)
        self.during = during
        self.freshness = freshness

    def runtime_identity(self, binding, *, timeout):
        return IDENTITY

    def retrieve(self, request, binding, *, timeout, exclude_sessions=()):
        result = super().retrieve(request, binding, timeout=timeout,
                                  exclude_sessions=exclude_sessions)  # fmt: skip
        if self.during is not None:
            during, self.during = self.during, None
            during()
        return attrs.evolve(result, freshness=self.freshness)


def _seed(root: Path) -> None:
    verdict = QualificationVerdict(
        provider_id="obelisk-session-evidence", provider_version="0.9.0-fake", passed=True,
        report_digest="sha256:" + "0" * 64, recorded_at="2026-12-01T00:00:00Z",
        runtime_version=IDENTITY.runtime_version, binary_digest=IDENTITY.binary_digest,
    )  # fmt: skip
    guarded = enablement("obelisk-session-evidence", stage=2, guard="warn",
                         agent_sessions="claimed")  # fmt: skip
    with StateStore(root).update() as box:
        box[0] = attrs.evolve(box[0], enablements=(guarded,), qualifications=(verdict,))
    ledger = SessionLedger(root)
    for session in (LIVE, f"{GONE}0", f"{GONE}1"):
        ledger.claim(agent_id="agent-a", project_id="proj-j", runtime="claude",
                     session_id=session)  # fmt: skip


def _cli(root: Path, *args: str) -> bytes:
    env = {"PATH": os.environ["PATH"], "HOME": str(root.parent), "LOOPX_RECALL_HOME": str(root),
           "LOOPX_RECALL_LOAD_PLUGINS": ""}  # fmt: skip
    done = subprocess.run([LOOPX, *args], env=env, capture_output=True, timeout=60,
                          check=False, stdin=subprocess.DEVNULL)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


def _files_holding(root: Path, needle: bytes) -> list[str]:
    if not root.exists():
        return []
    return [str(p.relative_to(root)) for p in root.rglob("*")
            if p.is_file() and needle in p.read_bytes()]  # fmt: skip


class _Detached:
    """``subprocess`` as the prefetch sees it: a detached making is not started, its facts
    (what goes over the pipe) are kept, so the test runs that making in this process."""

    DEVNULL = subprocess.DEVNULL
    PIPE = subprocess.PIPE

    def __init__(self) -> None:
        self.facts: list[dict] = []

    def Popen(self, *_args, **_kwargs):
        import json
        import types

        kept = self.facts
        pipe = types.SimpleNamespace(write=lambda data: kept.append(json.loads(data)),
                                     close=lambda: None)  # fmt: skip
        return types.SimpleNamespace(stdin=pipe)


def _make(root: Path, monkeypatch, provider, **start) -> str:
    """A making as the session's start begins it (:func:`prefetch.start_detached`: its
    pending marker, its facts), run here to its end."""
    detached = _Detached()
    monkeypatch.setattr(prefetch, "subprocess", detached)
    args = {"runtime": "claude", "session_id": LIVE, "agent_id": "agent-a",
            "project_id": "proj-j", "requested_at": time.time(), **start}  # fmt: skip
    assert prefetch.start_detached(root, **args)
    return prefetch.run_prefetch(root, detached.facts[0], host=host_with(provider))


def _decisions(root: Path, tmp_path: Path, outputs: list[bytes]) -> dict:
    def forget() -> None:
        outputs.append(_cli(root, "session", "forget", "--agent-id", "agent-a", "--project-id",
                            "proj-j", "--runtime", "claude", "--session", f"{GONE}0"))  # fmt: skip

    def marker() -> None:  # the claiming hook at the marked session's Stop
        transcript = tmp_path / "gone.jsonl"
        transcript.write_text(f'{{"type": "user", "message": "{PRIVATE_MARKER}"}}\n')
        prefetch.start_for_hook(root, "claude", f"{GONE}0", "agent-a", "proj-j", "Stop",
                                str(transcript))  # fmt: skip

    def exclusion() -> None:  # what `capability enable --exclude-path` changes, then drops
        from loopx_recall_core.guard.store import drop_sets

        with StateStore(root).update() as box:
            (old,) = box[0].enablements
            binding = {**old.binding, "private": {"exclude_paths": ["/home/dev/secret/*"]}}
            box[0] = attrs.evolve(box[0], enablements=(attrs.evolve(old, binding=binding),))
        drop_sets(root, agent_id="agent-a", project_id="proj-j")

    def disable() -> None:
        outputs.append(_cli(root, "capability", "disable", "agent-turn-recall", "--provider",
                            "obelisk-session-evidence", "--project-id", "proj-j"))  # fmt: skip

    def uninstall() -> None:  # `hook uninstall` turns the guard off for the pairs it named
        from loopx_recall_core.guard.policy_change import set_guard

        set_guard(StateStore(root), "agent-a", "proj-j", None)

    def cleanup() -> None:
        outputs.append(_cli(root, "cleanup", "--remove", "--yes"))
        assert not root.exists()

    return {"forget": forget, "marker": marker, "exclusion": exclusion, "disable": disable,
            "uninstall": uninstall, "cleanup": cleanup}  # fmt: skip


DECISIONS = ("forget", "marker", "exclusion", "disable", "uninstall", "cleanup")


@pytest.mark.parametrize("decision", DECISIONS)
def test_a_decision_taken_while_a_set_is_made_reaches_what_the_making_writes(
    decision, loopx_home, tmp_path, monkeypatch
):
    _seed(loopx_home)
    outputs: list[bytes] = []
    provider = _Provider(_decisions(loopx_home, tmp_path, outputs)[decision])
    outcome = _make(loopx_home, monkeypatch, provider)
    assert provider.calls == 1
    assert outcome in ("superseded", "state_gone"), outcome
    assert _files_holding(loopx_home, CANARY) == []  # no set, no stored result
    assert all(CANARY not in out for out in outputs)
    if decision == "cleanup":
        assert not loopx_home.exists()  # never made again
    else:  # the next call makes the set the decision dropped at once: no pending marker
        from loopx_recall_core.guard import store

        assert not store.set_path(loopx_home, "claude", LIVE).with_suffix(".pending").exists()


def test_without_a_decision_the_same_making_keeps_its_set_and_results(loopx_home, monkeypatch):
    # the yardstick: the race tests fail for the decision, not for the making
    _seed(loopx_home)
    assert _make(loopx_home, monkeypatch, _Provider(None)) == "made"
    held = _files_holding(loopx_home, CANARY)
    assert any(p.startswith("private/guard/sets/") for p in held)
    assert any(p.startswith("private/results/") for p in held)


@pytest.mark.parametrize("decision", ["forget", "cleanup"])
def test_a_decision_in_the_wait_before_the_retry_ends_the_retry(
    decision, loopx_home, tmp_path, monkeypatch
):
    """A set made at a session's end from an index that was behind is made once more 31 s
    later (the real Obelisk's refresh rule); a forget or a cleanup in that wait ends the
    retry: nothing written, no state folder made again (before: the retry's lock file made
    the removed folder again)."""
    _seed(loopx_home)
    outputs: list[bytes] = []
    decide = _decisions(loopx_home, tmp_path, outputs)[decision]
    waited: list[float] = []

    def wait(seconds: float) -> None:  # the seam: the decision instead of 31 s
        waited.append(seconds)
        decide()

    import types

    monkeypatch.setattr(prefetch, "_wait", wait, raising=False)
    # the wait as it was before the seam: prefetch's own time.sleep
    clock = types.SimpleNamespace(time=time.time, monotonic=time.monotonic, sleep=wait)
    monkeypatch.setattr(prefetch, "time", clock)
    provider = _Provider(None, freshness="stale")
    outcome = _make(loopx_home, monkeypatch, provider, scope="agent", session_id="",
                    again_if_behind=True)  # fmt: skip
    assert waited == [prefetch.BEHIND_RETRY_S]
    assert provider.calls == 1  # the retry never asked
    assert outcome == "superseded"
    assert _files_holding(loopx_home, CANARY) == []
    if decision == "cleanup":
        assert not loopx_home.exists()


def test_a_recall_racing_a_forget_keeps_no_result_and_says_so(loopx_home, tmp_path):
    """The stored result of an operator's recall: the same rule (``recall show`` of it
    then finds nothing); the command says, in one line, that nothing was kept."""
    from loopx_recall_core.operator_requests import history

    _seed(loopx_home)
    outputs: list[bytes] = []
    provider = _Provider(_decisions(loopx_home, tmp_path, outputs)["forget"])
    state = StateStore(loopx_home).read()
    with pytest.raises(owner_decisions.Superseded) as raised:
        history(None, host_with(provider), provider_id=None, agent_id="agent-a",
                project_id="proj-j", terms=["pytest"], limits=LIMITS)  # fmt: skip
    assert "nothing was kept" in str(raised.value)
    assert "state path" not in str(raised.value)  # the state folder is not the problem
    assert state.enablements  # (the state it raced)
    assert _files_holding(loopx_home, CANARY) == []


def test_committing_never_makes_a_state_folder_and_refuses_after_a_decision(tmp_path):
    root = tmp_path / "state"
    assert owner_decisions.started(root) is None
    with pytest.raises(owner_decisions.Superseded), owner_decisions.committing(root, None):
        pass  # pragma: no cover - never reached
    assert not root.exists()
    root.mkdir(mode=0o700)
    since = owner_decisions.started(root)
    with owner_decisions.committing(root, since):
        pass
    with owner_decisions.decided(root) as held:
        assert held
    with pytest.raises(owner_decisions.Superseded), owner_decisions.committing(root, since):
        pass  # pragma: no cover - never reached
    again = owner_decisions.started(root)
    assert again != since
    assert again.split()[0] == since.split()[0]  # the same folder: the same epoch
    store = PrivateStore(root, since=since)
    with pytest.raises(owner_decisions.Superseded):
        store.save("agent-a", "req-1", {"n": 1})
    assert not (root / "private").exists()


@pytest.mark.parametrize("protocol", ["capability", "decision_context"])
def test_a_loopx_request_racing_a_disable_keeps_no_result(
    protocol, loopx_home, tmp_path, monkeypatch
):
    """LoopX's two protocols: the generation is read before the state (before: they read
    the state first, so a disable between that read and the recall's start was missed, and
    the answer's result was stored for a pair the owner had just disabled). The seam: the
    owner's real `capability disable` runs right after the state is first read."""
    from loopx_recall_core.loopx_protocol import capability, decision_context
    from loopx_recall_core.state import StateStore as Store
    from tests.loopx_protocol.test_loopx_extension import decision_request, loopx_request

    _seed(loopx_home)
    monkeypatch.setenv("LOOPX_RECALL_HOME", str(loopx_home))
    outputs: list[bytes] = []
    decide = _decisions(loopx_home, tmp_path, outputs)["disable"]
    read = Store.read

    def read_then_decide(self):
        state = read(self)
        nonlocal decide
        if decide is not None:
            decide, run = None, decide
            run()
        return state

    monkeypatch.setattr(Store, "read", read_then_decide)
    provider = _Provider(None)
    for module in (capability, decision_context):
        monkeypatch.setattr(module, "load_host", host_with(provider))
    if protocol == "capability":
        request = loopx_request("history", {"agent_id": "agent-a", "project_id": "proj-j",
                                            "terms": ["pytest"]})  # fmt: skip
        answer = capability.answer
    else:
        request = decision_request("loopx-recall:agent/agent-a/project/proj-j")
        answer = decision_context.answer
    with pytest.raises(owner_decisions.Superseded):
        answer(request)
    assert decide is None  # the decision ran
    assert _files_holding(loopx_home, CANARY) == []
