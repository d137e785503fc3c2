# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Hostile review: plugin code is contained, bounded and stoppable.

- H2: ``extension uninstall`` asks the extension's plugins for their provider ids within a
  deadline, contains whatever they raise, and falls back to the entry-point names plus the
  catalogue names of the distribution: a broken plugin can always be removed.
- M1: a provider whose members raise when read (or whose ``provider_id`` is not a
  non-blank str) makes its plugin broken; other plugins keep working.
- M2: a stop signal while plugin code runs stops the command (a plugin's own
  ``sys.exit()`` stays contained); an inherited SIG_IGN stays ignored.
- M4: one malformed ``entry_points.txt`` row breaks nothing but its own entry point.

Plugin exception text is never printed: each raising plugin plants :data:`CANARY`.
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner

from loopx_recall_core import hookimpl
from loopx_recall_core.cli import cli
from loopx_recall_core.plugin import _pip
from loopx_recall_core.plugin import distributions as provider_distributions
from loopx_recall_core.plugin import manager as plugins
from loopx_recall_core.plugin.distributions import (
    installed_extensions,
    installed_view,
    uninstall_target,
)
from loopx_recall_core.plugin.manager import PluginHost, recall_providers
from loopx_recall_core.plugin.protocols import ENTRY_POINT_GROUP
from loopx_recall_core.plugin.records import ProviderReadback
from loopx_recall_core.process import Stopped
from tests.state_builders import enablement, seed

CANARY = "/home/secret/CANARY"
#: the catalogue's one extension: a planted copy first on sys.path shadows the real one
OBELISK_DIST = "loopx-obelisk-session-evidence"
OBELISK_NAME = "obelisk-session-evidence"
FAKE_DIST = "loopx-fake-ext"


def _write_dist(site: Path, name: str, entry_points: str, version: str = "9.9") -> Path:
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")
    (info / "RECORD").write_text(
        "".join(f"{info.name}/{f},,\n" for f in ("METADATA", "entry_points.txt", "RECORD")),
        encoding="utf-8",
    )
    importlib.invalidate_caches()
    return info


def _plant(site: Path, dist: str, entry_point: str, source: str) -> tuple[str, Path]:
    """A distribution ``dist`` whose entry point ``entry_point`` is a new module."""
    module = f"loopx_contain_{uuid.uuid4().hex[:10]}"
    site.mkdir(parents=True, exist_ok=True)
    (site / f"{module}.py").write_text(source, encoding="utf-8")
    info = _write_dist(site, dist, f"[{ENTRY_POINT_GROUP}]\n{entry_point} = {module}\n")
    return module, info


PROVIDER = """
from loopx_recall_core import hookimpl
from loopx_recall_core.plugin.records import ProviderReadback


class Provider:
    provider_version = "1.0"
    provider_id = {provider_id}

    def binding_options(self):
        return []

    def bind(self, options, *, cwd):
        return {{}}

    def readback(self, binding):
        return ProviderReadback(provider_id="fake-good", version="1.0", ready=True)

    def retrieve(self, request, binding, *, timeout, exclude_sessions=()):
        raise NotImplementedError


@hookimpl
def loopx_recall_providers():
    {hook_body}
    return [Provider()]
"""

RAISING_ID = f"property(lambda self: (_ for _ in ()).throw(RuntimeError({CANARY!r})))"


class _BadStr(str):
    def __str__(self):
        raise RuntimeError(CANARY)


STR_RAISES = (
    "type('Id', (), {'__str__': lambda self: (_ for _ in ()).throw(RuntimeError("
    + repr(CANARY)
    + "))})()"
)

#: an import that announces itself, then waits until the test releases it
WAITING_IMPORT = """
import os, time
open(os.environ["LOOPX_TEST_READY"], "w").close()
while not os.path.exists(os.environ["LOOPX_TEST_RELEASE"]):
    time.sleep(0.02)
"""


def _provider_source(provider_id: str = '"fake-good"', hook_body: str = "pass") -> str:
    return PROVIDER.format(provider_id=provider_id, hook_body=hook_body)


def _seed(*provider_ids: str) -> None:
    seed(*(enablement(p, f"agent-{i}") for i, p in enumerate(provider_ids)))


