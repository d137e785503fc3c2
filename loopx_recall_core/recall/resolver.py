# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The one way to pick a recall provider: :func:`resolve_provider`.

Every command that needs a recall provider (history, Replan, qualify, capability status and
enable, the guard's switch, the coverage listing) names it or lets this module pick it, and
reads the provider object from the same :class:`Resolved`. The host is loaded only when the
pick or the object needs it, and its providers are asked for once (the host caches them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import get_args

import attrs

from loopx_recall_core.plugin.manager import (
    PluginHost,
    ProviderNotChosen,
    find_recall_entry,
    recall_providers,
)
from loopx_recall_core.plugin.protocols import RecallProvider

__all__ = ["Host", "LazyHost", "Resolved", "resolve_provider"]

#: A plugin host, or a loader called once on the first need.
Host = PluginHost | Callable[[], PluginHost]

_NONE_QUALIFIES = (
    "no installed recall provider offers qualification: install one "
    "(`loopx-recall extension list --available` shows how), then run this again"
)


@attrs.define(eq=False)
class LazyHost:
    """A host, loaded on the first call (a Replan that admits nothing imports no plugin)."""

    source: Host

    def __call__(self) -> PluginHost:
        if not isinstance(self.source, PluginHost):
            self.source = self.source()
        return self.source


@attrs.frozen(kw_only=True)
class Resolved:
    """The provider id picked, and the host its provider object comes from."""

    provider_id: str
    host: Callable[[], PluginHost] = attrs.field(eq=False, repr=False)

    def entry(self) -> tuple[str, RecallProvider] | None:
        """``(plugin key, provider)`` when a loaded plugin contributes this id."""
        return find_recall_entry(self.host(), self.provider_id)

    @property
    def provider(self) -> RecallProvider | None:
        """The loaded provider with this id, None when no plugin contributes it."""
        entry = self.entry()
        return entry[1] if entry is not None else None


def _offers_qualification(provider: object) -> bool:
    return callable(getattr(provider, "qualification_runtime", None))


def _one(found: Iterable[str], several: str) -> str | None:
    ids = sorted(set(found))
    if len(ids) > 1:
        raise ProviderNotChosen(f"{several} ({len(ids)}): name one with --provider", len(ids))
    return ids[0] if ids else None


def resolve_provider(
    host: Host,
    provider_id: str | None = None,
    *,
    enabled: Iterable[str] = (),
    qualifying: bool = False,
) -> Resolved:
    """The recall provider to use: ``provider_id`` when named (an empty name is a name);
    else the one id in ``enabled`` (the providers enabled for the scope asked about);
    else the one installed provider (with ``qualifying``: the one that offers
    qualification). Several enabled, or several to qualify, is :class:`ProviderNotChosen`;
    so is none to qualify.

    With nothing enabled and not exactly one installed, admission refuses whichever
    provider is asked (a typed ``not_enabled``, exit 0: a runtime caller's work goes on),
    so no choice is demanded: the v0 contract's provider id (the only one its wire allows).
    """
    loaded = LazyHost(host)
    if provider_id is None:
        provider_id = _one(enabled, "several recall providers are enabled here")
    if provider_id is None:
        installed = {
            p.provider_id
            for _key, p in recall_providers(loaded())
            if not qualifying or _offers_qualification(p)
        }
        if qualifying:
            provider_id = _one(installed, "several installed recall providers offer qualification")
            if provider_id is None:
                raise ProviderNotChosen(_NONE_QUALIFIES, 0)
        else:  # none or several installed and none enabled: admission refuses either way
            from loopx_recall_core.contracts.historical import ProviderId  # not at start-up

            (v0_provider_id,) = get_args(ProviderId)
            provider_id = installed.pop() if len(installed) == 1 else v0_provider_id
    return Resolved(provider_id=provider_id, host=loaded)
