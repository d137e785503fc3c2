# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``recall qualify``'s long-history family on the runtime under test (the double, or each
real binary the lane names), run alone: its gate passes because the guard's set covers the
whole window, and fails when the set holds only the newest ``max_items`` shell calls; the
300 secrets its older sessions carry reach none of the stores and logs the run keeps (the private
results, the guard's sets and decisions), and would if the redactor let them through."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from loopx_recall_core.testing import build_corpus, planted_canaries, redaction, run_qualification
from loopx_recall_core.testing import qualification_guard_arm as guard_arm
from loopx_recall_core.testing import qualification_harness as harness

pytestmark = pytest.mark.real_obelisk

CASES, SEED = 30, 7


#: The transcript generator's own marker (``transcripts/session.py``, not the canary corpus;
#: the report test keeps it out of the report): its ``-SECRET-`` would read as a piece of
#: an ``AGE-SECRET-KEY-`` canary.
GENERATOR_MARK = re.compile(r"CANARY-SECRET-[0-9a-f]{16}")


def _leaks(text: str) -> list[str]:
    text = GENERATOR_MARK.sub("\x00", text)
    return sorted({c.kind for c in planted_canaries() if c.leaked(text)})


@pytest.fixture
def long_history_only(monkeypatch, obelisk_bin, tmp_path):
    """``run()``: the qualification of the long-history family alone (its fault probes and
    arm-(b) gates are other tests' business), one hook process, the run's working folder
    kept under ``tmp_path / "run"``; returns ``(report, folder)``."""
    corpus = build_corpus(seed=SEED, cases=CASES)
    sliced = attrs.evolve(
        corpus,
        families=tuple(f for f in corpus.families if f.name == "long_history"),
        cases=tuple(c for c in corpus.cases if c.family == "long_history"),
    )
    monkeypatch.setattr(harness, "build_corpus", lambda **_: sliced)
    monkeypatch.setattr(guard_arm, "HOT_PATH_RUNS", 1)
    folder = tmp_path / "run"

    @contextlib.contextmanager
    def kept(**_: object) -> Iterator[str]:
        folder.mkdir()
        yield str(folder)

    monkeypatch.setattr(harness.tempfile, "TemporaryDirectory", kept)
    for name, value in {
        "LOOPX_RECALL_HOME": str(tmp_path / "loopx"),
        "LOOPX_RECALL_OBELISK_BIN": str(obelisk_bin),
        "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence",
    }.items():
        monkeypatch.setenv(name, value)

    def run() -> tuple[dict, Path]:
        report = run_qualification(cases=CASES, seed=SEED).report
        return report, folder

    return run


def _kept(folder: Path) -> list[Path]:
    """What the run writes beside the archives (the transcripts and the runtime's index,
    which hold the secrets by design): the private results and the guard's state."""
    return [p for part in ("loopx", "guard") for p in (folder / part).rglob("*") if p.is_file()]


def _gate(report: dict) -> dict:
    return next(g for g in report["gates"] if g["name"] == "guard_long_history")


def test_the_guard_sees_repeats_behind_a_long_history_and_keeps_no_secret(long_history_only):
    report, folder = long_history_only()
    long = report["guard"]["long_history"]
    assert long["newer_calls_min"] >= 40, long
    assert long["newer_failed_min"] >= 20, long
    assert long["found_by_replan"] > 0
    assert long["warned_of_found"] == long["found_by_replan"], long
    assert _gate(report)["passed"], _gate(report)
    # every page of the set through replan's comparison agrees with the guard
    assert report["guard"]["agreement"]["disagreements"] == 0
    kept = _kept(folder)
    # the private results and the guard's sets were written, and hold no secret
    assert any(p.parts[-3:-1] == ("guard", "sets") for p in kept)
    assert any("results" in p.parts for p in kept)
    assert {str(p.relative_to(folder)): _leaks(p.read_text(errors="replace"))
            for p in kept if _leaks(p.read_text(errors="replace"))} == {}  # fmt: skip


def test_the_checks_fail_on_a_blind_set_and_a_redactor_that_lets_secrets_through(
    long_history_only, monkeypatch
):
    """The same run with the set of one request (the enablement's limits: the newest 16
    shell calls, as the guard had before it covered the whole window) and a redactor that
    finds nothing: the gate fails, and the planted secrets reach the private results, where
    the check above would see them."""
    real = guard_arm.fetch_set

    def newest_only(*args, pages=None, **kwargs):
        return real(*args, **kwargs)

    monkeypatch.setattr(guard_arm, "fetch_set", newest_only)
    monkeypatch.setattr(redaction, "_spans", lambda _text: [])
    monkeypatch.setattr(redaction, "_DONE", {})  # nothing redacted before counts either
    report, folder = long_history_only()
    long = report["guard"]["long_history"]
    assert long["found_by_replan"] > 0
    assert long["warned_of_found"] == 0, long
    assert not _gate(report)["passed"]
    assert f"guard warned 0/{long['found_by_replan']} repeats" in _gate(report)["detail"]
    leaked = {str(p.relative_to(folder)) for p in _kept(folder)
              if _leaks(p.read_text(errors="replace"))}  # fmt: skip
    # the recalls' private results (the blind set itself holds only the newest calls, which
    # carry no secret)
    assert any("results" in name for name in leaked), leaked
