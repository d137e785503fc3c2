# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The provider entry points, listed without :mod:`importlib.metadata`.

``importlib.metadata`` costs a command ~13 ms before it reads a byte (it imports
``email``, ``zipfile``, ``csv``, ...) and parses every distribution's whole ``METADATA``
with the email parser. Every ``loopx-recall`` command that loads plugins lists one group,
so this module does the same walk with ``os.listdir`` and plain text reads, and follows
``importlib.metadata``'s rules (tests/core/test_entry_points.py compares both, on the real
environment and on planted folders):

- the distributions are the ``*.dist-info`` and ``*.egg-info`` folders in each
  ``sys.path`` folder, in ``sys.path`` order (within a folder: grouped by normalized name
  in listing order, then an ``.egg`` folder's ``EGG-INFO``);
- a distribution found twice (same normalized name, taken from the folder name) counts
  once: the first on ``sys.path`` wins, as it does for the import system;
- a distribution's entry points are the rows of its ``entry_points.txt`` (``[group]``
  headers, ``name = value`` rows, ``#`` comments);
- ``load()`` imports ``module`` and walks ``:attr.path`` exactly as
  ``EntryPoint.load`` does (a malformed value fails the same way, as that one row).

A distribution's name and version are read from its folder's name, never from its
``METADATA``: ``NAME-VERSION.dist-info`` (what installers write, the wheel spec's escaped
name), ``NAME-VERSION(-pyX.Y).egg-info``, or the ``.egg`` folder an ``EGG-INFO`` sits in.
The name is given normalized (:func:`normalize_dist_name`, PEP 503: ``loopx-foo-bar``);
a folder name without a version (``NAME.egg-info``, from a legacy development install)
gives none.

Two rules differ on purpose. First, ``importlib.metadata`` fails the whole listing (a
``TypeError`` on Python 3.11, a ``ValueError`` on others) when any ``entry_points.txt``
row anywhere lacks ``=`` (an unrelated distribution's ``[console_scripts]`` included).
Here rows of other groups are never parsed, and such a row in the group asked for is
listed as a :class:`ProviderEntryPoint` with ``malformed`` set, named ``<malformed row
N>`` (its line; the text is not repeated), whose ``load()`` raises
:class:`MalformedEntryPoint`: the plugin host records that one entry point as broken,
and every other one still loads.

Second, ``importlib.metadata`` raises ``UnicodeDecodeError`` for any ``entry_points.txt``
or ``METADATA`` that is not UTF-8. Here ``entry_points.txt`` is decoded with
``surrogateescape`` and ``METADATA`` is never read: other groups' rows are never looked
at, and a row of the group that is not UTF-8 (``<unreadable row N>``), or an entry point
whose distribution's folder name is not (listed under the part of the name that is),
raises :class:`UnreadableEntryPoint` from ``load()``: one broken entry point.
:func:`distribution_text` and :func:`distribution_identity` read ``importlib.metadata``
distributions the same way.

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
from importlib.machinery import PathFinder
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.metadata import Distribution

__all__ = [
    "MalformedEntryPoint",
    "ProviderEntryPoint",
    "UnreadableEntryPoint",
    "distribution_identity",
    "distribution_text",
    "entry_points",
    "group_entry_points",
    "normalize_dist_name",
]

#: ``importlib.metadata.EntryPoint.pattern``
_PATTERN = re.compile(
    r"(?P<module>[\w.]+)\s*"
    r"(:\s*(?P<attr>[\w.]+)\s*)?"
    r"((?P<extras>\[.*\])\s*)?$"
)


class MalformedEntryPoint(ValueError):
    """An ``entry_points.txt`` row of the group has no ``=``: there is nothing to load."""


class UnreadableEntryPoint(ValueError):
    """An entry point of the group whose row, or whose distribution's name or version, is
    not UTF-8. ``str()`` says which, in fixed words (never the bytes): safe to print."""


#: What an unreadable entry point could not read, as :class:`UnreadableEntryPoint` says it.
UNREADABLE_ROW = "its entry_points.txt row is not UTF-8"
UNREADABLE_METADATA = "its distribution's name or version (metadata folder name) is not UTF-8"


class ProviderEntryPoint:
    """One ``name = value`` row of a group, with its distribution's name and version and
    the distribution's metadata folder (None when ``importlib.metadata`` gives none)."""

    __slots__ = (
        "distribution",
        "folder",
        "group",
        "malformed",
        "name",
        "unreadable",
        "value",
        "version",
    )

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
        folder: str | None = None,
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
        self.folder = folder

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


def normalize_dist_name(name: str) -> str:
    """PEP 503 normalization, so ``Foo_Bar`` and ``foo-bar`` name the same distribution
    (``importlib.metadata`` tells distributions apart by the same rule)."""
    return re.sub(r"[-_.]+", "-", name).lower()


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


def _folder_parts(folder: str) -> tuple[str, str | None]:
    """The normalized name and the version a metadata folder's name gives (see the module
    docstring), bytes that are not UTF-8 kept as lone surrogates."""
    base = os.path.basename(folder.rstrip("/" + os.sep))
    if base.lower() == "egg-info":  # an .egg's EGG-INFO: the .egg folder names it
        base = os.path.basename(os.path.dirname(folder.rstrip("/" + os.sep)))
    name, _sep, rest = os.path.splitext(base)[0].partition("-")
    return normalize_dist_name(name), rest.partition("-")[0] or None


def _folder_identity(folder: str) -> tuple[str | None, str | None, bool]:
    """``(name, version, readable)`` from a metadata folder's name; a part that is not
    UTF-8 is None, and then ``readable`` is False."""
    name, version = _folder_parts(folder)
    readable = _readable(name) is not None and (version is None or not _unreadable(version))
    return _readable(name), _readable(version), readable


def distribution_identity(dist: Distribution) -> tuple[str | None, str | None, bool]:
    """``(name, version, readable)`` of an ``importlib.metadata`` distribution, read as
    :func:`entry_points` reads them: from its folder's name. A distribution without a
    folder (another finder's) is asked for its own ``name`` and ``version``."""
    folder = _dist_folder(dist)
    if folder is not None:
        return _folder_identity(folder)
    try:
        return normalize_dist_name(dist.name), dist.version, True
    except Exception:  # noqa: BLE001 - METADATA not UTF-8, or none: nothing names it
        return None, None, False


def _dist_folder(dist: Distribution) -> str | None:
    # a PathDistribution's folder (a zipfile.Path inside an archive); other kinds have none
    path = getattr(dist, "_path", None)
    return None if path is None else str(path)


def group_entry_points(
    text: str,
    group: str,
    distribution: str | None = None,
    version: str | None = None,
    *,
    metadata_readable: bool = True,
    folder: str | None = None,
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
                name.strip(),
                value.strip(),
                *where,
                malformed=malformed,
                unreadable=unreadable,
                folder=folder,
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
            name = normalize_dist_name(low.rpartition(".")[0].partition("-")[0])
            infos.setdefault(name, []).append(os.path.join(root, child))
        elif base.endswith(".egg") and low == "egg-info":
            eggs.append(os.path.join(root, child))
    return [*(path for paths in infos.values() for path in paths), *eggs]


def _walkable() -> bool:
    """Whether the plain walk sees every distribution ``importlib.metadata`` would."""
    for finder in sys.meta_path:
        if finder is not PathFinder and getattr(finder, "find_distributions", None):
            return False
    return not any(entry and os.path.isfile(entry) for entry in sys.path)


def _from_importlib(group: str) -> list[ProviderEntryPoint]:
    """The group's entry points of every distribution ``importlib.metadata`` finds (the
    first of each name), read with :func:`group_entry_points` and
    :func:`distribution_identity`: a row without ``=`` or a byte that is not UTF-8,
    anywhere, makes ``metadata.entry_points()`` raise; this never does."""
    from importlib import metadata

    found: list[ProviderEntryPoint] = []
    seen: set[str] = set()
    for dist in metadata.distributions():
        name, version, readable = distribution_identity(dist)
        folder = _dist_folder(dist)
        key = _folder_parts(folder)[0] if folder is not None else name
        if key is not None and key in seen:
            continue
        if key is not None:
            seen.add(key)
        text = distribution_text(dist, "entry_points.txt") or ""
        found.extend(
            group_entry_points(
                text, group, name, version, metadata_readable=readable, folder=folder
            )
        )
    return found


def entry_points(group: str) -> list[ProviderEntryPoint]:
    """Every entry point of ``group`` in the installed distributions, in the order
    ``importlib.metadata.entry_points(group=group)`` lists them."""
    if not _walkable():
        return _from_importlib(group)
    found: list[ProviderEntryPoint] = []
    seen: set[str] = set()
    for root in sys.path:
        for folder in _folders(root):
            key = _folder_parts(folder)[0]
            if key in seen:
                continue
            seen.add(key)
            name, version, readable = _folder_identity(folder)
            text = _read_text(os.path.join(folder, "entry_points.txt")) or ""
            found.extend(
                group_entry_points(
                    text, group, name, version, metadata_readable=readable, folder=folder
                )
            )
    return found
