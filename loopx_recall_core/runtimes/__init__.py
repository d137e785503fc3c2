# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Agent runtimes, one home: one declarative record per runtime (:mod:`.claude`,
:mod:`.codex`; :mod:`.kimi` and :mod:`.pi` as history sources only), read by everything
that needs to know a runtime: where its hook files are by scope and in which format, the
hook events and payload keys, its shell tools, how their input names the command
(:func:`shell_command`) and how their output carries the exit status, how the index names
its sessions, how its hooks are trusted, and where its
transcripts lie on disk and how a file names its session (:class:`Transcripts`).

Each runtime's own transcript format, written and read back, is in
:mod:`.transcripts` (not imported here).

Adding a runtime is one record module here (listed in :data:`RECORDS`) plus its
transcript fixtures; the hook commands, install, status, the ledger, the guard and the
provider's scope read the records (docs/runtimes.md).

Standard library only, and only ``os`` at import (``pathlib``, ``re`` and ``shlex`` on
first use): the guard's hot path and the provider plugins (through ``plugin_api``) import it.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from loopx_recall_core.runtimes import claude, codex, kimi, pi
from loopx_recall_core.runtimes._record import (
    HookFile,
    OutputForm,
    Runtime,
    ShellTool,
    Transcripts,
)

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "CONFIG_ENVS",
    "HISTORY_SOURCES",
    "HOOK_RUNTIMES",
    "OUTPUT_FORMS",
    "RECORDS",
    "SHELL_TOOLS",
    "TRANSCRIPT_RUNTIMES",
    "HookFile",
    "OutputForm",
    "Runtime",
    "ShellTool",
    "Transcripts",
    "config_folder",
    "cwd_folder_name",
    "exit_status",
    "failed",
    "hook_file",
    "index_session_name",
    "record",
    "shell_command",
    "transcript_folder",
    "transcript_glob",
    "transcript_runtime",
    "transcripts_of",
]

#: Every runtime the host knows, by name (the order is the one messages list them in).
RECORDS: dict[str, Runtime] = {
    r.name: r for r in (claude.RECORD, codex.RECORD, kimi.RECORD, pi.RECORD)
}
#: The runtimes whose sessions the index may hold (a binding's history sources).
HISTORY_SOURCES: tuple[str, ...] = tuple(RECORDS)
#: The runtimes we install hooks for (``hook|guard|hook install <runtime>``).
HOOK_RUNTIMES: tuple[str, ...] = tuple(n for n, r in RECORDS.items() if r.hook_files)
#: The environment variables that move a runtime's config folder (and with it, for some
#: runtimes, where it writes its sessions): ``CLAUDE_CONFIG_DIR``, ``CODEX_HOME``.
CONFIG_ENVS: tuple[str, ...] = tuple(r.config_env for r in RECORDS.values() if r.config_env)
#: The runtimes whose transcripts we read and write on disk (:class:`Transcripts`).
TRANSCRIPT_RUNTIMES: tuple[str, ...] = tuple(n for n, r in RECORDS.items() if r.transcripts)

#: Shell tools of agents we keep no record for yet, kept so snippets written with them
#: stay shell calls (the snippet convention v0 listed them).
OTHER_SHELL_TOOLS = (
    ShellTool("run_shell_command", "Gemini CLI's shell tool (and Qwen Code's, its fork)"),
    ShellTool("terminal", "snippet convention v0 (404947f); its runtime was not recorded"),
)
#: The one list of shell tool names (case-folded): whose input is a shell command.
SHELL_TOOLS: frozenset[str] = frozenset(
    t.name.casefold() for r in RECORDS.values() for t in (*r.shell_tools,)
) | frozenset(t.name.casefold() for t in OTHER_SHELL_TOOLS)
#: Every form a supported runtime writes a shell call's exit status in.
OUTPUT_FORMS: tuple[OutputForm, ...] = tuple(f for r in RECORDS.values() for f in r.output_forms)
_PATTERNS: list = []


def record(name: str) -> Runtime:
    """The record of ``name``; ValueError names the runtimes there are."""
    try:
        return RECORDS[name]
    except KeyError:
        raise ValueError(f"unknown runtime; one of {', '.join(RECORDS)}") from None


def index_session_name(runtime: str, session_id: str) -> str:
    """How the index names a runtime's session: ``codex:<thread>``, a Claude id as is."""
    return record(runtime).index_prefix + session_id


