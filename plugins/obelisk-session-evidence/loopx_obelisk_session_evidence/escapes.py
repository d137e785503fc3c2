# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Symlinks under a bound root that lead outside every root (``escapes``).

A session whose working directory passes through such a link is not in the repository,
although its path reads as if it were: the row check (``scope.path_in_scope``) resolves
the path and rejects the WHOLE result when one comes back. One such transcript would then
deny every recall in the repository while it stays in the window. So the host finds these
links in advance and the query leaves out every path under them: the row check still
rejects what gets through, and the number left out is shown by ``readback``.

Found at enable time (stored in the binding) and again at query time once that list is
older than :data:`RESCAN_AFTER_S` (kept in the provider's cache), each scan bounded by
entries and time: git's own list of tracked links first (complete however big the tree),
then a walk of the tree for untracked ones (``.git`` skipped, links never followed).
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from typing import Any

from loopx_obelisk_session_evidence.runner import git_output
from loopx_recall_core.plugin_api import digest, under

__all__ = ["RESCAN_AFTER_S", "current_escapes", "find_escapes"]

#: How old the list may get before a query scans the tree again.
RESCAN_AFTER_S = 600.0
#: Bounds of one scan: entries looked at, and seconds (at enable; a query allows less).
SCAN_ENTRIES = 50_000
SCAN_SECONDS = 2.0
QUERY_SCAN_SECONDS = 0.5
#: Links remembered per binding (the query's parameter stays small).
MAX_ESCAPES = 256
_CACHE = "escapes"


def find_escapes(
    roots: Sequence[str], resolved: Sequence[str], *, seconds: float = SCAN_SECONDS
) -> list[str]:
    """Paths under ``roots`` (as given, lexically) of symlinks whose target is outside
    every root (given or resolved); sorted, at most :data:`MAX_ESCAPES`."""
    allowed = [*roots, *resolved]
    deadline = time.monotonic() + seconds
    found: set[str] = set()
    budget = [SCAN_ENTRIES]

    def consider(path: str) -> None:
        try:
            target = os.path.realpath(path)
        except (OSError, ValueError):
            return
        if not under(target, allowed):
            found.add(os.path.normpath(path))

    for root in dict.fromkeys([*roots, *resolved]):  # a symlinked root's paths read both ways
        for link in _tracked_links(root):
            consider(link)
        stack = [root]
        while stack and budget[0] > 0 and time.monotonic() < deadline:
            folder = stack.pop()
            try:
                with os.scandir(folder) as entries:
                    listed = list(entries)
            except OSError:
                continue
            for entry in listed:
                budget[0] -= 1
                if entry.is_symlink():
                    consider(entry.path)
                elif entry.name != ".git" and entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
    return sorted(found)[:MAX_ESCAPES]


def _tracked_links(root: str) -> list[str]:
    """The symlinks git tracks under ``root`` (mode 120000), or none outside a work tree."""
    listed = git_output(["ls-files", "-s", "-z"], cwd=root)
    if listed is None:
        return []
    links = []
    for record in listed.split("\0"):
        meta, _tab, name = record.partition("\t")
        if meta.startswith("120000 ") and name:
            links.append(os.path.join(root, name))
    return links


def current_escapes(binding: Mapping[str, Any], cache: Any) -> list[str]:
    """The binding's escapes, scanned again (bounded) when the stored list is too old."""
    private = binding["private"]
    stored: Any = {"at": private.get("escapes_scanned_at"), "paths": private.get("escapes")}
    key = digest([private["repository_roots"], private.get("resolved_roots")])
    remembered = cache.load(_CACHE) if cache is not None else None
    remembered = remembered if isinstance(remembered, dict) else {}
    newer = remembered.get(key)
    if isinstance(newer, dict) and _stamp(newer) > _stamp(stored):
        stored = newer
    if time.time() - _stamp(stored) < RESCAN_AFTER_S and isinstance(stored.get("paths"), list):
        return [p for p in stored["paths"] if isinstance(p, str)]
    paths = find_escapes(
        private["repository_roots"],
        private.get("resolved_roots") or [],
        seconds=QUERY_SCAN_SECONDS,
    )
    if cache is not None:
        kept = {k: v for k, v in remembered.items() if k != key}
        kept[key] = {"at": int(time.time()), "paths": paths}
        cache.store(_CACHE, dict(list(kept.items())[-16:]))
    return paths


def _stamp(entry: Mapping[str, Any]) -> float:
    at = entry.get("at")
    return float(at) if type(at) in (int, float) else 0.0
