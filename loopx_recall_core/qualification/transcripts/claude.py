# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""One Claude Code session as ``~/.claude/projects/<cwd as a folder name>/<id>.jsonl``."""

from __future__ import annotations

from pathlib import Path

from loopx_recall_core.qualification.transcripts.session import (
    CLAUDE_MODEL,
    Session,
    new_uuid,
)
from loopx_recall_core.transcript_rules import claude_project_folder

__all__ = ["write_claude"]


class _Lines:
    """Appends one session's lines in Claude Code's shape, each the child of the last."""

    def __init__(self, s: Session) -> None:
        rng = s.rng
        self.s, self.rng = s, rng
        self.cwd = str(s.plan.repo_root)
        self.branch = rng.choice(("main", "fix/parser", "feature/cache"))
        self.version = f"2.0.{rng.randint(1, 30)}"
        self.parent: str | None = None

    def _common(self, cwd: str) -> dict:
        return {
            "parentUuid": self.parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": cwd,
            "sessionId": self.s.session_id,
            "version": self.version,
            "gitBranch": self.branch,
        }

    def line(
        self, kind: str, message: dict, *, extra: dict | None = None, at_cwd: str = ""
    ) -> dict:
        entry = {
            **self._common(at_cwd or self.cwd),
            "type": kind,
            "message": message,
            "uuid": new_uuid(self.rng),
            "timestamp": self.s.tick(),
        }
        entry.update(extra or {})
        self.parent = entry["uuid"]
        self.s.lines.append(entry)
        return entry

    def assistant(self, content: list[dict], **extra) -> dict:
        rng = self.rng
        return self.line(
            "assistant",
            {
                "id": f"msg_{rng.getrandbits(96):024x}",
                "type": "message",
                "role": "assistant",
                "model": CLAUDE_MODEL,
                "content": content,
                "stop_reason": "tool_use" if content[-1]["type"] == "tool_use" else "end_turn",
                "usage": {
                    "input_tokens": rng.randint(200, 9000),
                    "output_tokens": rng.randint(20, 900),
                },
            },
            **extra,
        )

    def tool(self, name: str, tool_input: dict, result: str, is_error: bool, **extra) -> str:
        """A tool call and its result; the result's timestamp."""
        call_id = f"toolu_{self.rng.getrandbits(96):024x}"
        use = {"type": "tool_use", "id": call_id, "name": name, "input": tool_input}
        self.assistant([use], **extra)
        answer = {"tool_use_id": call_id, "type": "tool_result", "content": result,
                  "is_error": is_error}  # fmt: skip
        return self.line("user", {"role": "user", "content": [answer]})["timestamp"]

    def away_summary(self, text: str) -> str:
        """The recap Claude Code writes when the user comes back: a system `away_summary`
        line, the only kind of summary the Obelisk index holds (id = uuid, its own
        timestamp); its timestamp."""
        away = {
            **self._common(self.cwd),
            "type": "system",
            "subtype": "away_summary",
            "content": text,
            "isMeta": False,
            "uuid": new_uuid(self.rng),
            "timestamp": self.s.tick(),
        }
        self.s.lines.append(away)
        return away["timestamp"]


def _failure_and_decisions(w: _Lines, c: dict) -> None:
    s, index = w.s, w.s.plan.index
    failure = f"Exit code {c['code']}\n{c['failure_output']}"
    ts = w.tool(
        "Bash", {"command": c["command"], "description": "Reproduce the failure"}, failure, True
    )
    s.plant("prior_failure", failure, ts, command=c["command"])
    ts = w.assistant([{"type": "text", "text": c["decision"]}])["timestamp"]
    s.plant("decision", c["decision"], ts)
    if index == 1:
        hidden = [{"type": "text", "text": c["hidden"]}]
        ts = w.assistant(hidden, extra={"isVisibleInTranscriptOnly": True})["timestamp"]
        s.plant("decision", c["hidden"], ts, visible=False)
    if index == 2:
        inactive = [{"type": "text", "text": c["inactive"]}]
        ts = w.assistant(inactive, extra={"visibility": "inactive"})["timestamp"]
        s.plant("decision", c["inactive"], ts, visible=False)


def _file_change(w: _Lines, c: dict) -> None:
    abs_file = str(w.s.plan.repo_root / c["rel_file"])
    read = f"     1\t# {c['rel_file']}\n     2\tdef parse(text):\n"
    w.tool("Read", {"file_path": abs_file}, read, False)
    if w.rng.random() < 0.5:
        edit_input = {
            "file_path": abs_file,
            "old_string": "def parse(text):",
            "new_string": "def parse(text, *, strict=True):",
        }
        name = "Edit"
    else:
        edit_input = {
            "file_path": abs_file,
            "content": f"# {c['rel_file']}\ndef parse(text, *, strict=True):\n    ...\n",
        }
        name = "Write"
    edit_result = f"The file {abs_file} has been updated successfully."
    ts = w.tool(name, edit_input, edit_result, False)
    w.s.plant("file_history", edit_result, ts, file_path=abs_file)


def write_claude(s: Session, home: Path) -> Path:
    w = _Lines(s)
    c = s.content()
    caveat = ("Caveat: The messages below were generated by the user while running local "
              "commands. DO NOT respond to these messages.")  # fmt: skip
    w.line("user", {"role": "user", "content": caveat}, extra={"isMeta": True})
    w.line("user", {"role": "user", "content": c["prompt"]})
    w.assistant([{"type": "text", "text": "Let me reproduce the failure first."}])
    _failure_and_decisions(w, c)
    _file_change(w, c)
    verify = {"command": c["ok_command"], "description": "Verify"}
    ts = w.tool("Bash", verify, c["ok_output"], False)
    s.plant("tool_outcome", c["ok_output"], ts, command=c["ok_command"])
    # One message from a subdirectory: messages.cwd varies, project_path must not.
    w.line("user", {"role": "user", "content": "ls"}, at_cwd=str(s.plan.repo_root / "src"))
    w.assistant([{"type": "text", "text": "The check passes now."}])
    s.plant("summary", c["summary"], w.away_summary(c["summary"]))
    return home / ".claude" / "projects" / claude_project_folder(w.cwd) / f"{s.session_id}.jsonl"
