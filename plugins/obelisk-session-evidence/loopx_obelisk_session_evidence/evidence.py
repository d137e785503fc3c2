# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Rows -> verified, bounded result items; index markers + transcripts -> freshness.

Snippets follow the Replan snippet convention written out (with its writer) in
``loopx_recall_core.snippet_rules``: the host owns both sides of it.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import stat
import time
from collections.abc import Collection, Iterator, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from loopx_obelisk_session_evidence.scope import (
    Window,
    in_folder,
    instant_ms,
    marked_owners,
    path_in_scope,
    roots_of,
    row_problem,
    turn_owner,
)
from loopx_recall_core.plugin_api import (
    SHELL_TOOLS,
    ProviderCache,
    ProviderFailure,
    cwd_folder_name,
    exit_code,
    format_tool_snippet,
    joined_output,
    one_line_command,
    redact_snippet,
    shell_command,
    transcript_folder,
    transcripts_of,
)

__all__ = [
    "capped_items",
    "freshness",
    "in_scope_transcripts",
    "snippet_for",
    "verify_rows",
]

#: The index keeps a file's mtime in milliseconds (float or integer, by runtime version).
_MTIME_ROUNDING_MS = 1.0
#: Cache of the first-line cwd of transcripts filed by day (Codex's), by path, with the size
#: and mtime it was read at.
_FIRST_LINES = "dated-first-lines"
_FIRST_LINE_CAP = 65536


def verify_rows(
    evidence: Mapping[str, Any],
    types: Sequence[str],
    binding: Mapping[str, Any],
    window: Window,
    excluded: Sequence[str],
    claimed: Collection[str] | None = None,
) -> None:
    """One row outside the binding (or an unrequested type) rejects the entire result."""
    if not isinstance(evidence, Mapping) or set(evidence) - set(types):
        raise ProviderFailure("scope_violation")
    for rows in evidence.values():
        if not isinstance(rows, list):
            raise ProviderFailure("malformed_output")
        for row in rows:
            problem = row_problem(row, binding, window, excluded, claimed)
            if problem is not None:
                raise ProviderFailure(problem)


_PATCH_FILE = re.compile(r"^\*\*\* (?:Update|Add|Delete) File: (.+)$", re.MULTILINE)


def paged_items(
    evidence: Mapping[str, Sequence[Mapping[str, Any]]],
    types: Sequence[str],
    limits: Any,
    pages: int,
    transcripts: Sequence[str] = (),
    roots: Sequence[str] = (),
) -> list[tuple[list[Any], int]]:
    """The verified rows cut into at most ``pages`` pages, each within ``limits`` as
    :func:`capped_items` fills one, in the same order; each page's count is of the rows
    that follow it (on later pages or left out), so each page alone is an honest answer."""
    items, _omitted = capped_items(evidence, types, _Unbounded(limits), transcripts, roots)
    cut: list[list[Any]] = []
    page: list[Any] = []
    sessions: set[str] = set()
    total = 0
    for item in items:
        full = (
            len(page) >= limits.max_items
            or total + len(item.snippet) > limits.max_total_chars
            or (item.session_ref not in sessions and len(sessions) >= limits.max_sessions)
        )
        if full:
            cut.append(page)
            page, sessions, total = [], set(), 0
            if len(cut) == pages:
                break
        page.append(item)
        sessions.add(item.session_ref)
        total += len(item.snippet)
    if page and len(cut) < pages:
        cut.append(page)
    kept = 0
    answered = []
    for chunk in cut or [[]]:
        kept += len(chunk)
        answered.append((chunk, len(items) - kept + _omitted))
    return answered


class _Unbounded:
    """``limits`` with no cap on items, sessions or total size (each snippet still cut)."""

    max_items = max_sessions = max_total_chars = 2**62

    def __init__(self, limits: Any) -> None:
        self.max_snippet_chars = limits.max_snippet_chars


def capped_items(
    evidence: Mapping[str, Sequence[Mapping[str, Any]]],
    types: Sequence[str],
    limits: Any,
    transcripts: Sequence[str] = (),
    roots: Sequence[str] = (),
) -> tuple[list[Any], int]:
    """The verified rows as evidence items within the request's ``limits`` (items,
    sessions, total characters, each snippet already cut to its own limit), and how many
    rows the caps left out. Most matched terms first, then newest: what survives the caps
    is the most specific. A row that still holds the private marker takes its whole
    session out, as does a transcript (of ``transcripts``) holding it anywhere (not counted:
    out of scope; the template leaves such sessions out first).
    """
    from loopx_recall_core.plugin_api import EvidenceItem

    marked = marked_owners((row for rows in evidence.values() for row in rows), transcripts)
    rows = sorted(
        ((t, row) for t in types for row in evidence.get(t, []) if turn_owner(row) not in marked),
        key=lambda pair: (int(pair[1].get("matched") or 0), instant_ms(pair[1]["timestamp"])),
        reverse=True,
    )
    items: list[EvidenceItem] = []
    sessions: set[str] = set()
    total = omitted = 0
    for evidence_type, row in rows:
        snippet = snippet_for(evidence_type, row, limits.max_snippet_chars, roots)
        owner = turn_owner(row)
        if (
            len(items) >= limits.max_items
            or total + len(snippet) > limits.max_total_chars
            or (owner not in sessions and len(sessions) >= limits.max_sessions)
        ):
            omitted += 1
            continue
        sessions.add(owner)
        total += len(snippet)
        ref = row.get("message_uuid") or row.get("summary_id")
        items.append(
            EvidenceItem(
                session_ref=owner,
                message_ref=str(ref) if ref else None,
                evidence_type=evidence_type,
                observed_at=row["timestamp"],
                snippet=snippet,
            )
        )
    return items, omitted


