# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A scripted model server for the real-runtime lane (docs/real-runtime-lane.md): stdlib
only, on 127.0.0.1, speaking just what Claude Code and Codex call. Each turn it answers
with a call of the runtime's shell tool running the next scripted command, and once the
script is used up with a final text. It records every request it receives so a test can
assert on what reached the model.

A test double is a model: the facts it relies on, with their sources.

Claude Code (``@anthropic-ai/claude-code`` 2.1.328, observed in this lane):

* C1. With ``ANTHROPIC_BASE_URL=http://127.0.0.1:PORT`` it calls only
  ``POST /v1/messages?beta=true`` with ``"stream": true`` in the JSON body (observed; also
  /work/shared/AGENT_RUNTIMES.md). The main conversation's request carries ``tools`` with
  one named ``Bash`` (observed).
* C2. The answer is server-sent events of the Messages API: ``message_start`` (a ``message``
  with ``id``, ``type: "message"``, ``role: "assistant"``, ``model``, empty ``content``,
  ``stop_reason: null``, ``usage``), per content block ``content_block_start`` (a ``text``
  block with ``text: ""`` or a ``tool_use`` block with ``id``, ``name``, ``input: {}``),
  ``content_block_delta`` (``text_delta`` / ``input_json_delta`` with ``partial_json``),
  ``content_block_stop``, then ``message_delta`` (``stop_reason`` ``tool_use`` or
  ``end_turn``, ``usage.output_tokens``) and ``message_stop``; each as ``event: <type>`` and
  ``data: <json whose type repeats it>``. Source: docs.anthropic.com "Streaming Messages"
  (https://docs.anthropic.com/en/api/messages-streaming) and a stream recorded from the real
  API in the npm package ``@ai-sdk/anthropic`` 3.0.21
  (``src/__fixtures__/anthropic-json-tool.1.chunks.txt``).
* C3. Its ``Bash`` tool takes ``{"command": str, "description": str}`` (observed in the
  request's tool schema; AGENT_RUNTIMES.md). A result comes back in the next request as a
  user ``tool_result`` block with the call's ``tool_use_id``; a failure or a hook's deny
  has ``is_error: true`` (observed).

Codex (``@openai/codex`` 0.169.0, observed in this lane):

* X1. With a model provider ``base_url = "http://127.0.0.1:PORT/v1"``,
  ``wire_api = "responses"`` it calls ``POST /v1/responses`` with ``"stream": true``; the
  request's ``input`` is the conversation as Responses API items (``message``,
  ``function_call``, ``function_call_output``) and ``tools`` holds ``exec_command``
  (observed).
* X2. It reads the SSE ``data`` JSON's ``type``: ``response.created`` (needs a ``response``
  object), ``response.output_item.done`` (an ``item`` parsed as a response item),
  ``response.output_text.delta`` and ``response.completed`` (a ``response`` with ``id``;
  ``usage`` optional); unknown types are ignored and a stream that ends without
  ``response.completed`` is an error. Source: openai/codex
  ``codex-rs/codex-api/src/sse/responses.rs`` (``process_sse``) @ 0a7fb0d7.
* X3. A function call item is ``{"type": "function_call", "name", "arguments": <JSON
  text>, "call_id"}``; an assistant text is ``{"type": "message", "role": "assistant",
  "content": [{"type": "output_text", "text"}]}`` (the same file's tests, and the OpenAI
  Responses API reference for ``response.output_item.done``).
* X4. The session's id is in each request: Claude Code's ``metadata.user_id`` is a JSON
  text with ``session_id``; Codex's ``client_metadata.session_id`` is the thread id
  (observed). The scripted server hands it to the test's gate before its first answer.
* X5. ``exec_command`` takes ``{"cmd": str, "login": bool}``; ``login: false`` keeps the
  caller's PATH (a login shell re-reads /etc/profile) (AGENT_RUNTIMES.md, observed).
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FINAL_TEXT = "All scripted steps are done."