@pytest.fixture
def pip_calls(monkeypatch, loopx_home):
    calls: list[str] = []
    monkeypatch.setattr(provider_distributions, "pip_uninstall", calls.append)

    def no_child(*args, **kwargs):
        raise AssertionError("pip must not run")

    monkeypatch.setattr(_pip.subprocess, "run", no_child)
    return calls


def _invoke(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert "Traceback" not in result.output
    assert "CANARY" not in result.output
    return result


# ---- H2: uninstall learns the ids bounded and contained, with the catalogue fallback -------


@pytest.mark.parametrize(
    "provider_id",
    [RAISING_ID, STR_RAISES, "42", '"   "'],
    ids=["raises", "str-raises", "int", "blank"],
)
def test_uninstall_removes_an_extension_whose_provider_id_misbehaves(
    pip_calls, tmp_path, monkeypatch, provider_id
):
    site = tmp_path / "site"
    _plant(site, OBELISK_DIST, "shadow-ep", _provider_source(provider_id))
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("LOOPX_RECALL_LOAD_PLUGINS", OBELISK_DIST)
    _seed(OBELISK_NAME, "shadow-ep", "someone-else")
    result = _invoke("extension", "uninstall", OBELISK_NAME, "--yes")
    assert result.exit_code == 0, result.output
    assert pip_calls == [OBELISK_DIST]
    # counted by the entry-point name and the catalogue name of the distribution
    assert result.stdout.splitlines()[0] == (
        f"uninstalled {OBELISK_DIST}; 2 enablement(s) kept, provider data untouched"
    )
    left = result.stdout.splitlines()[1:]  # what is left, each with the command removing it
    assert "`loopx-recall capability disable " in left[0]  # the enablements it kept
    assert any("`loopx-recall cleanup --remove`" in line for line in left[1:])


def test_uninstall_fallback_counts_the_catalogue_names_too(pip_calls, tmp_path, monkeypatch):
    """Plugins left out by $LOOPX_RECALL_LOAD_PLUGINS are not imported: the count is by the
    entry-point names plus the catalogue names for the distribution (review finding L2)."""
    site = tmp_path / "site"
    _plant(site, OBELISK_DIST, "shadow-ep", _provider_source(RAISING_ID))
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("LOOPX_RECALL_LOAD_PLUGINS", "")
    _seed(OBELISK_NAME, OBELISK_NAME, "shadow-ep", "someone-else")
    result = _invoke("extension", "uninstall", OBELISK_DIST, "--yes")
    assert result.exit_code == 0, result.output
    assert pip_calls == [OBELISK_DIST]
    assert "; 3 enablement(s) kept" in result.stdout


def test_uninstall_of_a_good_extension_counts_its_provider_ids(pip_calls, tmp_path, monkeypatch):
    site = tmp_path / "site"
    _plant(site, FAKE_DIST, "fake-ep", _provider_source())
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("LOOPX_RECALL_LOAD_PLUGINS", FAKE_DIST)
    _seed("fake-good", "fake-ep", OBELISK_NAME)
    result = _invoke("extension", "uninstall", FAKE_DIST, "--yes")
    assert result.exit_code == 0, result.output
    assert "; 1 enablement(s) kept" in result.stdout


DRIVER = """
import os, shutil, sys
from loopx_recall_core.plugin import distributions as provider_distributions
from loopx_recall_core.cli import main

provider_distributions.PROVIDED_IDS_DEADLINE_S = float(os.environ["LOOPX_TEST_DEADLINE"])


def pip_uninstall(distribution):
    sys.stdout.write(f"PIP-RAN {distribution}\\n")
    shutil.rmtree(os.environ["LOOPX_TEST_DIST_INFO"])


provider_distributions.pip_uninstall = pip_uninstall
main()
"""


def _env(tmp_path: Path, site: Path, load: str, **extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(site),
        "LOOPX_RECALL_HOME": os.environ["LOOPX_RECALL_HOME"],
        "LOOPX_RECALL_LOAD_PLUGINS": load,
        "LOOPX_TEST_READY": str(tmp_path / "ready"),
        "LOOPX_TEST_RELEASE": str(tmp_path / "release"),
        "LOOPX_TEST_DEADLINE": "1.0",
        **extra,
    }


#: The stop signals these tests send. A run started in the background (``scripts/test &``)
#: starts with SIGINT ignored, nohup ignores SIGHUP, and a child inherits an ignored signal
#: (which the CLI keeps ignored: test_an_inherited_ignored_sighup_stays_ignored), so each
#: driver starts with the default handlers, as from a terminal, unless a test says otherwise.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def _default_handlers() -> None:
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_DFL)


