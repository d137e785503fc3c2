# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The transcript rules host and providers share (issue 12, item 6): one owner each, in
``loopx_recall_core.transcript_rules``, handed to providers through ``plugin_api``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from loopx_recall_core import plugin_api, transcript_rules
from loopx_recall_core.runtimes import cwd_folder_name
from loopx_recall_core.transcript_rules import (
    epoch_ms,
    exit_code,
    under,
    window_start,
    window_start_ms,
)

NOW = datetime(2026, 3, 31, 12, 0, 7, 123999, tzinfo=UTC)


def test_providers_get_the_same_functions_through_plugin_api():
    for name in ("epoch_ms", "exit_code", "under", "window_start_ms"):
        assert getattr(plugin_api, name) is getattr(transcript_rules, name)
        assert name in plugin_api.__all__


def test_window_start_is_exact_to_the_millisecond_in_both_forms():
    start = NOW - timedelta(days=30)
    assert window_start_ms(30, NOW) == epoch_ms(start) == 1772366407123
    # The text form is the same instant (the old host form dropped the fraction: .000Z,
    # up to a second before the provider's window start).
    assert window_start(30, NOW) == "2026-03-01T12:00:07.123Z"
    assert epoch_ms(datetime.fromisoformat(window_start(30, NOW))) == window_start_ms(30, NOW)


@pytest.mark.parametrize(
    ("stamp", "inside"),
    [
        ("2026-03-01T12:00:07.123Z", True),  # exactly the start
        ("2026-03-01T12:00:07.124Z", True),
        ("2026-03-01T12:00:07.122Z", False),  # one millisecond before
        ("2026-03-01T12:00:07.000Z", False),  # inside the old, truncated window
    ],
)
def test_the_window_boundary_compared_as_transcript_text(stamp, inside):
    assert (stamp >= window_start(30, NOW)) is inside
    assert (epoch_ms(datetime.fromisoformat(stamp)) >= window_start_ms(30, NOW)) is inside


def test_window_start_with_a_whole_second_and_before_the_epoch():
    whole = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    assert window_start(1, whole) == "2026-01-01T03:04:05.000Z"
    early = datetime(1970, 1, 1, 0, 0, 0, 500, tzinfo=UTC)
    assert window_start_ms(1, early) == -86_400_000
    assert window_start(1, early) == "1969-12-31T00:00:00.000Z"
    assert epoch_ms(datetime(1969, 12, 31, 23, 59, 59, 999_999, tzinfo=UTC)) == -1


def test_window_start_defaults_to_now():
    before = epoch_ms(datetime.now(UTC) - timedelta(days=2))
    middle = window_start_ms(2)
    after = epoch_ms(datetime.now(UTC) - timedelta(days=2))
    assert before <= middle <= after


@pytest.mark.parametrize(
    ("path", "roots", "expected"),
    [
        ("/a/b", ["/a/b"], True),
        ("/a/b/c", ["/a/b"], True),
        ("/a/b/c", ["/a/b/"], True),
        ("/a/bc", ["/a/b"], False),
        ("/a", ["/a/b"], False),
        ("/x", ["/"], True),
        ("/a/b", [], False),
        (None, ["/a"], False),
        ("", ["/a"], False),
    ],
)
def test_under_is_containment_on_a_separator_boundary(path, roots, expected):
    assert under(path, roots) is expected


@pytest.mark.parametrize(
    ("output", "code"),
    [
        ("Exit code: 1\nFAILED", 1),
        ("Exit code 2", 2),
        ("Exit code: -9", -9),
        ("Exit code: 0\nok", 0),
        (" Exit code: 1", None),
        ("exit code: 1", None),
        ("FAILED\nExit code: 1", None),
        ("", None),
    ],
)
def test_exit_code_reads_only_the_head_of_the_output(output, code):
    assert exit_code(output) == code


def test_the_cwd_folder_name_dashes_every_non_alphanumeric():
    assert cwd_folder_name("/home/me/src/my_app.v2") == "-home-me-src-my-app-v2"
    assert cwd_folder_name("/tmp/café") == "-tmp-caf-"


def test_the_older_name_still_imports_from_plugin_api_with_a_deprecation_warning():
    """``plugin_api.claude_project_folder`` was documented for plugins (providers/README.md):
    it is the records' ``cwd_folder_name`` now, and says so when a plugin uses it."""
    with pytest.warns(DeprecationWarning, match="use plugin_api.cwd_folder_name"):
        from loopx_recall_core.plugin_api import claude_project_folder
    assert claude_project_folder is plugin_api.cwd_folder_name is cwd_folder_name
    assert "claude_project_folder" not in plugin_api.__all__
    assert not hasattr(transcript_rules, "claude_project_folder")
