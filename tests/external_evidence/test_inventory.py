# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Provider inventory: plugin readback, inventory files, connector registries, merging."""

from __future__ import annotations

from typing import Any

import pytest

from loopx_recall_core import hookimpl
from loopx_recall_core.external_evidence import (
    EvidenceRejected,
    collect_inventory,
    discover,
    inventory_file_rows,
    merge_rows,
    plan,
    plugin_rows,
    registry_rows,
)
from loopx_recall_core.plugin.manager import PluginHost

READY = {"declared": True, "installed": True, "enabled": True, "ready": True}
_DEFAULT = object()


class Provider:
    def __init__(self, provider_id: Any, kind: str = "method", readback: Any = _DEFAULT) -> None:
        self.provider_id = provider_id
        self.provider_kind = kind
        self.state = READY | {"unavailable_reason": None} if readback is _DEFAULT else readback
        self.calls = 0

    def readback(self) -> Any:
        self.calls += 1
        if isinstance(self.state, BaseException):
            raise self.state
        return self.state


class Plugin:
    def __init__(self, *providers: Any) -> None:
        self.providers = list(providers)

    @hookimpl
    def loopx_external_evidence_providers(self) -> list[Any]:
        return self.providers


def host_with(*plugins: Plugin) -> PluginHost:
    host = PluginHost()
    for index, plugin in enumerate(plugins):
        host.register(plugin, distribution=f"dist-{index}", version="1.0")
    return host


def _status(host: PluginHost) -> dict[str, tuple[str, str | None]]:
    return {record.distribution: (record.status, record.error) for record in host.records}


# ---- plugin rows --------------------------------------------------------------------


def test_plugin_rows_reflect_the_live_readback_every_time():
    provider = Provider("plugin:live")
    host = host_with(Plugin(provider))
    assert plugin_rows(host) == [
        {
            "provider_id": "plugin:live",
            "provider_kind": "method",
            "protocol": "external_evidence_research_v0",
            "declared": True,
            "installed": True,
            "enabled": True,
            "ready": True,
            "unavailable_reason": None,
        }
    ]
    provider.state = {
        "declared": True,
        "installed": True,
        "enabled": False,
        "ready": False,
        "unavailable_reason": "disabled_by_operator",
    }
    row = plugin_rows(host)[0]
    assert row["ready"] is False
    assert row["unavailable_reason"] == "disabled_by_operator"
    assert provider.calls == 2


def test_a_raising_readback_gives_a_not_ready_row_naming_only_the_exception_class():
    secret = "/home/user/.secret-token"
    broken = Provider("plugin:broken", readback=RuntimeError(secret))
    healthy = Provider("plugin:healthy", "connector")
    host = host_with(Plugin(broken), Plugin(healthy))
    rows = plugin_rows(host)
    assert [row["provider_id"] for row in rows] == ["plugin:broken", "plugin:healthy"]
    assert rows[0] == {
        "provider_id": "plugin:broken",
        "provider_kind": "method",
        "protocol": "external_evidence_research_v0",
        "declared": True,
        "installed": True,
        "enabled": False,
        "ready": False,
        "unavailable_reason": "provider_readback_failed:RuntimeError",
    }
    assert secret not in repr(rows)
    status = _status(host)
    assert status["dist-0"] == ("broken", "failed during readback: raised RuntimeError")
    assert status["dist-1"] == ("loaded", None)
    assert discover(rows)["ready_provider_ids"] == ["plugin:healthy"]


def test_a_readback_calling_sys_exit_does_not_end_discovery():
    host = host_with(Plugin(Provider("plugin:exits", readback=SystemExit(3))))
    (row,) = plugin_rows(host)
    assert row["unavailable_reason"] == "provider_readback_failed:SystemExit"


@pytest.mark.parametrize(
    "readback",
    [
        READY | {"unavailable_reason": None, "supported": True},
        {"declared": True, "installed": True, "enabled": False, "ready": True},
        {"declared": True, "installed": True, "enabled": True, "ready": False},
        READY | {"ready": "yes"},
        ["ready"],
        None,
    ],
)
def test_an_invalid_readback_gives_a_not_ready_row(readback):
    host = host_with(Plugin(Provider("plugin:odd", readback=readback)))
    (row,) = plugin_rows(host)
    assert row["ready"] is False
    assert row["unavailable_reason"] == "provider_readback_invalid"
    assert _status(host)["dist-0"][0] == "broken"


@pytest.mark.parametrize(
    ("provider_id", "kind"), [("Bad Id", "method"), ("plugin:x", "crawler"), (None, "method")]
)
def test_a_provider_with_an_invalid_identity_contributes_no_row(provider_id, kind):
    host = host_with(Plugin(Provider(provider_id, kind)), Plugin(Provider("plugin:ok")))
    assert [row["provider_id"] for row in plugin_rows(host)] == ["plugin:ok"]
    assert _status(host)["dist-0"][0] == "broken"