def _tool_input(raw: str | None) -> Any:
    try:
        return json.loads(raw or "")
    except json.JSONDecodeError:
        return raw or ""


def _paths_of(row: Mapping[str, Any], data: Any) -> list[str]:
    if row.get("file_path"):
        return [str(row["file_path"])]
    if isinstance(data, dict):
        for key in ("file_path", "path", "notebook_path"):
            if isinstance(data.get(key), str):
                return [data[key]]
        data = data.get("input") or data.get("patch") or json.dumps(data)
    return _PATCH_FILE.findall(str(data))


def snippet_for(
    evidence_type: str, row: Mapping[str, Any], max_chars: int, roots: Sequence[str] = ()
) -> str:
    """The item snippet, by the Replan snippet convention (loopx_recall_core.snippet_rules):
    a shell call run in a folder below one of ``roots`` (the bound repository roots) is
    written as run from that root, ``cd <folder> && <command>``."""
    if "tool" not in row:  # redacted before the cut: no piece of a secret is left at it
        return redact_snippet(str(row.get("text") or ""), max_chars)
    tool = str(row["tool"])
    data = _tool_input(row.get("input"))
    if tool.casefold() in SHELL_TOOLS:
        summary = one_line_command(shell_command(data) or (data if isinstance(data, str) else ""))
        summary = in_folder(summary, _call_folder(row, data), roots)
    else:
        summary = " ".join(shlex.quote(p) for p in _paths_of(row, data))
    output = joined_output(
        str(row.get("output") or ""), row.get("output_tail"), row.get("output_length")
    )
    outcome = None
    code = None
    if evidence_type in ("prior_failure", "tool_outcome"):
        failed = row.get("failed")
        outcome = None if failed is None else not failed
        if evidence_type == "prior_failure":
            outcome = False
        code = exit_code(output)
        if outcome is None:
            outcome = True if not output else code in (None, 0)
    return format_tool_snippet(
        tool, summary, outcome=outcome, exit_code=code, output=output, max_chars=max_chars
    )


def _call_folder(row: Mapping[str, Any], data: Any) -> str | None:
    """The folder a shell call ran in: Codex's own ``workdir`` argument when it gave one
    (its exec_command and shell tools take one), else the message's ``cwd``."""
    workdir = data.get("workdir") if isinstance(data, dict) else None
    if isinstance(workdir, str) and workdir.startswith("/"):
        return workdir
    cwd = row.get("cwd")
    return cwd if isinstance(cwd, str) else None


def in_scope_transcripts(
    binding: Mapping[str, Any],
    deadline: float,
    window: Window,
    cache: ProviderCache | None = None,
) -> list[str]:
    """Transcript files on disk of the bound runtimes under the bound roots, sorted.

    Where each runtime keeps them is its record's (``transcripts_of``). The scan looks
    only where in-scope sessions can be: by working folder (Claude), the bound roots'
    folders; by day (Codex), the window's day folders (``YYYY/MM/DD``) and loose files
    written inside the window, so its cost does not grow with the sessions outside the
    scope. Regular files only (a FIFO or device named ``*.jsonl`` is never opened); a
    dated file's first line is read only when its size or mtime changed since the last
    scan (``cache``). The scan counts against
    the request's ``deadline`` (``time.monotonic()``): past it, a ``provider_timeout``.
    """
    home = Path(os.environ.get("HOME", "~")).expanduser()
    seen: dict[str, list[Any]] = {}
    known = (cache.load(_FIRST_LINES) if cache else None) or {}
    found = []
    for path in _transcripts(home, binding, window, known if isinstance(known, dict) else {}, seen):
        if time.monotonic() > deadline:
            raise ProviderFailure("provider_timeout")
        found.append(str(path))
    if cache is not None and seen != known:
        cache.store(_FIRST_LINES, seen)
    return sorted(found)


