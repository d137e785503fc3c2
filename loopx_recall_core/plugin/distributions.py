# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Provider distributions, which the ``loopx-recall extension`` commands call extensions:
what is installed, and installing and removing them with pip (as library functions those
commands call). The catalogue of known ones is :mod:`loopx_recall_core.plugin.catalogue`. Not to
be confused with :mod:`loopx_recall_core.loopx_protocol`: loopx-recall itself as an
extension of LoopX.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from loopx_recall_core.plugin import _entry_points, manager
from loopx_recall_core.plugin._entry_points import normalize_dist_name
from loopx_recall_core.plugin._pip import PipFailed, pip_install, pip_uninstall
from loopx_recall_core.plugin.catalogue import KnownExtension, catalogue, did_you_mean, find_known
from loopx_recall_core.plugin.manager import (
    PluginHost,
    call_with_deadline,
    load_host,
    recall_providers,
    safe_readback,
    selected_distributions,
)
from loopx_recall_core.plugin.protocols import ENTRY_POINT_GROUP
from loopx_recall_core.process import UNCONTAINED
from loopx_recall_core.state import Enablement, StateError, StateStore

if TYPE_CHECKING:
    # imported where used: `capability status` reads the catalogue, not the installed set
    from importlib import metadata

__all__ = [
    "ExtensionRefused", "InstalledExtension", "KnownExtension", "PipFailed", "UninstallTarget",
    "arrived", "catalogue", "check_install_spec", "extension_list", "find_known", "install",
    "installed_extensions", "installed_view", "requirement_name", "uninstall",
    "uninstall_target",
]  # fmt: skip


class ExtensionRefused(Exception):
    """An extension command refused before pip ran (or after, when nothing arrived); the
    message is safe to print."""


@attrs.frozen(kw_only=True)
class InstalledExtension:
    """An installed distribution that registers provider entry points (never imported)."""

    distribution: str
    version: str
    entry_points: tuple[str, ...]
    #: changes when pip (re)installs it, even at the same version
    fingerprint: str


def _entry_point_names(dist: metadata.Distribution) -> tuple[str, ...]:
    # entry_points.txt only: reading it imports nothing of the plugin. Not
    # dist.entry_points: one row without "=" in any group, or a byte that is not UTF-8,
    # makes that raise; read as the plugin host reads it (loopx_recall_core.plugin._entry_points).
    text = _entry_points.distribution_text(dist, "entry_points.txt") or ""
    return tuple(sorted(e.name for e in _entry_points.group_entry_points(text, ENTRY_POINT_GROUP)))


def _fingerprint(folder: str | None, version: str | None) -> str:
    stamp = ""
    for name in ("METADATA", "PKG-INFO"):  # rewritten by every (re)install
        with contextlib.suppress(OSError, TypeError):
            stamp = str(os.stat(os.path.join(folder, name)).st_mtime_ns)  # type: ignore[arg-type]
            break
    return f"{version}@{stamp}"


def installed_extensions() -> dict[str, InstalledExtension]:
    """Every installed distribution registering the provider group, by normalized name:
    the listing plugin loading uses (:func:`loopx_recall_core.plugin._entry_points.entry_points`),
    so a distribution is an extension here exactly when the host would load it."""
    rows: dict[str, list[_entry_points.ProviderEntryPoint]] = {}
    for entry_point in _entry_points.entry_points(ENTRY_POINT_GROUP):
        if entry_point.distribution:  # one on sys.path first wins, as for the import system
            rows.setdefault(entry_point.distribution, []).append(entry_point)
    return {
        name: InstalledExtension(
            distribution=name,
            version=found[0].version or "unknown",
            entry_points=tuple(sorted(e.name for e in found)),
            fingerprint=_fingerprint(found[0].folder, found[0].version),
        )
        for name, found in rows.items()
    }


def arrived(
    before: Mapping[str, InstalledExtension], after: Mapping[str, InstalledExtension]
) -> list[InstalledExtension]:
    """Extensions that are new, or were reinstalled or changed, between two snapshots."""
    return [ext for key, ext in sorted(after.items()) if before.get(key) != ext]


_REQUIREMENT_NAME = re.compile(
    r"\A\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:[\[<>=!~;@(]|\Z)"
)


def requirement_name(spec: str) -> str | None:
    """The distribution a NAME or REQUIREMENT names (None for a path or URL)."""
    known = find_known(spec)
    if known is not None:
        return known.distribution
    if Path(spec).exists():
        # a wheel names its distribution: NAME-VERSION(-BUILD)?-PY-ABI-PLATFORM.whl
        return Path(spec).name.split("-")[0] if spec.endswith(".whl") else None
    match = _REQUIREMENT_NAME.match(spec)
    return match.group(1) if match else None