def exit_status(output: str) -> int | None:
    """The exit status a shell call's output text carries in any runtime's form
    (:data:`OUTPUT_FORMS`), or None. The plugin's query template applies the same rule
    in SQL; a test checks both against every form's sample."""
    if not _PATTERNS:  # compiled on first use: the hot path's PreToolUse never needs them
        import re

        _PATTERNS.extend(re.compile(form.pattern) for form in OUTPUT_FORMS)
    for pattern in _PATTERNS:
        match = pattern.match(output)
        if match:
            return int(match.group(1))
    return None


def failed(output: object, is_error: bool = False) -> bool | None:
    """Whether a shell call failed: ``is_error`` (Claude's flag) or a non-zero status in
    its output; None when the output is no text and carries no flag (unknown)."""
    if is_error:
        return True
    if not isinstance(output, str):
        return None
    status = exit_status(output)
    return None if status is None else status != 0


def shell_command(tool_input: object) -> str | None:
    """The command a shell tool call ran, from its input object, or None.

    ``{"command": "..."}`` (Claude ``Bash``) gives the string; ``{"command": [argv]}``
    (Codex ``shell``/``exec_command``) gives ``S`` for ``["bash", "-lc", S]`` and
    ``shlex.join(argv)`` otherwise.
    """
    command = (
        tool_input.get("command") or tool_input.get("cmd") if isinstance(tool_input, dict) else None
    )
    if isinstance(command, list):
        parts = [str(part) for part in command]
        if len(parts) == 3 and parts[0] in ("bash", "sh", "zsh") and parts[1] in ("-lc", "-c"):
            return parts[2]
        import shlex

        return shlex.join(parts)
    return command if isinstance(command, str) else None


def config_folder(runtime: str, environ: dict[str, str] | None = None) -> Path:
    """The runtime's own config folder: its variable (``CLAUDE_CONFIG_DIR``,
    ``CODEX_HOME``) when set, else its default under the home folder."""
    rec = record(runtime)
    if rec.config_default is None:
        raise ValueError(f"{rec.title} keeps no hooks we install")
    from pathlib import Path

    env = os.environ if environ is None else environ
    moved = env.get(rec.config_env) if rec.config_env else None
    return Path(moved) if moved else Path.home() / rec.config_default


def hook_file(runtime: str, scope: str, form: str = "json", root: Path | None = None) -> Path:
    """The file the runtime reads hooks from for ``scope`` in ``form``: a user file under
    :func:`config_folder`, a project-local one under ``root`` (the repository root).
    ValueError when the runtime has no such file."""
    for entry in record(runtime).hook_files:
        if entry.scope == scope and entry.form == form:
            if scope == "user":
                return config_folder(runtime) / entry.path
            if root is None:
                raise ValueError("a project-local hooks file needs the repository root")
            return root / entry.path
    raise ValueError(f"{record(runtime).title} has no {scope} hooks file")


def transcripts_of(runtime: str) -> Transcripts | None:
    """Where the runtime's transcripts lie (None: an unknown runtime, or none on disk)."""
    found = RECORDS.get(runtime)
    return found.transcripts if found is not None else None


def _transcripts(runtime: str) -> Transcripts:
    found = record(runtime).transcripts
    if found is None:
        raise ValueError(f"{record(runtime).title}: no transcripts on disk are known")
    return found


def transcript_folder(runtime: str, home: Path) -> Path:
    """The folder under ``home`` that holds the runtime's transcripts."""
    return home / _transcripts(runtime).folder


def transcript_glob(runtime: str, session_id: str = "*") -> str:
    """A glob, relative to the home folder, of the transcript of ``session_id`` (the
    runtime's own id; every session's by default) in its layout's folders."""
    found = _transcripts(runtime)
    below = "*/" if found.layout == "cwd" else "*/*/*/"
    return found.folder + "/" + below + found.name.replace("{id}", session_id)


def transcript_runtime(path: str, home: Path) -> str | None:
    """The runtime whose transcript folder under ``home`` holds ``path`` (None: none)."""
    for name in TRANSCRIPT_RUNTIMES:
        folder = str(transcript_folder(name, home))
        if path.startswith(folder.rstrip("/") + "/"):
            return name
    return None


def cwd_folder_name(cwd: str) -> str:
    """The folder a ``"cwd"`` layout keeps a working folder's sessions in (Claude Code:
    ``~/.claude/projects/<name>``): the cwd with every character but ``A-Za-z0-9`` turned
    into ``-`` (so ``/a/b.c`` -> ``-a-b-c``; distinct cwds may share a folder)."""
    import re

    return re.sub(r"[^A-Za-z0-9]", "-", cwd)