def _entries(folder: Path) -> Iterator[os.DirEntry[str]]:
    # An unreadable or vanished folder holds nothing we can check: skip it, never fail.
    try:
        with os.scandir(folder) as entries:
            yield from entries
    except OSError:
        return


def _regular_files(folder: Path, suffix: str) -> Iterator[tuple[Path, os.stat_result]]:
    for entry in _entries(folder):  # lazily: the caller checks its deadline per file
        if not entry.name.endswith(suffix):
            continue
        try:
            info = entry.stat()  # follows a link to its target, which must be a regular file
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):
            yield Path(entry.path), info


def _day_folders(sessions: Path, window: Window) -> Iterator[Path]:
    # A layout by day files a session under the local date it started; a day either side
    # covers any time zone.
    first = datetime.fromtimestamp(window.since_ms / 1000, UTC).date() - timedelta(days=1)
    last = datetime.fromtimestamp(window.until_ms / 1000, UTC).date() + timedelta(days=1)
    day = first
    while day <= last:
        yield sessions / f"{day.year:04d}" / f"{day.month:02d}" / f"{day.day:02d}"
        day += timedelta(days=1)


def _dated_files(sessions: Path, window: Window) -> Iterator[tuple[Path, os.stat_result]]:
    for folder in _day_folders(sessions, window):
        yield from _regular_files(folder, ".jsonl")
    for path, info in _regular_files(sessions, ".jsonl"):
        if info.st_mtime * 1000 >= window.since_ms:
            yield path, info


def _first_line(path: Path) -> bytes:
    # O_NONBLOCK: a file swapped for a FIFO after the stat check cannot block the open.
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    with os.fdopen(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return b""
        return handle.readline(_FIRST_LINE_CAP)


def _transcripts(
    home: Path, binding: Mapping[str, Any], window: Window, known: Mapping[str, Any],
    seen: dict[str, list[Any]],
) -> Iterator[Path]:  # fmt: skip
    roots, resolved = roots_of(binding["private"])
    for runtime in binding["history_sources"]:
        found = transcripts_of(runtime)
        if found is None:  # a runtime with no transcripts on disk we know of
            continue
        folder = transcript_folder(runtime, home)
        if found.layout == "cwd":  # a folder a working folder, named by the layout's rule
            names = [cwd_folder_name(r) for r in {*roots, *resolved}]
            for sub in _entries(folder):
                if any(sub.name == n or sub.name.startswith(n + "-") for n in names):
                    yield from (path for path, _ in _regular_files(Path(sub.path), ".jsonl"))
            continue
        for path, info in _dated_files(folder, window):  # by day; the cwd is the first line's
            key = str(path)
            entry = known.get(key)
            stamp = [info.st_size, info.st_mtime_ns]
            if isinstance(entry, list) and len(entry) == 3 and entry[:2] == stamp:
                cwd = entry[2]
            else:
                cwd = _first_line_cwd(path)
            seen[key] = [*stamp, cwd]
            if path_in_scope(cwd, roots, resolved):
                yield path


def _first_line_cwd(path: Path) -> str | None:
    try:
        first = json.loads(_first_line(path) or b"{}")
        cwd = first.get("payload", {}).get("cwd")
    except (OSError, ValueError, AttributeError):
        return None
    return cwd if isinstance(cwd, str) else None


def freshness(result: Mapping[str, Any], transcripts: Sequence[str], *, complete: bool) -> str:
    """fresh | stale | incomplete | unknown: whether the index covers the last change of
    every in-scope transcript, judged AFTER the query (so after the runtime's own refresh).

    The index records, per transcript, the file's mtime when it was last indexed. An answer
    is fresh only when every in-scope file on disk is no newer than that: a refresh the
    runtime skipped (its writer lease held elsewhere, the debounce window or the desktop
    app's heartbeat for a caller inside an agent session), a file its refresh could not
    parse, and a line written after the refresh all leave a file newer than its row.
    ``transcripts`` are the in-scope files whose index rows were asked for; ``complete`` is
    False when there were more than could be asked for (then "fresh" cannot be said).
    """
    markers = {
        m.get("jsonl_path"): m.get("mtime")
        for m in result.get("markers", [])
        if isinstance(m, Mapping)
    }
    if not isinstance(markers.get("__last_build__"), int | float):
        return "unknown"
    indexed = {
        f.get("jsonl_path"): f.get("mtime")
        for f in result.get("indexed_files", [])
        if isinstance(f, Mapping)
    }
    state = "fresh" if complete else "unknown"
    for path in transcripts:
        try:
            mtime_ms = os.stat(path).st_mtime_ns / 1_000_000
        except OSError:
            continue  # gone since the scan: nothing left for the index to cover
        seen = indexed.get(path)
        if path not in indexed:
            return "incomplete"
        if not isinstance(seen, int | float) or mtime_ms > seen + _MTIME_ROUNDING_MS:
            state = "stale"
    return state
