# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Arm (c)'s reader: raw Claude Code and Codex transcripts, read directly.

This is the cost ceiling of RFC section 10 ("full native history"), never a product path:
no index, no provider, no limits. It lists every transcript under a home folder and
extracts shell tool calls with their outcome, so arm (c) can count the characters a model
would have to read and look for the proposed route among earlier failures.

Where each runtime's files lie is its record's (:func:`loopx_recall_core.runtimes.transcript_glob`).

* Claude Code: ``tool_use`` blocks of a shell tool
  (``input.command``) and their ``tool_result`` (failed when ``is_error`` is true or the
  output opens with ``Exit code N``, N != 0); the session's folder is its first ``cwd``.
* Codex: ``function_call`` items of a shell tool
  (``["bash", "-lc", S]`` is ``S``, any other argv ``shlex.join``) and their
  ``function_call_output`` (failed when ``is_error`` or ``Exit code: N``, N != 0); the
  folder is ``session_meta.payload.cwd``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from loopx_recall_core.runtimes import transcript_glob, transcripts_of
from loopx_recall_core.snippet_rules import SHELL_TOOLS, shell_command
from loopx_recall_core.transcript_rules import exit_code

__all__ = ["NativeCall", "NativeTranscript", "read_transcripts"]


@attrs.frozen(kw_only=True)
class NativeCall:
    command: str
    failed: bool
    timestamp: str


@attrs.frozen(kw_only=True)
class NativeTranscript:
    runtime: str
    chars: int
    cwd: str | None
    last_timestamp: str
    calls: tuple[NativeCall, ...]


def _lines(text: str) -> Iterator[dict[str, Any]]:
    for raw in text.splitlines():
        try:
            value = json.loads(raw)
        except ValueError:
            continue
        if isinstance(value, dict):
            yield value


def _failed(output: str, is_error: object) -> bool:
    code = exit_code(output)
    return is_error is True or (code is not None and code != 0)


def _text(content: object) -> str:
    if isinstance(content, list):
        return "\n".join(str(block.get("text", "")) for block in content if isinstance(block, dict))
    return str(content or "")


def _claude(text: str) -> tuple[str | None, list[NativeCall], list[str]]:
    cwd: str | None = None
    pending: dict[str, tuple[str, str]] = {}
    calls: list[NativeCall] = []
    stamps: list[str] = []
    for line in _lines(text):
        if isinstance(line.get("timestamp"), str):
            stamps.append(line["timestamp"])
        cwd = cwd or line.get("cwd")
        content = (line.get("message") or {}).get("content")
        for block in content if isinstance(content, list) else ():
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use" and str(block.get("name")).lower() in SHELL_TOOLS:
                command = (block.get("input") or {}).get("command")
                if isinstance(command, str):
                    pending[str(block.get("id"))] = (command, str(line.get("timestamp", "")))
            elif block.get("type") == "tool_result" and block.get("tool_use_id") in pending:
                command, stamp = pending.pop(block["tool_use_id"])
                failed = _failed(_text(block.get("content")), block.get("is_error"))
                calls.append(NativeCall(command=command, failed=failed, timestamp=stamp))
    return cwd, calls, stamps


def _codex_command(arguments: object) -> str | None:
    try:
        data = json.loads(arguments) if isinstance(arguments, str) else arguments
    except ValueError:
        return None
    return shell_command(data)


def _codex(text: str) -> tuple[str | None, list[NativeCall], list[str]]:
    cwd: str | None = None
    pending: dict[str, tuple[str, str]] = {}
    calls: list[NativeCall] = []
    stamps: list[str] = []
    for line in _lines(text):
        if isinstance(line.get("timestamp"), str):
            stamps.append(line["timestamp"])
        payload = line.get("payload") if isinstance(line.get("payload"), dict) else {}
        if line.get("type") == "session_meta":
            cwd = cwd or payload.get("cwd")
        if line.get("type") != "response_item":
            continue
        kind = payload.get("type")
        if kind == "function_call" and str(payload.get("name")).lower() in SHELL_TOOLS:
            command = _codex_command(payload.get("arguments"))
            if command is not None:
                pending[str(payload.get("call_id"))] = (command, str(line.get("timestamp", "")))
        elif kind == "function_call_output" and payload.get("call_id") in pending:
            command, stamp = pending.pop(payload["call_id"])
            failed = _failed(_text(payload.get("output")), payload.get("is_error"))
            calls.append(NativeCall(command=command, failed=failed, timestamp=stamp))
    return cwd, calls, stamps


#: The transcript formats this reader knows, by runtime (where the files lie: the records).
_PARSERS = {"claude": _claude, "codex": _codex}


def read_transcripts(home: Path, sources: Sequence[str]) -> list[NativeTranscript]:
    """Every Claude Code / Codex transcript of ``sources`` under ``home``, read whole."""
    found: list[NativeTranscript] = []
    for runtime in sources:
        if runtime not in _PARSERS or transcripts_of(runtime) is None:
            continue
        parse = _PARSERS[runtime]
        for path in sorted(home.glob(transcript_glob(runtime))):
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            cwd, calls, stamps = parse(text)
            found.append(
                NativeTranscript(
                    runtime=runtime,
                    chars=len(text),
                    cwd=cwd,
                    last_timestamp=max(stamps, default=""),
                    calls=tuple(calls),
                )
            )
    return found
