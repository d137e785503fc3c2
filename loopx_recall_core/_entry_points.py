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

One rule differs on purpose. ``importlib.metadata`` fails the whole listing (a
``TypeError`` on Python 3.11, a ``ValueError`` on others) when any ``entry_points.txt``
row anywhere lacks ``=`` (an unrelated distribution's ``[console_scripts]`` included).
Here rows of other groups are never parsed, and such a row in the group asked for is
listed as a :class:`ProviderEntryPoint` with ``malformed`` set, named ``<malformed row
N>`` (its line; the text is not repeated), whose ``load()`` raises
:class:`MalformedEntryPoint`: the plugin host records that one entry point as broken,
and every other one still loads.

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

__all__ = ["MalformedEntryPoint", "ProviderEntryPoint", "entry_points", "group_rows"]

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


class ProviderEntryPoint:
    """One ``name = value`` row of a group, with its distribution's name and version."""

    __slots__ = ("distribution", "group", "malformed", "name", "value", "version")

    def __init__(
        self,
        name: str,
        value: str,
        group: str,
        distribution: str | None,
        version: str | None,
        *,
        malformed: bool = False,
    ) -> None:
        self.name = name
        self.value = value
        self.group = group
        self.distribution = distribution
        self.version = version
        #: a row without ``=`` (``name`` is then ``<malformed row N>``, ``value`` empty)
        self.malformed = malformed

    def load(self) -> object:
        """What ``importlib.metadata.EntryPoint.load`` returns (and raises); a malformed
        row raises :class:`MalformedEntryPoint`."""
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


def _read_text(path: str) -> str | None:
    # PathDistribution.read_text: a missing or unreadable file is no text
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
        return None


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


def _metadata_fields(folder: str) -> dict[str, str]:
    """``name`` and ``version`` of the distribution whose metadata folder is ``folder``."""
    text = (
        _read_text(os.path.join(folder, "METADATA"))
        or _read_text(os.path.join(folder, "PKG-INFO"))
        or ""
    )
    return _header_fields(text, ("name", "version"))


def group_rows(text: str, group: str) -> list[tuple[str, str | None]]:
    """``(name, value)`` rows of ``group`` in an ``entry_points.txt`` text, as
    ``importlib.metadata``'s ``Sectioned`` reads them; other groups' rows are not parsed.

    A row without ``=`` (``importlib.metadata`` fails the whole listing there) is
    ``("<malformed row N>", None)``, N its line in the file.
    """
    rows: list[tuple[str, str | None]] = []
    current = None
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
        if not sep:
            rows.append((f"<malformed row {number}>", None))
            continue
        rows.append((name.strip(), value.strip()))
    return rows


def _entry_point(
    name: str, value: str | None, group: str, distribution: str | None, version: str | None
) -> ProviderEntryPoint:
    if value is None:
        return ProviderEntryPoint(name, "", group, distribution, version, malformed=True)
    return ProviderEntryPoint(name, value, group, distribution, version)


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
        listed = metadata.entry_points(group=group)
    except (TypeError, ValueError):  # a row without "=" somewhere: read each one's rows
        return _from_importlib_rows(group)
    found = []
    for entry_point in listed:
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
    return found


def _from_importlib_rows(group: str) -> list[ProviderEntryPoint]:
    """The group's rows of every distribution ``importlib.metadata`` finds (the first of
    each name), read with :func:`group_rows`."""
    from importlib import metadata

    found: list[ProviderEntryPoint] = []
    seen: set[str] = set()
    for dist in metadata.distributions():
        name = dist.metadata["Name"]
        key = _normalize(name) if name else None
        if key is not None and key in seen:
            continue
        if key is not None:
            seen.add(key)
        text = dist.read_text("entry_points.txt") or ""
        found.extend(
            _entry_point(row_name, value, group, name, dist.version)
            for row_name, value in group_rows(text, group)
        )
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
                name = _metadata_fields(folder).get("name")
                key = _normalize(name) if name is not None else None
            if key in seen:
                continue
            seen.add(key)
            text = _read_text(os.path.join(folder, "entry_points.txt"))
            rows = group_rows(text or "", group)
            if not rows:
                continue
            fields = _metadata_fields(folder)
            found.extend(
                _entry_point(name, value, group, fields.get("name"), fields.get("version"))
                for name, value in rows
            )
    return found
