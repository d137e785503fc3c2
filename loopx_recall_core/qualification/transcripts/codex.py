# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""One Codex session as ``~/.codex/sessions/YYYY/MM/DD/rollout-<start>-<id>.jsonl``."""

from __future__ import annotations

import json
import zlib
from datetime import UTC
from pathlib import Path

from loopx_recall_core.qualification.transcripts.session import CODEX_MODEL, Session, iso

__all__ = ["write_codex"]


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
        context = {"cwd": self.cwd, "approval_policy": "on-request", "model": CODEX_MODEL,
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


def _failure_and_decisions(w: _Lines, c: dict, shell_name: str) -> None:
    s, rng, index = w.s, w.rng, w.s.plan.index
    failure = exec_output(shell_name, c["code"], rng.uniform(0.2, 9), c["failure_output"])
    # the flag only in half the older-form sessions: 0.169's exec_command output carries
    # its status in the text alone, which is what the index must read
    ts = w.call(shell_name, w.shell(c["command"]), failure, index % 4 == 2)
    s.plant("prior_failure", failure, ts, command=c["command"])
    usage = {"total_token_usage": {"input_tokens": rng.randint(1000, 9000)}}
    w.add("event_msg", {"type": "token_count", "info": usage})
    ts = w.say("assistant", c["decision"])["timestamp"]
    s.plant("decision", c["decision"], ts)
    if index == 1:
        ts = w.say("assistant", c["hidden"], visibility="hidden")["timestamp"]
        s.plant("decision", c["hidden"], ts, visible=False)


def write_codex(s: Session, home: Path, codex_id: str) -> Path:
    plan, rng = s.plan, s.rng
    c = s.content()
    shell_name = "shell" if plan.index % 2 == 0 else "exec_command"
    w = _Lines(s)
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
    ts = w.call(shell_name, w.shell(c["ok_command"]), ok, False)
    s.plant("tool_outcome", ok, ts, command=c["ok_command"])
    w.say("assistant", "The check passes now.")
    # Codex writes a `compacted` line when it compacts the context; the Obelisk index does
    # not hold it, so it is written but not planted (nothing should find it as a summary).
    w.add("compacted", {"message": c["summary"]})
    day = plan.start.astimezone(UTC)
    name = f"rollout-{day:%Y-%m-%dT%H-%M-%S}-{codex_id}.jsonl"
    return home / ".codex" / "sessions" / f"{day:%Y}" / f"{day:%m}" / f"{day:%d}" / name
