# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Archives on disk: deterministic, late content after the build, scope sets, native reader."""

from __future__ import annotations

import os
import re
import time
from datetime import UTC, datetime
from pathlib import Path

from loopx_recall_core.qualification import transcripts
from loopx_recall_core.qualification.corpus import build_corpus
from loopx_recall_core.qualification.materialize import write_family
from loopx_recall_core.qualification.native_transcripts import read_transcripts
from loopx_recall_core.qualification.templates import ROOT
from loopx_recall_core.transcript_rules import exit_code, under

CORPUS = build_corpus(cases=40)
NOW = datetime.now(UTC).replace(microsecond=0)


def _family(name: str):
    return next(f for f in CORPUS.families if f.name == name)


def _files(home: Path, root: Path) -> dict[str, bytes]:
    """Transcripts by relative name, with the root (and its Claude folder form) neutral."""
    dashed = re.sub(r"[^A-Za-z0-9]", "-", str(root))
    return {
        str(p.relative_to(home)).replace(dashed, "ROOT"): p.read_bytes().replace(
            str(root).encode(), b"ROOT"
        )
        for p in sorted(home.rglob("*.jsonl"))
    }


def test_tests_use_the_shipped_generator_and_no_product_code_imports_tests():
    # The tests import loopx_recall_core.qualification.transcripts itself (there is no
    # re-export under tests/ any more), so the product must not lean on test code either.
    for name in transcripts.__all__:
        assert hasattr(transcripts, name), name
    repo = Path(__file__).resolve().parents[2]
    product = [repo / "loopx_recall_core", *(repo / "plugins").glob("*/loopx_*")]
    importing = re.compile(r"^\s*(from|import)\s+tests\b", re.MULTILINE)
    offenders = [
        str(path.relative_to(repo))
        for folder in product
        for path in folder.rglob("*.py")
        if importing.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_a_story_fixes_what_a_session_runs(tmp_path):
    archive = transcripts.generate_archive(tmp_path / "h", now=NOW, sessions_per_repo=1)
    story = transcripts.Story(failure=("tox -e café", "boom café", 3), success=("ls", "a b"))
    grown = transcripts.append_session(archive, at=NOW, runtime="codex", seed=5, story=story)
    added = grown.events[len(archive.events) :]
    failure = next(e for e in added if e.kind == "prior_failure")
    outcome = next(e for e in added if e.kind == "tool_outcome")
    assert failure.command == "tox -e café"
    assert "boom café" in failure.text
    assert exit_code(failure.text) == 3  # in whichever of Codex's forms the session writes
    assert outcome.command == "ls"
    assert "a b" in outcome.text


def test_same_family_same_files(tmp_path):
    family = _family("baseline")
    first = write_family(family, tmp_path / "one", NOW)
    first.write_late()
    second = write_family(family, tmp_path / "two", NOW)
    second.write_late()
    assert first.session_ids == second.session_ids
    one = _files(first.home, tmp_path / "one")
    assert one
    assert one == _files(second.home, tmp_path / "two")


def test_late_content_appears_only_after_the_build(tmp_path):
    family = _family("stale")
    files = write_family(family, tmp_path, NOW)
    new = [s for s in family.sessions if s.late == "new"]
    grown = [s for s in family.sessions if s.late == "grown"]
    assert new
    assert grown
    assert all(s.key not in files.session_ids for s in new)
    cut = {
        key: len(p.read_text().splitlines())
        for key, p in ((s.key, _transcript(files, s.key)) for s in grown)
    }
    assert set(cut.values()) == {3}
    built = time.time()
    files.write_late()
    for spec in [*new, *grown]:
        path = _transcript(files, spec.key)
        assert os.stat(path).st_mtime > built + 2  # past the provider's same-mtime grace
        assert len(path.read_text().splitlines()) > 3
    views = [files.view(case) for case in CORPUS.cases if case.archive == family.key]
    assert views
    assert all(view.index_behind for view in views)


def _transcript(files, key: str) -> Path:
    session_id = files.session_ids[key].removeprefix("codex:")
    (path,) = [p for p in files.home.rglob("*.jsonl") if p.stem.endswith(session_id)]
    return path


def test_views_resolve_scope_and_bait(tmp_path):
    family = _family("bait")
    files = write_family(family, tmp_path, NOW)
    files.write_late()
    cases = [case for case in CORPUS.cases if case.archive == family.key]
    for case in cases:
        view = files.view(case)
        assert view.situation["repository_root"] == str(files.repos["alpha"])
        assert ROOT not in str(view.situation)
        assert view.bait_sessions
        assert not view.bait_sessions & view.in_scope_sessions
        assert not view.index_behind
        events = [e for e in files.archive.events if e.session_id in view.in_scope_sessions]
        assert events
        assert all(e.runtime == "claude" for e in events)
        assert all(e.repo_root == str(files.repos["alpha"]) for e in events)


def test_native_reader_sees_every_planted_call_and_its_outcome(tmp_path):
    family = _family("baseline")
    files = write_family(family, tmp_path, NOW)
    files.write_late()
    found = read_transcripts(files.home, ("claude", "codex"))
    calls = {(c.command, c.failed) for t in found for c in t.calls}
    for event in files.archive.events:
        if event.kind == "prior_failure":
            assert (event.command, True) in calls
        elif event.kind == "tool_outcome":
            assert (event.command, False) in calls
    assert sum(t.chars for t in found) == sum(
        len(p.read_text(encoding="utf-8")) for p in files.home.rglob("*.jsonl")
    )
    alpha = str(files.repos["alpha"])
    assert any(under(t.cwd, [alpha]) for t in found)
    assert not under(str(files.repos["alpha2"]), [alpha])  # the path-prefix trap