def check_install_spec(spec: str) -> None:
    """Refuse what pip would read as an option (``-r FILE``, ``--index-url=...``, ...).

    The extension to install is one NAME, REQUIREMENT or PATH; pip options could pick the
    package index, a requirements file or a constraint that changes the host.
    """
    if not spec.strip():
        raise ExtensionRefused("the extension to install must not be blank")
    if any(word.startswith("-") for word in spec.split()):
        raise ExtensionRefused(
            "the extension must be a catalogue NAME, a pip REQUIREMENT or a local PATH, not "
            "a pip option (options such as -r, -c, -i or --index-url are refused; to install "
            "a path that starts with '-', write it as ./-name)"
        )


@attrs.frozen(kw_only=True)
class UninstallTarget:
    """An installed extension's distribution and its provider entry points."""

    distribution: str
    entry_points: tuple[str, ...]


def uninstall_target(name: str) -> UninstallTarget:
    """The installed distribution ``name`` refers to, or :class:`ExtensionRefused` when it
    is not a loopx-recall extension.

    Only distributions that register the ``loopx_recall_core.providers`` entry-point group
    are extensions; pip itself, click or any other package is refused, and so is
    loopx-recall-core. Nothing of the plugin is imported.
    """
    from importlib import metadata

    known = find_known(name)
    distribution = known.distribution if known else name
    if normalize_dist_name(distribution) == "loopx-recall-core":
        raise ExtensionRefused("refusing to uninstall loopx-recall-core itself; use pip for that")
    try:
        dist = metadata.distribution(distribution)
    except (metadata.PackageNotFoundError, ValueError):
        hint = did_you_mean(name, installed_extensions())
        raise ExtensionRefused(f"{distribution} is not installed{hint}") from None
    # importlib finds the distribution by its folder's name, pip removes it by the name
    # its METADATA gives: the two must be one name, and that name is what pip is told
    # (a METADATA that is not UTF-8 is named by its folder).
    wanted = normalize_dist_name(distribution)
    if normalize_dist_name(_metadata_name(dist) or "") != wanted:
        raise ExtensionRefused(
            f"{distribution}'s installed metadata names another distribution; refusing to "
            "uninstall it"
        )
    entry_points = _entry_point_names(dist)
    if not entry_points:
        raise ExtensionRefused(
            f"{wanted} is not a loopx-recall extension (it registers no {ENTRY_POINT_GROUP} "
            "entry point); refusing to uninstall it"
        )
    return UninstallTarget(distribution=wanted, entry_points=entry_points)


def _metadata_name(dist: metadata.Distribution) -> str | None:
    """The ``Name`` its METADATA gives (what pip reads), or its folder's when that is not
    UTF-8."""
    try:
        return dist.metadata["Name"]
    except UnicodeDecodeError:
        return _entry_points.distribution_identity(dist)[0]


#: How long ``uninstall`` waits for the extension's plugins to name their provider ids.
PROVIDED_IDS_DEADLINE_S = 5.0


def _fallback_ids(target: UninstallTarget) -> frozenset[str]:
    """What ``target`` is taken to provide when its plugins cannot say: its entry-point
    names and the catalogue names of its distribution."""
    wanted = normalize_dist_name(target.distribution)
    known = {k.name for k in catalogue() if normalize_dist_name(k.distribution) == wanted}
    return frozenset(target.entry_points) | known


def _loaded_ids(target: UninstallTarget) -> frozenset[str]:
    # Only this distribution's plugins are loaded, each isolated (a broken one is
    # recorded, never raised); an entry point that did not load or answer makes the
    # answer partial, so the fallback names count too.
    wanted = normalize_dist_name(target.distribution)
    host = load_host([target.distribution])
    ids = {
        provider.provider_id  # a non-blank str: recall_providers() returns no other
        for key, provider in recall_providers(host)
        if normalize_dist_name(host.record(key).distribution) == wanted  # type: ignore[union-attr]
    }
    answered = {
        record.entry_point
        for _key, record in host.keyed_records()
        if record.status == "loaded" and normalize_dist_name(record.distribution) == wanted
    }
    if any(name not in answered for name in target.entry_points):
        return frozenset(ids) | _fallback_ids(target)
    return frozenset(ids)


