# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Do the hooks ``hook install`` wrote still point at a ``loopx-recall`` that runs?

A hook command names this installation's ``loopx-recall`` by absolute path (the runtime's
``PATH`` may not reach the venv). When that venv is deleted or moved, the runtime finds
nothing to run: the hook cannot write a line to our log, and the runtime only reports a
non-blocking error (Claude Code: an exit code other than 0 and 2 lets the call go ahead).
So ``capability status`` looks: for one agent and project, which runtimes carry our hooks
(in the files ``hook install`` writes: Claude Code's user settings and the project-local
settings at each bound repository root, Codex's ``hooks.json`` and ``config.toml``) and
whether each command's program still exists and is executable. What it reports is a
runtime name and ``ok`` / ``points_nowhere``: never a path, an id or a file's content.
Reading only, standard library only (``tomllib``), bounded file sizes.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from loopx_recall_core import runtimes
from loopx_recall_core.jsonio import JsonInputError, loads
from loopx_recall_core.recall.hook_install import command_ids

__all__ = ["installed_hooks"]

#: A settings file larger than this is not read (the runtimes' own files are kilobytes).
_MAX_BYTES = 4 * 1024 * 1024


def _read(path: Path) -> bytes | None:
    with contextlib.suppress(OSError):
        if path.is_file() and path.stat().st_size <= _MAX_BYTES:
            return path.read_bytes()
    return None


def _commands(hooks: object) -> Iterator[str]:
    """Every handler command under a ``hooks`` mapping (``{event: [{hooks: [...]}]}``)."""
    if not isinstance(hooks, dict):
        return
    for groups in hooks.values():
        for group in groups if isinstance(groups, list) else ():
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for handler in handlers if isinstance(handlers, list) else ():
                command = handler.get("command") if isinstance(handler, dict) else None
                if isinstance(command, str):
                    yield command


def _json_hooks(path: Path) -> object:
    raw = _read(path)
    try:
        value = loads(raw) if raw else None
    except JsonInputError:
        return None
    return value.get("hooks") if isinstance(value, dict) else None


def _toml_hooks(path: Path) -> object:
    raw = _read(path)
    try:
        value: Any = tomllib.loads(raw.decode("utf-8")) if raw else None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError):
        return None  # tomllib recurses once per nesting level: a 500-deep array is no hooks
    return value.get("hooks") if isinstance(value, dict) else None


def _sources(runtime: str, roots: set[str]) -> Iterator[object]:
    """The hooks in every file the runtime record names: the user files (JSON and TOML
    forms) and the project-local ones at each bound repository root."""
    for entry in runtimes.record(runtime).hook_files:
        read = _json_hooks if entry.form == "json" else _toml_hooks
        if entry.scope == "user":
            yield read(runtimes.hook_file(runtime, "user", entry.form))
        else:
            for root in sorted(roots):
                yield read(runtimes.hook_file(runtime, entry.scope, entry.form, Path(root)))


def _runs(program: str) -> bool:
    if os.path.isabs(program):
        return os.path.isfile(program) and os.access(program, os.X_OK)
    return shutil.which(program) is not None


def installed_hooks(roots: Iterable[str]) -> dict[tuple[str, str], dict[str, str]]:
    """Read each hook file once (the project-local ones at every root in ``roots``):
    ``{(agent, project): {runtime: "ok" | "points_nowhere"}}`` for our commands there."""
    health: dict[tuple[str, str], dict[str, str]] = {}
    for runtime in runtimes.HOOK_RUNTIMES:
        for hooks in _sources(runtime, set(roots)):
            for command in _commands(hooks):
                ids = command_ids(command, runtime)
                if ids is None:
                    continue
                found = health.setdefault(ids[1:], {})
                if not _runs(ids[0]):
                    found[runtime] = "points_nowhere"
                else:
                    found.setdefault(runtime, "ok")
    return health
