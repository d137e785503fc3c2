# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Plugin loading with isolation: broken plugins are recorded, never fatal."""

from __future__ import annotations

import sys
import types

import pytest

from loopx_recall_core import hookimpl
from loopx_recall_core.plugin import manager as plugins
from loopx_recall_core.plugin import spec as hookspecs
from loopx_recall_core.plugin._entry_points import ProviderEntryPoint, normalize_dist_name
from loopx_recall_core.plugin.distributions import installed_view
from loopx_recall_core.plugin.manager import PluginHost
from loopx_recall_core.plugin.protocols import ENTRY_POINT_GROUP
from loopx_recall_core.plugin.records import ProviderReadback

CANARY = "CANARY-PLUGIN-SECRET-/home/alice/private"


class _Dist:
    def __init__(self, name, version="1.0"):
        self.name, self.version = name, version


def test_hookimpl_marks_hooks_of_the_specs_project():
    # the package's face spells the project name as its own __name__; the specs, as a literal
    assert hookimpl.project_name == hookspecs.PROJECT_NAME == hookspecs.hookspec.project_name


def _entry_point(name, target, dist):
    return ProviderEntryPoint(name, target, ENTRY_POINT_GROUP, dist.name, dist.version)


@pytest.fixture
def fake_entry_points(monkeypatch):
    eps = []

    def entry_points(group):
        assert group == ENTRY_POINT_GROUP
        return list(eps)

    monkeypatch.setattr(plugins, "entry_points", entry_points)
    return eps


class GoodProvider:
    provider_id = "obelisk-session-evidence"
    provider_version = "9.9"

    def binding_options(self):
        return []

    def bind(self, options, *, cwd):
        return {"repository_id": "r"}

    def readback(self, binding):
        return ProviderReadback(provider_id=self.provider_id, version="9.9", ready=True)

    def retrieve(self, request, binding, *, timeout, exclude_sessions=()):
        raise NotImplementedError


def _module(name, **attrs):
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    return module


def test_import_failure_is_recorded_without_message_text(fake_entry_points, monkeypatch):
    good = _module("good_plugin_mod")

    @hookimpl
    def loopx_recall_providers():
        return [GoodProvider()]

    good.loopx_recall_providers = loopx_recall_providers
    monkeypatch.setitem(sys.modules, "good_plugin_mod", good)
    fake_entry_points.append(_entry_point("good", "good_plugin_mod", _Dist("good-dist")))
    fake_entry_points.append(
        _entry_point("broken", "module_that_does_not_exist_xyz", _Dist("broken-dist", "0.3"))
    )
    host = PluginHost()
    host.load_entry_points()
    by_dist = {r.distribution: r for r in host.records}
    assert by_dist["good-dist"].status == "loaded"
    broken = by_dist["broken-dist"]
    assert broken.status == "broken"
    assert broken.error_class == "ModuleNotFoundError"
    assert broken.version == "0.3"
    assert "\n" not in broken.error


def test_raising_plugins_are_contained(fake_entry_points, monkeypatch):
    class Boom(RuntimeError):
        pass

    bad_hook = _module("bad_hook_mod")

    @hookimpl
    def loopx_recall_providers():
        raise Boom(CANARY)

    bad_hook.loopx_recall_providers = loopx_recall_providers

    bad_readback = _module("bad_readback_mod")

    class RaisingReadback(GoodProvider):
        def readback(self, binding):
            raise Boom(CANARY)

    @hookimpl(specname="loopx_recall_providers")
    def providers2():
        return [RaisingReadback()]

    bad_readback.providers2 = providers2

    def import_time_failure():
        raise Boom(CANARY)

    monkeypatch.setitem(sys.modules, "bad_hook_mod", bad_hook)
    monkeypatch.setitem(sys.modules, "bad_readback_mod", bad_readback)
    fake_entry_points.append(_entry_point("a", "bad_hook_mod", _Dist("a-dist")))
    fake_entry_points.append(_entry_point("b", "bad_readback_mod", _Dist("b-dist")))
    host = PluginHost()
    host.load_entry_points()
    rows = {row["distribution"]: row for row in installed_view(host)}
    assert rows["a-dist"]["status"] == "broken"
    assert rows["a-dist"]["error_class"] == "Boom"
    assert rows["b-dist"]["status"] == "broken"
    assert rows["b-dist"]["error"] == "failed during readback: raised Boom"
    assert rows["b-dist"]["ready"] is False
    assert CANARY not in repr(rows)


