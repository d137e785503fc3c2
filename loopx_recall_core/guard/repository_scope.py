# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The enablement's repository scope: is a hook call in the enablement's repository?
(``cwd`` against the bound roots.)

A user-scope hook (``~/.claude/settings.json``, ``~/.codex/hooks.json``) runs in every
repository the user opens, but an enablement, and so a session's prior-outcome set, holds
one repository. The runtimes send the session's working folder as ``cwd`` in every hook
payload (see :mod:`loopx_recall_core.guard`), so a call is answered (and a session claimed
or its set made) only when ``cwd``, symlinks resolved, is a bound root or a folder below
one. The roots come from what the enablement already records (its binding's
``repository_roots`` and ``resolved_roots``), never from git: no subprocess, a few
``realpath`` calls. Standard library only: the hot path imports it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

__all__ = [
    "NO_CWD",
    "NO_ROOT",
    "OUTSIDE",
    "folder_in",
    "inside",
    "repository_roots",
    "verdict",
]

#: The hook log's reason codes (content-free).
OUTSIDE = "outside_repository"
NO_CWD = "no_cwd"
NO_ROOT = "no_repository_root"


def repository_roots(binding: object) -> list[str]:
    """The absolute roots an enablement's binding records (given and resolved)."""
    private = binding.get("private") if isinstance(binding, Mapping) else None
    if not isinstance(private, Mapping):
        return []
    roots: list[str] = []
    for key in ("repository_roots", "resolved_roots"):
        values = private.get(key)
        if isinstance(values, list):
            roots += [v for v in values if isinstance(v, str) and os.path.isabs(v)]
    return roots


def inside(cwd: str, roots: list[str]) -> bool:
    """True when ``cwd`` (resolved) is one of ``roots`` (resolved) or below one."""
    here = os.path.realpath(cwd)
    for root in roots:
        top = os.path.realpath(root)
        if here == top or here.startswith(top.rstrip("/") + "/"):
            return True
    return False


def folder_in(cwd: str, roots: list[str]) -> str | None:
    """``cwd`` (resolved) relative to the first root it is in (``.`` at a root); None when
    it is in none. The folder a command runs in is part of its route (issue 28 item 6)."""
    here = os.path.realpath(cwd)
    for root in roots:
        top = os.path.realpath(root)
        if here == top:
            return "."
        if here.startswith(top.rstrip("/") + "/"):
            return here[len(top.rstrip("/")) + 1 :]
    return None


def verdict(cwd: Any, binding: object) -> str | None:
    """None when the call is in the enablement's repository; else the reason code."""
    if not isinstance(cwd, str) or not os.path.isabs(cwd):
        return NO_CWD
    roots = repository_roots(binding)
    if not roots:
        return NO_ROOT
    return None if inside(cwd, roots) else OUTSIDE
