# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The Stage 0 corpus writers write the shapes the real runtimes wrote in the real-runtime
lane (plugins/obelisk-session-evidence/tests/obelisk_double/recorded/, README there:
Claude Code 2.1.328, Codex 0.169.0): a structural comparison of every line kind the
writers emit in a runtime's recorded shape with the recorded lines of that kind (line
type, key sets, the shell tool's argument keys, the output's header form), and every
recorded shell output is read by the host's one outcome rule."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from loopx_recall_core import runtimes
from loopx_recall_core.qualification.transcripts import generate_archive

RECORDED = (
    Path(__file__).resolve().parents[2]
    / "plugins/obelisk-session-evidence/tests/obelisk_double/recorded"
)
NOW = datetime(2026, 12, 5, 8, 0, tzinfo=UTC)


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _header(output: str) -> str:
    """The output's header form: its lines up to ``Output:`` (Codex) or its first line,
    with every number and id replaced, e.g. ``Chunk ID: <x>|Wall time: <n> seconds|...``."""
    head = output.split("\nOutput:\n", 1)[0] if "\nOutput:\n" in output else output.split("\n")[0]
    head = re.sub(r"Chunk ID: \w+", "Chunk ID: <x>", head)
    return re.sub(r"-?\d+(?:\.\d+)?", "<n>", head).replace("\n", "|")


def _kind(runtime: str, line: dict) -> tuple:
    """What a line is, finely enough that two lines of one kind share their keys."""
    if runtime == "codex":
        payload = line.get("payload") or {}
        item = payload.get("item") or {}
        return (line.get("type"), payload.get("type"), item.get("type"), payload.get("role"))
    message = line.get("message") or {}
    content = message.get("content")
    if isinstance(content, list) and content and isinstance(content[0], dict):
        first = content[0].get("type")
    else:
        first = type(content).__name__
    if line.get("type") == "user" and first == "str":
        first = "prompt" if "promptId" in line else "str"
    result = line.get("toolUseResult")
    return (line.get("type"), line.get("operation"), first,
            type(result).__name__ if result is not None else None)  # fmt: skip


def _shape(runtime: str, line: dict) -> dict:
    """The structure compared: key sets of the line, its payload/message, and of the
    tool call's arguments, and the tool output's header form."""
    # hidden/inactive assistant text: the markers the index reads, not recorded by the lane
    shape: dict = {"keys": sorted(set(line) - {"isVisibleInTranscriptOnly", "visibility"})}
    if runtime == "codex":
        payload = line.get("payload") or {}
        shape["payload"] = sorted(payload)
        shape["metadata"] = sorted(line.get("metadata") or {})
        shape["item"] = sorted(payload.get("item") or {})
        if payload.get("type") == "function_call" and payload.get("name") == "exec_command":
            shape["arguments"] = sorted(json.loads(payload["arguments"]))
        if payload.get("type") == "function_call_output" and "Chunk ID" in payload["output"]:
            shape["header"] = _header(payload["output"])
        return shape
    message = line.get("message") or {}
    shape["message"] = sorted(message)
    for block in message.get("content") if isinstance(message.get("content"), list) else ():
        shape.setdefault("blocks", []).append(sorted(block))
        if block.get("type") == "tool_use" and block.get("name") == "Bash":
            shape["arguments"] = sorted(block["input"])
        if block.get("type") == "tool_result" and block.get("content", "").startswith("Exit"):
            shape["header"] = _header(block["content"])
    return shape


def _recorded(runtime: str) -> dict[tuple, list[dict]]:
    kinds: dict[tuple, list[dict]] = {}
    for path in sorted(RECORDED.glob(f"{runtime}-*.jsonl")):
        if re.match(rf"{runtime}-\d", path.name):  # a later release's (its version named):
            continue  # the writers write the shape of 2.1.328 and 0.169.0
        for line in _lines(path):
            shape = _shape(runtime, line)
            kinds.setdefault(_kind(runtime, line), [])
            if shape not in kinds[_kind(runtime, line)]:
                kinds[_kind(runtime, line)].append(shape)
    return kinds


def _written(tmp_path: Path, runtime: str, recorded_shape: bool) -> list[dict]:
    archive = generate_archive(tmp_path, now=NOW, sessions_per_repo=4)
    folder = archive.home / (".claude/projects" if runtime == "claude" else ".codex/sessions")
    version = "2.1.328" if runtime == "claude" else "0.169.0"
    lines: list[dict] = []
    for path in sorted(folder.glob("**/*.jsonl")):
        written = _lines(path)
        text = json.dumps(written)
        if (f'"{version}"' in text) == recorded_shape:
            lines.extend(written)
    return lines


def _envelope(shape: dict) -> dict:
    return {k: v for k, v in shape.items() if k not in ("arguments", "header", "blocks")}


# Lines the writers add that the lane could not record (the lane's sessions do not edit
# files, compact, or write a recap), each with why it is there.
UNRECORDED = {
    "claude": {
        ("assistant", None, "tool_use", None),  # Read/Edit/Write calls: same envelope
        ("user", None, "tool_result", None),  # their results: no toolUseResult (not recorded)
        ("user", None, "str", None),  # a message from a subdirectory (cwd varies)
        ("system", None, "NoneType", None),  # away_summary, the index's summary source
    },
    "codex": set(),
}


