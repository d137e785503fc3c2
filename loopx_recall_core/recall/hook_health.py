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
whether each command's program still exists and is executable, and for Codex whether it
recorded trust for them (:func:`_trusted`). What it reports is a runtime name and a state
(:func:`installed_hooks`): never a path, an id or a file's content.
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
from loopx_recall_core.recall.hook_entries import command_ids

__all__ = ["installed_hooks"]

#: A settings file larger than this is not read (the runtimes' own files are kilobytes).
_MAX_BYTES = 4 * 1024 * 1024


def _read(path: Path) -> bytes | None:
    with contextlib.suppress(OSError):
        if path.is_file() and path.stat().st_size <= _MAX_BYTES:
            return path.read_bytes()
    return None


def _commands(hooks: object) -> Iterator[tuple[str, int, int, str]]:
    """Every handler command under a ``hooks`` mapping (``{event: [{hooks: [...]}]}``),
    with its event and its group's and its own index (Codex's trust keys name them)."""
    if not isinstance(hooks, dict):
        return
    for event, groups in hooks.items():
        for g, group in enumerate(groups if isinstance(groups, list) else ()):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for h, handler in enumerate(handlers if isinstance(handlers, list) else ()):
                command = handler.get("command") if isinstance(handler, dict) else None
                if isinstance(command, str):
                    yield str(event), g, h, command


def _json_hooks(path: Path) -> object:
    raw = _read(path)
    try:
        value = loads(raw) if raw else None
    except JsonInputError:
        return None
    return value.get("hooks") if isinstance(value, dict) else None


def _toml(path: Path) -> dict | None:
    raw = _read(path)
    try:
        value: Any = tomllib.loads(raw.decode("utf-8")) if raw else {}
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError):
        return None  # tomllib recurses once per nesting level: a 500-deep array is no hooks
    return value if isinstance(value, dict) else None


def _toml_hooks(path: Path) -> object:
    value = _toml(path)
    return value.get("hooks") if value else None


def _sources(runtime: str, roots: set[str]) -> Iterator[tuple[Path, object]]:
    """Each file the runtime record names, with its hooks: the user files (JSON and TOML
    forms) and the project-local ones at each bound repository root."""
    for entry in runtimes.record(runtime).hook_files:
        read = _json_hooks if entry.form == "json" else _toml_hooks
        if entry.scope == "user":
            path = runtimes.hook_file(runtime, "user", entry.form)
            yield path, read(path)
        else:
            for root in sorted(roots):
                path = runtimes.hook_file(runtime, entry.scope, entry.form, Path(root))
                yield path, read(path)


def _runs(program: str) -> bool:
    if os.path.isabs(program):
        return os.path.isfile(program) and os.access(program, os.X_OK)
    return shutil.which(program) is not None


def _trusted(runtime: str) -> set[str] | None:
    """The hooks Codex recorded trust for, by key; None when its config cannot be read.

    Facts (Codex 0.169.0; sources in :mod:`loopx_recall_core.runtimes.codex`): Codex runs
    a non-managed hook only once trusted, and keeps trust in its ``config.toml`` as
    ``[hooks.state."<hooks file>:<event in snake case>:<group>:<handler>"]`` with
    ``trusted_hash = "sha256:..."`` (``enabled = false`` turns one off). The hash is of
    the hook's definition as Codex normalizes it, which Codex does not document; so a
    record says the hook was trusted as it was then, not that it still matches."""
    value = _toml(runtimes.hook_file(runtime, "user", "toml"))
    if value is None:
        return None
    hooks = value.get("hooks")
    state = hooks.get("state") if isinstance(hooks, dict) else None
    return {
        key
        for key, record in (state.items() if isinstance(state, dict) else ())
        if isinstance(record, dict)
        and isinstance(record.get("trusted_hash"), str)
        and record.get("enabled", True) is not False
    }


def _snake(event: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in event).lstrip("_")


#: Worst first: what status reports when one agent's hooks differ.
_ORDER = ("points_nowhere", "trust_unknown", "not_trusted", "no_session_end", "trust_recorded",
          "ok")  # fmt: skip


def installed_hooks(roots: Iterable[str]) -> dict[tuple[str, str], dict[str, str]]:
    """Read each hook file once (the project-local ones at every root in ``roots``):
    ``{(agent, project): {runtime: state}}`` for our commands there. ``state``:
    ``points_nowhere`` (the program is gone), else for a runtime that runs only trusted
    hooks (Codex) ``not_trusted`` (no trust record for one of them: Codex skips it
    without a word), ``trust_recorded`` (every one was trusted; whether that trust still
    covers them as written only Codex can tell) or ``trust_unknown`` (its config file
    cannot be read), and ``ok`` for a runtime that runs hooks as written;
    ``no_session_end`` when the guard's tool hooks are there without the runtime's end
    events (``Stop``, ``SessionEnd``: an install from before ``hook install`` added them)."""
    health: dict[tuple[str, str], dict[str, str]] = {}
    for runtime in runtimes.HOOK_RUNTIMES:
        trusted = _trusted(runtime) if runtimes.record(runtime).trust else set()
        events: dict[tuple[str, str], set[str]] = {}
        for path, hooks in _sources(runtime, set(roots)):
            for event, group, handler, command in _commands(hooks):
                ids = command_ids(command, runtime)
                if ids is None:
                    continue
                events.setdefault(ids[1:], set()).add(event)
                if not _runs(ids[0]):
                    state = "points_nowhere"
                elif not runtimes.record(runtime).trust:
                    state = "ok"
                elif trusted is None:
                    state = "trust_unknown"
                else:
                    key = f"{path}:{_snake(event)}:{group}:{handler}"
                    state = "trust_recorded" if key in trusted else "not_trusted"
                found = health.setdefault(ids[1:], {})
                before = found.get(runtime, "ok")
                found[runtime] = min(before, state, key=_ORDER.index)
        for pair, seen in events.items():
            if _lacks_end_events(runtime, seen):
                found = health[pair]
                found[runtime] = min(found[runtime], "no_session_end", key=_ORDER.index)
    return health


def _lacks_end_events(runtime: str, seen: set[str]) -> bool:
    """The guard's tool hooks are there but not the end events the record names (an
    install from before they were added): a new session's first call is then guarded
    only from the set of the last session start, never from a session that just ended."""
    rec = runtimes.record(runtime)
    guarded = any(event in seen for event in rec.hook_events if event != "SessionStart")
    return guarded and not set(rec.end_events) <= seen
