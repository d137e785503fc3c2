# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Admission table, provider faults as typed outcomes, host re-verification, canaries."""

from __future__ import annotations

import json
import logging
import threading
import time

import attrs
import pytest

from loopx_recall_core.contracts import HistoricalEvidenceRequestV0, structure, unstructure
from loopx_recall_core.recall.request_admission import Admitted, Refused, admit
from loopx_recall_core.recall.service import RecallService
from loopx_recall_core.recall.store import PrivateStore
from loopx_recall_core.state import Enablement, LimitCeilings

from ..fake_provider import CANARY, FakeProvider, host_with

PROVIDER = "obelisk-session-evidence"


def _enablement(**overrides):
    base = dict(
        capability="agent-turn-recall", provider_id=PROVIDER, surface="replan-history",
        agent_id="agent-a", project_id="proj-j", repository_id="repo-r", stage=1,
        limits=LimitCeilings(max_sessions=3, max_items=3, max_snippet_chars=100,
                             max_total_chars=250),
    )
    return Enablement(**{**base, **overrides})


@pytest.fixture
def request_obj(request_data):
    return structure(request_data, HistoricalEvidenceRequestV0)


def _req(request_data, **changes):
    data = json.loads(json.dumps(request_data))
    for path, value in changes.items():
        target = data
        *parents, last = path.split("__")
        for key in parents:
            target = target[key]
        target[last] = value
    return structure(data, HistoricalEvidenceRequestV0)


ADMISSION_TABLE = [
    # (case, request changes, enablements, expected refusal reason or None)
    ("stage1-operator", {}, [_enablement()], None),
    ("stage1-replan-trigger", {"trigger": "replan_repetition"}, [_enablement()],
     "trigger_not_admitted_at_stage"),
    ("stage1-hypothesis", {"trigger": "hypothesis_history_gap"}, [_enablement()],
     "trigger_not_admitted_at_stage"),
    ("stage1-handoff", {"trigger": "resume_or_handoff_gap"}, [_enablement()],
     "trigger_not_admitted_at_stage"),
    ("stage2-replan-trigger", {"trigger": "replan_repetition"}, [_enablement(stage=2)], None),
    ("no-enablement", {}, [], "not_enabled"),
    ("other-agent", {"scope__agent_id": "agent-b"}, [_enablement()], "not_enabled"),
    ("other-project", {"scope__project_id": "proj-k"}, [_enablement()], "not_enabled"),
    ("other-repository", {"scope__repository_id": "repo-x"}, [_enablement()], "scope_mismatch"),
    ("other-provider", {}, [_enablement(provider_id="another-provider")], "not_enabled"),
    ("agent-of-other-enablement", {"scope__agent_id": "agent-b"},
     [_enablement(agent_id="agent-c")], "not_enabled"),
]


@pytest.mark.parametrize(
    ("changes", "enablements", "refusal"),
    [row[1:] for row in ADMISSION_TABLE],
    ids=[row[0] for row in ADMISSION_TABLE],
)
def test_admission_table(request_data, changes, enablements, refusal):
    decision = admit(_req(request_data, **changes), enablements, provider_id=PROVIDER)
    if refusal is None:
        assert isinstance(decision, Admitted)
    else:
        assert isinstance(decision, Refused)
        assert decision.reason == refusal


def test_admission_clamps_limits(request_obj):
    decision = admit(request_obj, [_enablement()], provider_id=PROVIDER)
    assert isinstance(decision, Admitted)
    limits = decision.request.limits
    assert (limits.max_sessions, limits.max_items, limits.max_snippet_chars,
            limits.max_total_chars) == (3, 3, 100, 250)
    assert decision.request.query_terms == request_obj.query_terms


def _run(request_obj, provider, tmp_path, enablements=None, timeout=2.0):
    store = PrivateStore(tmp_path / "private-root")
    outcome = RecallService(
        provider_id=PROVIDER, host=host_with(provider),
        enablements=enablements if enablements is not None else [_enablement()],
        store=store, timeout=timeout,
    )(request_obj)
    return outcome, store


def test_success_stores_private_result_and_public_receipt(request_obj, tmp_path):
    outcome, store = _run(request_obj, FakeProvider(), tmp_path)
    assert outcome.status == "succeeded", outcome.reason
    assert outcome.receipt.result_count == 2
    public = json.dumps(outcome.public_json())
    assert CANARY not in public
    record = store.load(request_obj.request_id)
    assert CANARY in json.dumps(record)
    files = list((tmp_path / "private-root").rglob("*.json"))
    assert all(f.stat().st_mode & 0o777 == 0o600 for f in files)
    assert all(request_obj.request_id not in str(f) for f in files)


def test_refused_request_never_reaches_provider(request_obj, tmp_path):
    provider = FakeProvider()
    outcome, _ = _run(request_obj, provider, tmp_path, enablements=[])
    assert (outcome.status, outcome.reason) == ("refused", "not_enabled")
    assert provider.calls == 0
    assert outcome.receipt.result_count == 0


FAULTS = [
    ("raise", "provider_failed"),
    ("typed", "unsupported_runtime_version"),
    ("hang", "provider_timeout"),
    ("wrong_scope", "scope_violation"),
    ("oversize", "contract_violation"),
    ("unrequested_type", "contract_violation"),
    ("lies_truncated", "contract_violation"),
    ("garbage_dict", "contract_violation"),
    ("not_a_result", "contract_violation"),
]


