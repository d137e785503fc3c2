# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
# Seeded randomness makes reproducible fixtures here, never secrets:
# ruff: noqa: S311
"""Deterministic Claude Code / Codex transcript archives (tests and the Stage 0 corpus).

``generate_archive(home, seed=..., now=...)`` writes a small but realistic agent history
under ``home`` (``.claude/projects/...`` and ``.codex/sessions/...``), creates the
repository directories the sessions ran in, and returns an :class:`Archive` listing
every *planted* event, i.e. what a history query is expected to be able to find.
Output depends only on ``seed``, ``now`` and the paths passed in: no wall clock.

Layout (``repos_root`` defaults to ``home / "src"``)::

    alpha      <repos_root>/alpha               claude + codex sessions
    beta       <repos_root>/beta                claude + codex sessions
    alpha-wt   <repos_root>/worktrees/alpha-wt  a worktree of alpha at another path
    alpha2     <repos_root>/alpha2              ONE claude session; shares the prefix
                                                "<repos_root>/alpha" (path-boundary trap)

For alpha, beta and alpha-wt, ``sessions_per_repo`` sessions alternate runtimes, and
the last one (when there are >= 2) started 35-60 days before ``now`` (outside a 30 day
window); old sessions exist for both runtimes. Every session plants, in order: a
failing shell command (``prior_failure``), an assistant decision ("I'll switch to X
because Y", ``decision``), a file edit (``file_history``), a passing command
(``tool_outcome``) and a summary (``summary``). Session #0 of each repo adds non-ASCII
text ("naïve café 東京 🚀") to the prompt and the decision, #1 a hidden decision, #2 a
canary secret in the user prompt and, for Claude, an inactive decision. Every failing
output carries a canary secret (``env: STAGING_API_TOKEN=CANARY-SECRET-<16 hex>``).
Claude sessions also hold an ``isMeta`` caveat message, a ``Read`` call and one message
whose cwd is ``<repo>/src``; Codex sessions repeat chat text as ``response_item``
messages (as the real CLI does) and use ``shell`` (even index) or ``exec_command``.

``PlantedEvent`` field conventions:

* ``text``: for ``prior_failure``, ``tool_outcome`` and ``file_history`` the tool result
  exactly as written (what the index stores in ``tool_results.content``); for
  ``decision`` the assistant message text; for ``summary`` the summary text.
* ``command``: Claude ``Bash`` ``input.command``; Codex the script passed as
  ``["bash", "-lc", SCRIPT]``. ``None`` for other kinds.
* ``file_path``: as written in the transcript: absolute for Claude ``Edit``/``Write``,
  repo-relative as in the ``*** Update File:`` line of a Codex ``apply_patch``.
* ``timestamp``: the transcript line's timestamp; for a Claude summary (whose line has
  no timestamp) that of its ``leafUuid`` message, which is the session's last message.

A :class:`Story` passed to :func:`append_session` fixes the failing command, its first
output line and exit code, and the passing command, instead of drawing them from the
seed (everything else still comes from the seed). The qualification corpus
(:mod:`loopx_recall_core.qualification.corpus`) plants its cases this way.

Codex failures say ``is_error: true`` only in odd-numbered sessions; the others only
start with ``Exit code: N`` (upstream indexes is_error only when the transcript says so).
Each transcript's mtime is set to its last event time.
"""

from __future__ import annotations

import json
import os
import random
import uuid
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from loopx_recall_core.transcript_rules import claude_project_folder

__all__ = ["Archive", "PlantedEvent", "Story", "append_session", "generate_archive"]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
NON_ASCII = "naïve café 東京 🚀"
CLAUDE_MODEL = "claude-sonnet-4-5-20250929"
CODEX_MODEL = "gpt-5-codex"
OLD_DAYS = (35.0, 60.0)
RECENT_DAYS = (0.5, 25.0)


