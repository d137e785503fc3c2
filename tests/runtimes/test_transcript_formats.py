# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Each runtime's transcript format lives in the runtimes' home (issue 43, item 2):
``runtimes/transcripts/`` holds its writer and its reader by runtime name, the records say
which runtimes have transcripts on disk, and the bench's archive generator and arm (c)'s
reader choose by the session's runtime from there instead of spelling runtimes."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from loopx_recall_core import runtimes, snippet_rules
from loopx_recall_core.qualification import transcripts
from loopx_recall_core.qualification.transcripts import append_session, generate_archive
from loopx_recall_core.runtimes.transcripts import READERS, WRITERS

NOW = datetime(2026, 3, 31, 12, 0, 7, 123000, tzinfo=UTC)


def test_the_formats_follow_the_records():
    assert tuple(WRITERS) == tuple(READERS) == transcripts.RUNTIMES
    # in the records' order, each a runtime whose record places transcripts on disk
    assert [n for n in runtimes.TRANSCRIPT_RUNTIMES if n in WRITERS] == list(WRITERS)
    # today every such runtime has a format, so the bench writes each of them
    assert tuple(WRITERS) == runtimes.TRANSCRIPT_RUNTIMES
    # the shell command of a call's input is the records' rule, re-exported for snippets
    assert snippet_rules.shell_command is runtimes.shell_command


@pytest.mark.parametrize("runtime", runtimes.TRANSCRIPT_RUNTIMES)
def test_each_reader_reads_back_the_shell_calls_its_writer_wrote(tmp_path, runtime):
    archive = generate_archive(tmp_path, now=NOW, sessions_per_repo=1)
    grown = append_session(archive, at=NOW, repo="beta", runtime=runtime, seed=4242)
    new = grown.events[len(archive.events) :]
    assert {e.runtime for e in new} == {runtime}
    # the session is named as the index names it, and lies where the record says
    session_id = new[0].session_id
    prefix = runtimes.record(runtime).index_prefix
    assert session_id.startswith(prefix)
    own_id = session_id.removeprefix(prefix)
    (path,) = tmp_path.glob(runtimes.transcript_glob(runtime, own_id))
    cwd, calls, stamps = READERS[runtime](path.read_text(encoding="utf-8"))
    assert cwd == str(grown.repos["beta"])
    failures = [e.command for e in new if e.kind == "prior_failure"]
    successes = [e.command for e in new if e.kind == "tool_outcome"]
    assert [c for c, failed, _ in calls if failed] == failures
    assert [c for c, failed, _ in calls if not failed] == successes
    assert max(stamps) == "2026-03-31T12:00:07.123Z"  # the session ends at `at`


def test_an_unknown_runtime_is_refused(tmp_path):
    archive = generate_archive(tmp_path, now=NOW, sessions_per_repo=1)
    with pytest.raises(ValueError, match="unknown runtime 'kimi'"):
        append_session(archive, at=NOW, runtime="kimi")