def _provided_ids(target: UninstallTarget) -> frozenset[str]:
    """The recall provider ids ``target``'s plugins contribute.

    The plugins are imported to ask them (an entry point's name is not a provider id),
    but a broken one can always be removed: the question runs in a daemon thread for
    :data:`PROVIDED_IDS_DEADLINE_S` seconds at most (a plugin whose import hangs is left
    behind), anything it raises is contained (never printed), and then, as when
    ``$LOOPX_RECALL_LOAD_PLUGINS`` leaves the distribution out, the answer is
    :func:`_fallback_ids`. A stop signal (Ctrl-C, SIGTERM) while it runs stops the
    command before pip does.
    """
    selected = selected_distributions()
    if selected is not None and normalize_dist_name(target.distribution) not in selected:
        return _fallback_ids(target)
    try:
        return call_with_deadline(lambda: _loaded_ids(target), PROVIDED_IDS_DEADLINE_S)
    except BaseException as exc:  # DeadlineExceeded, or whatever the plugin raised
        if isinstance(exc, UNCONTAINED):
            raise
        return _fallback_ids(target)


def uninstall(target: UninstallTarget, store: StateStore | None = None) -> list[Enablement]:
    """Remove ``target``'s distribution with pip; returns the enablements of its providers
    that stay in state (kept, as is every provider's data).

    Raises :class:`PipFailed` when pip is missing or fails.
    """
    provided = _provided_ids(target)  # before pip removes the plugin
    pip_uninstall(target.distribution)
    try:
        enablements = (store or StateStore()).read().enablements
    except StateError:
        return []
    return [e for e in enablements if e.provider_id in provided]


def _install_target(spec: str) -> tuple[str, str | None]:
    """pip target for NAME | REQUIREMENT | PATH, and the distribution when known."""
    known = find_known(spec)
    if known is not None and not Path(spec).exists():
        return known.distribution, known.distribution
    return spec, requirement_name(spec)


def install(spec: str, *, upgrade: bool = False, editable: bool = False) -> dict[str, Any]:
    """Install an extension by catalogue NAME, pip REQUIREMENT or local PATH; returns the
    ``loopx_extension_list_v0`` record with the distributions that ``arrived``.

    Raises :class:`ExtensionRefused` before pip runs for a pip option or a catalogue name
    that is not on the package index, and after it when no extension arrived (anything pip
    installed is left in place); :class:`PipFailed` when pip is missing or fails.
    """
    check_install_spec(spec)
    known = find_known(spec)
    if known is not None and not known.on_package_index and not Path(spec).exists():
        raise ExtensionRefused(known.not_on_index)
    target, distribution = _install_target(spec)
    before = installed_extensions()
    pip_install(target, upgrade=upgrade, editable=editable)
    importlib.invalidate_caches()
    after = installed_extensions()
    new = arrived(before, after)
    if not new and (distribution is None or normalize_dist_name(distribution) not in after):
        raise ExtensionRefused(
            "pip finished but no loopx-recall extension arrived: what it installed registers no "
            f"{ENTRY_POINT_GROUP} entry point. Check the name or path "
            "(`loopx-recall extension list --available` shows the catalogue) and that the "
            "package is a loopx provider extension; anything pip installed was left in "
            "place (remove it with pip)"
        )
    record = extension_list(load_host())
    record["arrived"] = [{"distribution": ext.distribution, "version": ext.version} for ext in new]
    return record


def extension_list(host: PluginHost | None = None, *, available: bool = False) -> dict[str, Any]:
    """The ``loopx_extension_list_v0`` record: installed extensions with their readiness
    (broken ones too) and, with ``available``, the catalogue marked installed or not
    (``host``: the installed plugins unless given)."""
    if host is None:
        host = manager.load_host()  # looked up here: tests stand a host in for it
    rows = installed_view(host)
    record: dict[str, Any] = {"schema_version": "loopx_extension_list_v0", "extensions": rows}
    if available:
        installed = {row["distribution"] for row in rows}
        record["available"] = [
            {
                **attrs.asdict(known),
                "install_command": known.install_command,
                "installed": known.distribution in installed,
            }
            for known in catalogue()
        ]
    return record


def installed_view(host: PluginHost) -> list[dict[str, Any]]:
    """One row per entry point: its distribution, status and providers' readbacks."""
    readbacks: dict[str, list[dict[str, Any]]] = {}
    for key, provider in recall_providers(host):
        readback = safe_readback(host, key, provider, None)
        readbacks.setdefault(key, []).append(
            {"capability": "agent-turn-recall", **readback.as_json()}
        )
    rows = []
    for key, record in host.keyed_records():
        known = find_known(record.distribution)
        found = readbacks.get(key, []) if record.status == "loaded" else []
        rows.append(
            {
                "name": known.name if known else record.distribution,
                **attrs.asdict(record),
                "ready": bool(found) and all(p["ready"] for p in found),
                "providers": found,
            }
        )
    return rows
