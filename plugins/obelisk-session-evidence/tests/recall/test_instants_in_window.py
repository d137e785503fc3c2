# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Instants are compared as instants. Only RFC 3339 date-times inside
``[now - window, now + 5 min]`` are in scope: anything else is excluded by the SQL and a
row that still comes back rejects the whole result."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence
from loopx_obelisk_session_evidence.scope import Window, instant_ms

from loopx_recall_core.plugin_api import ProviderFailure

from ..hostile import (
    answer,
    binding,
    codex_transcript,
    configure,
    install_standin,
    now_iso,
    request,
    tool_row,
)

HOSTILE = [
    "Sat Jan 01 2000 00:00:00 GMT",
    "9999-01-01T00:00:00.000Z",
    "2026-02-30T00:00:00.000Z",
    "2026-11-30 10:00:00.000Z",
    "2026-11-30T10:00:00.000z",
    "2026-11-30T10:00:00",
    "2026-11-30T24:00:00Z",
    "2026-11-30T10:00:60Z",
    "2026-11-30T10:00:00.Z",
    "2026-11-30T10:00:00+25:00",
    "２０２６-11-30T10:00:00Z",
    "",
]


@pytest.fixture
def world(tmp_path, monkeypatch):
    home, root = tmp_path / "home", tmp_path / "repo"
    home.mkdir()
    root.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home, root


@pytest.mark.parametrize(
    "timestamp",
    [
        *HOSTILE,
        # relative to the clock when the test runs, not when it was collected (a parallel
        # or loaded run can start a test minutes later); fixed ids, so every xdist worker
        # collects the same tests
        pytest.param(timedelta(minutes=6), id="now+6min"),
        pytest.param(-timedelta(days=31), id="now-31days"),
        None,
        1764500000000,
    ],
)
def test_a_row_outside_the_window_rejects_the_result(world, timestamp):
    home, root = world
    if isinstance(timestamp, timedelta):
        timestamp = now_iso(timestamp)
    configure(home, answer=answer([tool_row(str(root), timestamp=timestamp)]))
    with pytest.raises(ProviderFailure) as failure:
        ObeliskSessionEvidence().retrieve(
            request(), binding(root, install_standin(home)), timeout=10
        )
    assert failure.value.reason == "scope_violation"


def test_offsets_and_fractions_are_instants():
    assert instant_ms("2026-11-30T10:00:00.123456789+01:00") == instant_ms(
        "2026-11-30T09:00:00.123Z"
    )
    assert instant_ms("2026-11-30T10:00:00Z") == int(
        datetime(2026, 11, 30, 10, tzinfo=UTC).timestamp() * 1000
    )
    window = Window.last_days(30)
    assert window.contains(now_iso(timedelta(minutes=4)))
    assert not window.contains(now_iso(timedelta(minutes=6)))
    for text in HOSTILE:
        assert instant_ms(text) is None or not window.contains(text)


def test_the_double_never_selects_odd_or_future_instants(world, obelisk_bin, double_ready):
    home, root = world
    codex_transcript(home, "honest", cwd=str(root), timestamp=now_iso(-timedelta(hours=3)))
    for number, stamp in enumerate(HOSTILE[:10]):
        codex_transcript(home, f"odd-{number}", cwd=str(root), timestamp=stamp)
    codex_transcript(home, "offset", cwd=str(root), timestamp="2000-01-01T00:00:00+01:00")
    result = ObeliskSessionEvidence().retrieve(request(), binding(root, obelisk_bin), timeout=30)
    assert [item.session_ref for item in result.items] == ["codex:honest"]
