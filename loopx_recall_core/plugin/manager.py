# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The plugin host: loads entry points one at a time and contains their failures.

A plugin that fails to import, or raises while registering or answering a hook, is
recorded as broken (entry point, distribution, version, error class and a fixed one-line
message) and skipped, even when it calls ``sys.exit()``; a stop signal while plugin code
runs (:class:`~loopx_recall_core.process.Stopped`, Ctrl-C) is never contained. Exception
text is never kept: it may hold private paths or data.
Plugins never import this module.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import attrs
import pluggy

from loopx_recall_core.plugin import spec as hookspecs
from loopx_recall_core.plugin._entry_points import (
    UNREADABLE_METADATA,
    UNREADABLE_ROW,
    MalformedEntryPoint,
    ProviderEntryPoint,
    UnreadableEntryPoint,
    entry_points,
    normalize_dist_name,
)
from loopx_recall_core.plugin.protocols import ENTRY_POINT_GROUP, RecallProvider
from loopx_recall_core.plugin.spec import PROJECT_NAME
from loopx_recall_core.process import UNCONTAINED

if TYPE_CHECKING:
    from loopx_recall_core.plugin.records import ProviderReadback

__all__ = [
    "LOAD_PLUGINS_ENV",
    "DeadlineExceeded",
    "PluginHost",
    "PluginRecord",
    "ProviderNotChosen",
    "call_with_deadline",
    "find_recall_entry",
    "recall_providers",
    "safe_readback",
    "selected_distributions",
]

T = TypeVar("T")

LOAD_PLUGINS_ENV = "LOOPX_RECALL_LOAD_PLUGINS"

Phase = Literal["import", "registration", "validation", "hook", "readback", "retrieve"]


def selected_distributions(only: Iterable[str] | None = None) -> frozenset[str] | None:
    """The normalized names of the distributions whose plugins load, or None for all.

    ``only`` defaults to ``$LOOPX_RECALL_LOAD_PLUGINS`` (comma-separated distribution
    names; an empty string selects none); unset means all.
    """
    if only is None and LOAD_PLUGINS_ENV in os.environ:
        only = os.environ[LOAD_PLUGINS_ENV].split(",")
    if only is None:
        return None
    return frozenset(normalize_dist_name(n.strip()) for n in only if n.strip())


@attrs.frozen(kw_only=True)
class PluginRecord:
    """What the host knows about one entry point, loaded or not."""

    entry_point: str
    distribution: str
    version: str
    status: Literal["loaded", "broken", "not_loaded"]
    error_class: str | None = None
    error: str | None = None


class DeadlineExceeded(Exception):
    """A provider call did not return in time (it goes on in a daemon thread)."""


