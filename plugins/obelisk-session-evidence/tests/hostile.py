# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Hostile worlds for the tests that attack the provider: a malicious ``obelisk``
stand-in that prints crafted JSON (or hangs and spawns escaping grandchildren), raw Codex
transcripts with odd paths, timestamps and colliding call ids for the protocol double to
index, and the world and environment the installed CLI runs in beside the stand-in."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from loopx_obelisk_session_evidence.adapter import TEMPLATE_VERSION

from loopx_recall_core.plugin_api import HistoricalEvidenceRequestV0
from loopx_recall_core.testing import structure

CANARY_OTHER = "CANARY-OTHER-SESSION-OUTPUT-5b7e"

_STANDIN = """\
#!{python}
# A malicious obelisk: answers --version, and for --query does what standin.json says.
import json, os, subprocess, sys, time
home = os.environ["HOME"]
with open(os.path.join(home, "standin.json")) as handle:
    config = json.load(handle)
def log(entry):
    with open(os.path.join(home, "standin.log"), "a") as handle:
        handle.write(json.dumps(entry) + "\\n")
log({{"argv": sys.argv[1:], "marker": os.environ.get("LOOPX_RECALL_RUN")}})
if sys.argv[1:2] in (["--version"], ["-v"]):
    print(config.get("version", "0.2.4"))
    sys.exit(0)
if sys.argv[1:2] == ["--query"]:
    script = sys.argv[2]
    log({{"script": script,
          "script_mode": os.stat(script).st_mode & 0o777,
          "folder_mode": os.stat(os.path.dirname(script)).st_mode & 0o777}})
    if config.get("mode") == "hang":
        subprocess.Popen(["sleep", "300"])
        subprocess.Popen(["sleep", "300"], start_new_session=True)  # leaves the group
        open(os.path.join(home, "ready"), "w").close()
        while True:
            time.sleep(1)
    print(json.dumps(config["answer"], indent=2))
    sys.exit(0)
sys.exit(1)
"""


def install_standin(home: Path) -> Path:
    """Write the stand-in executable into ``home`` and return its path."""
    path = home / "bin" / "obelisk"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_STANDIN.format(python=sys.executable))
    path.chmod(0o755)
    return path


def configure(home: Path, **config: Any) -> None:
    (home / "standin.json").write_text(json.dumps(config))


def standin_log(home: Path) -> list[dict[str, Any]]:
    log = home / "standin.log"
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines()]


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def now_iso(offset: timedelta = timedelta(0)) -> str:
    return iso(datetime.now(UTC) + offset)


def tool_row(root: str, session: str = "codex:thread-1", **changes: Any) -> dict[str, Any]:
    """One in-scope prior_failure row as the template returns it."""
    row = {
        "session_id": session,
        "source": "codex",
        "project_path": root,
        "cwd": root,
        "timestamp": now_iso(-timedelta(hours=1)),
        "message_uuid": f"{session}:7",
        "message_session_id": session,
        "call_session_id": session,
        "result_session_id": session,
        "call_id": f"{session}:call_1",
        "tool": "exec_command",
        "input": json.dumps({"cmd": "pytest tests/test_api.py"}),
        "file_path": None,
        "output": "Exit code: 1\nFAILED",
        "is_error": None,
        "failed": 1,
        "matched": 1,
    }
    row.update(changes)
    return row


#: The columns the template reads, as an index that has them all answers them.
SCHEMA_COLUMNS = [
    *(f"sessions.{c}" for c in ("id", "source", "project_path")),
    *(f"messages.{c}" for c in (
        "uuid", "session_id", "agent_id", "role", "text", "timestamp", "cwd", "is_meta",
        "visibility",
    )),
    *(f"tool_calls.{c}" for c in (
        "id", "session_id", "message_uuid", "name", "input_json", "file_path",
    )),
    *(f"tool_results.{c}" for c in ("tool_use_id", "session_id", "content", "is_error")),
    *(f"summaries.{c}" for c in ("id", "session_id", "timestamp", "content", "visibility")),
    *(f"index_state.{c}" for c in ("jsonl_path", "mtime")),
]