@pytest.mark.parametrize("runtime", ["claude", "codex"])
def test_the_writers_write_the_recorded_shapes(runtime, tmp_path):
    recorded = _recorded(runtime)
    written = _written(tmp_path, runtime, recorded_shape=True)
    assert written, f"the corpus writes no {runtime} session in the recorded shape"
    seen: set[tuple] = set()
    for line in written:
        kind = _kind(runtime, line)
        seen.add(kind)
        if kind not in recorded:
            assert kind in UNRECORDED[runtime], f"{runtime} writes an unrecorded line: {kind}"
            continue
        shape = _shape(runtime, line)
        if "arguments" in shape or "header" in shape:  # the shell call: all of it
            assert shape in recorded[kind], (kind, shape, recorded[kind])
        else:  # another call or no call: the envelope
            envelopes = [_envelope(s) for s in recorded[kind]]
            assert _envelope(shape) in envelopes, (kind, shape, recorded[kind])
    # the shell call, its failed and its ok output are all written in the recorded shape
    assert any(_shape(runtime, line).get("arguments") for line in written)
    headers = {_shape(runtime, line).get("header") for line in written} - {None}
    assert headers == {h["header"] for shapes in recorded.values() for h in shapes
                       if "header" in h}  # fmt: skip


def test_the_older_shapes_stay_in_the_corpus(tmp_path):
    codex = _written(tmp_path / "codex", "codex", recorded_shape=False)
    calls = [line["payload"] for line in codex if line.get("type") == "response_item"
             and line["payload"].get("type") == "function_call"
             and line["payload"].get("name") == "shell"]  # fmt: skip
    assert calls
    assert all(json.loads(c["arguments"])["command"][:2] == ["bash", "-lc"] for c in calls)
    outputs = [line["payload"]["output"] for line in codex
               if line.get("payload", {}).get("type") == "function_call_output"]  # fmt: skip
    assert any(o.startswith("Exit code: ") for o in outputs)
    claude = _written(tmp_path / "claude", "claude", recorded_shape=False)
    assert claude
    assert not any("entrypoint" in line for line in claude)


def _outputs(path: Path) -> list[tuple[str, bool]]:
    """Every shell output a recorded file holds, with the runtime's own flag (Claude's
    ``is_error``; Codex's ``CommandExecution`` ``exit_code``), for calls that ran."""
    lines = _lines(path)
    found: list[tuple[str, bool]] = []
    codes = {line["payload"]["item"]["id"]: line["payload"]["item"]["exit_code"]
             for line in lines if (line.get("payload") or {}).get("type") == "item_completed"
             and line["payload"]["item"].get("type") == "CommandExecution"}  # fmt: skip
    for line in lines:
        payload = line.get("payload") or {}
        if payload.get("type") == "function_call_output" and payload["call_id"] in codes:
            found.append((payload["output"], codes[payload["call_id"]] != 0))
        content = (line.get("message") or {}).get("content")
        for block in content if isinstance(content, list) else ():
            if block.get("type") == "tool_result" and "hook error" not in block["content"]:
                found.append((block["content"], block["is_error"]))
    return found


@pytest.mark.parametrize("path", sorted(RECORDED.glob("*.jsonl")), ids=lambda p: p.stem)
def test_every_recorded_output_form_is_recognized_by_the_host_rule(path):
    outputs = _outputs(path)
    assert outputs
    for output, failed in outputs:
        if path.stem.startswith("codex"):  # Codex: the status is in the text alone
            assert runtimes.exit_status(output) is not None, output[:80]
            assert runtimes.failed(output) is failed, output[:80]
        else:  # Claude: the flag, and the text agrees when it carries a status
            assert bool(runtimes.failed(output, is_error=failed)) is failed
            status = runtimes.exit_status(output)
            assert status is None or (status != 0) is failed, output[:80]


def test_stage_0_plants_sessions_in_the_recorded_shapes(tmp_path):
    """`recall qualify`'s corpus (default seed and size) holds planted sessions in both the
    recorded shapes (Claude Code 2.1.328, Codex 0.169.0) and the older ones."""
    from loopx_recall_core.qualification.corpus import build_corpus
    from loopx_recall_core.qualification.materialize import write_family

    corpus = build_corpus()
    family = next(f for f in corpus.families if f.name == "baseline")
    archive = write_family(family, tmp_path, NOW)
    planted = set(archive.session_ids.values())
    shapes: set[tuple[str, bool]] = set()
    for path in archive.home.glob(".c*/**/*.jsonl"):
        text = path.read_text()
        runtime = "claude" if "/.claude/" in str(path) else "codex"
        if not any(sid.removeprefix("codex:") in path.name for sid in planted):
            continue
        version = '"version": "2.1.328"' if runtime == "claude" else '"cli_version": "0.169.0"'
        shapes.add((runtime, version in text))
    assert shapes == {("claude", True), ("claude", False), ("codex", True), ("codex", False)}
