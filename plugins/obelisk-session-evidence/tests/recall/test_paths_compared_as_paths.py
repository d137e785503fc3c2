# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Paths are compared as paths. A ``..`` or ``.`` segment, ``//``, a relative path
or a symlink inside the repository that leads outside it is out of scope: excluded by the
template's SQL, and a row that still comes back rejects the whole result."""

from __future__ import annotations

import os
from datetime import timedelta

import pytest
from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence
from loopx_obelisk_session_evidence.scope import path_in_scope

from loopx_recall_core.plugin_api import ProviderFailure

from ..hostile import (
    answer,
    binding,
    claude_transcript,
    codex_transcript,
    configure,
    install_standin,
    now_iso,
    request,
    tool_row,
)


@pytest.fixture
def world(tmp_path, monkeypatch):
    home, root, outside = tmp_path / "home", tmp_path / "alpha", tmp_path / "beta"
    for folder in (home, root, outside):
        folder.mkdir()
    (root / "escape").symlink_to(outside)
    monkeypatch.setenv("HOME", str(home))
    return home, root


def _hostile_paths(root):
    return [
        f"{root}/../beta",
        f"{root}/./src",
        f"{root}//src",
        f"{root}/src/",
        "alpha/src",
        f"{root}/escape",
        f"{root}/escape/deeper",
        f"{root}-sibling",
    ]


@pytest.mark.parametrize("index", range(8))
def test_a_hostile_row_path_rejects_the_result(world, index):
    home, root = world
    path = _hostile_paths(root)[index]
    configure(home, answer=answer([tool_row(str(root)), tool_row(str(root), cwd=path)]))
    with pytest.raises(ProviderFailure) as failure:
        ObeliskSessionEvidence().retrieve(
            request(), binding(root, install_standin(home)), timeout=10
        )
    assert failure.value.reason == "scope_violation"


def test_the_project_path_counts_when_a_row_has_no_cwd(world):
    home, root = world
    configure(home, answer=answer([tool_row(str(root), cwd=None, project_path=f"{root}/../beta")]))
    with pytest.raises(ProviderFailure):
        ObeliskSessionEvidence().retrieve(
            request(), binding(root, install_standin(home)), timeout=10
        )


def test_an_honest_row_passes(world):
    home, root = world
    configure(home, answer=answer([tool_row(f"{root}/src")]))
    result = ObeliskSessionEvidence().retrieve(
        request(), binding(root, install_standin(home)), timeout=10
    )
    assert len(result.items) == 1


def test_roots_are_bound_as_given_and_resolved(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    real = tmp_path / "real-repo"
    real.mkdir()
    (tmp_path / "link-repo").symlink_to(real)
    private = binding(tmp_path / "link-repo")["private"]
    assert private["repository_roots"] == [str(tmp_path / "link-repo")]
    assert private["resolved_roots"] == [os.path.realpath(real)]
    # a path through the resolved root is in scope; one through a later swap is not
    assert path_in_scope(f"{real}/src", private["repository_roots"], private["resolved_roots"])
    assert not path_in_scope(f"{tmp_path}/other", private["repository_roots"])


def test_the_double_never_selects_a_dot_dot_session(world, obelisk_bin, double_ready):
    home, root = world
    stamp = now_iso(-timedelta(hours=2))
    codex_transcript(home, "in-scope", cwd=str(root), timestamp=stamp)
    codex_transcript(home, "dot-dot", cwd=f"{root}/../beta", timestamp=stamp)
    # the index normalizes Codex cwds (see tests/obelisk_double/README.md): "<root>/./src"
    # becomes "<root>/src", in scope; the sibling reached through ".." stays out
    codex_transcript(home, "dot", cwd=f"{root}/./src", timestamp=stamp)
    result = ObeliskSessionEvidence().retrieve(request(), binding(root, obelisk_bin), timeout=30)
    assert sorted(item.session_ref for item in result.items) == ["codex:dot", "codex:in-scope"]


def test_the_double_never_selects_a_path_with_dot_segments(world, obelisk_bin, double_ready):
    # Claude cwds are indexed as written, so the template's SQL itself must refuse them.
    home, root = world
    stamp = now_iso(-timedelta(hours=2))
    claude_transcript(home, "honest", cwd=f"{root}/src", timestamp=stamp)
    for number, path in enumerate(_hostile_paths(root)[:5]):
        claude_transcript(home, f"hostile-{number}", cwd=path, timestamp=stamp)
    result = ObeliskSessionEvidence().retrieve(
        request(), binding(root, obelisk_bin, sources=("claude",)), timeout=30
    )
    assert [item.session_ref for item in result.items] == ["honest"]
