# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The records of a transcript archive, the seeded story tables, and :class:`Session`: one
session's lines, planted events and canaries, shared by the per-runtime writers
(:mod:`.claude`, :mod:`.codex`). See :mod:`loopx_recall_core.qualification.transcripts`.
"""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

__all__ = [
    "EPOCH",
    "FILES",
    "NON_ASCII",
    "OLD_DAYS",
    "RECENT_DAYS",
    "Archive",
    "Plan",
    "PlantedEvent",
    "Session",
    "Story",
    "iso",
    "new_canary",
    "new_uuid",
]

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
NON_ASCII = "naïve café 東京 🚀"
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
    (command, output). ``None`` keeps the seed's choice. ``secrets``: lines that each carry
    a made-up secret (:mod:`loopx_recall_core.qualification.canaries`): every one goes into
    the failing command's output, and the first three one-line ones into the failing
    command itself, the user's prompt and the assistant's decision.
    """

    failure: tuple[str, str, int] | None = None
    success: tuple[str, str] | None = None
    secrets: tuple[str, ...] = ()


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
FILES = ("src/parser.py", "src/cache.py", "src/index.ts", "src/lib.rs", "docs/guide.md")


def iso(dt: datetime) -> str:
    dt = dt.astimezone(UTC)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


def new_uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def new_canary(rng: random.Random) -> str:
    return f"CANARY-SECRET-{rng.getrandbits(64):016x}"


@dataclass
class Plan:
    """Everything that varies between two sessions; filled from the archive's rng."""

    runtime: str
    repo_root: Path
    start: datetime
    index: int  # position of the session within its repo, drives the special cases
    rng: random.Random
    story: Story | None = None


class Session:
    """Accumulates transcript lines, planted events and canaries for one session."""

    def __init__(self, plan: Plan, session_id: str) -> None:
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
        return iso(self.clock)

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
        rel_file = rng.choice(FILES)
        canary = new_canary(rng)
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
            prompt_canary = new_canary(rng)
            self.canaries.append(prompt_canary)
            prompt += f" The staging token is {prompt_canary} if you need it."
        if story.secrets:  # no draw from the seed: the rest of the session is unchanged
            inline = [t for t in story.secrets if "\n" not in t] + ["", "", ""]
            command = f"{command}; {inline[0]}" if inline[0] else command
            failure_output += "\n".join(story.secrets) + "\n"
            prompt += f" The setup I used: {inline[1]}"
            decision += f" Config seen: {inline[2]}"
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

