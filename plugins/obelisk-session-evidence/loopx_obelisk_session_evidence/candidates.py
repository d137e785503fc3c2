# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The sessions a binding covers, found on disk (``session_candidates``).

The transcripts are the ones a recall's freshness check finds (bound runtimes, bound roots,
the window), so what the index has not seen yet counts too. Each file is read only from
its start, and only far enough to name its session, as the runtime's record says
(``transcripts_of``: ``session_from``): by the file's name (Claude), or by the first line's
``session_meta`` payload (a Codex thread; a fork or sub-agent thread is its own session, as
the runtime's hooks name it); the first user prompt's first words are kept for the owner's
terminal.

When a session was last active is read from its file's date when that lies in the window
(what the index has not seen yet counts too), and otherwise from the index: a file copied
or restored with its old date (``cp -p``, ``rsync -t``, a backup) may still hold recent
messages, and the index holds them with their times. Such files are looked up in one call
of the query template (``list_sessions``: each in-scope session's last message time), never
by reading the file's end, whose last record may be longer than any bounded read.
"""

from __future__ import annotations

import json
import os
import stat
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import attrs

from loopx_obelisk_session_evidence.evidence import in_scope_transcripts
from loopx_obelisk_session_evidence.scope import (
    PRIVATE_MARKER,
    Window,
    holds_marker,
)
from loopx_recall_core.plugin_api import (
    ProviderFailure,
    SessionCandidate,
    index_session_name,
    transcript_runtime,
    transcripts_of,
)

__all__ = ["session_candidates"]

#: How much of a transcript's start is read to name its session and first prompt.
_HEAD_BYTES = 256 * 1024
_HEAD_LINES = 400
_FIRST_WORDS = 8
_FIRST_CHARS = 80


#: ``indexed(deadline)``: {(runtime, session id): its last message time in the window, epoch
#: ms} as the index holds it (the provider's one template call); may raise ProviderFailure.
Indexed = Callable[[float], Mapping[tuple[str, str], int]]


def session_candidates(
    binding: Mapping[str, Any],
    window: Window,
    *,
    timeout: float,
    indexed: Indexed,
    cache: Any = None,
) -> list[SessionCandidate]:
    """The sessions of ``binding``'s transcripts active inside ``window``, newest first."""
    deadline = time.monotonic() + timeout
    home = Path(os.environ.get("HOME", "~")).expanduser()
    found: dict[tuple[str, str], SessionCandidate] = {}
    aged: list[SessionCandidate] = []  # file dated before the window: the index says
    for path in in_scope_transcripts(binding, deadline, window, cache):
        if time.monotonic() > deadline:
            raise ProviderFailure("provider_timeout")
        runtime = transcript_runtime(path, home)
        named = _candidate(path, runtime) if runtime is not None else None
        if named is None:
            continue
        candidate, file_ms = named
        if file_ms >= window.since_ms:
            found.setdefault((candidate.runtime, candidate.session_id), candidate)
        else:
            aged.append(candidate)
    if aged:
        times = indexed(deadline)
        for candidate in aged:
            last_ms = times.get((candidate.runtime, candidate.session_id))
            if last_ms is not None and last_ms >= window.since_ms:
                found.setdefault(
                    (candidate.runtime, candidate.session_id),
                    attrs.evolve(candidate, last_activity=_instant(last_ms)),
                )
    return sorted(found.values(), key=lambda c: c.last_activity or "", reverse=True)


def _instant(millis: float) -> str:
    return datetime.fromtimestamp(millis / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _candidate(path: str, runtime: str) -> tuple[SessionCandidate, float] | None:
    """The session ``path`` holds, last active at its file's date (epoch ms, returned too)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError:
        return None
    with os.fdopen(descriptor, "rb") as handle:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            return None
        head = handle.read(_HEAD_BYTES)
        private = PRIVATE_MARKER.encode() in head or holds_marker(handle)  # anywhere (issue 29)
    lines = []
    for raw in head.splitlines()[:_HEAD_LINES]:
        try:
            line = json.loads(raw)
        except ValueError:
            continue
        if isinstance(line, dict):
            lines.append(line)
    found = transcripts_of(runtime)
    if found is None:
        return None
    session_id, started, prompt = _READERS[found.session_from](path, lines, runtime)
    if not session_id:
        return None
    candidate = SessionCandidate(
        runtime=runtime,
        session_id=session_id[:256],
        started_at=started if isinstance(started, str) else None,
        last_activity=_instant(info.st_mtime * 1000),
        # A session its user marked private shows no words of its prompt.
        first_words=None if private else _first_words(prompt),
    )
    return candidate, info.st_mtime * 1000


def _by_file_name(path: str, lines: list[dict[str, Any]], _runtime: str) -> tuple[str, Any, Any]:
    """A session named by its file (Claude Code's lines: ``timestamp``, ``type: "user"``
    with ``message.content``)."""
    started = next((line["timestamp"] for line in lines if "timestamp" in line), None)
    prompt = None
    for line in lines:
        message = line.get("message")
        if line.get("type") != "user" or line.get("isMeta") or not isinstance(message, dict):
            continue
        content = message.get("content")
        if isinstance(content, str):
            prompt = content
        elif isinstance(content, list):
            texts = [b.get("text") for b in content if isinstance(b, dict)]
            prompt = next((t for t in texts if isinstance(t, str)), None)
        if prompt:
            break
    return Path(path).name.removesuffix(".jsonl"), started, prompt


def _by_first_line(_path: str, lines: list[dict[str, Any]], runtime: str) -> tuple[str, Any, Any]:
    """A session named by its first line's ``session_meta`` payload (Codex's rollout: the
    thread id, the prompt an ``event_msg`` ``user_message``)."""
    meta = next((line for line in lines if line.get("type") == "session_meta"), {})
    payload = meta.get("payload") if isinstance(meta.get("payload"), dict) else {}
    thread = payload.get("id")
    prefix = index_session_name(runtime, "")  # an id written in the index's form
    session_id = str(thread).removeprefix(prefix) if isinstance(thread, str) else ""
    prompt = None
    for line in lines:
        event = line.get("payload")
        if (
            line.get("type") == "event_msg"
            and isinstance(event, dict)
            and event.get("type") == "user_message"
            and isinstance(event.get("message"), str)
        ):
            prompt = event["message"]
            break
    return session_id, payload.get("timestamp") or meta.get("timestamp"), prompt


_READERS = {"file-name": _by_file_name, "first-line": _by_first_line}


def _first_words(prompt: object) -> str | None:
    if not isinstance(prompt, str) or not prompt.strip():
        return None
    words = " ".join(prompt.split()[:_FIRST_WORDS])
    return words[:_FIRST_CHARS]
