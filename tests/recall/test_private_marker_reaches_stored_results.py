# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The private marker reaches the stored private recall results at once, by the same path
``session forget`` takes: a result holding a session stays readable (``recall show``) until
that session's transcript gains ``loopx-recall:private``; at the session's next hook event
every stored result holding it is gone, a result holding only other sessions stays, and
what ``recall show`` prints then names nothing private. ``session forget`` removes them the
same way."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from loopx_recall_core.contracts import HistoricalEvidenceRequestV0, structure
from loopx_recall_core.private_marker import PRIVATE_MARKER
from loopx_recall_core.recall.service import RecallService
from loopx_recall_core.recall.sessions.ledger import SessionLedger
from loopx_recall_core.recall.store import PrivateStore
from loopx_recall_core.session_hook import read_log, run_hook
from loopx_recall_core.state import Enablement, LimitCeilings

from ..fake_provider import CANARY, FakeProvider, host_with

LOOPX = str(Path(sys.executable).parent / "loopx-recall")
PROVIDER = "obelisk-session-evidence"
# the fake provider's items are sessions <prefix>0 and <prefix>1 (Claude ids, as is)
MARKED = "CANARY-sess-private-0"
OTHER = "CANARY-sess-other-0"


def _enablement() -> Enablement:
    return Enablement(
        capability="agent-turn-recall", provider_id=PROVIDER, surface="replan-history",
        agent_id="agent-a", project_id="proj-j", repository_id="repo-r", stage=1,
        limits=LimitCeilings(max_sessions=3, max_items=3, max_snippet_chars=100,
                             max_total_chars=250), agent_sessions="claimed",
    )  # fmt: skip


def _stored(home: Path, request_data: dict, prefix: str, request_id: str) -> str:
    """A succeeded recall whose items come from ``<prefix>0`` and ``<prefix>1``; its ref."""
    request = structure({**request_data, "request_id": request_id}, HistoricalEvidenceRequestV0)
    host = host_with(FakeProvider(session=prefix))
    outcome = RecallService(provider_id=PROVIDER, host=host, enablements=[_enablement()],
                            store=PrivateStore(home))(request)  # fmt: skip
    assert outcome.status == "succeeded", outcome.reason
    assert outcome.private_ref
    return outcome.private_ref


def _show(home: Path, ref: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LOOPX_RECALL_")}
    env["LOOPX_RECALL_HOME"] = str(home)
    return subprocess.run([LOOPX, "recall", "show", ref, "--format", "json"], env=env,
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip


def _claim(home: Path, *sessions: str) -> None:
    ledger = SessionLedger(home)
    for session in sessions:
        ledger.claim(agent_id="agent-a", project_id="proj-j", runtime="claude", session_id=session)


def test_the_marker_found_by_a_hook_removes_every_stored_result_holding_the_session(
    loopx_home, request_data, tmp_path
):
    _claim(loopx_home, *(f"CANARY-sess-{p}-{n}" for p in ("private", "other") for n in (0, 1)))
    holding = _stored(loopx_home, request_data, "CANARY-sess-private-", "req-holding")
    clean = _stored(loopx_home, request_data, "CANARY-sess-other-", "req-clean")
    transcript = tmp_path / "transcript.jsonl"
    transcript.write_text('{"type": "user", "message": {"content": "run the tests"}}\n')

    def stop() -> str:  # Claude Code's Stop payload (docs.claude.com/en/docs/claude-code/hooks)
        payload = {"session_id": MARKED, "transcript_path": str(transcript),
                   "hook_event_name": "Stop", "stop_hook_active": False}  # fmt: skip
        return run_hook("claude", agent_id="agent-a", project_id="proj-j",
                        stdin=json.dumps(payload).encode(), root=loopx_home)  # fmt: skip

    assert stop() == "already_claimed"  # no marker yet: the result is kept
    shown = _show(loopx_home, holding)
    assert shown.returncode == 0
    assert MARKED in shown.stdout
    assert CANARY in shown.stdout

    with transcript.open("a") as out:  # the owner marks the session private, mid-session
        out.write(json.dumps({"type": "assistant", "message": {"content": [
            {"type": "text", "text": f"noted: {PRIVATE_MARKER}"}]}}) + "\n")  # fmt: skip
    assert stop() == "already_claimed"

    gone = _show(loopx_home, holding)
    assert gone.returncode != 0
    printed = gone.stdout + gone.stderr
    assert "no stored result" in printed
    assert "CANARY" not in printed
    assert "Traceback" not in printed
    assert holding.removeprefix("private:") not in printed
    kept = _show(loopx_home, clean)  # a result of other sessions only stays
    assert kept.returncode == 0
    assert OTHER in kept.stdout
    assert not any("CANARY" in line for line in read_log(loopx_home))


def test_session_forget_removes_the_stored_results_holding_the_session(
    loopx_home, request_data
):
    _claim(loopx_home, *(f"CANARY-sess-{p}-{n}" for p in ("private", "other") for n in (0, 1)))
    holding = _stored(loopx_home, request_data, "CANARY-sess-private-", "req-holding")
    clean = _stored(loopx_home, request_data, "CANARY-sess-other-", "req-clean")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LOOPX_RECALL_")}
    env["LOOPX_RECALL_HOME"] = str(loopx_home)
    forgot = subprocess.run([LOOPX, "session", "forget", "--agent-id", "agent-a",
                             "--project-id", "proj-j", "--runtime", "claude",
                             "--session", MARKED], env=env, capture_output=True, text=True,
                            timeout=60, check=False)  # fmt: skip
    assert forgot.returncode == 0, forgot.stderr
    assert "CANARY" not in forgot.stdout + forgot.stderr
    gone = _show(loopx_home, holding)
    assert gone.returncode != 0
    assert "CANARY" not in gone.stdout + gone.stderr
    assert _show(loopx_home, clean).returncode == 0


def test_an_unreadable_stored_record_goes_too(loopx_home, request_data):
    _claim(loopx_home, "CANARY-sess-other-0", "CANARY-sess-other-1")
    ref = _stored(loopx_home, request_data, "CANARY-sess-other-", "req-x")
    store = PrivateStore(loopx_home)
    [folder] = [p for p in store.base.iterdir()]
    [record] = list(folder.iterdir())
    record.write_bytes(b'{"result": {"items": [' + json.dumps(MARKED).encode() + b"]")
    assert store.drop_holding(MARKED) == 1  # it names the session and cannot be parsed
    assert store.load(ref) is None