class ScriptedModel:
    """``with ScriptedModel() as model``: a server on 127.0.0.1 (``model.port``).

    ``model.script(commands, gate)`` sets what the next session runs (one shell call per
    entry, in order, then a final text) and empties the record; ``gate(session_id)``, when
    given, is called before the session's first answer and may wait for an event (a model
    takes its time to answer too; what it raises lands in ``model.errors``).
    ``model.requests`` is every model request since: dicts
    with ``path`` and ``body`` (the parsed JSON, or None); ``model.proxied`` every request
    that came to it as a proxy (CONNECT or an absolute URL): traffic that would have left
    the machine."""

    def __init__(self) -> None:
        self.commands: list[str] = []
        self.gate: Callable[[str], None] | None = None
        self.requests: list[dict] = []
        self.proxied: list[str] = []
        self.errors: list[str] = []  # a gate that failed (raised in the server's thread)
        self.lock = threading.Lock()
        self.gate_lock = threading.Lock()
        model = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:  # quiet
                pass

            def do_CONNECT(self) -> None:
                self._refuse()

            def _refuse(self) -> None:
                with model.lock:
                    model.proxied.append(f"{self.command} {self.path}")
                self.close_connection = True
                self._send(403, "text/plain", b"the real-runtime lane allows loopback only")

            def do_GET(self) -> None:
                if not self.path.startswith("/"):
                    self._refuse()
                    return
                model._record(self.path, None)
                self._send(404, "application/json", b'{"error": "not scripted"}')

            def do_POST(self) -> None:
                size = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(size)
                if not self.path.startswith("/"):
                    self._refuse()
                    return
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = None
                model._record(self.path, body)
                route = self.path.split("?", 1)[0]
                if route == "/v1/messages" and isinstance(body, dict):
                    model._pass_gate(_claude_session(body))
                    events = model._claude(body)
                elif route == "/v1/responses" and isinstance(body, dict):
                    model._pass_gate(str((body.get("client_metadata") or {}).get("session_id")))
                    events = model._codex(body)
                else:
                    self._send(404, "application/json", b'{"error": "not scripted"}')
                    return
                data = "".join(
                    f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events
                ).encode()
                self._send(200, "text/event-stream", data)

            def _send(self, status: int, kind: str, data: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> ScriptedModel:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()

    def script(self, commands: list[str], gate: Callable[[str], None] | None = None) -> None:
        with self.lock:
            self.commands = list(commands)
            self.gate = gate
            self.requests = []

    def _pass_gate(self, session: str) -> None:
        with self.gate_lock:  # one caller waits; the others wait for it
            gate, self.gate = self.gate, None
            if gate is not None:
                try:
                    gate(session)
                except Exception as exc:  # noqa: BLE001 - the test reads model.errors
                    self.errors.append(f"gate for {session}: {exc!r}")

    def _record(self, path: str, body: object) -> None:
        with self.lock:
            self.requests.append({"path": path, "body": body})

    def _next_command(self, done: int, has_shell: bool) -> str | None:
        with self.lock:
            if has_shell and done < len(self.commands):
                return self.commands[done]
        return None

    # Claude Code: the Messages API (C1-C3)
    def _claude(self, body: dict) -> list[dict]:
        messages = body.get("messages") or []
        done = sum(
            1
            for message in messages
            if message.get("role") == "assistant" and isinstance(message.get("content"), list)
            for block in message["content"]
            if block.get("type") == "tool_use"
        )
        has_bash = any(tool.get("name") == "Bash" for tool in body.get("tools") or [])
        command = self._next_command(done, has_bash)
        turn = uuid.uuid4().hex[:12]  # tool ids are unique across sessions, as the real ones
        start = {
            "type": "message_start",
            "message": {
                "id": f"msg_lane_{turn}", "type": "message", "role": "assistant",
                "model": body.get("model", "claude-lane"), "content": [],
                "stop_reason": None, "stop_sequence": None,
                "usage": {"input_tokens": 10, "output_tokens": 1},
            },
        }  # fmt: skip
        if command is not None:
            arguments = json.dumps({"command": command, "description": "Run the step"})
            block = {"type": "tool_use", "id": f"toolu_lane_{turn}", "name": "Bash",
                     "input": {}}  # fmt: skip
            delta = {"type": "input_json_delta", "partial_json": arguments}
            stop = "tool_use"
        else:
            block = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": FINAL_TEXT}
            stop = "end_turn"
        return [
            start,
            {"type": "content_block_start", "index": 0, "content_block": block},
            {"type": "content_block_delta", "index": 0, "delta": delta},
            {"type": "content_block_stop", "index": 0},
            {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
             "usage": {"output_tokens": 5}},
            {"type": "message_stop"},
        ]  # fmt: skip

    # Codex: the Responses API (X1-X4)
    def _codex(self, body: dict) -> list[dict]:
        items = body.get("input") or []
        done = sum(1 for item in items if isinstance(item, dict)
                   and item.get("type") == "function_call")  # fmt: skip
        has_exec = any(tool.get("name") == "exec_command" for tool in body.get("tools") or [])
        command = self._next_command(done, has_exec)
        turn = uuid.uuid4().hex[:12]
        rid = f"resp_lane_{turn}"
        if command is not None:
            item = {"type": "function_call", "id": f"fc_lane_{turn}", "status": "completed",
                    "name": "exec_command", "call_id": f"call_lane_{turn}",
                    "arguments": json.dumps({"cmd": command, "login": False})}  # fmt: skip
            middle = []
        else:
            text = {"type": "output_text", "text": FINAL_TEXT, "annotations": []}
            item = {"type": "message", "id": f"msg_lane_{turn}", "role": "assistant",
                    "status": "completed", "content": [text]}  # fmt: skip
            middle = [{"type": "response.output_text.delta", "delta": FINAL_TEXT,
                       "item_id": item["id"], "output_index": 0, "content_index": 0}]  # fmt: skip
        usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
                 "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0},
                 "total_tokens": 15}  # fmt: skip
        done_response = {"id": rid, "object": "response", "status": "completed",
                         "output": [item], "usage": usage}  # fmt: skip
        return [
            {"type": "response.created",
             "response": {"id": rid, "object": "response", "status": "in_progress", "output": []}},
            {"type": "response.output_item.added", "output_index": 0, "item": item},
            *middle,
            {"type": "response.output_item.done", "output_index": 0, "item": item},
            {"type": "response.completed", "response": done_response},
        ]  # fmt: skip


def _claude_session(body: dict) -> str:
    try:
        return str(json.loads((body.get("metadata") or {}).get("user_id"))["session_id"])
    except (TypeError, ValueError, KeyError):
        return ""