@dataclass(frozen=True)
class PlantedEvent:
    runtime: str  # "claude" | "codex"
    session_id: str  # as the index stores it (codex: "codex:<id>")
    repo_root: str  # absolute repository/worktree root the session ran in
    kind: str  # "prior_failure" | "tool_outcome" | "decision" | "file_history" | "summary"
    command: str | None
    file_path: str | None
    text: str
    timestamp: str  # ISO 8601, millisecond precision, "Z"
    visible: bool


@dataclass(frozen=True)
class Story:
    """What a session runs, when it must not come from the seed.

    ``failure``: (command, first line of its output, exit code >= 1); ``success``:
    (command, output). ``None`` keeps the seed's choice.
    """

    failure: tuple[str, str, int] | None = None
    success: tuple[str, str] | None = None


@dataclass(frozen=True)
class Archive:
    home: Path
    repos: dict[str, Path]
    events: tuple[PlantedEvent, ...]
    canaries: tuple[str, ...]


# (command, failure line, exit code)
_FAILURES = (
    (
        "pytest tests/test_parser.py -x",
        "FAILED tests/test_parser.py::test_roundtrip - AssertionError: assert 3 == 2",
        1,
    ),
    (
        "npm run build",
        "src/index.ts(14,7): error TS2345: Argument of type 'string' is not assignable to 'int'.",
        2,
    ),
    (
        "cargo test --all",
        "error[E0433]: failed to resolve: use of undeclared crate or module `tokio`",
        101,
    ),
    ("make lint", "src/cache.py:88:101: E501 Line too long (112 > 100)", 2),
    (
        "python -m mypy src",
        'src/cache.py:41: error: Incompatible return value type (got "str", expected "int")',
        1,
    ),
)
_SUCCESSES = (
    ("pytest -q", "48 passed in 2.31s"),
    ("git status --short", " M src/parser.py\n?? notes.txt"),
    ("ruff check src", "All checks passed!"),
    ("npm test -- --silent", "Tests: 31 passed, 31 total"),
)
_DECISIONS = (
    ("an iterative parser", "the recursive one overflows the stack on deeply nested input"),
    ("uv for dependency locking", "pip's resolver takes minutes on CI"),
    ("a SQLite cache", "rewriting the JSON cache on every run races with the watcher"),
    ("structured logging", "grep over free-form log lines keeps missing the request id"),
    ("pinning tokio 1.38", "the newer runtime changed the shutdown order"),
)
_FILES = ("src/parser.py", "src/cache.py", "src/index.ts", "src/lib.rs", "docs/guide.md")


def _iso(dt: datetime) -> str:
    dt = dt.astimezone(UTC)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


def _uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _canary(rng: random.Random) -> str:
    return f"CANARY-SECRET-{rng.getrandbits(64):016x}"


@dataclass
class _Plan:
    """Everything that varies between two sessions; filled from the archive's rng."""

    runtime: str
    repo_root: Path
    start: datetime
    index: int  # position of the session within its repo, drives the special cases
    rng: random.Random
    story: Story | None = None


