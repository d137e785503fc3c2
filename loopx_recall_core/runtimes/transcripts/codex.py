# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""One Codex session as ``~/.codex/sessions/YYYY/MM/DD/rollout-<start>-<id>.jsonl``.

Two shapes, one per supported Codex generation (``write_codex`` picks by the session's
index: even = older, odd = 0.169):

* Codex 0.169.0, as it wrote its rollouts in the real-runtime lane (source: the recorded
  ``codex-failed-and-ok.jsonl`` and ``codex-denied-then-retried.jsonl``, Codex 0.169.0
  from npm, in ``plugins/obelisk-session-evidence/tests/obelisk_double/recorded/``):
  every line ``{timestamp, ordinal, type, payload}`` (``response_item`` lines add
  ``metadata``); ``session_meta`` (``originator: "codex_exec"``, ``cli_version``,
  ``source: "exec"``, ...), ``event_msg task_started``, ``turn_context``, chat as a
  ``response_item message`` plus an ``event_msg item_completed`` (``UserMessage`` /
  ``AgentMessage``; no ``user_message``/``agent_message`` event), the shell tool
  ``exec_command`` with arguments ``{"cmd": "<script>", "login": false}``, an ``event_msg
  item_completed`` ``CommandExecution`` (``exit_code``, ``status``) before the
  ``function_call_output`` whose output opens ``Chunk ID .. Process exited with code N ..
  Output:``, ``event_msg token_count`` and ``task_complete``. Lines of the runtime's own
  prose (``world_state``, developer messages) and bookkeeping (``token_usage_record``,
  ``thread_settings_applied``) are not written. ``apply_patch`` was not recorded: it gets
  the recorded ``function_call`` envelope with the older ``{"input": <patch>}`` arguments.
