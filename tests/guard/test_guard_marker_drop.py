# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The private marker reaches the guard's sets at once: the claiming hook at a session's
start or end reads the session's transcript for ``loopx-recall:private`` (from where its
last read stopped) and drops every set holding that session, of any agent, project or
scope, before it returns; a set holding only other sessions stays."""

from __future__ import annotations

from pathlib import Path

from loopx_recall_core.guard import prefetch
from loopx_recall_core.private_marker import PRIVATE_MARKER, scan_file
from loopx_recall_core.testing import guard_store as store

from . import helpers

AT = "2026-01-01T10:00:00+00:00"
FAILED = "Bash: make deploy\noutcome: failed (exit 2)"


def _set(root: Path, sessions: tuple[str, ...], **extra) -> Path:
    items = [helpers.item("prior_failure", FAILED, at=AT, session=s, ref=f"m-{s}")
             for s in sessions]  # fmt: skip
    keys = " ".join(sorted(store.key_of(s)[:16] for s in sessions))
    return helpers.write(root, items, sessions=keys, **extra)


def test_the_marker_at_a_sessions_end_drops_every_set_holding_it(loopx_home, tmp_path):
    live = _set(loopx_home, ("S-private", "S-other"), session="S-live")
    agents = _set(loopx_home, ("S-private",), session="", scope="agent")
    other_agent = _set(loopx_home, ("S-private",), session="S-b", agent_id="agent-b")
    clean = _set(loopx_home, ("S-other",), session="S-clean")
    transcript = tmp_path / "S-private.jsonl"
    transcript.write_text('{"type": "user", "message": "run the tests"}\n' * 1000)

    def end() -> None:
        prefetch.start_for_hook(loopx_home, "claude", "S-private", "agent-a", "proj-j", "Stop",
                                str(transcript))  # fmt: skip

    end()  # no marker yet: nothing dropped
    assert all(p.exists() for p in (live, agents, other_agent, clean))
    assert store.read_session(loopx_home, "claude", "S-private")["marker_scan"] == (
        transcript.stat().st_size
    )
    with transcript.open("a") as out:
        out.write(f'{{"type": "user", "message": "{PRIVATE_MARKER}"}}\n')
    end()
    assert [p.exists() for p in (live, agents, other_agent, clean)] == [False, False, False, True]
    assert store.outdated(loopx_home, {"as_of": 0.0})  # a making under way is never used


def test_a_marker_cut_by_the_last_read_is_found_by_the_next(tmp_path):
    path = tmp_path / "t.jsonl"
    half = len(PRIVATE_MARKER) // 2
    path.write_bytes(b"x" * 5000 + PRIVATE_MARKER[:half].encode())
    found, end = scan_file(str(path), 0, 1 << 20)
    assert (found, end) == (False, path.stat().st_size)
    with path.open("ab") as out:
        out.write(PRIVATE_MARKER[half:].encode() + b" more")
    assert scan_file(str(path), end, 1 << 20)[0] is True
    # a bounded read goes on from where it stopped; a shorter file is read from the start
    assert scan_file(str(path), 0, 100) == (False, 100)
    assert scan_file(str(path), 10**9, 1 << 20)[0] is True
    assert scan_file(str(tmp_path / "missing"), 0, 100) is None
    (tmp_path / "link").symlink_to(path)
    assert scan_file(str(tmp_path / "link"), 0, 1 << 20) is None  # never through a link


def _linked_transcripts(tmp_path: Path, monkeypatch) -> tuple[Path, Path, Path]:
    """Claude's config folder kept elsewhere and linked from ``~/.claude`` (a dotfiles
    setup), a session's transcript inside it, and a file of the user's outside it."""
    home = tmp_path / "home"
    elsewhere = tmp_path / "dotfiles" / "claude"
    (elsewhere / "projects" / "-repo").mkdir(parents=True)
    home.mkdir()
    (home / ".claude").symlink_to(elsewhere)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    inside = home / ".claude" / "projects" / "-repo" / "S-private.jsonl"
    outside = tmp_path / "notes.txt"
    outside.write_text(f"my own notes, {PRIVATE_MARKER} is a word I wrote here\n")
    return home, inside, outside


def test_a_linked_transcript_inside_the_runtimes_folders_is_read_at_the_end(
    loopx_home, tmp_path, monkeypatch
):
    # before: the transcript was opened with O_NOFOLLOW and nothing else, so a transcript
    # reached through a link (~/.claude linked to a dotfiles folder) was never read: the
    # marker in it dropped nothing
    _home, inside, outside = _linked_transcripts(tmp_path, monkeypatch)
    inside.write_text(f'{{"type": "user", "message": "{PRIVATE_MARKER}"}}\n')
    held = _set(loopx_home, ("S-private",), session="S-live")
    assert scan_file(str(inside), 0, 1 << 20, "claude") == (True, inside.stat().st_size)
    prefetch.start_for_hook(loopx_home, "claude", "S-private", "agent-a", "proj-j", "Stop",
                            str(inside))  # fmt: skip
    assert not held.exists()
    # a link of its own, inside the runtime's folder, to a transcript inside it: followed
    link = inside.parent / "S-link.jsonl"
    link.symlink_to(inside)
    assert scan_file(str(link), 0, 1 << 20, "claude") == (True, inside.stat().st_size)
    assert scan_file(str(outside), 0, 1 << 20, "claude")[0] is True  # no link: as ever


def test_a_linked_transcript_leading_out_of_the_runtimes_folders_is_refused(
    loopx_home, tmp_path, monkeypatch
):
    _home, inside, outside = _linked_transcripts(tmp_path, monkeypatch)
    held = _set(loopx_home, ("S-private",), session="S-live")
    inside.symlink_to(outside)  # the payload names a link to a file of the user's
    assert scan_file(str(inside), 0, 1 << 20, "claude") is None
    assert scan_file(str(inside), 0, 1 << 20, "codex") is None
    prefetch.start_for_hook(loopx_home, "claude", "S-private", "agent-a", "proj-j", "Stop",
                            str(inside))  # fmt: skip
    assert held.exists()  # nothing was read: the marker in the user's notes counts for nothing
    through = tmp_path / "through"
    through.symlink_to(inside.parent)  # a folder link on the way: the same rule
    assert scan_file(str(through / "S-private.jsonl"), 0, 1 << 20, "claude") is None
    assert scan_file(str(inside), 0, 1 << 20) is None  # no runtime named: never a link
