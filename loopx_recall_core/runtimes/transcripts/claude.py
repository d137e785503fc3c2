# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""One Claude Code session as ``~/.claude/projects/<cwd as a folder name>/<id>.jsonl``.

Two shapes (``write_claude`` picks by the session's index: odd = 2.1.328, even = older):

* Claude Code 2.1.328, as it wrote its transcripts in the real-runtime lane (source: the
  recorded ``claude-failed-and-ok.jsonl`` and ``claude-denied-then-retried.jsonl``,
  Claude Code 2.1.328 from npm, in
  ``plugins/obelisk-session-evidence/tests/obelisk_double/recorded/``): ``queue-operation``
  ``enqueue``/``dequeue`` lines first; user and assistant lines carry ``entrypoint`` (and
  the prompt ``promptId``, ``permissionMode``, ``promptSource``, ``turnOrigin``,
  ``turnPosition``); the assistant ``message`` has ``stop_sequence`` and
  ``stop_details``; a ``Bash`` ``tool_result`` line adds ``toolUseResult`` (a failure:
  the text ``"Error: Exit code N\n..."``; a success: ``{stdout, stderr, interrupted,
  isImage, noOutputExpected}``), ``sandboxed``, ``sourceToolAssistantUUID`` and
  ``permissionDecision``, the block ``is_error`` and content ``Exit code N\n...`` on a
  failure; ``last-prompt`` closes the turn. Lines of the runtime's own prose
  (``attachment``, ``api-request*``) and bookkeeping (``atis-latch``, ``tools-used``,
  ``cost-state``) are not written; other tools than ``Bash`` (not recorded) get the same
  envelope without ``toolUseResult``.
* older Claude Code 2.0.x (the shape this corpus wrote before the lane existed, from the
  public format: ``parentUuid``, ``isSidechain``, ``userType``, ``cwd``, ``sessionId``,
  ``version``, ``gitBranch``, ``type``, ``message``, ``uuid``, ``timestamp``).
"""

from __future__ import annotations

from pathlib import Path

from loopx_recall_core.runtimes import SHELL_TOOLS, cwd_folder_name, transcript_folder
from loopx_recall_core.runtimes.transcripts.reading import (
    Call,
    Read,
    call_failed,
    json_lines,
    output_text,
)
from loopx_recall_core.runtimes.transcripts.session import Session, new_uuid

__all__ = ["MODEL", "read_claude", "write_claude"]

#: The model the written sessions name.
MODEL = "claude-sonnet-4-5-20250929"


class _Lines:
    """Appends one session's lines in Claude Code's shape, each the child of the last."""

    def __init__(self, s: Session) -> None:
        rng = s.rng
        self.s, self.rng = s, rng
        self.cwd = str(s.plan.repo_root)
        self.branch = rng.choice(("main", "fix/parser", "feature/cache"))
        self.recorded = s.plan.index % 2 == 1  # the 2.1.328 shape (module docstring)
        self.version = "2.1.328" if self.recorded else f"2.0.{rng.randint(1, 30)}"
        self.parent: str | None = None
        self.prompt_id = new_uuid(rng)

    def _common(self, cwd: str) -> dict:
        common = {
            "parentUuid": self.parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": cwd,
            "sessionId": self.s.session_id,
            "version": self.version,
            "gitBranch": self.branch,
        }
        if self.recorded:
            common["entrypoint"] = "sdk-cli"
        return common

    def queue(self, prompt: str) -> None:
        """2.1.328: the prompt's ``queue-operation`` lines before it."""
        for operation in ("enqueue", "dequeue"):
            entry = {"type": "queue-operation", "operation": operation,
                     "timestamp": self.s.tick(), "sessionId": self.s.session_id}  # fmt: skip
            if operation == "enqueue":
                entry["content"] = prompt
            self.s.lines.append(entry)

    def last_prompt(self, prompt: str) -> None:
        self.s.lines.append({"type": "last-prompt", "lastPrompt": prompt,
                             "leafUuid": self.parent, "sessionId": self.s.session_id})  # fmt: skip

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
        message = {
            "id": f"msg_{rng.getrandbits(96):024x}",
            "type": "message",
            "role": "assistant",
            "model": MODEL,
            "content": content,
            "stop_reason": "tool_use" if content[-1]["type"] == "tool_use" else "end_turn",
            "usage": {
                "input_tokens": rng.randint(200, 9000),
                "output_tokens": rng.randint(20, 900),
            },
        }
        if self.recorded:
            message = {**message, "stop_sequence": None, "stop_details": None}
            given = extra.pop("extra", None) or {}
            more = {"apiBlockIndex": 0, "requestRef": new_uuid(rng),
                    "requestedModel": MODEL, "promptCacheRequested": "5m",
                    "effort": "medium", "perTurnEffort": "medium", "madeBy": "model"}  # fmt: skip
            if content[-1]["type"] == "tool_use":
                more["toolInputStreamMs"] = rng.randint(1, 9)
            extra = {"extra": {**more, **given}}
        return self.line("assistant", message, **extra)

    def tool(self, name: str, tool_input: dict, result: str, is_error: bool, **extra) -> str:
        """A tool call and its result; the result's timestamp."""
        call_id = f"toolu_{self.rng.getrandbits(96):024x}"
        use = {"type": "tool_use", "id": call_id, "name": name, "input": tool_input}
        asked = self.assistant([use], **extra)
        answer = {"tool_use_id": call_id, "type": "tool_result", "content": result,
                  "is_error": is_error}  # fmt: skip
        more: dict = {}
        if self.recorded:
            more = {"promptId": self.prompt_id}
            if name == "Bash":
                more["toolUseResult"] = (
                    f"Error: {result}" if is_error
                    else {"stdout": result, "stderr": "", "interrupted": False,
                          "isImage": False, "noOutputExpected": False}
                )  # fmt: skip
            more.update({"sandboxed": False, "sourceToolAssistantUUID": asked["uuid"],
                         "permissionDecision": {"decision": "accept", "source": "config",
                                                "reasonType": "mode"}})  # fmt: skip
        return self.line("user", {"role": "user", "content": [answer]}, extra=more)["timestamp"]

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
    if w.recorded:
        w.queue(c["prompt"])
        w.line("user", {"role": "user", "content": c["prompt"]}, extra={
            "promptId": w.prompt_id, "permissionMode": "bypassPermissions",
            "promptSource": "sdk", "turnOrigin": "sdk",
            "turnPosition": {"promptIndex": 0, "turnIndex": 1}})  # fmt: skip
    else:
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
    if w.recorded:
        w.last_prompt(c["prompt"])
    s.plant("summary", c["summary"], w.away_summary(c["summary"]))
    return transcript_folder("claude", home) / cwd_folder_name(w.cwd) / f"{s.session_id}.jsonl"


def read_claude(text: str) -> Read:
    """A Claude Code transcript's shell calls: ``tool_use`` blocks of a shell tool
    (``input.command``) and their ``tool_result`` (failed when ``is_error`` is true or the
    output opens with ``Exit code N``, N != 0); the session's folder is its first ``cwd``."""
    cwd: str | None = None
    pending: dict[str, tuple[str, str]] = {}
    calls: list[Call] = []
    stamps: list[str] = []
    for line in json_lines(text):
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
                failed = call_failed(output_text(block.get("content")), block.get("is_error"))
                calls.append((command, failed, stamp))
    return cwd, calls, stamps
