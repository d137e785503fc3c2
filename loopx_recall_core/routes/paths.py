# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Path and argument equivalence shared by route normalization and comparison.

Paths are compared as repository-relative POSIX text: a leading ``./`` is stripped,
``a//b/`` is ``a/b``, an absolute path under the situation's ``repository_root`` becomes
relative, and an absolute path equals a relative one it ends with on a ``/`` boundary
(``/home/u/repo/tests/a.py`` is ``tests/a.py``). Test selectors keep their ``::`` part.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence

__all__ = [
    "is_path_like",
    "join_folder",
    "multiset_equal",
    "norm_path",
    "normalize_arg",
    "overlap",
    "same_arg",
    "same_path",
]

_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}\Z")


def is_path_like(arg: str) -> bool:
    """A file-system path or test selector rather than a word or a value."""
    if "://" in arg or arg.startswith("-"):
        return False
    head = arg.split("::", 1)[0]
    return "/" in head or "::" in arg or bool(_EXTENSION.search(head)) or head == "."


def norm_path(path: str, root: str | None) -> str:
    if root and path.startswith("/"):
        base = root.rstrip("/")
        if path == base:
            return "."
        if path.startswith(base + "/"):
            path = path[len(base) + 1 :]
    while path.startswith("./"):
        path = path[2:]
    if "/" in path:
        path = posixpath.normpath(path)
        if path.startswith("//"):  # normpath keeps a leading "//" (POSIX), we do not
            path = "/" + path.lstrip("/")
    return path or "."


def join_folder(folder: str, target: str, root: str | None, *, outside_is_root: bool) -> str:
    """The folder ``target`` names when taken from ``folder`` (both repository-relative):
    ``?`` when it cannot be known (empty, ``~``, ``$X``, or relative to an unknown folder).
    An absolute folder outside ``root`` stays absolute, or with ``outside_is_root`` is the
    root: agents start with ``cd /abs/checkout &&``, and another checkout (a worktree) of
    the same repository is the same place, while a program's own folder option naming
    another absolute folder may be a sibling repository."""
    if not target or target.startswith(("~", "$")):
        return "?"
    if target.startswith("/"):
        inside = norm_path(target, root)
        return "." if outside_is_root and inside.startswith("/") else inside
    if folder == "?":
        return "?"
    joined = posixpath.normpath(posixpath.join(folder, target))
    return "." if joined in ("", ".") else joined


def normalize_arg(arg: str, root: str | None = None) -> str:
    """One argument with trivial path differences removed; selectors keep their ``::``."""
    if not is_path_like(arg):
        return arg
    head, sep, tail = arg.partition("::")
    return norm_path(head, root) + sep + tail


def same_path(a: str, b: str) -> bool:
    """Equal, or one absolute path ends with ``/`` + the other (relative) path."""
    if a == b:
        return True
    if a.startswith("/") and not b.startswith("/") and b not in (".", ""):
        return a.endswith("/" + b)
    if b.startswith("/") and not a.startswith("/") and a not in (".", ""):
        return b.endswith("/" + a)
    return False


def same_arg(a: str, b: str) -> bool:
    if a == b:
        return True
    a_head, a_sep, a_tail = a.partition("::")
    b_head, b_sep, b_tail = b.partition("::")
    return (a_sep, a_tail) == (b_sep, b_tail) and same_path(a_head, b_head)


def _target_dir(path: str) -> str:
    # "pkg/..." (Go) names the folder pkg and everything below it; "..." the root.
    if path in ("...", "./..."):
        return "."
    return path[: -len("/...")] if path.endswith("/...") else path


def overlap(a: str, b: str) -> bool:
    """Same file, or one target is a folder holding the other (at file level)."""
    a, b = _target_dir(a.partition("::")[0]), _target_dir(b.partition("::")[0])
    if same_path(a, b) or "." in (a, b):
        return True
    for inner, outer in ((a, b), (b, a)):
        if inner.startswith(outer + "/"):
            return True
        if inner.startswith("/") and not outer.startswith("/") and f"/{outer}/" in inner:
            return True  # an absolute form of a path below the relative folder
    return False


def multiset_equal(a: Sequence[object], b: Sequence[object], eq: Callable) -> bool:
    if len(a) != len(b):
        return False
    unmatched = list(b)
    for item in a:
        for index, other in enumerate(unmatched):
            if eq(item, other):
                del unmatched[index]
                break
        else:
            return False
    return True
