# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""What a program's command-line spec says: its options (every spelling, whether each
takes a value), its subcommands and their aliases, and where its arguments are a command.

The facts come from ``@withfig/autocomplete`` (MIT; the package and version are in
``specs/SOURCE.json``, its licence in ``specs/LICENSE``), turned into one small JSON file
per program by ``scripts/generate-cli-specs``. Only the file of the program in question is
read, once per process. The file's form (written by ``scripts/cli-specs-extract.mjs``)::

    {"o": [option, ...], "s": {name: node | alias-of-name}, "a": "ac", "p": 1, "l": "x/y"}

An option is ``"-C --directory"`` (its spellings, taking no value) or
``["-C --directory", arity, bits]``: arity 1 takes a value, 2 takes one only attached
(``--opt=v``, ``-ov``); bits: 1 persistent (holds for every subcommand below), 2 its
value is a secret (by the option's name), 4 it runs the program in another folder (by
its description), 8 its value only after ``=``. ``a`` has a letter per positional
argument (``c``: a command line, ``v``: variadic, ``o``: optional, ``a``: one); ``p``:
single-dash options are never clusters (Fig's ``flagsArePosixNoncompliant``); ``l``: the
node is in another file.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, NamedTuple

__all__ = ["FOLDER", "SECRET", "Node", "Option", "may_take_secret", "program_spec"]

PERSISTENT = 1
SECRET = 2
FOLDER = 4
SEPARATOR = 8

# os.path, not pathlib: the guard's hot path reads a spec, and pathlib's import costs more
_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "specs")
_LOADED: dict[str, dict[str, Any] | None] = {}
_SECRETS: dict[str, bool] = {}
_NAMES: frozenset[str] | None = None
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}(?:/[A-Za-z0-9][A-Za-z0-9._+-]{0,63}){0,3}\Z")


class Option(NamedTuple):
    canonical: str  # the longest spelling (ties: the first)
    spellings: tuple[str, ...]
    arity: int  # 0 no value, 1 a value, 2 a value only attached
    bits: int

    @property
    def secret(self) -> bool:
        return bool(self.bits & SECRET)


class Node:
    """One command or subcommand of a spec, read lazily."""

    __slots__ = ("_options", "_raw", "inherited")

    def __init__(self, raw: dict[str, Any], inherited: dict[str, Option] | None = None) -> None:
        self._raw = raw
        self._options: dict[str, Option] | None = None
        self.inherited = inherited or {}

    @property
    def options(self) -> dict[str, Option]:
        """Every spelling -> its option: this node's own and the persistent ones above."""
        if self._options is None:
            options = dict(self.inherited)
            for entry in self._raw.get("o", ()):
                text, arity, bits = (entry, 0, 0) if isinstance(entry, str) else entry
                # Some specs write the value into the name (wget: "--output-document=FILE"):
                # the name is what comes before "=", and the option takes a value.
                named = [word.partition("=") for word in text.split()]
                spellings = tuple(name for name, _, _ in named if name)
                if not spellings:
                    continue
                if not arity and any(eq for _, eq, _ in named):
                    arity = 1
                canonical = max(spellings, key=len)
                option = Option(canonical, spellings, int(arity), int(bits))
                for spelling in spellings:
                    options[spelling] = option
            self._options = options
        return self._options

    @property
    def posix_noncompliant(self) -> bool:
        return bool(self._raw.get("p"))

    @property
    def options_first(self) -> bool:
        """Options only before the first argument (Fig's ``optionsMustPrecedeArguments``)."""
        return bool(self._raw.get("m"))

    @property
    def arguments(self) -> str:
        return str(self._raw.get("a", ""))

    def subcommand(self, word: str) -> tuple[str, Node] | None:
        """The canonical name and node of subcommand ``word`` (an alias too), or None."""
        subs = self._raw.get("s")
        if not subs or word not in subs:
            return None
        entry = subs[word]
        name = word
        if isinstance(entry, str):
            name, entry = entry, subs.get(entry)
            if not isinstance(entry, dict):
                return None
        if "l" in entry and len(entry) == 1:
            loaded = _load(str(entry["l"]))
            entry = loaded if loaded is not None else {}
        persistent = {k: v for k, v in self.options.items() if v.bits & PERSISTENT}
        return name, Node(entry, persistent)

    @property
    def has_subcommands(self) -> bool:
        return bool(self._raw.get("s"))


def _load(name: str) -> dict[str, Any] | None:
    """The spec file of ``name`` (``aws`` or ``aws/s3``), read once per process."""
    if name in _LOADED:
        return _LOADED[name]
    raw: Any = None
    if _NAME.match(name) and ".." not in name:
        try:
            with open(os.path.join(_DATA, name + ".json"), encoding="utf-8") as file:
                raw = json.load(file)
        except (OSError, ValueError):
            raw = None
    if len(_LOADED) < 256:
        _LOADED[name] = raw if isinstance(raw, dict) else None
    return raw if isinstance(raw, dict) else None


def program_spec(program: str) -> Node | None:
    """The spec of ``program`` (its name as run, without a folder), or None: an unknown
    program is compared word for word."""
    raw = _load(program)
    return None if raw is None else Node(raw)


def _any_secret(node: Any) -> bool:
    if not isinstance(node, dict):
        return False
    if "l" in node and len(node) == 1:
        return True  # in another file: maybe (not read until the program's words are)
    for entry in node.get("o", ()):
        if isinstance(entry, list) and len(entry) == 3 and int(entry[2]) & SECRET:
            return True
    return any(_any_secret(child) for child in (node.get("s") or {}).values())


def may_take_secret(program: str) -> bool:
    """Whether ``program``'s spec has an option whose value is a secret (the SECRET bit)
    anywhere in its tree, or a part in another file that may have one; False for a
    program without a spec. Cheap: the program's file list is read once per process, and
    only a program named there has its own file read (once)."""
    global _NAMES
    if program in _SECRETS:
        return _SECRETS[program]
    if _NAMES is None:
        try:
            _NAMES = frozenset(n[:-5] for n in os.listdir(_DATA) if n.endswith(".json"))
        except OSError:
            _NAMES = frozenset()
    found = program in _NAMES and _any_secret(_load(program))
    if len(_SECRETS) < 1024:
        _SECRETS[program] = found
    return found
