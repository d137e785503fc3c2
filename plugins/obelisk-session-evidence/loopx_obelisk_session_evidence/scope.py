# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""What one binding puts in scope: sessions, paths and instants, each by ONE rule.

The query template applies the same rules in SQL (``templates/session_evidence.v8.js``)
so that nothing out of scope is selected; :func:`row_problem` applies them again to every
row that comes back, because the host trusts no provider output. Text is never compared
as text where it means something else:

* a path is in scope only when it is absolute and normalized (no ``.``/``..`` segment,
  no ``//``, no trailing ``/``), under a bound root at a separator boundary, and, resolved
  on disk (symlinks followed), still under a bound root as given or as resolved at enable
  time;
* an instant is in scope only when it is an RFC 3339 date-time (``T`` and ``Z`` upper
  case, any fraction, ``Z`` or a ``+HH:MM`` offset) inside ``[now - window, now + 5 min]``;
* a session is named by the index (``codex:<thread id>``) or by its runtime
  (the Codex thread id, Claude's ``sessionId``): exclusion accepts both;
* with claimed agent sessions (``binding["agent_sessions"] == "claimed"``), a session is
  in scope only when it is one of ``binding["claimed_sessions"]`` (runtime-native ids the
  host read from its session ledger), named as the index names it;
* a turn belongs to the thread that made it (:func:`turn_owner`): the index stores a
  forked or sub-agent Codex thread under its PARENT's session id with its own thread
  (``codex:<thread id>``) as ``agent_id``, so such a turn is claimed, excluded and
  reported as its own thread, never as the parent's session;
* a working directory the user excluded (``capability enable --exclude-path GLOB``) is
  out of scope: :func:`path_excluded` is the SQL ``GLOB`` of the template, pattern by
  pattern (the pattern itself, or a folder under what it matches);
* a session in which the user wrote :data:`PRIVATE_MARKER` is out of scope as a whole:
  the template leaves out every turn of such a session (by :func:`turn_owner`); a row that
  comes back holding the marker anywhere is dropped here with its session's other rows
  (:func:`marked_owners`).
"""

from __future__ import annotations

import os
import posixpath
import re
import shlex
from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import attrs

from loopx_recall_core.plugin_api import (
    HISTORY_SOURCES,
    PRIVATE_MARKER,
    epoch_ms,
    file_holds_marker,
    holds_marker,
    index_session_name,
    transcript_folder,
    transcripts_of,
    under,
    window_start_ms,
)

__all__ = [
    "FUTURE_SKEW",
    "PRIVATE_MARKER",
    "Window",
    "claimed_index_ids",
    "exclude_globs",
    "glob_escape",
    "holds_marker",
    "in_folder",
    "instant_ms",
    "marked_owners",
    "path_excluded",
    "path_in_scope",
    "resolved_roots",
    "roots_of",
    "row_problem",
    "session_aliases",
    "turn_owner",
]

#: How far past now an instant may be (clock skew between the runtime and this host).
FUTURE_SKEW = timedelta(minutes=5)
#: SQLite computes epoch milliseconds through a floating-point Julian day; a row the SQL
#: selected at a window edge must not be rejected here for a rounding difference.
_EDGE_MS = 1

_INSTANT = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})"
    r"(?:\.([0-9]+))?(Z|[+-][0-2][0-9]:[0-5][0-9])\Z"
)


def _index_prefix(source: str) -> str:
    """How the index prefixes a runtime's own session id: the host's runtime records say
    (Claude's ``sessionId`` unchanged, ``codex:<session_meta.payload.id>``; see
    tests/obelisk_double/README.md); a runtime without a record, ``<source>:``."""
    return index_session_name(source, "") if source in HISTORY_SOURCES else f"{source}:"


def instant_ms(text: object) -> int | None:
    """Epoch milliseconds of an RFC 3339 date-time, or None for anything else."""
    if not isinstance(text, str):
        return None
    match = _INSTANT.match(text)
    if match is None:
        return None
    year, month, day, hour, minute, second = (int(g) for g in match.groups()[:6])
    fraction, zone = match[7] or "", match[8]
    offset = timedelta(0)
    if zone != "Z":
        sign = 1 if zone[0] == "+" else -1
        offset = sign * timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6]))
        if offset >= timedelta(days=1):
            return None
    try:
        moment = datetime(year, month, day, hour, minute, second, tzinfo=UTC) - offset
    except ValueError:
        return None
    millis = int(fraction[:3].ljust(3, "0")) + (1 if fraction[3:4] >= "5" else 0)
    return int(moment.timestamp()) * 1000 + millis


@attrs.frozen
class Window:
    """``[now - days, now + FUTURE_SKEW]`` in epoch milliseconds; the start is the host's
    ``window_start_ms`` (the same instant the host's Stage 0 bench starts a window at)."""

    since_ms: int
    until_ms: int

    @classmethod
    def last_days(cls, days: int, now: datetime | None = None) -> Window:
        now = now or datetime.now(UTC)
        return cls(window_start_ms(days, now), epoch_ms(now + FUTURE_SKEW))

    def contains(self, text: object) -> bool:
        millis = instant_ms(text)
        return millis is not None and (
            self.since_ms - _EDGE_MS <= millis <= self.until_ms + _EDGE_MS
        )


def _normalized_absolute(path: str) -> bool:
    return path.startswith("/") and "//" not in path and posixpath.normpath(path) == path


def in_folder(command: str, folder: str | None, roots: Sequence[str]) -> str:
    """``command`` as run from the repository root: ``cd <folder> && <command>`` when it
    ran in a folder below one of ``roots``; unchanged at a root, outside them, or when
    the folder is not known."""
    if not folder or not command:
        return command
    folder = os.path.normpath(folder)
    for root in sorted(roots, key=len, reverse=True):
        root = os.path.normpath(root)
        if folder.startswith(root + os.sep):
            return f"cd {shlex.quote(os.path.relpath(folder, root))} && {command}"
        if folder == root:
            return command
    return command


def resolved_roots(roots: Sequence[str]) -> list[str]:
    """The bound roots with symlinks resolved (stored at enable time beside the given ones)."""
    return sorted({os.path.realpath(root) for root in roots})


def path_in_scope(path: object, roots: Sequence[str], resolved: Sequence[str] = ()) -> bool:
    """True when ``path`` is a normalized absolute path under a root, also once resolved."""
    if not isinstance(path, str) or not _normalized_absolute(path):
        return False
    allowed = [*roots, *resolved]
    if not under(path, allowed):
        return False
    try:
        real = os.path.realpath(path)
    except (OSError, ValueError):  # NUL byte, symlink loop on some platforms
        return False
    return under(real, allowed)


def session_aliases(session_ids: Iterable[str], sources: Iterable[str]) -> list[str]:
    """Every name the index may use for these sessions (runtime ids and index ids alike)."""
    names: set[str] = set()
    prefixes = {_index_prefix(source) for source in sources}
    for session_id in session_ids:
        names.add(session_id)
        for prefix in prefixes - {""}:
            names.add(prefix + session_id)
            if session_id.startswith(prefix):
                names.add(session_id.removeprefix(prefix))
    return sorted(names)


def claimed_index_ids(binding: Mapping[str, Any]) -> list[str] | None:
    """The index ids of the sessions claimed for this agent, or None when the runtime is
    the identity. Claimed mode with no usable list is an empty list: nothing in scope."""
    if binding.get("agent_sessions") != "claimed":
        return None
    claims = binding.get("claimed_sessions")
    if not isinstance(claims, list):
        return []
    sources = set(binding["history_sources"])
    ids = set()
    for claim in claims:
        if not isinstance(claim, Mapping):
            continue
        runtime, session = claim.get("runtime"), claim.get("session_id")
        if runtime in sources and isinstance(session, str) and session:
            ids.add(_index_prefix(runtime) + session)
    return sorted(ids)


def row_problem(
    row: object,
    binding: Mapping[str, Any],
    window: Window,
    excluded: Sequence[str],
    claimed: Collection[str] | None = None,
) -> str | None:
    """None for a row inside the binding, else ``malformed_output`` or ``scope_violation``.

    Every piece of an item (the message, the tool call, the tool result) carries its own
    session id; all must be the row's session, so content joined from another session
    can never ride along with an in-scope one. With claimed agent sessions only a claimed
    session is in scope (``claimed``: :func:`claimed_index_ids`, computed from the binding
    when not given).
    """
    if not isinstance(row, Mapping):
        return "malformed_output"
    session = row.get("session_id")
    if not isinstance(session, str) or not session:
        return "malformed_output"
    for piece in ("message_session_id", "call_session_id", "result_session_id"):
        if piece in row and row[piece] is not None and row[piece] != session:
            return "scope_violation"
    if row.get("output") is not None and row.get("result_session_id") != session:
        return "scope_violation"
    private = binding["private"]
    path = row["cwd"] if row.get("cwd") is not None else row.get("project_path")
    agent = row.get("agent_id")
    if agent is not None and (not isinstance(agent, str) or agent in excluded):
        return "scope_violation"  # a current sub-agent's turns inside its parent's session
    in_scope = (
        row.get("source") in binding["history_sources"]
        and path_in_scope(path, *roots_of(private))
        and not path_excluded(path, private.get("exclude_paths") or ())
        and window.contains(row.get("timestamp"))
        and session not in excluded
    )
    if in_scope and binding.get("agent_sessions") == "claimed":
        allowed = claimed if claimed is not None else claimed_index_ids(binding)
        in_scope = turn_owner(row) in (allowed or ())
    return None if in_scope else "scope_violation"


def turn_owner(row: Mapping[str, Any]) -> str:
    """The session a row's turn belongs to: its own thread (``agent_id``) when the index
    stored it under a parent's session and the runtime's files name each thread (a fork or
    sub-agent is a session of its own: Codex, its record's ``transcripts``), else the row's."""
    agent, files = row.get("agent_id"), transcripts_of(str(row.get("source")))
    by_thread = files is not None and files.session_from == "first-line"
    if by_thread and isinstance(agent, str) and agent:
        return agent
    return str(row["session_id"])


def roots_of(private: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """A binding's roots as given and as resolved at enable time (resolved now for an
    enablement made before roots were resolved at enable time)."""
    given = list(private["repository_roots"])
    stored = private.get("resolved_roots")
    return given, list(stored) if stored is not None else resolved_roots(given)


_GLOB_SPECIAL = re.compile(r"[\[*?]")
_GLOB_TOKEN = re.compile(r"\[(.)\]|(\*)|(\?)|([^[*?]+)", re.DOTALL)


def glob_escape(text: str) -> str:
    """``text`` as a literal SQLite GLOB pattern: ``[``, ``*`` and ``?`` each in brackets."""
    return _GLOB_SPECIAL.sub(lambda m: f"[{m[0]}]", text)


def exclude_globs(relative: Sequence[str], roots: Iterable[str]) -> list[str]:
    """The absolute GLOB patterns of validated relative ones: each joined to every root,
    the root part escaped (a root may hold ``[``, ``*`` or ``?`` literally)."""
    return sorted({f"{glob_escape(root.rstrip('/'))}/{rel}" for root in roots for rel in relative})


def _glob_regex(pattern: str) -> re.Pattern[str] | None:
    """SQLite GLOB as a regular expression, for the patterns :func:`exclude_globs` makes
    (``*``, ``?`` and one-character brackets); None for anything else (fail closed)."""
    parts = []
    position = 0
    while position < len(pattern):
        token = _GLOB_TOKEN.match(pattern, position)
        if token is None:
            return None
        literal, star, one, plain = token.groups()
        if star:
            parts.append(".*")
        elif one:
            parts.append(".")
        else:
            parts.append(re.escape(literal if literal is not None else plain))
        position = token.end()
    return re.compile("".join(parts) + r"\Z", re.DOTALL)


def path_excluded(path: object, patterns: Iterable[str]) -> bool:
    """True when ``path`` matches an exclusion or lies under a folder one matches: the
    template's ``path GLOB p OR path GLOB p || '/*'``. A pattern this cannot read
    excludes everything (fail closed)."""
    if not isinstance(path, str):
        return True
    for pattern in patterns:
        regex = _glob_regex(pattern) if isinstance(pattern, str) else None
        if regex is None:
            return True
        if regex.match(path) or (_glob_regex(pattern + "/*") or regex).match(path):
            return True
    return False


def marked_owners(
    rows: Iterable[Mapping[str, Any]], transcripts: Iterable[str] = ()
) -> set[str]:
    """The sessions (:func:`turn_owner`) of rows holding :data:`PRIVATE_MARKER` in any
    field, or whose transcript on disk holds it anywhere: a row carries its output only up
    to the snippet cap, an index need not keep a whole tool result (the double keeps
    10,000 characters: ``TOOL_RESULT_MAX`` in tests/obelisk_double/obelisk.mjs), and an
    index that has not refreshed yet (the real Obelisk refreshes at most every 30 s:
    obelisk_double/README.md, fact 15) has not taken in a marker written just now. The
    file is one of ``transcripts`` (the in-scope scan), named by its session's id, or for
    a Claude session the index has from another project folder (a session started outside
    the repository whose messages ran inside it) its file in any folder of its runtime's
    layout by working folder (Claude names a transcript by its session id: the runtime
    record's ``transcripts``)."""
    rows = list(rows)
    marked = {
        turn_owner(row)
        for row in rows
        if any(isinstance(value, str) and PRIVATE_MARKER in value for value in row.values())
    }
    files = [path for path in transcripts if isinstance(path, str)]
    elsewhere: dict[str, list[str]] | None = None
    ids_of: dict[str, set[str]] = {}
    for row in rows:  # a forked Codex thread's rows carry its parent's session too
        owner = turn_owner(row)
        ids_of.setdefault(owner, set()).update(
            str(session).rsplit(":", 1)[-1] for session in (owner, row.get("session_id"))
        )
    for owner in sorted(set(ids_of) - marked):
        ids = ids_of[owner]
        named = [path for path in files if any(i and i in os.path.basename(path) for i in ids)]
        if not named and ":" not in owner:  # a Claude session whose file the scan missed
            if elsewhere is None:
                wanted = {turn_owner(row) for row in rows if ":" not in turn_owner(row)}
                elsewhere = _named_files(wanted, {os.path.basename(p) for p in files})
            named = elsewhere.get(owner, [])
        if any(file_holds_marker(path) for path in named):
            marked.add(owner)
    return marked


def _named_files(sessions: set[str], scanned: set[str]) -> dict[str, list[str]]:
    """The files of ``sessions`` in the folders of a layout by working folder that names a
    file by its session (Claude's; one listing a folder; a name the scan had is skipped)."""
    home = Path(os.path.expanduser(os.environ.get("HOME") or "~"))
    found: dict[str, list[str]] = {}
    for runtime in HISTORY_SOURCES:
        layout = transcripts_of(runtime)
        if layout is None or layout.layout != "cwd" or layout.session_from != "file-name":
            continue
        names = {layout.name.replace("{id}", s): s for s in sessions if s and "/" not in s
                 and not s.startswith(".")}  # fmt: skip
        try:
            with os.scandir(transcript_folder(runtime, home)) as entries:
                folders = [e.path for e in entries if e.is_dir(follow_symlinks=False)]
        except OSError:
            continue
        for folder in folders:
            try:
                with os.scandir(folder) as entries:
                    for entry in entries:
                        if entry.name in names and entry.name not in scanned:
                            found.setdefault(names[entry.name], []).append(entry.path)
            except OSError:
                continue
    return found
