# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The adapter in-process against the double: scope, freshness, faults, terms as data."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from loopx_obelisk_session_evidence.adapter import call_template
from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence
from loopx_obelisk_session_evidence.scope import Window

from loopx_recall_core.plugin_api import HistoricalEvidenceRequestV0, ProviderFailure
from loopx_recall_core.testing import EVIDENCE_TYPES, structure

from ..conftest import FAULT_REASONS
from ..obelisk_double.fixtures import double_settings

TIMEOUT = 3.0


@pytest.fixture
def double(archive_home, obelisk_bin, monkeypatch):
    monkeypatch.setenv("HOME", str(archive_home.home))
    monkeypatch.setenv("LOOPX_RECALL_OBELISK_BIN", str(obelisk_bin))
    double_settings(archive_home.home)  # no switches, build grace 0
    return archive_home


def _binding(archive, sources=("codex", "claude"), repo="alpha", **extra):
    return {
        "history_sources": list(sources),
        "window_days": 30,
        "private": {"repository_roots": [str(archive.repos[repo])]},
        **extra,
    }


def _request(terms, types=EVIDENCE_TYPES, **limits):
    return structure(
        {
            "schema_version": "historical_evidence_request_v0",
            "request_id": "rq-1",
            "situation_id": "sit-1",
            "trigger": "operator_requested_history",
            "scope": {
                "agent_id": "a",
                "project_id": "p",
                "repository_id": "r",
                "allow_cross_agent": False,
                "allow_cross_project": False,
            },
            "evidence_types": list(types),
            "query_terms": list(terms),
            "limits": {
                "max_sessions": 50,
                "max_items": 64,
                "max_snippet_chars": 2000,
                "max_total_chars": 32000,
                **limits,
            },
        },
        HistoricalEvidenceRequestV0,
    )


def _broad_terms(archive):
    # Words that occur in every kind of planted event, so nothing is filtered by terms.
    return ["e", "a", "o", "i", "/", ":", "_", "."]


def test_scope_is_exactly_the_binding(double):
    archive = double
    result = ObeliskSessionEvidence().retrieve(
        _request(_broad_terms(archive)), _binding(archive, sources=("codex",)), timeout=30
    )
    assert result.items
    alpha = str(archive.repos["alpha"])
    allowed = {
        e.session_id
        for e in archive.events
        if e.runtime == "codex" and e.repo_root.startswith(alpha)
    }
    for item in result.items:
        assert item.session_ref in allowed
        assert item.session_ref.startswith("codex:")
        assert Window.last_days(30).contains(item.observed_at)
    hidden = [e.text for e in archive.events if not e.visible]
    for item in result.items:
        assert not any(h and h in item.snippet for h in hidden)
    forbidden = {
        e.session_id
        for e in archive.events
        if e.runtime != "codex" or not e.repo_root.startswith(alpha)
    }
    assert not {i.session_ref for i in result.items} & forbidden


def test_prefix_sibling_repository_is_not_in_scope(double):
    archive = double
    result = ObeliskSessionEvidence().retrieve(
        _request(_broad_terms(archive)), _binding(archive, sources=("claude",)), timeout=30
    )
    alpha2 = str(archive.repos["alpha2"])
    sibling = {e.session_id for e in archive.events if e.repo_root == alpha2}
    assert sibling
    assert not {i.session_ref for i in result.items} & sibling


def test_current_sessions_are_not_history(double):
    archive = double
    codex = sorted({e.session_id for e in archive.events if e.runtime == "codex"})
    result = ObeliskSessionEvidence().retrieve(
        _request(_broad_terms(archive)),
        _binding(archive, sources=("codex",)),
        timeout=30,
        exclude_sessions=tuple(codex),
    )
    assert result.items == ()


def test_limits_truncation_is_explicit_and_exact(double):
    archive = double
    provider = ObeliskSessionEvidence()
    full = provider.retrieve(_request(["e"]), _binding(archive), timeout=30)
    small = provider.retrieve(
        _request(["e"], max_items=2, max_snippet_chars=50), _binding(archive), timeout=30
    )
    assert len(small.items) == 2
    assert all(len(i.snippet) <= 50 for i in small.items)
    assert small.truncated is True
    assert small.omitted_count == len(full.items) + full.omitted_count - 2