def _start(tmp_path: Path, args: list[str], env: dict[str, str], **kwargs) -> subprocess.Popen:
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER, encoding="utf-8")
    kwargs.setdefault("preexec_fn", _default_handlers)
    return subprocess.Popen(
        [sys.executable, str(driver), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        **kwargs,
    )


def _ignored(pid: int) -> set[int]:
    """The signals process ``pid`` ignores (its SigIgn mask in /proc)."""
    status = Path(f"/proc/{pid}/status").read_text()
    (mask,) = (int(row.split()[1], 16) for row in status.splitlines() if row.startswith("SigIgn"))
    return {n for n in range(1, 65) if mask >> (n - 1) & 1}


def test_a_driver_starts_with_default_handlers_when_the_run_ignores_them(tmp_path, loopx_home):
    site = tmp_path / "site"
    _plant(site, FAKE_DIST, "fake-ep", WAITING_IMPORT + _provider_source())
    # as in a run started with `&` (SIGINT) under nohup (SIGHUP)
    before = {n: signal.signal(n, signal.SIG_IGN) for n in (signal.SIGINT, signal.SIGHUP)}
    try:
        proc = _start(tmp_path, ["extension", "list"], _env(tmp_path, site, FAKE_DIST))
    finally:
        for n, handler in before.items():
            signal.signal(n, handler)
    _wait_ready(proc, tmp_path / "ready")  # the plugin waits for "release" meanwhile
    ignored = _ignored(proc.pid)
    (tmp_path / "release").touch()
    code, _, err = _finish(proc, tmp_path)
    assert code == 0, err
    assert ignored & set(STOP_SIGNALS) == set()


def _wait_ready(proc: subprocess.Popen, ready: Path) -> None:
    deadline = time.monotonic() + 60
    while not ready.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the plugin never started"
        time.sleep(0.02)


def _finish(proc: subprocess.Popen, tmp_path: Path, timeout: float = 30) -> tuple[int, str, str]:
    try:
        out, err = proc.communicate(timeout=timeout)
    finally:
        (tmp_path / "release").touch()
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    for text in (out, err):
        assert "Traceback" not in text
        assert "CANARY" not in text
    return proc.returncode, out, err


def test_uninstall_of_a_plugin_whose_import_hangs_is_bounded(tmp_path, loopx_home):
    site = tmp_path / "site"
    _module, info = _plant(site, OBELISK_DIST, "shadow-ep", WAITING_IMPORT + _provider_source())
    _seed(OBELISK_NAME, "shadow-ep", "someone-else")
    env = _env(tmp_path, site, OBELISK_DIST, LOOPX_TEST_DIST_INFO=str(info))
    proc = _start(tmp_path, ["extension", "uninstall", OBELISK_DIST, "--yes"], env)
    started = time.monotonic()
    code, out, err = _finish(proc, tmp_path, timeout=30)
    assert code == 0, err
    assert time.monotonic() - started < 20
    assert out.splitlines()[:2] == [
        f"PIP-RAN {OBELISK_DIST}",
        f"uninstalled {OBELISK_DIST}; 2 enablement(s) kept, provider data untouched",
    ]
    assert "`loopx-recall capability disable " in out.splitlines()[2]  # what is left, and how
    assert any("`loopx-recall cleanup --remove`" in line for line in out.splitlines()[3:])
    assert not info.exists()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_while_uninstall_imports_the_plugin_stops_it_before_pip(
    tmp_path, loopx_home, signum
):
    site = tmp_path / "site"
    _module, info = _plant(site, OBELISK_DIST, "shadow-ep", WAITING_IMPORT + _provider_source())
    env = _env(
        tmp_path, site, OBELISK_DIST, LOOPX_TEST_DIST_INFO=str(info), LOOPX_TEST_DEADLINE="60"
    )
    proc = _start(tmp_path, ["extension", "uninstall", OBELISK_DIST, "--yes"], env)
    _wait_ready(proc, tmp_path / "ready")
    proc.send_signal(signum)
    code, out, err = _finish(proc, tmp_path, timeout=10)
    assert code == 128 + signum
    assert err.splitlines() == [f"loopx-recall: stopped by {signal.Signals(signum).name}"]
    assert "PIP-RAN" not in out
    assert info.exists()  # pip never ran: the package is still installed


# ---- M2: stop signals are not swallowed by plugin containment ------------------------------


@pytest.mark.parametrize("where", ["import", "hook"])
def test_sigterm_while_a_plugin_runs_stops_extension_list(tmp_path, loopx_home, where):
    site = tmp_path / "site"
    if where == "import":
        source = WAITING_IMPORT + _provider_source()
    else:
        body = "\n    ".join(WAITING_IMPORT.strip().splitlines())
        source = _provider_source(hook_body=body)
    _plant(site, FAKE_DIST, "fake-ep", source)
    proc = _start(tmp_path, ["extension", "list"], _env(tmp_path, site, FAKE_DIST))
    _wait_ready(proc, tmp_path / "ready")
    proc.send_signal(signal.SIGTERM)
    code, out, err = _finish(proc, tmp_path, timeout=10)
    assert code == 128 + signal.SIGTERM
    assert err.splitlines() == ["loopx-recall: stopped by SIGTERM"]
    assert out == ""


def test_an_inherited_ignored_sighup_stays_ignored(tmp_path, loopx_home):
    site = tmp_path / "site"
    _plant(site, FAKE_DIST, "fake-ep", WAITING_IMPORT + _provider_source())
    proc = _start(
        tmp_path,
        ["extension", "list", "--format", "json"],
        _env(tmp_path, site, FAKE_DIST),
        preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN),  # as nohup does
    )
    _wait_ready(proc, tmp_path / "ready")
    # The process waits for "release" in a loop that checks for signals between steps, so
    # a SIGHUP it did not ignore would stop it before the release is seen: no clock needed.
    proc.send_signal(signal.SIGHUP)
    (tmp_path / "release").touch()
    code, out, err = _finish(proc, tmp_path, timeout=30)
    assert code == 0, err
    assert "stopped" not in err
    rows = {row["distribution"]: row for row in json.loads(out)["extensions"]}
    assert (rows[FAKE_DIST]["status"], rows[FAKE_DIST]["ready"]) == ("loaded", True)