def call_with_deadline(function: Callable[[], T], seconds: float) -> T:
    """``function()`` in a daemon thread, waited for ``seconds`` at most.

    Every provider call the host makes (retrieve, readback) goes through here: a provider
    that never returns cannot hang a command or keep the process alive.
    """
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = function()
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            box["error"] = exc

    worker = threading.Thread(target=run, name="loopx-recall-provider", daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise DeadlineExceeded
    if "error" in box:
        raise box["error"]
    return box["value"]


def _describe_failure(phase: Phase, exc: BaseException) -> str:
    # Only facts that cannot carry private data: the phase, the class, a module name.
    if isinstance(exc, MalformedEntryPoint):
        return f"failed during {phase}: its entry_points.txt row has no '='"
    if isinstance(exc, UnreadableEntryPoint) and str(exc) in (UNREADABLE_ROW, UNREADABLE_METADATA):
        return f"failed during {phase}: {exc}"  # our fixed words, never the bytes
    if isinstance(exc, ImportError) and exc.name:
        return f"failed during {phase}: cannot import module {exc.name!r}"
    return f"failed during {phase}: raised {type(exc).__name__}"


class PluginHost:
    """A pluggy manager plus per-plugin isolation and a record of every entry point."""

    def __init__(self) -> None:
        self.manager = pluggy.PluginManager(PROJECT_NAME)
        self.manager.add_hookspecs(hookspecs)
        self._records: dict[str, PluginRecord] = {}
        self._plugin_names: dict[str, str] = {}
        # hook name -> what the plugins contributed: each plugin's hook runs once per host
        self._provided: dict[str, list[tuple[str, Any]]] = {}

    @property
    def records(self) -> list[PluginRecord]:
        return list(self._records.values())

    def keyed_records(self) -> list[tuple[str, PluginRecord]]:
        """``(plugin key, record)`` pairs; the key is what hook results are tagged with."""
        return list(self._records.items())

    def record(self, key: str) -> PluginRecord | None:
        return self._records.get(key)

    def load_entry_points(self, only: Iterable[str] | None = None) -> None:
        """Load every entry point of our group, or only those of the named distributions.

        ``only`` defaults to ``$LOOPX_RECALL_LOAD_PLUGINS`` (comma-separated distribution names;
        an empty string loads none); unset means all. The entry points are listed by
        :mod:`loopx_recall_core.plugin._entry_points` (importlib.metadata's rules, without its
        import cost).
        """
        wanted = selected_distributions(only)
        for entry_point in entry_points(ENTRY_POINT_GROUP):
            dist_name = entry_point.distribution or "unknown"
            version = entry_point.version or "unknown"
            key = f"{dist_name}:{entry_point.name}"
            if wanted is not None and normalize_dist_name(dist_name) not in wanted:
                self._records[key] = PluginRecord(
                    entry_point=entry_point.name,
                    distribution=dist_name,
                    version=version,
                    status="not_loaded",
                )
                continue
            self._load_one(key, entry_point, dist_name, version)

    def _load_one(
        self, key: str, entry_point: ProviderEntryPoint, dist_name: str, version: str
    ) -> None:
        base = {"entry_point": entry_point.name, "distribution": dist_name, "version": version}
        try:
            plugin = entry_point.load()
        except BaseException as exc:
            if isinstance(exc, UNCONTAINED):
                raise
            self._records[key] = PluginRecord(
                **base,
                status="broken",
                error_class=type(exc).__name__,
                error=_describe_failure("import", exc),
            )
            return
        self.register(plugin, key=key, **base)

    def register(
        self,
        plugin: object,
        *,
        key: str | None = None,
        entry_point: str | None = None,
        distribution: str = "in-process",
        version: str = "0",
    ) -> None:
        """Register a plugin object (also used by tests and embedders), isolated."""
        self._provided.clear()  # the next ask includes this plugin's providers
        key = key or f"{distribution}:{entry_point or id(plugin)}"
        base = {
            "entry_point": entry_point or getattr(plugin, "__name__", type(plugin).__name__),
            "distribution": distribution,
            "version": version,
        }
        try:
            name = self.manager.register(plugin, name=key)
        except BaseException as exc:
            if isinstance(exc, UNCONTAINED):
                raise
            self._records[key] = PluginRecord(
                **base,
                status="broken",
                error_class=type(exc).__name__,
                error=_describe_failure("registration", exc),
            )
            return
        try:
            # A hook implementation that matches no specification (a misspelt hook name)
            # would never be called: the plugin is broken, not silently half-loaded.
            # Plugins registered before passed this check, so a failure is this one's.
            self.manager.check_pending()
        except pluggy.PluginValidationError as exc:
            self.manager.unregister(name=name)
            self._records[key] = PluginRecord(
                **base,
                status="broken",
                error_class=type(exc).__name__,
                error=_describe_failure("validation", exc),
            )
            return
        self._plugin_names[key] = name or key
        self._records[key] = PluginRecord(**base, status="loaded")

    def mark_broken(self, key: str, phase: Phase, exc: BaseException) -> None:
        """Record that a loaded plugin failed later (readback); it stays listed, as broken."""
        record = self._records.get(key)
        if record is None:
            return
        self._records[key] = attrs.evolve(
            record,
            status="broken",
            error_class=type(exc).__name__,
            error=_describe_failure(phase, exc),
        )

    def call_each(self, hook_name: str) -> list[tuple[str, Any]]:
        """Call ``hook_name`` on every loaded plugin separately; a raising plugin is broken.

        Returns ``(plugin key, returned value)`` pairs in registration order.
        """
        results: list[tuple[str, Any]] = []
        hook_caller = getattr(self.manager.hook, hook_name)
        for impl in hook_caller.get_hookimpls():
            key = impl.plugin_name
            try:
                value = impl.function()
            except BaseException as exc:  # even a plugin's sys.exit() is contained
                if isinstance(exc, UNCONTAINED):  # a stop signal or Ctrl-C is not
                    raise
                self.mark_broken(key, "hook", exc)
                continue
            results.append((key, value))
        return results

    def providers(self, hook_name: str, accept: Callable[[object], bool]) -> list[tuple[str, Any]]:
        """Flatten provider objects contributed through ``hook_name``, asking each plugin
        once per host (registering a plugin asks again).

        A plugin returning something that is not a sequence of acceptable providers is
        marked broken and contributes nothing; so is one whose providers make ``accept``
        raise (a property that raises when read: a runtime-checkable Protocol's
        ``isinstance`` reads them).
        """
        if hook_name in self._provided:
            return list(self._provided[hook_name])
        collected: list[tuple[str, Any]] = []
        for key, value in self.call_each(hook_name):
            if value is None:
                continue
            try:
                items: list[Any] = list(value) if isinstance(value, list | tuple) else [value]
                acceptable = all(accept(item) for item in items)
            except BaseException as exc:  # what the plugin's objects raise is theirs
                if isinstance(exc, UNCONTAINED):
                    raise
                self.mark_broken(key, "hook", exc)
                continue
            if not acceptable:
                self.mark_broken(key, "hook", TypeError("not a provider"))
                continue
            collected.extend((key, item) for item in items)
        self._provided[hook_name] = collected
        return list(collected)


def load_host(only: Iterable[str] | None = None) -> PluginHost:
    """A host with every allowed entry point loaded."""
    host = PluginHost()
    host.load_entry_points(only)
    return host


class ProviderNotChosen(Exception):
    """No provider was named and there is not exactly one to use; safe to print.
    ``found`` is how many there were (0: none to use, more: ambiguous)."""

    def __init__(self, message: str, found: int) -> None:
        super().__init__(message)
        self.found = found


def _is_recall_provider(candidate: object) -> bool:
    # isinstance reads the Protocol's members (a raising property raises here, and the
    # host marks the plugin broken); the id must be a plain, non-blank str so that every
    # caller can read and print it without containing anything itself
    if not isinstance(candidate, RecallProvider):
        return False
    provider_id = candidate.provider_id
    return type(provider_id) is str and bool(provider_id.strip())


def recall_providers(host: PluginHost) -> list[tuple[str, RecallProvider]]:
    """``(plugin key, provider)`` for every loaded agent-turn-recall provider.

    Only providers whose ``provider_id`` reads as a non-blank ``str`` are returned; a
    plugin contributing any other (or one whose members raise when read) is marked broken
    (phase ``hook``) and contributes none.
    """
    return host.providers("loopx_recall_providers", _is_recall_provider)


def find_recall_entry(host: PluginHost, provider_id: str) -> tuple[str, RecallProvider] | None:
    """The first loaded recall provider with ``provider_id`` and its plugin key."""
    for key, provider in recall_providers(host):
        if getattr(provider, "provider_id", None) == provider_id:
            return key, provider
    return None


#: A readback gets the same budget as a recall (20 s) plus the host's grace.
READBACK_DEADLINE_S = 21.0


def safe_readback(
    host: PluginHost,
    key: str,
    provider: RecallProvider,
    binding: Mapping[str, Any] | None,
    *,
    deadline: float = READBACK_DEADLINE_S,
) -> ProviderReadback:
    """A provider's readback within ``deadline`` seconds; a raising, malformed or hanging
    one is contained and reported."""
    # imported here: it loads the contracts, which start-up without a provider never needs
    from loopx_recall_core.plugin.records import ProviderReadback

    provider_id = str(getattr(provider, "provider_id", "unknown"))
    try:
        readback = call_with_deadline(lambda: provider.readback(binding), deadline)
        if not isinstance(readback, ProviderReadback):
            raise TypeError("readback is not a ProviderReadback")
    except DeadlineExceeded:
        return ProviderReadback(
            provider_id=provider_id if provider_id.strip() else "unknown",
            version="unknown",
            ready=False,
            unavailable_reason="provider readback timed out",
        )
    except Exception as exc:  # noqa: BLE001 - a broken provider must not break status
        host.mark_broken(key, "readback", exc)
        return ProviderReadback(
            provider_id=provider_id if provider_id.strip() else "unknown",
            version="unknown",
            ready=False,
            unavailable_reason=f"provider readback failed ({type(exc).__name__})",
        )
    return readback