def test_stale_index_says_stale(double):
    from loopx_recall_core.testing import append_session

    archive = double
    provider = ObeliskSessionEvidence()
    assert provider.retrieve(_request(["e"]), _binding(archive), timeout=30).freshness == "fresh"
    append_session(archive, at=datetime.now(UTC) + timedelta(seconds=5))
    double_settings(archive.home, fault="stale")
    assert provider.retrieve(_request(["e"]), _binding(archive), timeout=30).freshness in (
        "stale",
        "incomplete",
    )
    readback = provider.readback(_binding(archive))
    assert readback.freshness in ("stale", "incomplete")


def test_new_unindexed_transcript_is_incomplete(double):
    from loopx_recall_core.testing import append_session

    archive = double
    provider = ObeliskSessionEvidence()
    provider.retrieve(_request(["e"]), _binding(archive), timeout=30)
    append_session(archive, at=datetime.now(UTC) - timedelta(hours=1), runtime="codex", seed=4242)
    double_settings(archive.home, fault="stale")
    result = provider.retrieve(_request(["e"]), _binding(archive), timeout=30)
    assert result.freshness == "incomplete"


def _script(tmp_path, name, body):
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return str(path)


@pytest.mark.parametrize(
    ("fault", "reason"),
    FAULT_REASONS,
)
def test_faults_are_typed_within_the_timeout(double, leftovers, fault, reason):
    double_settings(double.home, fault=fault)
    started = time.monotonic()
    with pytest.raises(ProviderFailure) as caught:
        ObeliskSessionEvidence().retrieve(_request(["pytest"]), _binding(double), timeout=TIMEOUT)
    # The hanging stand-in sleeps 100000 s: returning within a minute proves the deadline
    # (a fixed small slack would fail on a loaded machine, not on a missing deadline).
    assert time.monotonic() - started < TIMEOUT + 60
    assert caught.value.reason == reason
    assert "CANARY" not in str(caught.value)
    assert leftovers() == []


def test_slow_within_timeout_still_answers(double):
    double_settings(double.home, fault="slow", slow_ms=500)
    result = ObeliskSessionEvidence().retrieve(_request(["e"]), _binding(double), timeout=10)
    assert result.items


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda tmp: str(tmp / "missing" / "obelisk"), "provider_unavailable"),
        (lambda tmp: _not_executable(tmp), "provider_unavailable"),
        (
            lambda tmp: _script(tmp, "imposter", 'echo "hello from something else"\n'),
            "provider_unavailable",
        ),
        (lambda tmp: _script(tmp, "refused", 'echo "0.2.0"\n'), "unsupported_runtime_version"),
        (
            lambda tmp: _script(
                tmp,
                "old-schema",
                (
                    'if [ "$1" = "--version" ]; then echo 0.2.4; exit 0; fi\n'
                    'echo \'{"error":"no such column: m.visibility","stack":"CANARY-STACK"}\'\n'
                    "exit 1\n"
                ),
            ),
            "unsupported_runtime_version",
        ),
    ],
    ids=["missing", "not-executable", "not-obelisk", "refused-version", "schema-mismatch"],
)
def test_wrong_binaries_are_typed(double, tmp_path, make, reason):
    binding = _binding(double)
    binding["private"]["obelisk_bin"] = make(tmp_path)
    os.environ.pop("LOOPX_RECALL_OBELISK_BIN", None)
    with pytest.raises(ProviderFailure) as caught:
        ObeliskSessionEvidence().retrieve(_request(["e"]), binding, timeout=TIMEOUT)
    assert caught.value.reason == reason
    readback = ObeliskSessionEvidence().readback(binding)
    assert readback.ready is False


def _not_executable(tmp):
    path = tmp / "obelisk-noexec"
    path.write_text("#!/bin/sh\necho 0.2.4\n")
    path.chmod(stat.S_IRUSR | stat.S_IWUSR)
    return str(path)