def _module(name: str, **attrs: object):
    import types

    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    return module


def test_stopped_passes_through_hook_and_import_containment(monkeypatch):
    host = PluginHost()

    @hookimpl(specname="loopx_recall_providers")
    def stops():
        raise Stopped(143)

    host.register(_module("stops", stops=stops), distribution="stops", version="1")
    with pytest.raises(Stopped):
        recall_providers(host)

    class _EntryPoint:
        name = "ep"
        distribution = "d"
        version = "1"

        def load(self):
            raise Stopped(143)

    monkeypatch.setattr(plugins, "entry_points", lambda group: [_EntryPoint()])
    with pytest.raises(Stopped):
        PluginHost().load_entry_points()


def test_a_plugins_own_sys_exit_stays_contained_at_import(monkeypatch):
    class _EntryPoint:
        name = "ep"
        distribution = "d"
        version = "1"

        def load(self):
            sys.exit(3)

    monkeypatch.setattr(plugins, "entry_points", lambda group: [_EntryPoint()])
    host = PluginHost()
    host.load_entry_points()
    (record,) = host.records
    assert (record.status, record.error_class) == ("broken", "SystemExit")


# ---- M1: a provider whose members raise when read is one broken plugin ---------------------


class GoodProvider:
    provider_id = "fake-good"
    provider_version = "1.0"

    def binding_options(self):
        return []

    def bind(self, options, *, cwd):
        return {}

    def readback(self, binding):
        return ProviderReadback(provider_id=self.provider_id, version="1.0", ready=True)

    def retrieve(self, request, binding, *, timeout, exclude_sessions=()):
        raise NotImplementedError


class RaisingId(GoodProvider):
    @property
    def provider_id(self):  # type: ignore[override]
        raise RuntimeError(CANARY)


class RaisingVersion(GoodProvider):
    @property
    def provider_version(self):  # type: ignore[override]
        raise RuntimeError(CANARY)


def _with_id(value: object) -> type:
    return type("OddId", (GoodProvider,), {"provider_id": value})