def test_registration_failure_is_recorded():
    host = PluginHost()
    bad = _module("bad_spec_mod")

    @hookimpl(specname="loopx_recall_providers")
    def wrong_signature(unexpected_argument):
        return []

    bad.wrong_signature = wrong_signature
    host.register(bad, distribution="bad-spec", version="1")
    (record,) = host.records
    assert record.status == "broken"
    assert record.error_class == "PluginValidationError"


def test_a_hook_matching_no_specification_is_broken_and_unregistered():
    host = PluginHost()
    good = _module("good_after_misspelt_mod")

    @hookimpl(specname="loopx_recall_providers")
    def loopx_recall_providers():
        return []

    good.loopx_recall_providers = loopx_recall_providers
    misspelt = _module("misspelt_hook_mod")

    @hookimpl
    def loopx_recall_provider():  # one letter short of the specification's name
        return []

    misspelt.loopx_recall_provider = loopx_recall_provider
    host.register(misspelt, distribution="misspelt", version="1")
    host.register(good, distribution="good", version="1")
    records = {r.distribution: r for r in host.records}
    assert records["misspelt"].status == "broken"
    assert records["misspelt"].error_class == "PluginValidationError"
    assert records["misspelt"].error == "failed during validation: raised PluginValidationError"
    # the broken plugin is gone from the manager; the next one is checked on its own
    assert records["good"].status == "loaded"
    assert not host.manager.is_registered(misspelt)


@pytest.mark.parametrize(
    ("env", "loaded"),
    [
        ("", set()),
        ("good-dist", {"good-dist"}),
        ("Good_Dist, other", {"good-dist"}),
        (None, {"good-dist", "b-dist"}),
    ],
)
def test_load_plugins_env_selects_distributions(fake_entry_points, monkeypatch, env, loaded):
    monkeypatch.setitem(sys.modules, "env_good_mod", _module("env_good_mod"))
    monkeypatch.setitem(sys.modules, "env_b_mod", _module("env_b_mod"))
    fake_entry_points.append(_entry_point("g", "env_good_mod", _Dist("good-dist")))
    fake_entry_points.append(_entry_point("b", "env_b_mod", _Dist("b-dist")))
    if env is None:
        monkeypatch.delenv("LOOPX_RECALL_LOAD_PLUGINS", raising=False)
    else:
        monkeypatch.setenv("LOOPX_RECALL_LOAD_PLUGINS", env)
    host = PluginHost()
    host.load_entry_points()
    assert {r.distribution for r in host.records if r.status == "loaded"} == loaded
    assert {r.distribution for r in host.records} == {"good-dist", "b-dist"}


def test_non_provider_return_marks_plugin_broken():
    host = PluginHost()
    mod = _module("returns_junk")

    @hookimpl(specname="loopx_recall_providers")
    def junk():
        return ["not a provider"]

    mod.junk = junk
    host.register(mod, distribution="junk", version="1")
    assert installed_view(host)[0]["status"] == "broken"


def test_normalize_dist_name():
    assert normalize_dist_name("Loopx_Obelisk.Session-Evidence") == "loopx-obelisk-session-evidence"


def test_hook_calling_sys_exit_is_contained():
    host = PluginHost()
    mod = _module("exits")

    @hookimpl(specname="loopx_recall_providers")
    def exits():
        sys.exit(3)

    mod.exits = exits
    host.register(mod, distribution="exits", version="1")
    (row,) = installed_view(host)
    assert (row["status"], row["error_class"]) == ("broken", "SystemExit")


def test_in_process_plugin_rows_carry_their_providers():
    host = PluginHost()
    mod = _module("in_process_good")

    @hookimpl(specname="loopx_recall_providers")
    def providers():
        return [GoodProvider()]

    mod.providers = providers
    host.register(mod, distribution="embedded", version="2")
    (row,) = installed_view(host)
    assert row["status"] == "loaded"
    assert [p["provider_id"] for p in row["providers"]] == ["obelisk-session-evidence"]
    assert row["ready"] is True
