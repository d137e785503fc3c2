# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The set file as the hot path reads it: the header line, then only the item lines the
proposed command's programs name, cut at the header's ``offsets`` (8 hex digits an item)
from a read-only map of the file; a damaged table reads as no item, never an error."""

from __future__ import annotations

import json

from loopx_recall_core.guard import store
from loopx_recall_core.guard.decide import find_repeat
from tests.guard import helpers

FAILED = "Bash: pytest tests/test_api.py\noutcome: failed (exit 1)\nE   AssertionError: 500"
AT = "2026-01-01T10:00:00+00:00"


def _items():
    return [
        helpers.item("tool_outcome", "Bash: ls\noutcome: ok", at=AT, ref="m1"),
        helpers.item("prior_failure", FAILED + " é ✓", at=AT, ref="m2"),  # multi-byte text
        helpers.item("prior_failure", "Bash: npm run lint\noutcome: failed", at=AT, ref="m3"),
    ]


def test_items_are_read_by_number_at_their_offsets(tmp_path):
    items = _items()
    path = helpers.write(tmp_path, items)
    lines = store.read_set_lines(path)
    assert len(lines) == 4
    header = store.read_header(lines)
    assert header is not None
    assert len(header["offsets"]) == 8 * 3
    for number, item in enumerate(items, start=1):
        assert json.loads(lines[number]) == item
    assert find_repeat("pytest tests/test_api.py", header, lines).verdict == (
        "repeats_prior_failure"
    )


def test_a_damaged_offsets_table_reads_as_no_item(tmp_path):
    items = _items()
    path = helpers.write(tmp_path, items)
    head, _, body = path.read_bytes().partition(b"\n")
    damaged = json.loads(head)
    damaged["offsets"] = "zzzzzzzz" + damaged["offsets"][8:16] + "ffffffff"
    path.write_bytes(json.dumps(damaged).encode() + b"\n" + body)
    lines = store.read_set_lines(path)
    assert [lines[n] for n in (1, 3)] == [b"", b""]  # not hex; past the end
    assert json.loads(lines[2]) == items[1]
    header = store.read_header(lines)
    assert find_repeat("npm run lint", header, lines).verdict != "repeats_prior_failure"


def test_an_empty_set_file_has_no_header(tmp_path):
    path = helpers.write(tmp_path, _items())
    path.write_bytes(b"")
    lines = store.read_set_lines(path)
    assert len(lines) == 1
    assert store.read_header(lines) is None
