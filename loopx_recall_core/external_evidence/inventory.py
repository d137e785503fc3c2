# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Where provider rows come from: installed plugins, an inventory file, a connector registry.

* Plugin rows: every provider contributed through the ``loopx_external_evidence_providers``
  hook, built from ``provider.readback()`` at call time (never cached, never a static
  "supported" flag). A provider whose ``readback()`` raises, or returns something that is
  not a valid readback, still gets a row: ``declared`` and ``installed`` true (it was
  loaded), ``enabled`` and ``ready`` false, ``unavailable_reason``
  ``provider_readback_failed:<ExceptionClass>`` or ``provider_readback_invalid``; its
  plugin is marked broken. A provider whose ``provider_id``/``provider_kind`` is invalid,
  or repeats an id an earlier plugin provider already gave, contributes no row and its
  plugin is marked broken. Nothing a plugin raises reaches the caller.
* Inventory file: ``{"providers": [<provider row>, ...]}``, validated strictly.
* Connector registry file (LoopX's ``connector_registry_v1``): a JSON object with a
  ``connectors`` list; ``schema_version``, when present, must be ``connector_registry_v1``;
  other top-level keys (``usage`` ...) are not read. Each connector is an object with a
  string ``id``; its other keys (``name``, ``status`` ...) are not read, so ``supported``
  can never become readiness. Each projects to the inventory-only row
  ``connector:<id>`` (declared, not installed, not enabled, not ready,
  ``connector_registry_is_inventory_not_readiness``). Anything else, including a bare
  list, is rejected.

Merging: registry rows first, in registry order; then every explicit row (inventory
file rows, then plugin rows) either replaces the registry row with the same id in place
or is appended. An id given by both the inventory file and a plugin is rejected: neither
silently wins.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from loopx_recall_core.canonical import js_trim
from loopx_recall_core.contracts.converter import ContractError, structure, unstructure
from loopx_recall_core.contracts.external_evidence import (
    CONNECTOR_INVENTORY_REASON,
    PROTOCOL,
    ExternalEvidenceProvider,
    ExternalEvidenceProviderInventory,
    is_provider_id,
)
from loopx_recall_core.external_evidence._input import EvidenceRejected, reject, structure_at
from loopx_recall_core.plugin.manager import PluginHost
from loopx_recall_core.plugin.protocols import ExternalEvidenceProvider as ProviderProtocol
from loopx_recall_core.process import UNCONTAINED

__all__ = [
    "CONNECTOR_REGISTRY_SCHEMA",
    "HOOK_NAME",
    "collect_inventory",
    "inventory_file_rows",
    "merge_rows",
    "plugin_rows",
    "registry_rows",
]

HOOK_NAME = "loopx_external_evidence_providers"
CONNECTOR_REGISTRY_SCHEMA = "connector_registry_v1"
READBACK_INVALID = "provider_readback_invalid"
_READBACK_KEYS = frozenset({"declared", "installed", "enabled", "ready", "unavailable_reason"})

Row = dict[str, Any]


def _accept(candidate: object) -> bool:
    return isinstance(candidate, ProviderProtocol)


def _fallback_row(provider_id: str, provider_kind: str, reason: str) -> Row:
    return {
        "provider_id": provider_id,
        "provider_kind": provider_kind,
        "protocol": PROTOCOL,
        "declared": True,
        "installed": True,
        "enabled": False,
        "ready": False,
        "unavailable_reason": reason,
    }


def _readback_row(provider_id: str, provider_kind: str, readback: object) -> Row:
    if not isinstance(readback, Mapping) or not set(readback) <= _READBACK_KEYS:
        return _fallback_row(provider_id, provider_kind, READBACK_INVALID)
    row = {"provider_id": provider_id, "provider_kind": provider_kind, "protocol": PROTOCOL}
    row.update(readback)
    try:
        return unstructure(structure(row, ExternalEvidenceProvider))
    except ContractError:
        return _fallback_row(provider_id, provider_kind, READBACK_INVALID)


def plugin_rows(host: PluginHost) -> list[Row]:
    """One row per provider the loaded plugins contribute, read back now."""
    rows: list[Row] = []
    seen: set[str] = set()
    for key, provider in host.providers(HOOK_NAME, _accept):
        try:
            provider_id = provider.provider_id
            provider_kind = provider.provider_kind
            if isinstance(provider_id, str):
                provider_id = js_trim(provider_id)
        except BaseException as exc:  # a property that raises when read
            if isinstance(exc, UNCONTAINED):
                raise
            host.mark_broken(key, "hook", exc)
            continue
        if (
            not is_provider_id(provider_id)
            or provider_kind not in ("method", "connector")
            or provider_id in seen
        ):
            host.mark_broken(key, "hook", TypeError("invalid or repeated provider identity"))
            continue
        seen.add(provider_id)
        try:
            readback = provider.readback()
        except BaseException as exc:  # a provider never breaks discovery
            if isinstance(exc, UNCONTAINED):  # a stop signal does
                raise
            host.mark_broken(key, "readback", exc)
            reason = f"provider_readback_failed:{type(exc).__name__}"
            rows.append(_fallback_row(provider_id, provider_kind, reason[:512]))
            continue
        row = _readback_row(provider_id, provider_kind, readback)
        if row["unavailable_reason"] == READBACK_INVALID:
            host.mark_broken(key, "readback", TypeError("invalid readback"))
        rows.append(row)
    return rows


def inventory_file_rows(document: object) -> list[Row]:
    """Rows of an inventory document ``{"providers": [...]}``, validated and normalized."""
    inventory = structure_at(document, ExternalEvidenceProviderInventory, "")
    return [unstructure(row) for row in inventory.providers]


def registry_rows(document: object) -> list[Row]:
    """Inventory-only rows projected from a connector registry document."""
    if not isinstance(document, Mapping):
        raise reject("", "must be a JSON object with a connectors list")
    if "schema_version" in document and document["schema_version"] != CONNECTOR_REGISTRY_SCHEMA:
        raise reject("schema_version", f"must be {CONNECTOR_REGISTRY_SCHEMA} when present")
    connectors = document.get("connectors")
    if not isinstance(connectors, list):
        raise reject("connectors", "required, and must be a list")
    rows: list[Row] = []
    seen: set[str] = set()
    for index, connector in enumerate(connectors):
        path = f"connectors[{index}]"
        if not isinstance(connector, Mapping):
            raise reject(path, "must be an object")
        connector_id = connector.get("id")
        if not isinstance(connector_id, str):
            raise reject(f"{path}.id", "required, and must be a string")
        provider_id = js_trim(f"connector:{connector_id}")
        if not is_provider_id(provider_id):
            raise reject(f"{path}.id", "connector:<id> must match ^[a-z][a-z0-9_.:-]{1,95}$")
        if provider_id in seen:
            raise reject(f"{path}.id", "duplicate connector id")
        seen.add(provider_id)
        rows.append(
            {
                "provider_id": provider_id,
                "provider_kind": "connector",
                "protocol": PROTOCOL,
                "declared": True,
                "installed": False,
                "enabled": False,
                "ready": False,
                "unavailable_reason": CONNECTOR_INVENTORY_REASON,
            }
        )
    return rows


def merge_rows(registry: Iterable[Row], explicit: Iterable[Row]) -> list[Row]:
    """Registry rows in order, each explicit row replacing its namesake in place or appended."""
    merged = list(registry)
    position = {row["provider_id"]: index for index, row in enumerate(merged)}
    for row in explicit:
        index = position.get(row["provider_id"])
        if index is None:
            position[row["provider_id"]] = len(merged)
            merged.append(row)
        else:
            merged[index] = row
    return merged


def _prefixed(prefix: str, exc: EvidenceRejected) -> EvidenceRejected:
    return EvidenceRejected(
        prefix + (problem if problem.startswith(":") else f" {problem}") for problem in exc.problems
    )


def collect_inventory(
    *,
    inventory: object | None = None,
    registry: object | None = None,
    host: PluginHost | None = None,
) -> list[Row]:
    """The provider rows for ``discover``/``plan`` from every source that was given.

    ``inventory`` and ``registry`` are parsed JSON documents (or None); ``host`` is a
    plugin host whose external-evidence providers are read back now (or None for none).
    Errors name ``provider inventory ...`` or ``connector registry ...`` paths.
    """
    try:
        from_registry = [] if registry is None else registry_rows(registry)
    except EvidenceRejected as exc:
        raise _prefixed("connector registry", exc) from None
    try:
        from_file = [] if inventory is None else inventory_file_rows(inventory)
    except EvidenceRejected as exc:
        raise _prefixed("provider inventory", exc) from None
    from_plugins = [] if host is None else plugin_rows(host)
    file_ids = {row["provider_id"]: index for index, row in enumerate(from_file)}
    for row in from_plugins:
        if row["provider_id"] in file_ids:
            raise reject(
                f"provider inventory providers[{file_ids[row['provider_id']]}].provider_id",
                "is also contributed by an installed plugin (choose plugins with "
                "LOOPX_RECALL_LOAD_PLUGINS)",
            )
    return merge_rows(from_registry, [*from_file, *from_plugins])