def answer(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """A template answer carrying ``rows`` as prior_failure evidence."""
    return {
        "template_version": TEMPLATE_VERSION,
        # the columns an index of 0.2.4 offers the template (every one it reads)
        "schema_columns": SCHEMA_COLUMNS,
        "echo": None,
        "markers": [{"jsonl_path": "__last_build__", "mtime": 1}],
        "indexed_files": [],
        "evidence": {"prior_failure": rows},
        "omitted": {"prior_failure": 0},
    }


def binding(root: Path, obelisk: Path | None = None, sources=("codex",), **extra: Any):
    """The binding the provider makes at enable time for ``root``."""
    from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence

    options: dict[str, Any] = {"history_source": sources, "repository_root": [str(root)]}
    if obelisk is not None:
        options["obelisk_bin"] = str(obelisk)
    return {**ObeliskSessionEvidence().bind(options, cwd=str(root)), **extra}


def request(terms=("pytest",), types=("prior_failure",)) -> HistoricalEvidenceRequestV0:
    return structure(
        {
            "schema_version": "historical_evidence_request_v0",
            "request_id": "rq-adversarial",
            "situation_id": "sit-1",
            "trigger": "operator_requested_history",
            "scope": {
                "agent_id": "agent-a",
                "project_id": "proj-j",
                "repository_id": "repo-r",
                "allow_cross_agent": False,
                "allow_cross_project": False,
            },
            "evidence_types": list(types),
            "query_terms": list(terms),
            "limits": {
                "max_sessions": 50,
                "max_items": 64,
                "max_snippet_chars": 2000,
                "max_total_chars": 32000,
            },
        },
        HistoricalEvidenceRequestV0,
    )


def codex_transcript(
    home: Path,
    thread: str,
    *,
    cwd: str,
    timestamp: str,
    call_id: str = "call_1",
    command: str = "pytest tests/test_api.py",
    output: str = "Exit code: 1\nFAILED tests/test_api.py",
    forked_from: str | None = None,
    later: tuple[str, ...] = (),
) -> Path:
    """One Codex session with one failed shell call, every line stamped ``timestamp``
    (``forked_from``: the thread is a fork of that one, ``session_meta.forked_from_id``;
    ``later``: user messages written after the call)."""
    folder = home / ".codex" / "sessions" / "2026" / "11" / "30"
    folder.mkdir(parents=True, exist_ok=True)
    lines = [
        (
            "session_meta",
            {
                "id": thread,
                "timestamp": timestamp,
                "cwd": cwd,
                "cli_version": "0.50.0",
                "git": {"branch": "main"},
                **({"forked_from_id": forked_from} if forked_from else {}),
            },
        ),
        ("turn_context", {"cwd": cwd, "model": "gpt-5-codex"}),
        ("event_msg", {"type": "user_message", "message": "run the tests"}),
        (
            "response_item",
            {
                "type": "function_call",
                "name": "shell",
                "call_id": call_id,
                "arguments": json.dumps({"command": ["bash", "-lc", command]}),
            },
        ),
        ("response_item", {"type": "function_call_output", "call_id": call_id, "output": output}),
        *(("event_msg", {"type": "user_message", "message": text}) for text in later),
    ]
    path = folder / f"rollout-{thread}.jsonl"
    path.write_text(
        "".join(
            json.dumps({"timestamp": timestamp, "type": kind, "payload": payload}) + "\n"
            for kind, payload in lines
        )
    )
    return path


def write_script(path: Path, body: str) -> Path:
    path.write_text(f"#!{sys.executable}\n" + textwrap.dedent(body))
    path.chmod(0o755)
    return path


def environ_without(*names: str) -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in names}


def claude_transcript(
    home: Path,
    session: str,
    *,
    cwd: str,
    timestamp: str,
    tool_id: str | None = None,
    command: str = "pytest tests/test_api.py",
    output: str = "Exit code 1\nFAILED tests/test_api.py",
    later: tuple[str, ...] = (),
) -> Path:
    """One Claude Code session with one failed Bash call (``later``: user messages written
    after it); the index keeps ``cwd`` as written.

    Claude tool ids are not namespaced by the index (a later session's row replaces an
    earlier one's), so each session gets its own unless ``tool_id`` is given."""
    tool_id = tool_id or f"toolu_{session}"
    folder = home / ".claude" / "projects" / "-hostile"
    folder.mkdir(parents=True, exist_ok=True)

    def line(uuid: str, parent: str | None, role: str, content: list[dict[str, Any]]) -> str:
        entry = {
            "type": role,
            "uuid": uuid,
            "parentUuid": parent,
            "sessionId": session,
            "timestamp": timestamp,
            "cwd": cwd,
            "version": "2.0.0",
            "gitBranch": "main",
            "message": {"role": role, "content": content},
        }
        return json.dumps(entry) + "\n"

    call = {"type": "tool_use", "id": tool_id, "name": "Bash", "input": {"command": command}}
    result = {"type": "tool_result", "tool_use_id": tool_id, "content": output, "is_error": True}
    path = folder / f"{session}.jsonl"
    path.write_text(
        line(f"{session}-u1", None, "user", [{"type": "text", "text": "run the tests"}])
        + line(f"{session}-a1", f"{session}-u1", "assistant", [call])
        + line(f"{session}-u2", f"{session}-a1", "user", [result])
        + "".join(
            line(f"{session}-l{i}", f"{session}-u2", "user", [{"type": "text", "text": text}])
            for i, text in enumerate(later)
        )
    )
    return path


LOOPX = str(Path(sys.executable).parent / "loopx-recall")


def standin_world(tmp_path: Path, monkeypatch: Any) -> tuple[Path, Path, Path]:
    """(home, repository root, state folder) under ``tmp_path``, HOME and LOOPX_RECALL_HOME
    set to them: the world the stand-in runs in."""
    home, root, state = tmp_path / "home", tmp_path / "repo", tmp_path / "state"
    home.mkdir()
    root.mkdir()
    state.mkdir(mode=0o700)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("LOOPX_RECALL_HOME", str(state))
    return home, root, state


def installed_cli_env(world: tuple[Path, Path, Path]) -> dict[str, str]:
    """The environment of the installed ``loopx-recall`` in ``world``, the plugin loaded."""
    home, _, state = world
    return {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "LOOPX_RECALL_HOME": str(state),
        "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence",
    }


def run_cli(env: dict[str, str], *args: str, stdin: str | None = None):
    """The installed ``loopx-recall`` with ``args`` in ``env``: its completed process."""
    return subprocess.run(
        [LOOPX, *args], env=env, capture_output=True, text=True, timeout=60, check=False,
        input=stdin,
    )  # fmt: skip
