# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The sessions a binding covers, found on disk (``session_candidates``).

The transcripts are the ones a recall's freshness check finds (bound runtimes, bound roots,
the window), so what the index has not seen yet counts too. Each file is read only from
its start, and only far enough to name its session: Claude's session id is the file's name,
a Codex thread's id is its ``session_meta`` payload's (a fork or sub-agent thread is its own
session, as the runtime's hooks name it); the first user prompt's first words are kept for
the owner's terminal.
"""

from __future__ import annotations

import json
import os
import stat
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from loopx_obelisk_session_evidence.evidence import in_scope_transcripts
from loopx_obelisk_session_evidence.scope import (
    PRIVATE_MARKER,
    Window,
    holds_marker,
    instant_ms,
)
from loopx_recall_core.plugin_api import ProviderFailure, SessionCandidate, under

__all__ = ["session_candidates"]

#: How much of a transcript's start is read to name its session and first prompt.
_HEAD_BYTES = 256 * 1024
_HEAD_LINES = 400
_FIRST_WORDS = 8
_FIRST_CHARS = 80


def session_candidates(
    binding: Mapping[str, Any], window: Window, *, timeout: float, cache: Any = None
) -> list[SessionCandidate]:
    """The sessions of ``binding``'s transcripts active inside ``window``, newest first."""
    deadline = time.monotonic() + timeout
    claude = str(Path(os.environ.get("HOME", "~")).expanduser() / ".claude" / "projects")
    found: dict[tuple[str, str], SessionCandidate] = {}
    for path in in_scope_transcripts(binding, deadline, window, cache):
        if time.monotonic() > deadline:
            raise ProviderFailure("provider_timeout")
        candidate = _candidate(path, "claude" if under(path, [claude]) else "codex", window)
        if candidate is not None:
            found.setdefault((candidate.runtime, candidate.session_id), candidate)
    return sorted(found.values(), key=lambda c: c.last_activity or "", reverse=True)


def _candidate(path: str, runtime: str, window: Window) -> SessionCandidate | None:
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
        # the messages' times, not the file's date, say when a session was active: a file
        # copied or restored with its old date (cp -p, rsync -t, a backup) still holds
        # recent messages, which the index holds and answers from
        last_ms = info.st_mtime * 1000
        if last_ms < window.since_ms:
            last_ms = max(_message_times(handle, info.st_size), default=None) or 0
            if last_ms < window.since_ms:
                return None
    lines = []
    for raw in head.splitlines()[:_HEAD_LINES]:
        try:
            line = json.loads(raw)
        except ValueError:
            continue
        if isinstance(line, dict):
            lines.append(line)
    session_id, started, prompt = (_claude if runtime == "claude" else _codex)(path, lines)
    if not session_id:
        return None
    last = datetime.fromtimestamp(last_ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return SessionCandidate(
        runtime=runtime,
        session_id=session_id[:256],
        started_at=started if isinstance(started, str) else None,
        last_activity=last,
        # A session its user marked private shows no words of its prompt.
        first_words=None if private else _first_words(prompt),
    )


def _message_times(handle: Any, size: int) -> list[int]:
    """The ``timestamp`` of each record in the file's last ``_HEAD_BYTES`` (both runtimes
    stamp every line: Claude Code's records and Codex's rollout lines carry an RFC 3339
    ``timestamp``), as epoch milliseconds."""
    handle.seek(max(0, size - _HEAD_BYTES))
    times = []
    for raw in handle.read(_HEAD_BYTES).splitlines()[-_HEAD_LINES:]:
        try:
            line = json.loads(raw)
        except ValueError:
            continue
        millis = instant_ms(line.get("timestamp")) if isinstance(line, dict) else None
        if millis is not None:
            times.append(millis)
    return times


def _claude(path: str, lines: list[dict[str, Any]]) -> tuple[str, Any, Any]:
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


def _codex(_path: str, lines: list[dict[str, Any]]) -> tuple[str, Any, Any]:
    meta = next((line for line in lines if line.get("type") == "session_meta"), {})
    payload = meta.get("payload") if isinstance(meta.get("payload"), dict) else {}
    thread = payload.get("id")
    session_id = str(thread).removeprefix("codex:") if isinstance(thread, str) else ""
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


def _first_words(prompt: object) -> str | None:
    if not isinstance(prompt, str) or not prompt.strip():
        return None
    words = " ".join(prompt.split()[:_FIRST_WORDS])
    return words[:_FIRST_CHARS]
