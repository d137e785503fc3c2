# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Prior-outcome sets written as the prefetch writes them, and the installed guard run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from loopx_recall_core.guard import store
from loopx_recall_core.guard.decide import index_items, with_successors

LOOPX = str(Path(sys.executable).parent / "loopx-recall")
ROOT = "/home/dev/src/alpha"
#: An enablement's binding as the provider records it: the guard answers only in ROOT.
BINDING = {"private": {"repository_roots": [ROOT], "resolved_roots": [ROOT]}}


def item(evidence_type: str, snippet: str, *, at: str, session: str = "s1", ref: str = "m1"):
    return {"ref": f"{session}#{ref}", "session": session, "type": evidence_type, "at": at,
            "snippet": snippet}  # fmt: skip


def header(items: list[dict[str, Any]], *, session: str = "S-current", **extra: Any):
    return {
        "schema_version": store.SET_VERSION,
        "agent_id": "agent-a",
        "project_id": "proj-j",
        "runtime": "claude",
        "session_id": session,
        "as_of": time.time(),  # made after the state it was made from (store.outdated)
        "created_at": time.time(),
        "ttl_s": store.DEFAULT_TTL_S,
        "status": "succeeded",
        "reason": None,
        "freshness": "fresh",
        "truncated": False,
        "receipt_digest": "sha256:" + "0" * 64,
        "repository_root": ROOT,
        "count": len(items),
        "index": index_items(items, ROOT),
        **extra,
    }


def set_lines(items: list[dict[str, Any]], **extra: Any) -> tuple[dict[str, Any], list[bytes]]:
    items = with_successors(items, ROOT)  # as the prefetch writes them
    head = header(items, **extra)
    lines = [json.dumps(head).encode()] + [json.dumps(i).encode() for i in items]
    return head, lines


def write(root: Path, items: list[dict[str, Any]], **extra: Any) -> Path:
    items = with_successors(items, ROOT)  # as the prefetch writes them
    return store.write_set(root, header(items, **extra), items)


def pre_tool_use(command: str, session: str = "S-current", **extra: Any) -> dict[str, Any]:
    """Claude Code's documented PreToolUse payload (code.claude.com/docs/en/hooks)."""
    return {
        "session_id": session,
        "transcript_path": f"/home/dev/.claude/projects/x/{session}.jsonl",
        "cwd": ROOT,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "run", "timeout": 120000},
        "tool_use_id": "toolu_01ABC",
        **extra,
    }


def codex_pre_tool_use(command: str, session: str = "S-current") -> dict[str, Any]:
    """Codex's PreToolUse input (openai/codex pre-tool-use.command.input.schema.json)."""
    return {
        "session_id": session,
        "transcript_path": None,
        "cwd": ROOT,
        "hook_event_name": "PreToolUse",
        "model": "gpt-5-codex",
        "permission_mode": "default",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "call_1",
    }


def post_tool_use(command: str, call: str, session: str = "S-current") -> dict[str, Any]:
    """Claude Code's documented PostToolUse payload: the PreToolUse fields plus
    ``tool_response`` (code.claude.com/docs/en/hooks)."""
    return {
        **pre_tool_use(command, session=session, tool_use_id=call),
        "hook_event_name": "PostToolUse",
        "tool_response": {"stdout": "", "stderr": "E   AssertionError: 500", "interrupted": False,
                          "isImage": False},
    }  # fmt: skip


def codex_post_tool_use(command: str, call: str, session: str = "S-current") -> dict[str, Any]:
    """Codex's PostToolUse input (openai/codex post-tool-use.command.input.schema.json)."""
    return {
        **codex_pre_tool_use(command, session=session),
        "hook_event_name": "PostToolUse",
        "tool_use_id": call,
        "tool_response": "exit code 1",
        "turn_id": "turn-1",
    }


def run_guard(home: Path, runtime: str, payload: Any, *args: str) -> subprocess.CompletedProcess:
    raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home.parent),
        "LOOPX_RECALL_HOME": str(home),
        "LOOPX_RECALL_LOAD_PLUGINS": "",
    }
    # a loaded test machine can take longer than the default 300 ms to start Python
    ids = ("--agent-id", "agent-a", "--project-id", "proj-j", "--deadline-ms", "30000")
    return subprocess.run([LOOPX, "guard", runtime, *(args or ids)], input=raw, env=env,
                          capture_output=True, timeout=60, check=False)  # fmt: skip
