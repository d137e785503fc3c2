# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The enable-time binding: which runtimes count as this agent, which roots are the
repository, how far back to look. Roots and the executable path are private.

``repository_id`` is a content-free digest of the repository's root commit ids, so it is
the same for every worktree, clone, fork, move or renamed remote of one history.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from loopx_obelisk_session_evidence.adapter import launcher_node_dir
from loopx_obelisk_session_evidence.escapes import find_escapes
from loopx_obelisk_session_evidence.executable import OBELISK_BIN_ENV
from loopx_obelisk_session_evidence.runner import git_output
from loopx_obelisk_session_evidence.scope import exclude_globs, resolved_roots
from loopx_recall_core.plugin_api import HISTORY_SOURCES as _HOST_SOURCES
from loopx_recall_core.plugin_api import BindingOption, digest

__all__ = ["BINDING_OPTIONS", "HISTORY_SOURCES", "REFUSED_SOURCES", "bind", "git_repository"]

#: The runtimes offered as history sources: every runtime the host keeps a record of
#: (``plugin_api.HISTORY_SOURCES``, in the records' order), whose record says how the index
#: names its sessions. That Obelisk 0.2.4 indexes each of them is a fact about the index
#: (docs/real-obelisk.md), pinned in tests/core/test_shared_rules.py: a record the host
#: adds for a runtime the index does not hold fails there before it reaches the choices.
HISTORY_SOURCES: tuple[str, ...] = _HOST_SOURCES
#: Runtimes the 0.3 line of Obelisk indexes that are not offered as history sources, each
#: with why (what the scope check needs that their rows do not carry) and where that was
#: read (tommy0103/obelisk, packages/core/src/; docs/obelisk-releases.md).
REFUSED_SOURCES = {
    "copilot": (
        "Obelisk's copilot provider indexes VS Code Copilot Chat stores (the user-data "
        "folder's globalStorage/github.copilot-chat/session-store.db and workspaceStorage/*/"
        "GitHub.copilot-chat/transcripts), not the Copilot CLI's own session files; a "
        "session's working directory is known only when VS Code recorded one, and its id "
        "carries a hash of that context (copilot:<id>:<sha256>), so the session an agent "
        "runs in cannot be named to leave it out (providers/copilot.ts @ e0dc0d45)"
    ),
    "kiro": (
        "the 0.3-era Obelisk providers do not include kiro (providers/builtins.ts @ "
        "e0dc0d45); the kiro provider of later sources (providers/kiro.ts @ efe330b4) dates "
        "an assistant message or a tool result by the last prompt before it, not by itself, "
        "so a failure would carry the time of the question that led to it; offered once a "
        "release that indexes Kiro has been run here"
    ),
}
DEFAULT_WINDOW_DAYS = 30

BINDING_OPTIONS = (
    BindingOption(
        name="history-source",
        help="Agent runtime whose sessions count as this agent (repeatable, required; "
        "copilot and kiro are refused, the error says why).",
        multiple=True,
        choices=HISTORY_SOURCES + tuple(REFUSED_SOURCES),
    ),
    BindingOption(
        name="repository-root",
        help="Repository root or worktree path (repeatable; default: this git repository "
        "and all its worktrees).",
        multiple=True,
        private=True,
    ),
    BindingOption(
        name="exclude-path",
        help="Leave out sessions whose working directory is this path or under it: relative "
        "to the repository root, * and ? wildcards only (repeatable; e.g. vendor/*).",
        multiple=True,
        private=True,
    ),
    BindingOption(name="window-days", help="Look back this many days (default 30).", is_int=True),
    BindingOption(
        name="obelisk-bin",
        help="The obelisk executable (default: $LOOPX_RECALL_OBELISK_BIN, else obelisk on PATH, "
        "pinned as found with the folder of the Node it runs on).",
        private=True,
    ),
)


def _common_dir(path: str) -> str | None:
    found = git_output(["rev-parse", "--path-format=absolute", "--git-common-dir"], path)
    return os.path.realpath(found.strip()) if found and found.strip() else None


def git_repository(path: str) -> tuple[str, list[str]] | None:
    """``(repository_id, [top-level of every worktree])`` for a path inside git, else None.

    ``git worktree list`` reads metadata anyone who can write ``.git`` can plant (a
    worktree entry naming a parent folder would widen the scope), so a listed worktree
    counts only when it is not prunable and git, asked from inside it, names the same
    repository (the same common git folder).
    """
    if not Path(path).is_dir():
        return None
    roots = git_output(["rev-list", "--max-parents=0", "HEAD"], path)
    listing = git_output(["worktree", "list", "--porcelain"], path)
    common = _common_dir(path)
    if not roots or listing is None or common is None:
        return None
    worktrees = []
    for entry in listing.split("\n\n"):
        lines = entry.splitlines()
        if (
            not lines
            or not lines[0].startswith("worktree ")
            or any(line.startswith("prunable") for line in lines)
        ):
            continue
        worktree = lines[0].removeprefix("worktree ").strip()
        if os.path.isdir(worktree) and _common_dir(worktree) == common:
            top = git_output(["rev-parse", "--show-toplevel"], worktree)
            if top and os.path.realpath(top.strip()) == os.path.realpath(worktree):
                worktrees.append(worktree)
    repository_id = "git-roots:" + digest(sorted(roots.split())).removeprefix("sha256:")
    return repository_id, worktrees


