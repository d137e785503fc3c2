# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The catalogue of known extensions and the view of what is installed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from loopx_recall_core.hookspecs import RecallProvider
from loopx_recall_core.plugins import (
    DeadlineExceeded,
    PluginHost,
    call_with_deadline,
    normalize_dist_name,
)
from loopx_recall_core.providers_api import ProviderReadback

__all__ = [
    "CATALOGUE",
    "KnownExtension",
    "find_known",
    "find_recall_entry",
    "installed_view",
    "recall_providers",
    "safe_readback",
]


@attrs.frozen(kw_only=True)
class KnownExtension:
    name: str
    distribution: str
    capability: str
    license: str
    external_runtime: str
    privacy: str


CATALOGUE: tuple[KnownExtension, ...] = (
    KnownExtension(
        name="obelisk-session-evidence",
        distribution="loopx-obelisk-session-evidence",
        capability="agent-turn-recall",
        license="Apache-2.0 (the adapter); it runs Obelisk, AGPL-3.0-only, installed separately",
        external_runtime="the obelisk CLI (npm @obelisk-apps/cli, Node.js >= 22.13), unmodified",
        privacy=(
            "reads your local Claude Code/Codex/Kimi/Pi session index through Obelisk; "
            "results stay owner-local, receipts carry only digests and counts"
        ),
    ),
)


def find_known(name: str) -> KnownExtension | None:
    """A catalogue entry by extension name or distribution name."""
    wanted = normalize_dist_name(name)
    for known in CATALOGUE:
        if wanted in (normalize_dist_name(known.name), normalize_dist_name(known.distribution)):
            return known
    return None


def recall_providers(host: PluginHost) -> list[tuple[str, RecallProvider]]:
    """``(plugin key, provider)`` for every loaded agent-turn-recall provider."""
    return host.providers("loopx_recall_providers", lambda p: isinstance(p, RecallProvider))


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
