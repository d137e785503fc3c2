# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""One way to pick a recall provider, and the plugins asked once.

One ``recall history`` without ``--provider`` runs each plugin's provider hook once, also
when the provider is unavailable and its hint is shown; one ``recall replan`` admits its
request once and reads the owner's receipt key once.
"""

from __future__ import annotations

import importlib
import json

import pytest
from click.testing import CliRunner

from loopx_recall_core import hookimpl
from loopx_recall_core.cli import cli
from loopx_recall_core.plugin import manager as plugins_module
from loopx_recall_core.plugin.manager import PluginHost, ProviderNotChosen
from loopx_recall_core.plugin.records import ProviderFailure
from loopx_recall_core.recall.resolver import resolve_provider
from loopx_recall_core.recall.store import PrivateStore
from tests.state_builders import enablement, seed

from ..fake_provider import FakeProvider

operator = importlib.import_module("loopx_recall_core.operator_requests")
service_module = importlib.import_module("loopx_recall_core.recall.service")
situation_admission = importlib.import_module("loopx_recall_core.recall.replan.situation_admission")


class _Unavailable(FakeProvider):
    unavailable_hint = "the fake runtime is installed separately"

    def retrieve(self, request, binding, *, timeout, exclude_sessions=()):
        self.calls += 1
        raise ProviderFailure("provider_unavailable")


class _Counting:
    """A plugin whose provider hook counts how often it is asked."""

    def __init__(self, *providers: FakeProvider) -> None:
        self.providers = list(providers)
        self.asked = 0

    @hookimpl
    def loopx_recall_providers(self) -> list[FakeProvider]:
        self.asked += 1
        return self.providers


def _provider(cls: type[FakeProvider], provider_id: str) -> FakeProvider:
    provider = cls()
    provider.provider_id = provider_id
    return provider


@pytest.fixture
def plugins(monkeypatch):
    """Two plugins; each plugin load (as a real one imports the entry points) builds a new
    host from them, so a second load asks them again."""
    one = _Counting(_provider(FakeProvider, "provider-one"))
    two = _Counting(_provider(_Unavailable, "provider-two"))

    def load_host(*_args, **_kwargs) -> PluginHost:
        host = PluginHost()
        for index, plugin in enumerate((one, two)):
            host.register(plugin, distribution=f"dist-{index}")
        return host

    monkeypatch.setattr(operator, "load_host", load_host)
    return one, two


def test_one_history_without_provider_asks_each_plugin_once(plugins, loopx_home):
    one, two = plugins
    seed(enablement("provider-two"))
    args = ["recall", "history", "--agent-id", "agent-a", "--project-id", "proj-j",
            "--term", "pytest"]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "provider_unavailable" in result.stdout
    assert "the fake runtime is installed separately" in result.stdout  # the hint, same host
    assert two.providers[0].calls == 1
    assert (one.asked, two.asked) == (1, 1)


def test_one_history_with_nothing_enabled_asks_each_plugin_once(plugins, loopx_home):
    one, two = plugins
    args = ["recall", "history", "--agent-id", "agent-a", "--project-id", "proj-j",
            "--term", "pytest", "--format", "json"]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["reason"] == "not_enabled"
    assert (one.asked, two.asked) == (1, 1)


def _counting(monkeypatch, module, name: str, counts: dict[str, int]) -> None:
    original = getattr(module, name)

    def counted(*args, **kwargs):
        counts[name] = counts.get(name, 0) + 1
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)


def test_one_replan_admits_once_and_reads_the_receipt_key_once(plugins, monkeypatch, loopx_home):
    one, two = plugins
    seed(enablement("provider-one"))
    counts: dict[str, int] = {}
    for module in (service_module, situation_admission):
        _counting(monkeypatch, module, "admit", counts)
    _counting(monkeypatch, PrivateStore, "receipt_key", counts)
    args = ["recall", "replan", "--proposed-command", "make", "--agent-id", "agent-a",
            "--project-id", "proj-j", "--format", "json"]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["admission"]["admitted"] is True
    assert data["recall"]["status"] == "succeeded"
    assert one.providers[0].calls == 1
    assert counts == {"admit": 1, "receipt_key": 1}
    assert (one.asked, two.asked) == (1, 1)


def test_a_host_asks_its_plugins_once_until_another_registers():
    plugin = _Counting(_provider(FakeProvider, "provider-one"))
    host = PluginHost()
    host.register(plugin, distribution="dist-0")
    for _ in range(3):
        assert resolve_provider(host, "provider-one").provider is plugin.providers[0]
    assert plugin.asked == 1
    other = _Counting(_provider(FakeProvider, "provider-two"))
    host.register(other, distribution="dist-1")
    assert resolve_provider(host, "provider-two").provider is other.providers[0]
    assert (plugin.asked, other.asked) == (2, 1)


def test_the_resolver_picks_named_then_enabled_then_the_one_installed():
    host = PluginHost()
    host.register(_Counting(_provider(FakeProvider, "provider-one")), distribution="d0")
    assert resolve_provider(host, "named").provider_id == "named"
    assert resolve_provider(host, "named").provider is None
    assert resolve_provider(host, enabled=["provider-x"]).provider_id == "provider-x"
    assert resolve_provider(host).provider_id == "provider-one"
    with pytest.raises(ProviderNotChosen, match=r"enabled here \(2\)"):
        resolve_provider(host, enabled=["a", "b", "a"])
    with pytest.raises(ProviderNotChosen, match="offers qualification"):
        resolve_provider(host, qualifying=True)


def test_a_named_or_enabled_provider_loads_no_plugin():
    def loader() -> PluginHost:
        raise AssertionError("no plugin is needed to pick a named or enabled provider")

    assert resolve_provider(loader, "named").provider_id == "named"
    assert resolve_provider(loader, enabled=["provider-x"]).provider_id == "provider-x"


def test_capability_enable_loads_the_plugins_once(monkeypatch, loopx_home, tmp_path):
    # the parser resolves --provider to declare its options; the command uses that result
    capability_cli = importlib.import_module("loopx_recall_core.cli.capability")
    plugin = _Counting(_provider(FakeProvider, "obelisk-session-evidence"))
    loads = []

    def load_host(*_args, **_kwargs) -> PluginHost:
        loads.append(1)
        host = PluginHost()
        host.register(plugin, distribution="dist-0")
        return host

    monkeypatch.setattr(capability_cli, "load_host", load_host)
    monkeypatch.setattr(plugins_module, "load_host", load_host)
    monkeypatch.chdir(tmp_path)
    args = ["capability", "enable", "agent-turn-recall", "--provider",
            "obelisk-session-evidence", "--agent-id", "agent-a", "--project-id", "proj-j",
            "--agent-sessions", "runtime"]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert (len(loads), plugin.asked) == (1, 1)