@pytest.mark.parametrize(
    "bad",
    [RaisingId, RaisingVersion, _with_id(42), _with_id(""), _with_id("  "), _with_id(_BadStr("x"))],
    ids=["id-raises", "version-raises", "int", "empty", "blank", "str-subclass"],
)
def test_a_misbehaving_provider_marks_its_plugin_broken_and_others_work(bad):
    host = PluginHost()

    @hookimpl(specname="loopx_recall_providers")
    def good_hook():
        return [GoodProvider()]

    @hookimpl(specname="loopx_recall_providers")
    def bad_hook():
        return [bad()]

    host.register(_module("good", good_hook=good_hook), distribution="good", version="1")
    host.register(_module("bad", bad_hook=bad_hook), distribution="bad", version="1")
    assert [
        (host.record(key).distribution, p.provider_id) for key, p in recall_providers(host)
    ] == [("good", "fake-good")]
    rows = {row["distribution"]: row for row in installed_view(host)}
    assert (rows["good"]["status"], rows["good"]["ready"]) == ("loaded", True)
    assert rows["bad"]["status"] == "broken"
    assert rows["bad"]["error"].startswith("failed during hook: raised ")
    assert "CANARY" not in repr(rows)


def test_extension_list_and_capability_status_survive_a_raising_provider(
    tmp_path, loopx_home, monkeypatch
):
    site = tmp_path / "site"
    _plant(site, FAKE_DIST, "fake-ep", _provider_source())
    _plant(site, "loopx-bad-ext", "bad-ep", _provider_source(RAISING_ID))
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("LOOPX_RECALL_LOAD_PLUGINS", f"{FAKE_DIST},loopx-bad-ext")
    listed = _invoke("extension", "list", "--format", "json")
    assert listed.exit_code == 0, listed.output
    rows = {row["distribution"]: row for row in json.loads(listed.stdout)["extensions"]}
    assert (rows[FAKE_DIST]["status"], rows[FAKE_DIST]["ready"]) == ("loaded", True)
    assert rows["loopx-bad-ext"]["status"] == "broken"
    assert rows["loopx-bad-ext"]["error"] == "failed during hook: raised RuntimeError"
    status = _invoke(
        "capability", "status", "agent-turn-recall", "--provider", "fake-good", "--format", "json"
    )
    assert status.exit_code == 0, status.output
    assert json.loads(status.stdout)["provider"]["installed"] is True


# ---- M4: a malformed entry_points.txt row breaks only its own entry point ------------------


def test_a_malformed_row_of_another_group_breaks_nothing(tmp_path, loopx_home, monkeypatch):
    site = tmp_path / "site"
    _write_dist(site, "loopx-unrelated-tool", "[console_scripts]\nbroken-row\n")
    _plant(site, FAKE_DIST, "fake-ep", _provider_source())
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("LOOPX_RECALL_LOAD_PLUGINS", FAKE_DIST)
    assert FAKE_DIST in {ext.distribution for ext in installed_extensions().values()}
    listed = _invoke("extension", "list", "--format", "json")
    assert listed.exit_code == 0, listed.output
    (row,) = [r for r in json.loads(listed.stdout)["extensions"] if r["distribution"] == FAKE_DIST]
    assert (row["status"], row["ready"]) == ("loaded", True)


def test_a_malformed_row_of_our_group_is_one_broken_entry_point(tmp_path, loopx_home, monkeypatch):
    site = tmp_path / "site"
    _plant(site, FAKE_DIST, "fake-ep", _provider_source())
    _write_dist(
        site, "loopx-mangled-ext", f"[{ENTRY_POINT_GROUP}]\nno equals sign {CANARY}\nok = os.path\n"
    )
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delenv("LOOPX_RECALL_LOAD_PLUGINS", raising=False)
    host = plugins.load_host([FAKE_DIST, "loopx-mangled-ext"])
    records = {(r.distribution, r.entry_point): r for r in host.records}
    malformed = records[("loopx-mangled-ext", "<malformed row 2>")]
    assert (malformed.status, malformed.error_class) == ("broken", "MalformedEntryPoint")
    assert malformed.error == "failed during import: its entry_points.txt row has no '='"
    assert records[("loopx-mangled-ext", "ok")].status == "loaded"
    assert records[(FAKE_DIST, "fake-ep")].status == "loaded"
    assert uninstall_target("loopx-mangled-ext").entry_points == ("<malformed row 2>", "ok")
    listed = _invoke("extension", "list")
    assert listed.exit_code == 0
