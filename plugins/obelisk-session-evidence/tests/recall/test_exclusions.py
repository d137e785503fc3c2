# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The user's own exclusions, in-process: ``--exclude-path`` is validated at
enable time and stored as absolute GLOB patterns (root part escaped); the Python check
(``scope.path_excluded``) and the template's SQL GLOB agree on every path; the row check
rejects a row from an excluded folder; rows holding the private marker take their session
out of the result."""

from __future__ import annotations

import json
import sqlite3
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from loopx_obelisk_session_evidence.binding import bind, exclude_patterns
from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence
from loopx_obelisk_session_evidence.scope import (
    PRIVATE_MARKER,
    Window,
    exclude_globs,
    glob_escape,
    marked_owners,
    path_excluded,
    row_problem,
)

from loopx_recall_core.plugin_api import ProviderFailure

from ..hostile import answer, binding, configure, install_standin, request, tool_row

TEMPLATE = (
    resources.files("loopx_obelisk_session_evidence")
    .joinpath("templates/session_evidence.v8.js")
    .read_text(encoding="utf-8")
)
# The template's predicate (PATH_NOT_EXCLUDED), negated: 1 when the path is excluded.
SQL = (
    "SELECT NOT (json_type(?) = 'array' AND NOT EXISTS (SELECT 1 FROM json_each(?) AS g"
    " WHERE ? GLOB g.value OR ? GLOB g.value || '/*'))"
)

ROOTS = ["/w/repo", "/w/re[po", "/w/a*b", "/w/sp ace/r?", "/w/x]y"]
RELATIVE = ["vendor", "vendor/*", "*.tmp", "build/?", "docs/*/gen", "a b/c"]
TAILS = ["", "/vendor", "/vendor/x", "/vendorx", "/x.tmp", "/x/y.tmp", "/build/1",
         "/build/12", "/docs/en/gen", "/docs/en/gen/z", "/docs/gen", "/a b/c", "/a b/cd",
         "/src", "/[v]endor"]  # fmt: skip
# Paths that only match if the root's glob characters were read as wildcards.
LOOKALIKES = ["/w/rep/vendor", "/w/aXXb/vendor", "/w/sp ace/rZ/vendor", "/w/rxpo/vendor"]


def sql_excluded(db, path, patterns):
    value = json.dumps(patterns)
    return bool(db.execute(SQL, (value, value, path, path)).fetchone()[0])


@pytest.fixture(scope="module")
def db():
    return sqlite3.connect(":memory:")


def test_the_template_uses_the_predicate_tested_here():
    assert "path + \" GLOB g.value OR \" + path + \" GLOB g.value || '/*'))\"" in TEMPLATE
    assert "json_type(?) = 'array' AND NOT EXISTS (SELECT 1 FROM json_each(?) AS g" in TEMPLATE


def test_python_and_sql_agree_on_a_table_of_paths_and_patterns(db):
    checked = 0
    for root in ROOTS:
        for relative in RELATIVE:
            patterns = exclude_globs([relative], [root])
            for path in [root + tail for tail in TAILS] + LOOKALIKES:
                assert path_excluded(path, patterns) == sql_excluded(db, path, patterns), (
                    root, relative, path,
                )  # fmt: skip
                checked += 1
    assert checked > 500


@pytest.mark.parametrize(
    ("root", "relative", "path", "excluded"),
    [
        ("/w/repo", "vendor", "/w/repo/vendor", True),
        ("/w/repo", "vendor", "/w/repo/vendor/deep/er", True),
        ("/w/repo", "vendor", "/w/repo/vendorx", False),
        ("/w/repo", "vendor", "/w/repo", False),
        ("/w/repo", "vendor/*", "/w/repo/vendor/a/b", True),
        ("/w/repo", "vendor/*", "/w/repo/vendor", False),
        ("/w/repo", "build/?", "/w/repo/build/12", False),
        ("/w/repo", "build/?", "/w/repo/build/1/x", True),
        ("/w/re[po", "vendor", "/w/re[po/vendor", True),
        ("/w/re[po", "vendor", "/w/rep/vendor", False),
        ("/w/a*b", "vendor", "/w/aXXb/vendor", False),
        ("/w/sp ace/r?", "a b/c", "/w/sp ace/r?/a b/c", True),
        ("/w/sp ace/r?", "a b/c", "/w/sp ace/rZ/a b/c", False),
    ],
)
def test_what_an_exclusion_covers(db, root, relative, path, excluded):
    patterns = exclude_globs([relative], [root])
    assert path_excluded(path, patterns) is excluded
    assert sql_excluded(db, path, patterns) is excluded


@settings(max_examples=300, deadline=None)
@given(
    root=st.text(alphabet="ab[]*? ", min_size=1, max_size=6),
    relative=st.text(alphabet="ab*?/ ", min_size=1, max_size=6),
    tail=st.text(alphabet="ab[]*?/ ", max_size=10),
)
def test_python_and_sql_agree_on_generated_paths(db, root, relative, tail):
    try:
        (relative,) = exclude_patterns([relative])
    except ValueError:
        return
    patterns = exclude_globs([relative], ["/r/" + root])
    path = "/r/" + root + tail
    assert path_excluded(path, patterns) == sql_excluded(db, path, patterns)


def test_an_unreadable_pattern_or_path_excludes_everything():
    assert path_excluded("/w/repo/src", ["/w/re[po"])  # bare bracket: fail closed
    assert path_excluded(None, [])
    assert not path_excluded("/w/repo/src", [])


def test_the_root_part_is_escaped():
    assert glob_escape("/w/a[b]*?c") == "/w/a[[]b][*][?]c"


@pytest.mark.parametrize(
    "value",
    ["../x", "/abs", "a/../b", "./a", "a/./b", "a//b", "", "x[ab]", "{a,b}", "a\\*",
     "a\nb", "..", "."],
)  # fmt: skip
def test_enable_refuses_a_bad_pattern_without_echoing_it(tmp_path, value):
    options = {"history_source": ["codex"], "repository_root": [str(tmp_path)],
               "exclude_path": ["vendor", value]}  # fmt: skip
    with pytest.raises(ValueError, match=r"^--exclude-path ") as raised:
        bind(options, cwd=str(tmp_path))
    message = str(raised.value)
    assert "\n" not in message
    assert value not in message or value in ("", ".", "..")


def test_enable_stores_patterns_under_each_root_as_given_and_resolved(tmp_path):
    real = tmp_path / "real [repo]"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    binding = bind(
        {"history_source": ["codex"], "repository_root": [str(link)],
         "exclude_path": ["vendor/*", "vendor/*", "build/"]},
        cwd=str(tmp_path),
    )  # fmt: skip
    assert binding["exclude_path_count"] == 2
    escaped = str(tmp_path).replace("[", "[[]") + "/real [[]repo]"
    assert binding["private"]["exclude_paths"] == sorted(
        [f"{link}/build", f"{link}/vendor/*", f"{escaped}/build", f"{escaped}/vendor/*"]
    )
    assert str(tmp_path) not in json.dumps({k: v for k, v in binding.items() if k != "private"})


def test_the_row_check_rejects_a_row_from_an_excluded_folder(tmp_path):
    binding = bind(
        {"history_source": ["codex"], "repository_root": [str(tmp_path)],
         "exclude_path": ["vendor/*"]},
        cwd=str(tmp_path),
    )  # fmt: skip
    window = Window.last_days(30)
    (tmp_path / "vendor" / "lib").mkdir(parents=True)
    inside = tool_row(str(tmp_path), cwd=str(tmp_path / "vendor" / "lib"))
    control = tool_row(str(tmp_path), cwd=str(tmp_path / "vendor"))
    assert row_problem(inside, binding, window, []) == "scope_violation"
    assert row_problem(control, binding, window, []) is None


def test_a_row_holding_the_marker_marks_its_own_session_only():
    rows = [
        tool_row("/r", session="codex:s1", output=f"note {PRIVATE_MARKER} here"),
        tool_row("/r", session="codex:s2"),
        tool_row("/r", session="codex:s3", agent_id="codex:fork", input=PRIVATE_MARKER),
        tool_row("/r", session="codex:s4", output=PRIVATE_MARKER.upper()),
    ]
    assert marked_owners(rows) == {"codex:s1", "codex:fork"}


@pytest.fixture
def standin(tmp_path, monkeypatch):
    home, root = tmp_path / "home", tmp_path / "repo"
    (root / "vendor" / "lib").mkdir(parents=True)
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home, root, install_standin(home)


def test_a_provider_that_returns_an_excluded_folder_is_refused(standin):
    home, root, obelisk = standin
    vendored = str(root / "vendor" / "lib")
    rows = [tool_row(str(root), session="codex:kept"),
            tool_row(str(root), session="codex:vendor", cwd=vendored)]  # fmt: skip
    configure(home, answer=answer(rows))
    bound = binding(root, obelisk)
    assert len(ObeliskSessionEvidence().retrieve(request(), bound, timeout=10).items) == 2
    bound = {**bound, "private": {**bound["private"],
             "exclude_paths": exclude_globs(["vendor/*"], [str(root)])}}  # fmt: skip
    with pytest.raises(ProviderFailure) as failure:
        ObeliskSessionEvidence().retrieve(request(), bound, timeout=10)
    assert failure.value.reason == "scope_violation"


def test_a_returned_row_holding_the_marker_takes_its_session_out(standin):
    home, root, obelisk = standin
    rows = [tool_row(str(root), session="codex:kept"),
            tool_row(str(root), session="codex:marked", message_uuid="m1"),
            tool_row(str(root), session="codex:marked", message_uuid="m2",
                     output=f"Exit code: 1\nsaid {PRIVATE_MARKER}")]  # fmt: skip
    configure(home, answer=answer(rows))
    result = ObeliskSessionEvidence().retrieve(request(), binding(root, obelisk), timeout=10)
    assert [item.session_ref for item in result.items] == ["codex:kept"]
    assert result.omitted_count == 0
