# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The plugin's Stage 0 surface: prepare, the latency floor, and every fault staged by a
stand-in executable (the double's fault switch is never set here)."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence
from loopx_obelisk_session_evidence.qualification import binary_digest, identity_of

from loopx_recall_core.plugin_api import (
    FAULT_KINDS,
    CorpusScope,
    ProviderFailure,
    QualifiableRecallProvider,
    QualificationRuntime,
)

from ..conftest import FAULT_REASONS
from ..obelisk_double.fixtures import Release, double_settings, run_obelisk, version_of
from ..recall.test_adapter import _binding, _request

TIMEOUT = 3.0


@pytest.fixture
def runtime(archive_home, obelisk_bin, monkeypatch):
    monkeypatch.setenv("HOME", str(archive_home.home))
    monkeypatch.setenv("LOOPX_RECALL_OBELISK_BIN", str(obelisk_bin))
    monkeypatch.setenv("OBELISK_HOME", str(archive_home.home / "elsewhere"))
    double_settings(archive_home.home)  # no switches, build grace 0
    provider = ObeliskSessionEvidence()
    assert isinstance(provider, QualifiableRecallProvider)
    qualification = provider.qualification_runtime(archive_home.home)
    assert isinstance(qualification, QualificationRuntime)
    for name, value in qualification.environment.items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
    return provider, qualification, archive_home


def test_prepare_indexes_with_the_configured_binary_and_names_it(runtime, obelisk_bin):
    provider, qualification, archive = runtime
    identity = qualification.prepare(timeout=60)
    assert identity.runtime_version == version_of(obelisk_bin)
    assert identity.binary_digest == binary_digest(str(obelisk_bin))
    assert provider.runtime_identity(None, timeout=30) == identity
    assert (archive.home / ".obelisk" / "obelisk.sqlite").exists()  # HOME's, not OBELISK_HOME's
    assert qualification.bare_call(timeout=30) > 0


def test_bind_options_describe_the_scope(runtime):
    provider, qualification, archive = runtime
    root = str(archive.repos["alpha"])
    scope = CorpusScope(runtimes=("claude",), roots=(root,), window_days=30, cwd=root)
    binding = provider.bind(qualification.bind_options(scope), cwd=root)
    assert binding["history_sources"] == ["claude"]
    assert binding["private"]["repository_roots"] == [root]


@pytest.mark.parametrize(
    ("fault", "reason"),
    FAULT_REASONS,
)
def test_every_fault_is_staged_without_the_double_switch(runtime, leftovers, fault, reason):
    provider, qualification, archive = runtime
    qualification.prepare(timeout=60)
    stages = qualification.fault_probes()
    assert set(stages) == set(FAULT_KINDS)
    assert provider.retrieve(_request(["pytest"]), _binding(archive), timeout=30).items
    with stages[fault]() as rewrite:
        staged = rewrite(_binding(archive))
        started = time.monotonic()
        with pytest.raises(ProviderFailure) as caught:
            provider.retrieve(_request(["pytest"]), staged, timeout=TIMEOUT)
    # The hanging stand-in sleeps 100000 s: returning within a minute proves the deadline
    # (a fixed small slack would fail on a loaded machine, not on a missing deadline).
    assert time.monotonic() - started < TIMEOUT + 60
    assert caught.value.reason == reason
    assert leftovers() == []
    # Staging is over: the real binary answers again.
    assert provider.retrieve(_request(["pytest"]), _binding(archive), timeout=30).items


@pytest.mark.real_obelisk
def test_the_stale_stage_keeps_the_index_behind(runtime, obelisk_bin):
    from loopx_recall_core.testing import append_session

    provider, qualification, archive = runtime
    qualification.prepare(timeout=60)
    append_session(archive, at=datetime.now(UTC) + timedelta(seconds=5))
    with qualification.fault_probes()["stale"]() as rewrite:
        staged = provider.retrieve(_request(["e"]), rewrite(_binding(archive)), timeout=30)
    assert staged.freshness in ("stale", "incomplete")
    unstaged = provider.retrieve(_request(["e"]), _binding(archive), timeout=30).freshness
    if not Release.of(identity_of(str(obelisk_bin)).runtime_version).nonce_phase:
        # Before 0.2.4 a query refreshes only past the CLI's 30 s debounce (no nonce-phase
        # build): within it the answer says so, and `obelisk --build` catches the index up.
        assert unstaged in ("stale", "incomplete")
        assert run_obelisk(["--build"], binary=obelisk_bin).returncode == 0
        unstaged = provider.retrieve(_request(["e"]), _binding(archive), timeout=30).freshness
    # Without the stage the binary refreshes its index (the double: build grace 0 here).
    assert unstaged == "fresh"


def test_runtime_identity_of_a_hanging_binary_is_none_within_its_bound(tmp_path):
    # A binary whose `--version` never answers: the identity probe (stage 2's gate) ends at
    # the bound it is given and leaves no process behind.
    hanging = tmp_path / "obelisk-hangs"
    hanging.write_text("#!/bin/sh\nwhile :; do sleep 1; done\n")
    hanging.chmod(0o755)
    binding = {"private": {"obelisk_bin": str(hanging)}}
    assert ObeliskSessionEvidence().runtime_identity(binding, timeout=0.3) is None
    running = []
    for entry in Path("/proc").iterdir():
        try:
            if str(hanging).encode() in (entry / "cmdline").read_bytes():
                running.append(entry.name)
        except OSError:
            continue
    assert running == []
