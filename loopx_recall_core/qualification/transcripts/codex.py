# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""One Codex session as ``~/.codex/sessions/YYYY/MM/DD/rollout-<start>-<id>.jsonl``."""

from __future__ import annotations

import json
from datetime import UTC
from pathlib import Path

from loopx_recall_core.qualification.transcripts.session import CODEX_MODEL, Session, iso

__all__ = ["write_codex"]


def write_codex(s: Session, home: Path, codex_id: str) -> Path:
    plan, rng = s.plan, s.rng
    cwd = str(plan.repo_root)
    c = s.content()
    flag_errors = plan.index % 2 == 1
    shell_name = "shell" if plan.index % 2 == 0 else "exec_command"

    def add(kind: str, payload: dict, **extra) -> dict:
        entry = {"timestamp": s.tick(), "type": kind, "payload": payload, **extra}
        s.lines.append(entry)
        return entry

    start = iso(s.clock)
    s.lines.append(
        {
            "timestamp": start,
            "type": "session_meta",
            "payload": {
                "id": codex_id,
                "timestamp": start,
                "cwd": cwd,
                "originator": "codex_cli_rs",
                "cli_version": f"0.{rng.randint(40, 60)}.0",
                "instructions": None,
                "git": {"commit_hash": f"{rng.getrandbits(160):040x}", "branch": "main"},
            },
        }
    )
    add(
        "turn_context",
        {
            "cwd": cwd,
            "approval_policy": "on-request",
            "model": CODEX_MODEL,
            "sandbox_policy": {"mode": "workspace-write"},
        },
    )

    def say(role: str, text: str, **extra) -> dict:
        # Codex writes each chat message twice (response_item + event_msg); both are realistic.
        add(
            "response_item",
            {
                "type": "message",
                "role": role,
                "content": [
                    {"type": "input_text" if role == "user" else "output_text", "text": text}
                ],
            },
            **extra,
        )
        return add(
            "event_msg",
            {"type": "user_message" if role == "user" else "agent_message", "message": text},
            **extra,
        )

    def call(name: str, arguments: dict, output: str, is_error: bool) -> str:
        call_id = f"call_{rng.getrandbits(96):024x}"
        add(
            "response_item",
            {
                "type": "function_call",
                "name": name,
                "arguments": json.dumps(arguments),
                "call_id": call_id,
            },
        )
        payload = {"type": "function_call_output", "call_id": call_id, "output": output}
        if is_error:
            payload["is_error"] = True
        return add("response_item", payload)["timestamp"]

    def shell(script: str) -> dict:
        return {"command": ["bash", "-lc", script], "workdir": cwd, "timeout_ms": 120000}

    say("user", c["prompt"])
    say("assistant", "Let me reproduce the failure first.")
    wall = f"Wall time: {rng.uniform(0.2, 9):.1f} seconds"
    failure = f"Exit code: {c['code']}\n{wall}\nOutput:\n{c['failure_output']}"
    ts = call(shell_name, shell(c["command"]), failure, flag_errors)
    s.plant("prior_failure", failure, ts, command=c["command"])
    add(
        "event_msg",
        {
            "type": "token_count",
            "info": {"total_token_usage": {"input_tokens": rng.randint(1000, 9000)}},
        },
    )

    ts = say("assistant", c["decision"])["timestamp"]
    s.plant("decision", c["decision"], ts)
    if plan.index == 1:
        ts = say("assistant", c["hidden"], visibility="hidden")["timestamp"]
        s.plant("decision", c["hidden"], ts, visible=False)

    patch = (
        f"*** Begin Patch\n*** Update File: {c['rel_file']}\n@@\n-def parse(text):\n"
        f"+def parse(text, *, strict=True):\n*** End Patch\n"
    )
    patch_result = f"Success. Updated the following files:\nM {c['rel_file']}\n"
    ts = call("apply_patch", {"input": patch}, patch_result, False)
    s.plant("file_history", patch_result, ts, file_path=c["rel_file"])

    ok = f"Exit code: 0\nWall time: {rng.uniform(0.1, 3):.1f} seconds\nOutput:\n{c['ok_output']}\n"
    ts = call(shell_name, shell(c["ok_command"]), ok, False)
    s.plant("tool_outcome", ok, ts, command=c["ok_command"])
    say("assistant", "The check passes now.")

    # Codex writes a `compacted` line when it compacts the context; the Obelisk index does
    # not hold it, so it is written but not planted (nothing should find it as a summary).
    add("compacted", {"message": c["summary"]})

    day = plan.start.astimezone(UTC)
    name = f"rollout-{day:%Y-%m-%dT%H-%M-%S}-{codex_id}.jsonl"
    return home / ".codex" / "sessions" / f"{day:%Y}" / f"{day:%m}" / f"{day:%d}" / name

