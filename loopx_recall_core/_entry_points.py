# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The provider entry points, listed without :mod:`importlib.metadata`.

``importlib.metadata`` costs a command ~13 ms before it reads a byte (it imports
``email``, ``zipfile``, ``csv``, ...) and parses every distribution's whole ``METADATA``
with the email parser. Every ``loopx-recall`` command that loads plugins lists one group,
so this module does the same walk with ``os.listdir`` and plain text reads, and follows
``importlib.metadata``'s rules (tests/test_entry_points.py compares both, on the real
environment and on planted folders):

- the distributions are the ``*.dist-info`` and ``*.egg-info`` folders in each
  ``sys.path`` folder, in ``sys.path`` order (within a folder: grouped by normalized name
  in listing order, then an ``.egg`` folder's ``EGG-INFO``);
- a distribution found twice (same normalized name, taken from the folder name) counts
  once: the first on ``sys.path`` wins, as it does for the import system;
- a distribution's entry points are the rows of its ``entry_points.txt`` (``[group]``
  headers, ``name = value`` rows, ``#`` comments);
- its name and version are the first ``Name:`` and ``Version:`` header fields of its
  ``METADATA`` (or ``PKG-INFO``), with the email parser's rules (folding, a Unix
  ``From`` line or a line without a header name skipped, not the end of the headers) and
  ``importlib.metadata``'s re-indenting of a folded value;
- ``load()`` imports ``module`` and walks ``:attr.path`` exactly as
  ``EntryPoint.load`` does (a malformed value fails the same way, as that one row).