@pytest.mark.parametrize(("mode", "reason"), FAULTS)
def test_faults_become_typed_empty_outcomes(request_obj, tmp_path, caplog, mode, reason):
    caplog.set_level(logging.DEBUG)
    started = time.monotonic()
    outcome, store = _run(request_obj, FakeProvider(mode), tmp_path, timeout=0.5)
    # The hang lasts timeout + 30 s: returning in half that proves the deadline, under any load.
    assert time.monotonic() - started < 15.0
    assert (outcome.status, outcome.reason) == ("failed", reason)
    assert outcome.result is None
    assert outcome.receipt.result_count == 0
    assert outcome.receipt.freshness == "unknown"
    for text in (json.dumps(outcome.public_json()), caplog.text,
                 json.dumps(store.load(request_obj.request_id))):
        assert CANARY not in text


def test_dict_results_are_structured_strictly(request_obj, tmp_path):
    outcome, _ = _run(request_obj, FakeProvider("dict"), tmp_path)
    assert outcome.status == "succeeded"


def test_too_many_items_rejected(request_obj, tmp_path):
    outcome, _ = _run(request_obj, FakeProvider(items=5), tmp_path)
    assert (outcome.status, outcome.reason) == ("failed", "contract_violation")


def test_missing_provider_is_typed(request_obj, tmp_path):
    from loopx_recall_core.plugin.manager import PluginHost

    outcome = RecallService(provider_id=PROVIDER, host=PluginHost(),
                            enablements=[_enablement()], store=PrivateStore(tmp_path))(request_obj)
    assert (outcome.status, outcome.reason) == ("failed", "provider_not_installed")


def test_retention_is_bounded(request_obj, tmp_path):
    store = PrivateStore(tmp_path, retention=5)
    for i in range(8):
        store.save("agent-a", f"req-{i}", {"n": i})
    assert len(list(tmp_path.rglob("*.json"))) == 5
    assert store.load("req-7") == {"n": 7}
    assert store.load("req-0") is None


def test_receipt_digests_bind_query_and_scope(request_obj, tmp_path):
    first, _ = _run(request_obj, FakeProvider(), tmp_path)
    other = attrs.evolve(request_obj, query_terms=("other",))
    second, _ = _run(other, FakeProvider(), tmp_path)
    assert first.receipt.query_digest != second.receipt.query_digest
    assert first.receipt.scope_digest == second.receipt.scope_digest
    assert unstructure(first.receipt)["raw_content_captured"] is False


def test_every_private_folder_is_0700(request_obj, tmp_path):
    root = tmp_path / "fresh-root"
    PrivateStore(root).save("agent-a", "req-1", {"n": 1})
    folders = [p for p in root.rglob("*") if p.is_dir()] + [root]
    assert len(folders) == 4  # root, private, results, the agent's folder
    assert all(p.stat().st_mode & 0o777 == 0o700 for p in folders)


class _Runtime(FakeProvider):
    """A provider whose binding resolves to a runtime that can be swapped."""

    digest = "sha256:" + "1" * 64

    def __init__(self, hang: threading.Event | None = None) -> None:
        super().__init__()
        self.hang = hang
        self.identity_timeouts: list[float] = []

    def runtime_identity(self, binding, *, timeout):
        from loopx_recall_core.plugin.records import RuntimeIdentity

        self.identity_timeouts.append(timeout)
        if self.hang is not None:
            self.hang.wait()

        return RuntimeIdentity(runtime_version="0.2.4", binary_digest=self.digest)


def test_stage_two_needs_a_verdict_for_the_runtime_it_resolves_to_now(request_data, tmp_path):
    # Stage 2 was enabled on a qualified runtime; the binary is swapped afterwards.
    from loopx_recall_core.state import QualificationVerdict, StateStore

    provider = _Runtime()
    store = StateStore(tmp_path / "private-root")
    with store.update() as box:
        verdict = QualificationVerdict(
            provider_id=PROVIDER, provider_version=provider.provider_version, passed=True,
            report_digest="sha256:" + "0" * 64, recorded_at="2026-12-01T00:00:00Z",
            runtime_version="0.2.4", binary_digest=_Runtime.digest,
        )  # fmt: skip
        box[0] = attrs.evolve(box[0], qualifications=(verdict,))
    replan = structure({**request_data, "trigger": "replan_repetition"},
                       HistoricalEvidenceRequestV0)  # fmt: skip
    enablements = [_enablement(stage=2)]
    outcome, _ = _run(replan, provider, tmp_path, enablements)
    assert outcome.status == "succeeded"
    provider.digest = "sha256:" + "2" * 64  # another binary behind the same binding
    outcome, _ = _run(replan, provider, tmp_path, enablements)
    assert (outcome.status, outcome.reason) == ("refused", "trigger_not_admitted_at_stage")
    # an operator's request is a stage-1 trigger: no verdict needed
    outcome, _ = _run(structure(request_data, HistoricalEvidenceRequestV0), provider, tmp_path,
                      enablements)  # fmt: skip
    assert outcome.status == "succeeded"


def test_the_stage_two_check_runs_inside_the_requests_deadline(request_data, tmp_path):
    # A runtime whose identity probe never answers (a `--version` that hangs): the request
    # ends as a provider_timeout at its own deadline, and the provider was told that bound.
    release = threading.Event()
    provider = _Runtime(hang=release)
    replan = structure({**request_data, "trigger": "replan_repetition"},
                       HistoricalEvidenceRequestV0)  # fmt: skip
    try:
        outcome, _ = _run(replan, provider, tmp_path, [_enablement(stage=2)], timeout=0.2)
    finally:
        release.set()
    assert (outcome.status, outcome.reason) == ("failed", "provider_timeout")
    assert len(provider.identity_timeouts) == 1
    assert 0 < provider.identity_timeouts[0] <= 0.2
    assert provider.calls == 0  # the provider was never asked to retrieve