def test_a_repeated_plugin_provider_id_keeps_the_first():
    host = host_with(Plugin(Provider("plugin:same")), Plugin(Provider("plugin:same", "connector")))
    rows = plugin_rows(host)
    assert [(row["provider_id"], row["provider_kind"]) for row in rows] == [
        ("plugin:same", "method")
    ]
    assert _status(host)["dist-1"][0] == "broken"


def test_a_hook_returning_non_providers_contributes_nothing():
    host = host_with(Plugin(object()), Plugin(Provider("plugin:ok")))
    assert [row["provider_id"] for row in plugin_rows(host)] == ["plugin:ok"]
    assert _status(host)["dist-0"][0] == "broken"


# ---- inventory files ----------------------------------------------------------------


def test_inventory_file_rows_are_validated_and_normalized(make):
    rows = inventory_file_rows({"providers": [make.provider(" host:a ")]})
    assert rows[0]["provider_id"] == "host:a"
    with pytest.raises(EvidenceRejected, match=r"^providers\[0\]\.ready"):
        inventory_file_rows({"providers": [make.provider(installed=False)]})
    with pytest.raises(EvidenceRejected, match="unknown field"):
        inventory_file_rows({"providers": [], "schema_version": "x"})
    with pytest.raises(EvidenceRejected, match="expected object, got list"):
        inventory_file_rows([make.provider()])


# ---- connector registries -----------------------------------------------------------

LOOPX_REGISTRY = {
    "schema_version": "connector_registry_v1",
    "connectors": [
        {
            "id": "official-docs",
            "name": "Official docs",
            "layer": "L1",
            "kind": "documentation",
            "status": "supported",
            "value_tier": "P1",
        },
        {"id": "forum", "status": "supported"},
    ],
    "usage": {"official-docs": 12},
}


def test_registry_rows_are_inventory_only_whatever_the_status_says():
    rows = registry_rows(LOOPX_REGISTRY)
    assert rows[0] == {
        "provider_id": "connector:official-docs",
        "provider_kind": "connector",
        "protocol": "external_evidence_research_v0",
        "declared": True,
        "installed": False,
        "enabled": False,
        "ready": False,
        "unavailable_reason": "connector_registry_is_inventory_not_readiness",
    }
    assert [row["provider_id"] for row in rows] == ["connector:official-docs", "connector:forum"]
    assert discover(rows)["status"] == "inventory_only"


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([{"id": "x"}], "must be a JSON object with a connectors list"),
        ({}, "connectors: required, and must be a list"),
        ({"connectors": {"id": "x"}}, "connectors: required, and must be a list"),
        ({"schema_version": "connector_registry_v2", "connectors": []}, "schema_version"),
        ({"connectors": ["x"]}, r"connectors\[0\]: must be an object"),
        ({"connectors": [{"name": "x"}]}, r"connectors\[0\]\.id: required"),
        ({"connectors": [{"id": "Has Space"}]}, r"connectors\[0\]\.id: connector:<id> must"),
        ({"connectors": [{"id": "a"}, {"id": "a"}]}, r"connectors\[1\]\.id: duplicate"),
    ],
)
def test_registry_format_errors(document, message):
    with pytest.raises(EvidenceRejected, match=message):
        registry_rows(document)


# ---- merging ------------------------------------------------------------------------


def test_explicit_rows_override_registry_rows_in_place(make):
    registry = registry_rows(LOOPX_REGISTRY)
    live = make.provider("connector:official-docs", "connector")
    extra = make.provider("host:method")
    merged = merge_rows(registry, [extra, live])
    assert [row["provider_id"] for row in merged] == [
        "connector:official-docs",
        "connector:forum",
        "host:method",
    ]
    assert merged[0] == live
    record = plan(make.request(), merged)
    assert record["selected_provider"]["provider_id"] == "connector:official-docs"


def test_collect_inventory_merges_registry_file_and_plugins(make):
    host = host_with(Plugin(Provider("connector:forum", "connector")))
    inventory = {"providers": [make.provider("host:file")]}
    rows = collect_inventory(inventory=inventory, registry=LOOPX_REGISTRY, host=host)
    assert [(row["provider_id"], row["ready"]) for row in rows] == [
        ("connector:official-docs", False),
        ("connector:forum", True),
        ("host:file", True),
    ]
    assert collect_inventory() == []


def test_an_id_given_by_both_the_file_and_a_plugin_is_refused(make):
    host = host_with(Plugin(Provider("host:file")))
    inventory = {"providers": [make.provider("host:other"), make.provider("host:file")]}
    with pytest.raises(EvidenceRejected, match=r"provider inventory providers\[1\]\.provider_id"):
        collect_inventory(inventory=inventory, host=host)


def test_collect_inventory_names_the_file_in_errors(make):
    with pytest.raises(EvidenceRejected, match=r"^connector registry connectors: required"):
        collect_inventory(registry={})
    with pytest.raises(EvidenceRejected, match=r"^connector registry: must be a JSON object"):
        collect_inventory(registry=[])
    with pytest.raises(EvidenceRejected, match=r"^provider inventory providers\[0\]\.protocol"):
        collect_inventory(inventory={"providers": [make.provider(protocol="v1")]})