Two rules differ on purpose. First, ``importlib.metadata`` fails the whole listing (a
``TypeError`` on Python 3.11, a ``ValueError`` on others) when any ``entry_points.txt``
row anywhere lacks ``=`` (an unrelated distribution's ``[console_scripts]`` included).
Here rows of other groups are never parsed, and such a row in the group asked for is
listed as a :class:`ProviderEntryPoint` with ``malformed`` set, named ``<malformed row
N>`` (its line; the text is not repeated), whose ``load()`` raises
:class:`MalformedEntryPoint`: the plugin host records that one entry point as broken,
and every other one still loads.

Second, ``importlib.metadata`` raises ``UnicodeDecodeError`` for any ``entry_points.txt``
or ``METADATA`` that is not UTF-8. Here files are decoded with ``surrogateescape``: other
groups' rows and the rest of a ``METADATA`` are never looked at, and a row of the group
that is not UTF-8 (``<unreadable row N>``), or an entry point whose distribution's name or
version is not (listed under its folder's name), raises :class:`UnreadableEntryPoint`
from ``load()``: one broken entry point. :func:`distribution_text` and
:func:`distribution_fields` read ``importlib.metadata`` distributions the same way.

Reading the files directly was chosen over a cache of ``importlib.metadata``'s answer: no
file to keep fresh, nothing written, and the rules above are short. Whatever this walk
does not read the same way is handed to ``importlib.metadata`` itself: a zip archive on
``sys.path``, or an import hook that lists distributions of its own.
"""

from __future__ import annotations

import functools
import importlib
import os
import re
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.metadata import Distribution

__all__ = [
    "MalformedEntryPoint",
    "ProviderEntryPoint",
    "UnreadableEntryPoint",
    "distribution_fields",
    "distribution_text",
    "entry_points",
    "group_entry_points",
]

#: ``importlib.metadata.EntryPoint.pattern``
_PATTERN = re.compile(
    r"(?P<module>[\w.]+)\s*"
    r"(:\s*(?P<attr>[\w.]+)\s*)?"
    r"((?P<extras>\[.*\])\s*)?$"
)
#: The email parser's (compat32) header line and line ends.
_HEADER = re.compile(r"[\041-\071\073-\176]*:")
_LINE_END = re.compile(r"(\r\n|\r|\n)")


class MalformedEntryPoint(ValueError):
    """An ``entry_points.txt`` row of the group has no ``=``: there is nothing to load."""


class UnreadableEntryPoint(ValueError):
    """An entry point of the group whose row, or whose distribution's name or version, is
    not UTF-8. ``str()`` says which, in fixed words (never the bytes): safe to print."""


#: What an unreadable entry point could not read, as :class:`UnreadableEntryPoint` says it.
UNREADABLE_ROW = "its entry_points.txt row is not UTF-8"
UNREADABLE_METADATA = "its distribution's name or version (METADATA) is not UTF-8"


class ProviderEntryPoint:
    """One ``name = value`` row of a group, with its distribution's name and version."""

    __slots__ = ("distribution", "group", "malformed", "name", "unreadable", "value", "version")

    def __init__(
        self,
        name: str,
        value: str,
        group: str,
        distribution: str | None,
        version: str | None,
        *,
        malformed: bool = False,
        unreadable: str | None = None,
    ) -> None:
        self.name = name
        self.value = value
        self.group = group
        self.distribution = distribution
        self.version = version
        #: a row without ``=`` (``name`` is then ``<malformed row N>``, ``value`` empty)
        self.malformed = malformed
        #: :data:`UNREADABLE_ROW` (``name`` is ``<unreadable row N>``, ``value`` empty),
        #: :data:`UNREADABLE_METADATA`, or None
        self.unreadable = unreadable

    def load(self) -> object:
        """What ``importlib.metadata.EntryPoint.load`` returns (and raises); a malformed or
        unreadable one raises :class:`MalformedEntryPoint` or :class:`UnreadableEntryPoint`."""
        if self.unreadable is not None:
            raise UnreadableEntryPoint(self.unreadable)
        if self.malformed:
            raise MalformedEntryPoint("malformed entry_points.txt row")
        match = _PATTERN.match(self.value)
        module = importlib.import_module(match.group("module"))  # type: ignore[union-attr]
        attributes = filter(None, (match.group("attr") or "").split("."))  # type: ignore[union-attr]
        return functools.reduce(getattr, attributes, module)

    def __repr__(self) -> str:
        return f"ProviderEntryPoint({self.name!r}, {self.value!r}, {self.distribution!r})"


def _normalize(name: str) -> str:
    # importlib.metadata's Prepared.normalize
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


#: A byte that is not UTF-8, decoded with surrogateescape (or a lone surrogate otherwise).
_SURROGATE = re.compile("[\ud800-\udfff]")


def _unreadable(text: str) -> bool:
    return _SURROGATE.search(text) is not None


def _readable(text: str | None) -> str | None:
    # a name that is not UTF-8 (a folder's) could be neither printed nor written as JSON
    return None if text is None or _unreadable(text) else text


def _read_text(path: str) -> str | None:
    # PathDistribution.read_text: a missing or unreadable file is no text; bytes that are
    # not UTF-8 are kept as lone surrogates, for the rows and fields that need them
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as handle:
            return handle.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
        return None


def distribution_text(dist: Distribution, filename: str) -> str | None:
    """``dist.read_text(filename)`` of an ``importlib.metadata`` distribution, with bytes
    that are not UTF-8 kept as lone surrogates instead of raising ``UnicodeDecodeError``."""
    try:
        return dist.read_text(filename)
    except UnicodeDecodeError:
        pass
    try:
        # PathDistribution (a folder or a zip archive): the file's bytes, decoded as above
        raw: bytes = dist._path.joinpath(filename).read_bytes()  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - another kind of distribution: no text to read
        return None
    return raw.decode("utf-8", "surrogateescape")


def distribution_fields(dist: Distribution) -> tuple[str | None, str | None, bool]:
    """``(name, version, readable)`` of an ``importlib.metadata`` distribution, read as
    :func:`entry_points` reads them; when the name or version is not UTF-8, ``readable``
    is False and the name is the one its folder gives (``None`` without one)."""
    text = distribution_text(dist, "METADATA") or distribution_text(dist, "PKG-INFO") or ""
    fields = _fields_of(text)
    try:
        # PathDistribution's is its folder's name; another kind reads its METADATA
        folder_name = dist._normalized_name if fields is None else None  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - then nothing names it
        folder_name = None
    return _identity(fields, folder_name)


def _identity(
    fields: dict[str, str] | None, folder_name: str | None
) -> tuple[str | None, str | None, bool]:
    if fields is None:  # the name or version is not UTF-8: the folder's name stands in
        return _readable(folder_name), None, False
    return fields.get("name"), fields.get("version"), True


def _header_fields(text: str, wanted: tuple[str, ...]) -> dict[str, str]:
    """The first value of each ``wanted`` header (lower-case names), as
    ``email.message_from_string(text)[name]`` reads it."""
    found: dict[str, str] = {}
    current: list[str] | None = None
    parts = _LINE_END.split(text)
    lines = [
        parts[i] + (parts[i + 1] if i + 1 < len(parts) else "") for i in range(0, len(parts), 2)
    ]
    fields: list[tuple[str, list[str]]] = []
    for line in lines:
        if line[:1] in (" ", "\t"):
            if current is not None:  # a continuation of nothing is dropped
                current.append(line)
            continue
        if (
            not line
            or _LINE_END.fullmatch(line)
            or not (line.startswith("From ") or _HEADER.match(line))
        ):
            break  # end of the headers
        current = None
        if line.startswith("From "):
            continue  # the Unix "From " line, or a misplaced one: skipped, not the end
        name, _sep, value = line.partition(":")
        if not name:
            continue  # ": value" has no header name: skipped, not the end
        current = [value.lstrip(" \t")]
        fields.append((name.lower(), current))
    for name, value_lines in fields:
        if name in wanted and name not in found:
            value = "".join(value_lines).rstrip("\r\n")
            if "\n" in value:  # importlib.metadata._adapters.Message's "redent"
                import textwrap

                value = textwrap.dedent(" " * 8 + value)
            found[name] = value
    return found


def _fields_of(text: str) -> dict[str, str] | None:
    """``name`` and ``version`` from a ``METADATA`` text, or None when either is not
    UTF-8 (what else in the file is not UTF-8 is never read)."""
    fields = _header_fields(text, ("name", "version"))
    return None if any(_unreadable(value) for value in fields.values()) else fields


def _metadata_fields(folder: str) -> dict[str, str] | None:
    """``name`` and ``version`` of the distribution whose metadata folder is ``folder``
    (None when either is not UTF-8)."""
    text = (
        _read_text(os.path.join(folder, "METADATA"))
        or _read_text(os.path.join(folder, "PKG-INFO"))
        or ""
    )
    return _fields_of(text)


def group_entry_points(
    text: str,
    group: str,
    distribution: str | None = None,
    version: str | None = None,
    *,
    metadata_readable: bool = True,
) -> list[ProviderEntryPoint]:
    """The entry points of ``group`` in an ``entry_points.txt`` text, its rows read as
    ``importlib.metadata``'s ``Sectioned`` reads them; other groups' rows are not parsed.
    Rows without ``=`` or not UTF-8 are ``<malformed row N>`` or ``<unreadable row N>`` (N
    their line); without ``metadata_readable`` every other row is unreadable too."""
    found: list[ProviderEntryPoint] = []
    current = None
    where = (group, distribution, version)
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line.strip("[]")
            continue
        if current != group:
            continue
        name, sep, value = line.partition("=")
        malformed, unreadable = False, None if metadata_readable else UNREADABLE_METADATA
        if _unreadable(line):
            name, value, unreadable = f"<unreadable row {number}>", "", UNREADABLE_ROW
        elif not sep:
            name, malformed, unreadable = f"<malformed row {number}>", True, None
        found.append(
            ProviderEntryPoint(
                name.strip(), value.strip(), *where, malformed=malformed, unreadable=unreadable
            )
        )
    return found


def _folders(root: str) -> list[str]:
    """The metadata folders of one ``sys.path`` entry, in importlib.metadata's order."""
    try:
        children = os.listdir(root or ".")
    except Exception:  # noqa: BLE001 - importlib.metadata lists nothing there either
        return []
    base = os.path.basename(root).lower()
    infos: dict[str, list[str]] = {}
    eggs: list[str] = []
    for child in children:
        low = child.lower()
        if low.endswith((".dist-info", ".egg-info")):
            name = _normalize(low.rpartition(".")[0].partition("-")[0])
            infos.setdefault(name, []).append(os.path.join(root, child))
        elif base.endswith(".egg") and low == "egg-info":
            eggs.append(os.path.join(root, child))
    return [*(path for paths in infos.values() for path in paths), *eggs]


def _dist_key(folder: str) -> str | None:
    # PathDistribution._normalized_name, from the folder's name where it can
    filename, ext = os.path.splitext(os.path.basename(folder))
    if ext not in (".dist-info", ".egg-info"):
        return None
    return _normalize(filename.partition("-")[0])


def _walkable() -> bool:
    """Whether the plain walk sees every distribution ``importlib.metadata`` would."""
    from importlib.machinery import PathFinder

    for finder in sys.meta_path:
        if finder is not PathFinder and getattr(finder, "find_distributions", None):
            return False
    return not any(entry and os.path.isfile(entry) for entry in sys.path)


def _from_importlib(group: str) -> list[ProviderEntryPoint]:
    from importlib import metadata

    try:
        found = []
        for entry_point in metadata.entry_points(group=group):
            dist = entry_point.dist
            found.append(
                ProviderEntryPoint(
                    entry_point.name,
                    entry_point.value,
                    group,
                    dist.name if dist is not None else None,
                    dist.version if dist is not None else None,
                )
            )
    except (TypeError, ValueError):  # a row without "=", or UnicodeDecodeError, anywhere
        return _from_importlib_rows(group)
    return found


def _from_importlib_rows(group: str) -> list[ProviderEntryPoint]:
    """The group's entry points of every distribution ``importlib.metadata`` finds (the
    first of each name), read with :func:`group_entry_points`."""
    from importlib import metadata

    found: list[ProviderEntryPoint] = []
    seen: set[str] = set()
    for dist in metadata.distributions():
        name, version, readable = distribution_fields(dist)
        key = _normalize(name) if name else None
        if key is not None and key in seen:
            continue
        if key is not None:
            seen.add(key)
        text = distribution_text(dist, "entry_points.txt") or ""
        found.extend(group_entry_points(text, group, name, version, metadata_readable=readable))
    return found


def entry_points(group: str) -> list[ProviderEntryPoint]:
    """Every entry point of ``group`` in the installed distributions, in the order
    ``importlib.metadata.entry_points(group=group)`` lists them."""
    if not _walkable():
        return _from_importlib(group)
    found: list[ProviderEntryPoint] = []
    seen: set[str | None] = set()
    for root in sys.path:
        for folder in _folders(root):
            key = _dist_key(folder)
            if key is None:  # an .egg's EGG-INFO: its name is in its metadata
                name = (_metadata_fields(folder) or {}).get("name")
                key = _normalize(name) if name is not None else None
            if key in seen:
                continue
            seen.add(key)
            text = _read_text(os.path.join(folder, "entry_points.txt")) or ""
            if not group_entry_points(text, group):
                continue  # the distribution's metadata is read only when it has some
            name, version, readable = _identity(_metadata_fields(folder), key)
            found.extend(group_entry_points(text, group, name, version, metadata_readable=readable))
    return found
