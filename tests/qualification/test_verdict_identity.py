# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Which recorded verdict decides stage 2: the one for the provider version AND the runtime
the enablement resolves to now."""

from __future__ import annotations

import threading

from loopx_recall_core.plugin.records import RuntimeIdentity
from loopx_recall_core.qualification.result import QualificationResult, record_verdict
from loopx_recall_core.recall.stage_gate import applicable_verdict, runtime_identity
from loopx_recall_core.state import StateStore
from tests.qualification.builders import synthetic_report

DOUBLE = RuntimeIdentity(runtime_version="0.2.4", binary_digest="sha256:" + "a" * 64)
OTHER = RuntimeIdentity(runtime_version="0.2.4", binary_digest="sha256:" + "b" * 64)


def _result(identity: RuntimeIdentity | None, passing: bool = True) -> QualificationResult:
    report = synthetic_report(passing=passing)
    runtime = report["provider"]["runtime"]
    runtime.pop("binary_digest", None)
    if identity is not None:
        runtime.update(
            runtime_version=identity.runtime_version, binary_digest=identity.binary_digest
        )
    return QualificationResult(report=report)


def test_a_verdict_applies_only_to_the_runtime_it_was_earned_on(tmp_path):
    store = StateStore(tmp_path)
    record_verdict(_result(DOUBLE), store)
    provider = ("obelisk-session-evidence", "9.9.9-test")
    assert applicable_verdict(store, *provider, DOUBLE).passed is True
    assert applicable_verdict(store, *provider, OTHER) is None
    assert applicable_verdict(store, *provider, None) is None
    # A failing run on the other runtime is kept next to the pass, never replacing it.
    record_verdict(_result(OTHER, passing=False), store)
    assert applicable_verdict(store, *provider, DOUBLE).passed is True
    assert applicable_verdict(store, *provider, OTHER).passed is False
    assert len(store.read().qualifications) == 2


def test_a_verdict_without_a_runtime_opens_nothing(tmp_path):
    store = StateStore(tmp_path)
    verdict = record_verdict(_result(None), store)
    assert verdict.runtime_version is None
    assert verdict.binary_digest is None
    assert applicable_verdict(store, "obelisk-session-evidence", "9.9.9-test", DOUBLE) is None


def test_a_provider_that_names_no_runtime_or_fails_has_none():
    class Silent:
        pass

    class Broken:
        def runtime_identity(self, _binding, *, timeout):
            raise RuntimeError("boom")

    class Odd:
        def runtime_identity(self, _binding, *, timeout):
            return {"runtime_version": "1"}

    for provider in (Silent(), Broken(), Odd()):
        assert runtime_identity(provider, None) is None


def test_a_provider_that_does_not_answer_in_time_has_none():
    release = threading.Event()

    class Hanging:
        def runtime_identity(self, _binding, *, timeout):
            release.wait()  # ignores its timeout, as a misbehaving provider would

    try:
        assert runtime_identity(Hanging(), None, timeout=0.05) is None
    finally:
        release.set()
