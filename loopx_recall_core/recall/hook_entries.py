# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Our hook entries in a runtime's hooks file: the command we write (:func:`hook_command`),
the fragment we add (:func:`settings_snippet`), how an entry is known to be ours
(:func:`is_ours`) and whose it is (:func:`command_ids`). Both file forms read them: the
JSON files (:mod:`.hook_install`) and Codex's inline ``config.toml`` tables
(:mod:`.toml_hooks`); the events and the matcher are the runtime record's
(:mod:`loopx_recall_core.runtimes`).
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

from loopx_recall_core import runtimes

__all__ = [
    "InstallRefused",
    "agent_project_pairs",
    "command_ids",
    "hook_command",
    "is_ours",
    "settings_snippet",
]


class InstallRefused(Exception):
    """The file cannot be changed safely; the message names no path or id."""


def _executable() -> str:
    """This installation's ``loopx-recall`` (absolute, so the runtime's PATH does not matter)."""
    beside = Path(sys.executable).parent / "loopx-recall"
    return str(beside) if beside.is_file() else "loopx-recall"


def hook_command(kind: str, runtime: str, agent_id: str, project_id: str) -> str:
    """The shell command of one hook (``kind``: ``hook`` claims, ``guard`` guards); the
    runtimes run it through a shell, so it is quoted as one."""
    argv = [_executable(), kind, runtime, "--agent-id", agent_id, "--project-id", project_id]
    return shlex.join(argv)


def settings_snippet(runtime: str, agent_id: str, project_id: str, guard: bool) -> dict:
    """The fragment we add: SessionStart (claim; the guard's prefetch) and, with the guard,
    the runtime's end events (``Stop``, ``SessionEnd``: the same claiming command, which
    makes the agent's set for the next session), PreToolUse (warn or deny) and PostToolUse
    (record what ran; Claude Code also PostToolUseFailure) on the shell tool (``Bash`` in
    both runtimes): the events and the matcher are the runtime record's
    (:mod:`loopx_recall_core.runtimes`)."""
    rec = runtimes.record(runtime)
    claim = hook_command("hook", runtime, agent_id, project_id)
    start = {"hooks": [{"type": "command", "command": claim}]}
    hooks: dict[str, list] = {"SessionStart": [start]}
    if guard:  # a turn's or session's end: the agent's set is made for the next session
        for event in rec.end_events:
            hooks[event] = [{"hooks": [{"type": "command", "command": claim}]}]
    if guard:  # one command for every tool event: it reads hook_event_name from the payload
        command = hook_command("guard", runtime, agent_id, project_id)
        for event in rec.hook_events:
            if event != "SessionStart":
                hooks[event] = [{"matcher": rec.hook_matcher,
                                 "hooks": [{"type": "command", "command": command}]}]  # fmt: skip
    return {"hooks": hooks}


def _argv(command: object) -> list[str] | None:
    if not isinstance(command, str):
        return None
    try:
        return shlex.split(command)
    except ValueError:
        return None


def is_ours(entry: object, runtime: str) -> bool:
    """Our handler, exactly: its command is the one :func:`hook_command` writes,
    ``<...>/loopx-recall hook|guard <runtime> --agent-id A --project-id P`` quoted as
    ``shlex.join`` quotes it, nothing before or after (a user's ``loopx-recall hook claude
    ... && notify-send started`` is the user's)."""
    command = entry.get("command") if isinstance(entry, dict) else None
    argv = _argv(command)
    return bool(
        argv
        and len(argv) == 7
        and os.path.basename(argv[0]) == "loopx-recall"
        and argv[1] in ("hook", "guard")
        and argv[2] == runtime
        and argv[3] == "--agent-id"
        and argv[5] == "--project-id"
        and shlex.join(argv) == command
    )


def command_ids(command: object, runtime: str) -> tuple[str, str, str] | None:
    """For one of our commands: its program, agent id and project id (None otherwise)."""
    argv = _argv(command)
    if not argv or not is_ours({"command": command}, runtime):
        return None
    agent, project = _option(argv, "--agent-id"), _option(argv, "--project-id")
    return (argv[0], agent, project) if agent and project else None


def _option(argv: list[str], name: str) -> str | None:
    for index, arg in enumerate(argv[:-1]):
        if arg == name:
            return argv[index + 1]
    return None


def agent_project_pairs(removed: list) -> list[tuple[str, str]]:
    """The (agent id, project id) of each removed entry of ours, once each, in order."""
    pairs: list[tuple[str, str]] = []
    for entry in removed:
        argv = _argv(entry.get("command")) or []
        agent, project = _option(argv, "--agent-id"), _option(argv, "--project-id")
        if agent and project and (agent, project) not in pairs:
            pairs.append((agent, project))
    return pairs