def test_version_out_of_range_via_double(double):
    double_settings(double.home, version="0.1.9")
    with pytest.raises(ProviderFailure) as caught:
        ObeliskSessionEvidence().retrieve(_request(["e"]), _binding(double), timeout=TIMEOUT)
    assert caught.value.reason == "unsupported_runtime_version"


FRAGMENTS = [
    *"ab'\"\\`*/${}%_[]()-:;\u2028\u2029\x00\n\t 東🚀é",
    "*/",
    "${",
    "') OR 1=1 --",
    '" OR "',
    "NEAR(",
    "AND",
    "\\u0000",
    "*",
    "</script>",
]
TRICKY = st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=8).map("".join)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(terms=st.lists(TRICKY, min_size=1, max_size=4))
def test_terms_reach_the_double_as_data(double, terms):
    binding = _binding(double)
    params = {
        "sources": binding["history_sources"],
        "roots": binding["private"]["repository_roots"],
        "terms": terms,
        "evidence_types": list(EVIDENCE_TYPES),
        "exclude_sessions": [],
        "since_ms": Window.last_days(30).since_ms,
        "until_ms": Window.last_days(30).until_ms,
        "max_snippet_chars": 100,
        "max_rows": 3,
        "transcripts": [],
        "echo": True,
    }
    result = call_template(
        os.environ["LOOPX_RECALL_OBELISK_BIN"], params, timeout=30, stdout_cap=2**21
    )
    assert result["echo"] == terms


def test_leftover_check_sees_a_live_process(double, leftovers):
    # Popen returns once the child has begun exec, which can be before the kernel shows
    # its new environment in /proc/<pid>/environ (seen on a loaded machine): the child
    # says when it runs, and the check waits for that line, not for the clock.
    sleeper = subprocess.Popen(
        [sys.executable, "-c", "import time; print('running', flush=True); time.sleep(30)"],
        env={"HOME": str(double.home)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert sleeper.stdout.readline() == "running\n"
        assert sleeper.pid in leftovers()
    finally:
        sleeper.kill()
        sleeper.wait()
        sleeper.stdout.close()
    assert sleeper.pid not in leftovers()


def test_bind_rejects_unknown_options(tmp_path):
    with pytest.raises(ValueError, match="unknown provider option"):
        ObeliskSessionEvidence().bind(
            {"history_source": ("codex",), "allow_cross_agent": True}, cwd=str(tmp_path)
        )


def test_freshness_rules(tmp_path):
    from loopx_obelisk_session_evidence.evidence import freshness

    transcript = tmp_path / "s.jsonl"
    transcript.write_text("{}\n")
    mtime = int(transcript.stat().st_mtime * 1000)
    built = {"markers": [{"jsonl_path": "__last_build__", "mtime": mtime}]}
    indexed = {**built, "indexed_files": [{"jsonl_path": str(transcript), "mtime": mtime}]}
    assert freshness(indexed, [str(transcript)], complete=True) == "fresh"
    assert freshness(indexed, [str(transcript)], complete=False) == "unknown"
    assert freshness({**built, "indexed_files": []}, [str(transcript)], complete=True) == (
        "incomplete"
    )
    assert freshness({"markers": [], "indexed_files": []}, [], complete=True) == "unknown"
    old = {
        "markers": [{"jsonl_path": "__last_build__", "mtime": mtime - 60_000}],
        "indexed_files": [{"jsonl_path": str(transcript), "mtime": mtime - 60_000}],
    }
    assert freshness(old, [str(transcript)], complete=True) == "stale"
    # A build ran after the file changed but did not index the change (the runtime could
    # not parse it, or another writer held its lease): still stale. Before, a file older
    # than the last build counted as covered, whatever its row said.
    skipped = {
        "markers": [{"jsonl_path": "__last_build__", "mtime": mtime + 60_000}],
        "indexed_files": [{"jsonl_path": str(transcript), "mtime": mtime - 60_000}],
    }
    assert freshness(skipped, [str(transcript)], complete=True) == "stale"
    # The real index keeps mtimes as float milliseconds.
    exact = transcript.stat().st_mtime_ns / 1_000_000
    floats = {**built, "indexed_files": [{"jsonl_path": str(transcript), "mtime": exact}]}
    assert freshness(floats, [str(transcript)], complete=True) == "fresh"