def _executable_problem(path: str) -> str | None:
    if not os.path.exists(path):
        return "does not exist"
    if os.path.isdir(path):
        return "is a folder, not the obelisk executable"
    if not os.access(path, os.X_OK):
        return "is not executable"
    return None


_EXCLUDE_ERROR = (
    "--exclude-path must be a relative path inside the repository root: no '..', '.' or "
    "empty segment, only * and ? as wildcards"
)
#: Glob syntax beyond ``*`` and ``?`` (brackets, braces, escapes) and control characters.
_NOT_IN_PATTERN = frozenset("[]{}\\") | {chr(c) for c in range(32)} | {chr(127)}


def exclude_patterns(values: Sequence[str]) -> list[str]:
    """The validated relative ``--exclude-path`` patterns (a trailing ``/`` dropped).

    The error names the option, never the value (it may be a private path)."""
    patterns = []
    for value in values:
        pattern = value[:-1] if value.endswith("/") and len(value) > 1 else value
        segments = pattern.split("/")
        if (
            not pattern
            or pattern.startswith("/")
            or any(segment in ("", ".", "..") for segment in segments)
            or _NOT_IN_PATTERN & set(pattern)
        ):
            raise ValueError(_EXCLUDE_ERROR)
        patterns.append(pattern)
    return sorted(dict.fromkeys(patterns))


_KNOWN_OPTIONS = frozenset(option.name.replace("-", "_") for option in BINDING_OPTIONS)


def bind(options: Mapping[str, Any], *, cwd: str) -> dict[str, Any]:
    unknown = set(options) - _KNOWN_OPTIONS
    if unknown:
        # Fail closed: an option this provider does not implement is never ignored.
        raise ValueError(f"unknown provider option(s): {', '.join(sorted(unknown))}")
    sources = list(dict.fromkeys(options.get("history_source", ())))
    for source in sources:
        if source in REFUSED_SOURCES:
            raise ValueError(
                f"--history-source {source} is refused: {REFUSED_SOURCES[source]}"
            )
    excludes = exclude_patterns(list(options.get("exclude_path", ())))
    if not sources:
        raise ValueError(
            f"--history-source is required ({', '.join(HISTORY_SOURCES[:-1])} or "
            f"{HISTORY_SOURCES[-1]})"
        )
    window = options.get("window_days", DEFAULT_WINDOW_DAYS)
    if not 1 <= window <= 3650:
        raise ValueError("--window-days must be 1..3650")
    given = [
        os.path.abspath(os.path.join(cwd, root)) for root in options.get("repository_root", ())
    ]
    if not all(os.path.isdir(root) for root in given):
        # A root that does not exist would only ever answer "no history" (paths are private).
        raise ValueError("--repository-root must name an existing folder")
    identity = git_repository(given[0] if given else cwd)
    if given:
        roots = given
    elif identity is not None:
        roots = identity[1]
    else:
        raise ValueError("not inside a git repository: pass --repository-root and --repository-id")
    given_roots = sorted(dict.fromkeys(os.path.normpath(root) for root in roots))
    # Stored as given and as resolved now: a symlink swapped in later cannot widen scope.
    home = os.path.realpath(os.path.expanduser("~"))
    for root in given_roots:
        # A root that holds the home folder would make every session of the user "this
        # repository" (e.g. a dotfiles repository at ~ found from a subfolder).
        if os.path.realpath(root) in ("/", home) or home.startswith(
            os.path.realpath(root).rstrip("/") + "/"
        ):
            raise ValueError(
                "the repository root would be your home folder or above it: pass "
                "--repository-root with the repository's own folder"
            )
    if not given_roots:
        raise ValueError("no usable repository root: pass --repository-root")
    resolved = resolved_roots(given_roots)
    private: dict[str, Any] = {
        "repository_roots": given_roots,
        "resolved_roots": resolved,
        # Links under the roots that lead outside them: the query leaves those paths out.
        "escapes": find_escapes(given_roots, resolved),
        "escapes_scanned_at": int(time.time()),
        # Under each root as given and as resolved: the query and the row check leave
        # these working directories (and folders under them) out.
        "exclude_paths": exclude_globs(excludes, [*given_roots, *resolved]),
    }
    if options.get("obelisk_bin"):
        executable = os.path.abspath(os.path.join(cwd, options["obelisk_bin"]))
        problem = _executable_problem(executable)
        if problem:
            raise ValueError(f"--obelisk-bin {problem}")
        private["obelisk_bin"] = executable
    elif not os.environ.get(OBELISK_BIN_ENV):
        # pinned as found: every hook and command runs this one, whatever its PATH (issue
        # 39: a runtime started from an IDE with PATH=/usr/bin:/bin found none); one that
        # $LOOPX_RECALL_OBELISK_BIN names stays named by it
        on_path = shutil.which("obelisk")
        if on_path:
            private["obelisk_bin"] = os.path.abspath(on_path)
    if private.get("obelisk_bin"):
        # and the folder of the Node its `#!/usr/bin/env node` resolves to here
        node_dir = launcher_node_dir(private["obelisk_bin"])
        if node_dir:
            private["node_dir"] = node_dir
    binding: dict[str, Any] = {
        "history_sources": sources,
        "window_days": window,
        "repository_root_count": len(private["repository_roots"]),
        "exclude_path_count": len(excludes),
        "private": private,
    }
    if identity is not None:
        binding["repository_id"] = identity[0]
    return binding