class _Session:
    """Accumulates transcript lines, planted events and canaries for one session."""

    def __init__(self, plan: _Plan, session_id: str) -> None:
        self.plan = plan
        self.rng = plan.rng
        self.session_id = session_id
        # Transcripts carry millisecond timestamps; keep the clock on that grid so the
        # file mtime equals the last written timestamp exactly.
        self.clock = plan.start.replace(microsecond=plan.start.microsecond // 1000 * 1000)
        self.lines: list[dict] = []
        self.events: list[PlantedEvent] = []
        self.canaries: list[str] = []

    def tick(self) -> str:
        self.clock += timedelta(
            seconds=self.rng.randint(3, 90), milliseconds=self.rng.randint(0, 999)
        )
        return _iso(self.clock)

    def plant(
        self,
        kind: str,
        text: str,
        timestamp: str,
        *,
        command: str | None = None,
        file_path: str | None = None,
        visible: bool = True,
    ) -> None:
        self.events.append(
            PlantedEvent(
                runtime=self.plan.runtime,
                session_id=self.session_id,
                repo_root=str(self.plan.repo_root),
                kind=kind,
                command=command,
                file_path=file_path,
                text=text,
                timestamp=timestamp,
                visible=visible,
            )
        )

    def content(self) -> dict:
        """Pick the session's story; shared by both runtimes so they are comparable."""
        rng = self.rng
        tag = f"{rng.getrandbits(32):08x}"
        # Draw first either way, so a story changes nothing else the seed decides.
        command, failure_line, code = rng.choice(_FAILURES)
        ok_command, ok_output = rng.choice(_SUCCESSES)
        story = self.plan.story or Story()
        if story.failure is not None:
            command, failure_line, code = story.failure
        if story.success is not None:
            ok_command, ok_output = story.success
        alt, reason = rng.choice(_DECISIONS)
        rel_file = rng.choice(_FILES)
        canary = _canary(rng)
        self.canaries.append(canary)
        failure_output = f"{failure_line}\ntrace-id {tag}\nenv: STAGING_API_TOKEN={canary}\n"
        decision = f"I'll switch to {alt} because {reason} (trace-id {tag})."
        if self.plan.index == 0:
            decision = (
                f"I'll switch to {alt} because {reason}; see {NON_ASCII} notes (trace-id {tag})."
            )
        prompt = f"The {command!r} step is failing in {self.plan.repo_root.name}; please fix it."
        if self.plan.index == 0:
            prompt += f" Context: {NON_ASCII}"
        if self.plan.index == 2:
            prompt_canary = _canary(rng)
            self.canaries.append(prompt_canary)
            prompt += f" The staging token is {prompt_canary} if you need it."
        return {
            "tag": tag,
            "command": command,
            "failure_output": failure_output,
            "code": code,
            "ok_command": ok_command,
            "ok_output": ok_output,
            "decision": decision,
            "rel_file": rel_file,
            "prompt": prompt,
            "hidden": "Internal scratch: I'll switch to a retry loop because the first fix "
            f"is flaky (trace-id {tag}).",
            "inactive": "Abandoned branch: I'll switch to vendoring the parser because upstream "
            f"is slow (trace-id {tag}).",
            "summary": f"Fixed failing `{command}` in {self.plan.repo_root.name} by switching "
            f"to {alt} (trace-id {tag}).",
        }


# ---------------------------------------------------------------------------- Claude Code


def _write_claude(s: _Session, home: Path) -> Path:
    plan, rng = s.plan, s.rng
    cwd = str(plan.repo_root)
    branch = rng.choice(("main", "fix/parser", "feature/cache"))
    version = f"2.0.{rng.randint(1, 30)}"
    c = s.content()
    parent: list[str | None] = [None]

    def line(kind: str, message: dict, *, extra: dict | None = None, at_cwd: str = cwd) -> dict:
        entry = {
            "parentUuid": parent[0],
            "isSidechain": False,
            "userType": "external",
            "cwd": at_cwd,
            "sessionId": s.session_id,
            "version": version,
            "gitBranch": branch,
            "type": kind,
            "message": message,
            "uuid": _uuid(rng),
            "timestamp": s.tick(),
        }
        entry.update(extra or {})
        parent[0] = entry["uuid"]
        s.lines.append(entry)
        return entry

    def assistant(content: list[dict], **extra) -> dict:
        return line(
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

    def tool(name: str, tool_input: dict, result: str, is_error: bool, **extra) -> tuple[str, str]:
        call_id = f"toolu_{rng.getrandbits(96):024x}"
        assistant([{"type": "tool_use", "id": call_id, "name": name, "input": tool_input}], **extra)
        res = line(
            "user",
            {
                "role": "user",
                "content": [
                    {
                        "tool_use_id": call_id,
                        "type": "tool_result",
                        "content": result,
                        "is_error": is_error,
                    },
                ],
            },
        )
        return call_id, res["timestamp"]

    line(
        "user",
        {
            "role": "user",
            "content": "Caveat: The messages below were generated by the user while "
            "running local commands. DO NOT respond to these messages.",
        },
        extra={"isMeta": True},
    )
    line("user", {"role": "user", "content": c["prompt"]})
    assistant([{"type": "text", "text": "Let me reproduce the failure first."}])

    failure = f"Exit code {c['code']}\n{c['failure_output']}"
    _, ts = tool(
        "Bash", {"command": c["command"], "description": "Reproduce the failure"}, failure, True
    )
    s.plant("prior_failure", failure, ts, command=c["command"])

    ts = assistant([{"type": "text", "text": c["decision"]}])["timestamp"]
    s.plant("decision", c["decision"], ts)
    if plan.index == 1:
        ts = assistant(
            [{"type": "text", "text": c["hidden"]}], extra={"isVisibleInTranscriptOnly": True}
        )["timestamp"]
        s.plant("decision", c["hidden"], ts, visible=False)
    if plan.index == 2:
        ts = assistant([{"type": "text", "text": c["inactive"]}], extra={"visibility": "inactive"})[
            "timestamp"
        ]
        s.plant("decision", c["inactive"], ts, visible=False)

    abs_file = str(plan.repo_root / c["rel_file"])
    tool(
        "Read",
        {"file_path": abs_file},
        f"     1\t# {c['rel_file']}\n     2\tdef parse(text):\n",
        False,
    )
    if rng.random() < 0.5:
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
    _, ts = tool(name, edit_input, edit_result, False)
    s.plant("file_history", edit_result, ts, file_path=abs_file)

    _, ts = tool(
        "Bash", {"command": c["ok_command"], "description": "Verify"}, c["ok_output"], False
    )
    s.plant("tool_outcome", c["ok_output"], ts, command=c["ok_command"])
    # One message from a subdirectory: messages.cwd varies, project_path must not.
    line("user", {"role": "user", "content": "ls"}, at_cwd=str(plan.repo_root / "src"))
    last = assistant([{"type": "text", "text": "The check passes now."}])

    # Claude summary lines have no timestamp; the index borrows the leaf message's.
    s.lines.append({"type": "summary", "summary": c["summary"], "leafUuid": last["uuid"]})
    s.plant("summary", c["summary"], last["timestamp"])

    path = home / ".claude" / "projects" / claude_project_folder(cwd) / f"{s.session_id}.jsonl"
    return path


# ---------------------------------------------------------------------------- Codex


def _write_codex(s: _Session, home: Path, codex_id: str) -> Path:
    plan, rng = s.plan, s.rng
    cwd = str(plan.repo_root)
    c = s.content()
    flag_errors = plan.index % 2 == 1
    shell_name = "shell" if plan.index % 2 == 0 else "exec_command"

    def add(kind: str, payload: dict, **extra) -> dict:
        entry = {"timestamp": s.tick(), "type": kind, "payload": payload, **extra}
        s.lines.append(entry)
        return entry

    start = _iso(s.clock)
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

    ts = add("compacted", {"message": c["summary"]})["timestamp"]
    s.plant("summary", c["summary"], ts)

    day = plan.start.astimezone(UTC)
    name = f"rollout-{day:%Y-%m-%dT%H-%M-%S}-{codex_id}.jsonl"
    return home / ".codex" / "sessions" / f"{day:%Y}" / f"{day:%m}" / f"{day:%d}" / name


# ---------------------------------------------------------------------------- assembly


def _build_session(home: Path, plan: _Plan) -> tuple[_Session, Path]:
    raw_id = _uuid(plan.rng)
    if plan.runtime == "claude":
        s = _Session(plan, raw_id)
        return s, _write_claude(s, home)
    if plan.runtime == "codex":
        s = _Session(plan, f"codex:{raw_id}")
        return s, _write_codex(s, home, raw_id)
    raise ValueError(f"unknown runtime {plan.runtime!r}")


def _write_session(home: Path, plan: _Plan) -> _Session:
    s, path = _build_session(home, plan)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        for entry in s.lines:
            fh.write(json.dumps(entry, ensure_ascii=False) + "\n")
    # Freshness logic compares transcript mtimes with the index: make them meaningful.
    last_ns = (s.clock - _EPOCH) // timedelta(milliseconds=1) * 1_000_000
    os.utime(path, ns=(last_ns, last_ns))
    return s


def _make_repos(repos_root: Path) -> dict[str, Path]:
    repos = {
        "alpha": repos_root / "alpha",
        "beta": repos_root / "beta",
        "alpha-wt": repos_root / "worktrees" / "alpha-wt",
        "alpha2": repos_root / "alpha2",
    }
    for root in repos.values():
        for rel in _FILES:
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).touch()
    return {name: root.resolve() for name, root in repos.items()}


def generate_archive(
    home: Path,
    *,
    seed: int = 7,
    now: datetime,
    repos_root: Path | None = None,
    sessions_per_repo: int = 4,
) -> Archive:
    """Write a transcript archive under ``home``; see the module docstring for its content."""
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    if sessions_per_repo < 1:
        raise ValueError("sessions_per_repo must be >= 1")
    home = Path(home).resolve()
    home.mkdir(parents=True, exist_ok=True)
    repos = _make_repos(Path(repos_root) if repos_root is not None else home / "src")
    rng = random.Random(seed)

    plans: list[_Plan] = []
    for repo_index, name in enumerate(("alpha", "beta", "alpha-wt")):
        for i in range(sessions_per_repo):
            old = sessions_per_repo >= 2 and i == sessions_per_repo - 1
            days = rng.uniform(*(OLD_DAYS if old else RECENT_DAYS))
            plans.append(
                _Plan(
                    runtime=("claude", "codex")[(i + repo_index) % 2],
                    repo_root=repos[name],
                    start=now - timedelta(days=days),
                    index=i,
                    rng=rng,
                )
            )
    plans.append(
        _Plan(
            runtime="claude",
            repo_root=repos["alpha2"],
            start=now - timedelta(days=rng.uniform(*RECENT_DAYS)),
            index=0,
            rng=rng,
        )
    )

    events: list[PlantedEvent] = []
    canaries: list[str] = []
    for plan in plans:
        s = _write_session(home, plan)
        events.extend(s.events)
        canaries.extend(s.canaries)
    return Archive(home=home, repos=repos, events=tuple(events), canaries=tuple(canaries))


def append_session(
    archive: Archive,
    *,
    at: datetime,
    repo: str = "alpha",
    runtime: str = "claude",
    seed: int = 1000,
    index: int = 3,
    story: Story | None = None,
) -> Archive:
    """Write one more session that ends at ``at`` and return the grown Archive.

    The new transcript's last timestamp and its mtime are ``at`` (cut to milliseconds):
    pass a time after the last index build (e.g. ``datetime.now(UTC)``) to make an
    existing index stale. The added events are ``new.events[len(archive.events):]``;
    ``index`` picks the special cases described in the module docstring (the default 3
    adds none; odd indexes make Codex failures carry ``is_error``). Use distinct seeds
    for several calls: the seed fixes the session id. ``story`` fixes what it runs.
    """
    if at.tzinfo is None:
        raise ValueError("at must be timezone-aware")
    root = archive.repos[repo]
    # Dry run with the same seed to learn the session's length (durations come from the
    # rng, not from the start time), then write it for real so it ends exactly at ``at``.
    probe, _ = _build_session(
        archive.home, _Plan(runtime, root, at, index, random.Random(seed), story)
    )
    plan = _Plan(runtime, root, at - (probe.clock - at), index, random.Random(seed), story)
    s = _write_session(archive.home, plan)
    return replace(
        archive,
        events=archive.events + tuple(s.events),
        canaries=archive.canaries + tuple(s.canaries),
    )