* older Codex (before 0.169; the shape this corpus wrote before the lane existed, and the
  ``Exit code: N`` head of /work/shared/AGENT_RUNTIMES.md "Older Codex versions wrote
  `Exit code: N` first"): ``{timestamp, type, payload}`` lines, the ``shell`` tool with
  ``{"command": ["bash", "-lc", S], "workdir", "timeout_ms"}``, chat as ``response_item``
  + ``event_msg user_message/agent_message``.

Chat text in the 0.169 shape is not planted as a ``decision``: the index (the Obelisk
double's model of Obelisk 0.2.x, ``obelisk.mjs``) reads Codex chat from
``event_msg user_message/agent_message`` only, which 0.169 did not write.
"""

from __future__ import annotations

import json
import zlib
from datetime import UTC
from pathlib import Path

from loopx_recall_core.runtimes import SHELL_TOOLS, record, shell_command, transcript_folder
from loopx_recall_core.runtimes.transcripts.reading import (
    Call,
    Read,
    call_failed,
    json_lines,
    output_text,
)
from loopx_recall_core.runtimes.transcripts.session import Session, iso, new_uuid

__all__ = ["MODEL", "read_codex", "write_codex"]

#: The model the written sessions name.
MODEL = "gpt-5-codex"


class _Lines:
    """Appends one session's lines in Codex's rollout shape."""

    def __init__(self, s: Session) -> None:
        self.s, self.rng = s, s.rng
        self.cwd = str(s.plan.repo_root)

    def add(self, kind: str, payload: dict, **extra) -> dict:
        entry = {"timestamp": self.s.tick(), "type": kind, "payload": payload, **extra}
        self.s.lines.append(entry)
        return entry

    def opening(self, codex_id: str) -> None:
        """The session's meta line (at its start) and its first turn context."""
        rng, start = self.rng, iso(self.s.clock)
        meta = {
            "id": codex_id,
            "timestamp": start,
            "cwd": self.cwd,
            "originator": "codex_cli_rs",
            "cli_version": f"0.{rng.randint(40, 60)}.0",
            "instructions": None,
            "git": {"commit_hash": f"{rng.getrandbits(160):040x}", "branch": "main"},
        }
        self.s.lines.append({"timestamp": start, "type": "session_meta", "payload": meta})
        context = {"cwd": self.cwd, "approval_policy": "on-request", "model": MODEL,
                   "sandbox_policy": {"mode": "workspace-write"}}  # fmt: skip
        self.add("turn_context", context)

    def say(self, role: str, text: str, **extra) -> dict:
        # Codex writes each chat message twice (response_item + event_msg); both are realistic.
        kind = "input_text" if role == "user" else "output_text"
        message = {"type": "message", "role": role, "content": [{"type": kind, "text": text}]}
        self.add("response_item", message, **extra)
        event = "user_message" if role == "user" else "agent_message"
        return self.add("event_msg", {"type": event, "message": text}, **extra)

    def call(self, name: str, arguments: dict, output: str, is_error: bool) -> str:
        """A function call and its output; the output's timestamp."""
        call_id = f"call_{self.rng.getrandbits(96):024x}"
        arguments_text = json.dumps(arguments)
        function_call = {"type": "function_call", "name": name, "arguments": arguments_text,
                         "call_id": call_id}  # fmt: skip
        self.add("response_item", function_call)
        payload = {"type": "function_call_output", "call_id": call_id, "output": output}
        if is_error:
            payload["is_error"] = True
        return self.add("response_item", payload)["timestamp"]

    def shell(self, script: str) -> dict:
        return {"command": ["bash", "-lc", script], "workdir": self.cwd, "timeout_ms": 120000}


def exec_output(shell_name: str, code: int, wall: float, output: str) -> str:
    """A shell call's output as Codex stores it in the rollout's ``function_call_output``
    (the forms in :mod:`loopx_recall_core.runtimes.codex`): ``exec_command``, the tool of
    Codex 0.169.0, as that version writes it (``Chunk ID``, ``Wall time``, ``Process
    exited with code N``, ``Original token count``, ``Output:``); ``shell``, the older
    tool, in the older form (``Exit code: N`` first)."""
    if shell_name == "exec_command":
        return (
            f"Chunk ID: {zlib.crc32(output.encode()) & 0xFFFFFF:06x}\n"
            f"Wall time: {wall:.4f} seconds\n"
            f"Process exited with code {code}\nOriginal token count: {len(output) // 4}\n"
            f"Output:\n{output}"
        )
    return f"Exit code: {code}\nWall time: {wall:.1f} seconds\nOutput:\n{output}"


class _Lines169(_Lines):
    """Appends one session's lines in Codex 0.169.0's rollout shape (module docstring)."""

    def __init__(self, s: Session, thread: str) -> None:
        super().__init__(s)
        self.thread = thread
        self.turn = new_uuid(self.rng)
        self.sequence = 0

    def add(self, kind: str, payload: dict, **extra) -> dict:
        stamp = self.s.tick() if self.s.lines else iso(self.s.clock)
        entry = {"timestamp": stamp, "ordinal": len(self.s.lines), "type": kind,
                 "payload": payload, **extra}  # fmt: skip
        self.s.lines.append(entry)
        return entry

    def _item(self, kind: str, payload: dict, sampled: int, **more: object) -> dict:
        self.sequence += 1
        metadata = {"history_sequence": self.sequence, "sampled_through_sequence": sampled,
                    "client_authored": False, **more}  # fmt: skip
        payload = {**payload, "internal_chat_message_metadata_passthrough": {"turn_id": self.turn}}
        return self.add("response_item", payload, metadata=metadata)

    def _completed(self, item: dict) -> dict:
        at = int(self.s.clock.timestamp() * 1000)
        return self.add("event_msg", {"type": "item_completed", "thread_id": self.thread,
                                      "turn_id": self.turn, "item": item, "started_at_ms": at,
                                      "completed_at_ms": at})  # fmt: skip

    def opening(self, codex_id: str) -> None:
        start = iso(self.s.clock)
        meta = {
            "account_scoped": True, "session_id": codex_id, "id": codex_id, "timestamp": start,
            "cwd": self.cwd, "runtime_workspace_roots": [self.cwd], "originator": "codex_exec",
            "cli_version": "0.169.0", "source": "exec", "thread_source": "user",
            "model_provider": "openai",
            "base_instructions": {"text": "You are Codex.", "provenance": {"type": "model",
                                                                          "model": MODEL}},
            "history_mode": "paginated", "context_window": {"window_id": new_uuid(self.rng)},
        }  # fmt: skip
        self.add("session_meta", meta)
        started = int(self.s.clock.timestamp())
        self.add("event_msg", {
            "type": "task_started",
            "turn_attribution": {"turn_id": self.turn, "turn_trigger": "exec",
                                 "parent_turn_id": None, "initiating_agent_path": None,
                                 "root_turn_id": self.turn},
            "turn_id": self.turn, "root_turn_id": self.turn, "started_at": started,
            "model_context_window": 258400, "collaboration_mode_kind": "default"})  # fmt: skip
        self.add("turn_context", {
            "turn_id": self.turn, "root_turn_id": self.turn, "disabled_plugin_ids": [],
            "cwd": self.cwd, "approval_policy": "never", "approvals_reviewer": "user",
            "permission_profile": {"type": "disabled"}, "model": MODEL,
            "collaboration_mode": {"mode": "default", "settings": {
                "model": MODEL, "reasoning_effort": None, "developer_instructions": None}},
            "multi_agent_version": "v1", "realtime_active": False, "summary": "none",
            "sandbox_policy": {"type": "danger-full-access"}})  # fmt: skip

    def say(self, role: str, text: str, **extra) -> dict:
        message_id = f"msg_{new_uuid(self.rng)}"
        if role == "user":
            content = [{"type": "input_text", "text": text}]
            self._item("message", {"type": "message", "id": message_id, "role": "user",
                                   "content": content}, self.sequence)  # fmt: skip
            item = {"type": "UserMessage", "id": new_uuid(self.rng),
                    "content": [{"type": "text", "text": text, "text_elements": []}]}  # fmt: skip
            return self._completed(item)
        done = self._completed({"type": "AgentMessage", "id": message_id,
                                "content": [{"type": "Text", "text": text}]})  # fmt: skip
        content = [{"type": "output_text", "text": text, "annotations": []}]
        retained = {"id": {"message_id": message_id, "turn_id": self.turn, "role": "assistant"},
                    "revision": f"retained_{new_uuid(self.rng)}"}  # fmt: skip
        self._item("message", {"type": "message", "status": "completed", "id": message_id,
                               "role": "assistant", "content": content}, self.sequence,
                   user_input_order=1, retained_source=retained)  # fmt: skip
        return done

    def call(self, name: str, arguments: dict, output: str, is_error: bool, *,
             code: int | None = None, text: str = "") -> str:  # fmt: skip
        """A function call and its output (0.169 writes no ``is_error``); the output's
        timestamp. A shell call (``code`` given) gets its ``CommandExecution`` item."""
        call_id = f"call_{self.rng.getrandbits(96):024x}"
        self._item("function_call", {"type": "function_call", "status": "completed",
                                     "id": f"fc_{self.rng.getrandbits(96):024x}", "name": name,
                                     "arguments": json.dumps(arguments), "call_id": call_id},
                   self.sequence, user_input_order=1)  # fmt: skip
        if code is not None:
            script = arguments["cmd"]
            self._completed({
                "type": "CommandExecution", "id": call_id,
                "process_id": str(self.rng.randint(1000, 99999)),
                "command": ["/bin/bash", "-c", script], "cwd": f"file://{self.cwd}",
                "parsed_cmd": [{"type": "unknown", "cmd": script}],
                "source": "unified_exec_startup",
                "status": "failed" if code else "completed", "aggregated_output": text,
                "exit_code": code,
                "duration": {"secs": 0, "nanos": self.rng.randint(1000, 999999)}})  # fmt: skip
        return self._item("function_call_output", {
            "type": "function_call_output", "id": f"fco_{new_uuid(self.rng)}",
            "call_id": call_id, "output": output}, self.sequence,
            fallback_token_limit_override=3000)["timestamp"]  # fmt: skip

    def shell(self, script: str) -> dict:
        return {"cmd": script, "login": False}

    def closing(self) -> None:
        usage = {"input_tokens": self.rng.randint(1000, 9000), "cached_input_tokens": 0,
                 "cache_write_input_tokens": 0, "output_tokens": 5,
                 "reasoning_output_tokens": 0, "total_tokens": 0}  # fmt: skip
        self.add("event_msg", {"type": "token_count", "info": {
            "total_token_usage": usage, "last_token_usage": usage,
            "last_usage_includes_reasoning": False, "model_context_window": 258400},
            "rate_limits": None})  # fmt: skip
        self.add("event_msg", {
            "type": "task_complete", "root_turn_id": self.turn, "turn_id": self.turn,
            "last_agent_message": None, "started_at": 0, "completed_at": 0,
            "duration_ms": 0, "time_to_first_token_ms": 0})  # fmt: skip


def _failure_and_decisions(w: _Lines, c: dict, shell_name: str) -> None:
    s, rng, index = w.s, w.rng, w.s.plan.index
    failure = exec_output(shell_name, c["code"], rng.uniform(0.2, 9), c["failure_output"])
    # the flag only in half the older-form sessions: 0.169's exec_command output carries
    # its status in the text alone, which is what the index must read
    if isinstance(w, _Lines169):
        ts = w.call(shell_name, w.shell(c["command"]), failure, False, code=c["code"],
                    text=c["failure_output"])  # fmt: skip
    else:
        ts = w.call(shell_name, w.shell(c["command"]), failure, index % 4 == 2)
    s.plant("prior_failure", failure, ts, command=c["command"])
    if isinstance(w, _Lines169):  # chat the index does not read (module docstring)
        w.say("assistant", c["decision"])
        return
    usage = {"total_token_usage": {"input_tokens": rng.randint(1000, 9000)}}
    w.add("event_msg", {"type": "token_count", "info": usage})
    ts = w.say("assistant", c["decision"])["timestamp"]
    s.plant("decision", c["decision"], ts)
    if index == 1:
        ts = w.say("assistant", c["hidden"], visibility="hidden")["timestamp"]
        s.plant("decision", c["hidden"], ts, visible=False)


def write_codex(s: Session, home: Path) -> Path:
    plan, rng = s.plan, s.rng
    codex_id = s.session_id.removeprefix(record("codex").index_prefix)  # the thread id
    c = s.content()
    shell_name = "shell" if plan.index % 2 == 0 else "exec_command"
    w = _Lines(s) if shell_name == "shell" else _Lines169(s, codex_id)
    w.opening(codex_id)
    w.say("user", c["prompt"])
    w.say("assistant", "Let me reproduce the failure first.")
    _failure_and_decisions(w, c, shell_name)
    patch = (
        f"*** Begin Patch\n*** Update File: {c['rel_file']}\n@@\n-def parse(text):\n"
        f"+def parse(text, *, strict=True):\n*** End Patch\n"
    )
    patch_result = f"Success. Updated the following files:\nM {c['rel_file']}\n"
    ts = w.call("apply_patch", {"input": patch}, patch_result, False)
    s.plant("file_history", patch_result, ts, file_path=c["rel_file"])
    ok = exec_output(shell_name, 0, rng.uniform(0.1, 3), f"{c['ok_output']}\n")
    if isinstance(w, _Lines169):
        ts = w.call(shell_name, w.shell(c["ok_command"]), ok, False, code=0,
                    text=f"{c['ok_output']}\n")  # fmt: skip
    else:
        ts = w.call(shell_name, w.shell(c["ok_command"]), ok, False)
    s.plant("tool_outcome", ok, ts, command=c["ok_command"])
    w.say("assistant", "The check passes now.")
    # Codex writes a `compacted` line when it compacts the context; the Obelisk index does
    # not hold it, so it is written but not planted (nothing should find it as a summary).
    if isinstance(w, _Lines169):
        w.closing()
    else:
        w.add("compacted", {"message": c["summary"]})
    day = plan.start.astimezone(UTC)
    name = f"rollout-{day:%Y-%m-%dT%H-%M-%S}-{codex_id}.jsonl"
    return transcript_folder("codex", home) / f"{day:%Y}" / f"{day:%m}" / f"{day:%d}" / name


def _command(arguments: object) -> str | None:
    try:
        data = json.loads(arguments) if isinstance(arguments, str) else arguments
    except ValueError:
        return None
    return shell_command(data)


def read_codex(text: str) -> Read:
    """A Codex rollout's shell calls: ``function_call`` items of a shell tool
    (``["bash", "-lc", S]`` is ``S``, any other argv ``shlex.join``) and their
    ``function_call_output`` (failed when ``is_error`` or the output carries a non-zero
    status); the folder is ``session_meta.payload.cwd``."""
    cwd: str | None = None
    pending: dict[str, tuple[str, str]] = {}
    calls: list[Call] = []
    stamps: list[str] = []
    for line in json_lines(text):
        if isinstance(line.get("timestamp"), str):
            stamps.append(line["timestamp"])
        payload = line.get("payload") if isinstance(line.get("payload"), dict) else {}
        if line.get("type") == "session_meta":
            cwd = cwd or payload.get("cwd")
        if line.get("type") != "response_item":
            continue
        kind = payload.get("type")
        if kind == "function_call" and str(payload.get("name")).lower() in SHELL_TOOLS:
            command = _command(payload.get("arguments"))
            if command is not None:
                pending[str(payload.get("call_id"))] = (command, str(line.get("timestamp", "")))
        elif kind == "function_call_output" and payload.get("call_id") in pending:
            command, stamp = pending.pop(payload["call_id"])
            failed = call_failed(output_text(payload.get("output")), payload.get("is_error"))
            calls.append((command, failed, stamp))
    return cwd, calls, stamps
