# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A public receipt must not confirm a guess of what was asked.

Before this change ``query_digest`` and ``scope_digest`` were plain SHA-256 over the
canonical JSON of mostly default values: anyone holding a receipt recomputed the digest of
guessed terms offline and got a match. Now every receipt digest is HMAC-SHA256 under the
owner's key (``<state root>/private/receipt.key``); the owner recomputes them.
"""

from __future__ import annotations

import json
import multiprocessing
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from loopx_recall_core.canonical import digest, is_digest
from loopx_recall_core.cli import cli
from loopx_recall_core.contracts import (
    HistoricalEvidenceReceiptV0,
    HistoricalEvidenceRequestV0,
    structure,
    unstructure,
)
from loopx_recall_core.recall.service import RecallService
from loopx_recall_core.recall.store import PrivateStore
from loopx_recall_core.state import Enablement, LimitCeilings, StateError
from tests.fake_provider import FakeProvider, host_with

CANARY_TERM = "CANARY-TERM-77"
PROVIDER = "obelisk-session-evidence"


def _enablement():
    return Enablement(
        capability="agent-turn-recall",
        provider_id=PROVIDER,
        surface="replan-history",
        agent_id="agent-a",
        project_id="proj-j",
        repository_id="repo-r",
        stage=1,
        limits=LimitCeilings(
            max_sessions=20, max_items=16, max_snippet_chars=800, max_total_chars=8000
        ),
    )


def _request(request_data):
    # What `loopx-recall recall history --term CANARY-TERM-77 --term pytest` asks: defaults only.
    request_data["query_terms"] = [CANARY_TERM, "pytest"]
    request_data["evidence_types"] = ["prior_failure", "decision"]
    request_data.pop("revision")
    return structure(request_data, HistoricalEvidenceRequestV0)


def _recall(request, root):
    return RecallService(
        provider_id=PROVIDER,
        host=host_with(FakeProvider()),
        enablements=[_enablement()],
        store=PrivateStore(root),
    )(request)


def test_a_guessed_query_no_longer_matches_the_receipt(request_data, tmp_path):
    request = _request(request_data)
    receipt = _recall(request, tmp_path / "owner").receipt
    asked = unstructure(request)
    # The attacker's offline guess, exactly the former formula.
    guess = digest(
        {
            "query_terms": [CANARY_TERM, "pytest"],
            "evidence_types": asked["evidence_types"],
            "limits": asked["limits"],
            "revision": None,
            "trigger": "operator_requested_history",
        }
    )
    assert receipt.query_digest != guess
    assert receipt.scope_digest != digest(asked["scope"])
    for value in unstructure(receipt).values():
        assert CANARY_TERM not in str(value)
    for name in ("index_revision_digest", "scope_digest", "query_digest", "result_digest"):
        assert is_digest(getattr(receipt, name))  # the public format is unchanged
    structure(unstructure(receipt), HistoricalEvidenceReceiptV0)


def test_two_owners_get_different_digests_for_the_same_request(request_data, tmp_path):
    request = _request(request_data)
    first = _recall(request, tmp_path / "owner-1").receipt
    second = _recall(request, tmp_path / "owner-2").receipt
    assert first.query_digest != second.query_digest
    assert first.scope_digest != second.scope_digest
    assert first.result_digest != second.result_digest
    assert first.index_revision_digest != second.index_revision_digest
    again = _recall(request, tmp_path / "owner-1").receipt  # same owner, same key
    assert (again.query_digest, again.scope_digest) == (first.query_digest, first.scope_digest)


def test_the_owner_recomputes_the_issued_receipt(request_data, tmp_path):
    home = tmp_path / "owner"
    request = _request(request_data)
    outcome = _recall(request, home)
    assert outcome.status == "succeeded"
    record = PrivateStore(home).load(request.request_id)
    (tmp_path / "request.json").write_text(json.dumps(record["request"]))
    (tmp_path / "result.json").write_text(json.dumps(record["result"]))
    args = [
        "recall",
        "receipt",
        "--request-json",
        str(tmp_path / "request.json"),
        "--result-json",
        str(tmp_path / "result.json"),
        "--format",
        "json",
    ]
    mine = CliRunner().invoke(
        cli, args, env={"LOOPX_RECALL_HOME": str(home)}, catch_exceptions=False
    )
    assert mine.exit_code == 0, mine.output
    assert json.loads(mine.output) == unstructure(outcome.receipt)
    from loopx_recall_core.canonical import keyed_digest

    key = (home / "private" / "receipt.key").read_bytes()
    assert key.hex() not in mine.output
    assert outcome.receipt.query_digest == keyed_digest(
        key,
        {
            "query_terms": [CANARY_TERM, "pytest"],
            "evidence_types": ["prior_failure", "decision"],
            "limits": unstructure(request)["limits"],
            "revision": None,
            "trigger": "operator_requested_history",
        },
    )
    other = CliRunner().invoke(
        cli, args, env={"LOOPX_RECALL_HOME": str(tmp_path / "someone-else")}, catch_exceptions=False
    )
    assert json.loads(other.output)["query_digest"] != outcome.receipt.query_digest


def test_the_key_is_private_and_created_once(tmp_path):
    store = PrivateStore(tmp_path / "owner")
    key = store.receipt_key()
    path = tmp_path / "owner" / "private" / "receipt.key"
    assert len(key) == 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert store.receipt_key() == key
    assert [p.name for p in path.parent.iterdir()] == ["receipt.key"]  # no temp left


def _first_use(root: str, queue) -> None:
    queue.put(PrivateStore(Path(root)).receipt_key())


def test_racing_first_users_get_the_same_key(tmp_path):
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    root = tmp_path / "fresh"
    workers = [context.Process(target=_first_use, args=(str(root), queue)) for _ in range(6)]
    for worker in workers:
        worker.start()
    keys = {queue.get(timeout=60) for _ in workers}
    for worker in workers:
        worker.join(60)
    assert len(keys) == 1
    assert keys == {(root / "private" / "receipt.key").read_bytes()}


@pytest.mark.parametrize("damage", ["short", "mode", "symlink"])
def test_a_damaged_key_is_refused_not_replaced(tmp_path, damage):
    root = tmp_path / "owner"
    PrivateStore(root).receipt_key()
    path = root / "private" / "receipt.key"
    if damage == "short":
        path.write_bytes(b"x" * 5)
    elif damage == "mode":
        path.chmod(0o644)
    else:
        elsewhere = tmp_path / "CANARY-PATH-key"
        elsewhere.write_bytes(b"k" * 32)
        path.unlink()
        path.symlink_to(elsewhere)
    with pytest.raises(StateError, match="receipt key") as caught:
        PrivateStore(root).receipt_key()
    assert "CANARY-PATH" not in str(caught.value)
