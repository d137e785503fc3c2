# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall extension`` acts on extensions only.

``uninstall`` refuses every distribution that does not register the
``loopx_recall_core.providers`` entry-point group (click, pip, ...) before pip runs;
``install`` refuses what pip would read as an option and fails when no extension arrived.

Nothing here removes a real package from the development environment: the refusal tests
replace the pip runner with a recorder (the old code would have called it), and the
real-pip test runs in a throwaway virtual environment that holds only fake wheels.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import importlib
import io
import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from loopx_recall_core.cli import cli
from loopx_recall_core.plugin import _pip
from loopx_recall_core.plugin import distributions as provider_distributions
from tests.state_builders import enablement, seed

GROUP = "loopx_recall_core.providers"
CANARY = "CANARY-TERM-77"


@pytest.fixture
def pip_calls(monkeypatch, loopx_home):
    """Record pip instead of running it; a real pip child process fails the test."""
    monkeypatch.setenv("LOOPX_RECALL_LOAD_PLUGINS", "")
    calls: list[tuple[str, object]] = []
    monkeypatch.setattr(
        provider_distributions, "pip_uninstall", lambda dist: calls.append(("uninstall", dist))
    )
    monkeypatch.setattr(
        provider_distributions,
        "pip_install",
        lambda target, **kw: calls.append(("install", target)),
    )

    def no_child(*args, **kwargs):
        raise AssertionError(f"pip must not run: {args!r}")

    monkeypatch.setattr(_pip.subprocess, "run", no_child)
    return calls


def _invoke(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert "Traceback" not in result.output
    return result


def _write_dist(site: Path, name: str, version: str, entry_points: str | None) -> Path:
    """An installed distribution's metadata (nothing importable)."""
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8"
    )
    records = ["METADATA"]
    if entry_points is not None:
        (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")
        records.append("entry_points.txt")
    (info / "RECORD").write_text(
        "".join(f"{info.name}/{file},,\n" for file in [*records, "RECORD"]), encoding="utf-8"
    )
    importlib.invalidate_caches()
    return info


EXTENSION_EP = f"[{GROUP}]\nfake-provider = loopx_fake_ext_not_importable\n"
OTHER_EP = "[console_scripts]\nfake-tool = loopx_fake_tool:main\n"


# ---- uninstall: only extensions -----------------------------------------------------------


@pytest.mark.parametrize("name", ["click", "pip", "Click", "pytest", "attrs"])
def test_uninstall_refuses_a_package_that_is_not_an_extension(pip_calls, name):
    result = _invoke("extension", "uninstall", name, "--yes")
    assert result.exit_code == 1, result.output
    assert pip_calls == []
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: ")
    assert f"is not a loopx-recall extension (it registers no {GROUP} entry point)" in line
    importlib.import_module(name.lower())  # still there


def test_uninstall_refuses_a_distribution_with_other_entry_points(pip_calls, tmp_path, monkeypatch):
    site = tmp_path / "site"
    _write_dist(site, "loopx-fake-tool", "1.0", OTHER_EP)
    monkeypatch.syspath_prepend(str(site))
    result = _invoke("extension", "uninstall", "loopx-fake-tool", "--yes")
    assert result.exit_code == 1
    assert "is not a loopx-recall extension" in result.stderr
    assert pip_calls == []


def test_uninstall_refuses_a_folder_whose_metadata_names_another_distribution(
    pip_calls, tmp_path, monkeypatch
):
    # An `evilext-1.0.dist-info` folder whose METADATA says `Name: click` and registers our
    # group: before, the check passed on the folder and pip was then told to remove click.
    site = tmp_path / "site"
    info = _write_dist(site, "evilext", "1.0", f"[{GROUP}]\nevil = evil_module\n")
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: click\nVersion: 1.0\n")
    monkeypatch.syspath_prepend(str(site))
    result = _invoke("extension", "uninstall", "evilext", "--yes")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "error: evilext's installed metadata names another distribution; refusing to "
        "uninstall it"
    ]
    assert pip_calls == []


def test_uninstall_removes_the_name_it_checked(pip_calls, tmp_path, monkeypatch):
    site = tmp_path / "site"
    _write_dist(site, "loopx-Fake_Ext", "1.0", f"[{GROUP}]\nfake = fake_module\n")
    monkeypatch.syspath_prepend(str(site))
    result = _invoke("extension", "uninstall", "LOOPX.fake-ext", "--yes")
    assert result.exit_code == 0, result.output
    assert pip_calls == [("uninstall", "loopx-fake-ext")]


def test_uninstall_refuses_the_host_and_unknown_names(pip_calls):
    host = _invoke("extension", "uninstall", "loopx_recall_core", "--yes")
    assert host.exit_code == 1
    assert "loopx-recall-core itself" in host.stderr
    missing = _invoke("extension", "uninstall", "no-such-distribution-" + CANARY.lower(), "--yes")
    assert missing.exit_code == 1
    assert "is not installed" in missing.stderr
    assert pip_calls == []


def test_uninstall_an_extension_counts_only_its_own_enablements(pip_calls, tmp_path, monkeypatch):
    site = tmp_path / "site"
    _write_dist(site, "loopx-fake-ext", "1.0", EXTENSION_EP)
    monkeypatch.syspath_prepend(str(site))
    store = seed(
        enablement("fake-provider", "agent-a"),
        enablement("obelisk-session-evidence", "agent-b"),
        enablement("obelisk-session-evidence", "agent-c"),
    )
    result = _invoke("extension", "uninstall", "loopx_fake_ext", "--yes")
    assert result.exit_code == 0, result.output
    assert pip_calls == [("uninstall", "loopx-fake-ext")]
    assert result.stdout.splitlines()[0] == (
        "uninstalled loopx-fake-ext; 1 enablement(s) kept, provider data untouched"
    )
    left = result.stdout.splitlines()[1:]  # what is left, each with the command removing it
    assert "`loopx-recall capability disable " in left[0]  # the enablements it kept
    assert any("`loopx-recall cleanup --remove`" in line for line in left[1:])
    assert len(store.read().enablements) == 3


PLUGIN_MODULE = """
from loopx_recall_core import hookimpl


class Provider:
    provider_id = "fake-provider"
    provider_version = "1.0"

    def binding_options(self):
        return []

    def bind(self, options, *, cwd):
        return {}

    def readback(self, binding):
        raise NotImplementedError

    def retrieve(self, request, binding, *, timeout, exclude_sessions=()):
        raise NotImplementedError


@hookimpl
def loopx_recall_providers():
    return [Provider()]
"""


def test_uninstall_counts_the_enablements_of_the_providers_the_extension_offers(
    pip_calls, tmp_path, monkeypatch
):
    """The plugin's entry point is not a provider id: the count is of the provider ids its
    plugin contributes (the old count matched entry-point names and said 0 here), and an
    enablement of a provider the extension does not offer is not counted."""
    site = tmp_path / "site"
    _write_dist(site, "loopx-fake-ext", "1.0", f"[{GROUP}]\nfake-plugin = loopx_fake_plugin\n")
    (site / "loopx_fake_plugin.py").write_text(PLUGIN_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("LOOPX_RECALL_LOAD_PLUGINS", "loopx-fake-ext")
    store = seed(
        enablement("fake-provider", "agent-a"),
        enablement("fake-provider", "agent-b"),
        enablement("fake-plugin", "agent-c"),
        enablement("obelisk-session-evidence", "agent-d"),
    )
    result = _invoke("extension", "uninstall", "loopx-fake-ext", "--yes")
    assert result.exit_code == 0, result.output
    assert pip_calls == [("uninstall", "loopx-fake-ext")]
    assert result.stdout.splitlines()[0] == (
        "uninstalled loopx-fake-ext; 2 enablement(s) kept, provider data untouched"
    )
    left = result.stdout.splitlines()[1:]  # what is left, each with the command removing it
    assert "`loopx-recall capability disable " in left[0]  # the enablements it kept
    assert any("`loopx-recall cleanup --remove`" in line for line in left[1:])
    assert len(store.read().enablements) == 4


# ---- install: no pip options, and an honest report -----------------------------------------


@pytest.mark.parametrize(
    "spec",
    [
        "-rrequirements.txt",
        "--requirement=requirements.txt",
        "--index-url=https://evil.example/simple",
        "-ihttps://evil.example/simple",
        "--extra-index-url=https://evil.example/simple",
        "-e.",
        " -r requirements.txt",
        "loopx-fake-ext --index-url=https://evil.example/simple",
    ],
)
def test_install_refuses_what_pip_would_read_as_an_option(pip_calls, spec):
    result = _invoke("extension", "install", "--", spec)
    assert result.exit_code == 1, result.output
    assert pip_calls == []
    (line,) = result.stderr.splitlines()
    assert "not a pip option" in line
    assert "evil.example" not in line


def test_pip_reads_the_target_as_a_requirement_never_an_option(monkeypatch):
    calls = []

    def run(args, **kwargs):
        calls.append(list(args))
        return subprocess.CompletedProcess(args, 0, b"", "")

    monkeypatch.setattr(_pip.subprocess, "run", run)
    _pip.pip_install("loopx-fake-ext>=1", upgrade=False, editable=False)
    _pip.pip_uninstall("loopx-fake-ext")
    install, uninstall = calls[1], calls[3]
    assert install[-2:] == ["--", "loopx-fake-ext>=1"]
    assert uninstall[3:] == [
        "uninstall",
        "--disable-pip-version-check",
        "-y",
        "--",
        "loopx-fake-ext",
    ]


def _pip_that_installs(site: Path, name: str, entry_points: str | None, calls: list):
    def install(target, **kwargs):
        calls.append(("install", target))
        if not list(site.glob(f"{name.replace('-', '_')}-*.dist-info")):
            _write_dist(site, name, "1.0", entry_points)

    return install


def test_install_fails_when_no_extension_arrived(pip_calls, tmp_path, monkeypatch):
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(
        provider_distributions,
        "pip_install",
        _pip_that_installs(site, "loopx-fake-tool", OTHER_EP, pip_calls),
    )
    result = _invoke("extension", "install", "loopx-fake-tool")
    assert result.exit_code == 1, result.output
    assert pip_calls == [("install", "loopx-fake-tool")]
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: pip finished but no loopx-recall extension arrived")
    assert "loopx-recall extension list --available" in line


def test_install_reports_the_extension_that_arrived(pip_calls, tmp_path, monkeypatch):
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(
        provider_distributions,
        "pip_install",
        _pip_that_installs(site, "loopx-fake-ext", EXTENSION_EP, pip_calls),
    )
    result = _invoke("extension", "install", "loopx-fake-ext")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("installed loopx-fake-ext 1.0.\n")
    again = _invoke("extension", "install", "loopx-fake-ext", "--format", "json")
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["arrived"] == []  # already there: pip changed nothing
    text = _invoke("extension", "install", "loopx-fake-ext")
    assert text.stdout.startswith("already installed, nothing changed.\n")


# ---- the same with real pip, in a throwaway virtual environment ------------------------------


def _wheel(directory: Path, name: str, entry_points: str | None) -> Path:
    """A minimal pure-Python wheel holding one module and its metadata."""
    module = name.replace("-", "_")
    info = f"{module}-1.0.dist-info"
    files = {
        f"{module}.py": "VALUE = 1\n",
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n",
    }
    if entry_points is not None:
        files[f"{info}/entry_points.txt"] = entry_points
    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=")
        writer.writerow([path, f"sha256={digest.decode()}", len(text.encode())])
    writer.writerow([f"{info}/RECORD", "", ""])
    wheel = directory / f"{module}-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
        archive.writestr(f"{info}/RECORD", record.getvalue())
    return wheel


@pytest.fixture
def throwaway_venv(tmp_path):
    """A venv without its own pip that sees this environment's packages (pip included)
    through a .pth file; pip run from it installs into the throwaway venv only."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ours = sysconfig.get_paths()["purelib"]
    Path(purelib, "zz_dev_env.pth").write_text(
        f"import site; site.addsitedir({ours!r})\n", encoding="utf-8"
    )
    return python, Path(purelib)


def test_real_pip_install_and_uninstall_in_a_throwaway_venv(throwaway_venv, tmp_path):
    python, purelib = throwaway_venv
    extension = _wheel(tmp_path, "loopx-fake-ext", EXTENSION_EP)
    plain = _wheel(tmp_path, "loopx-fake-tool", OTHER_EP)
    env = {
        **os.environ,
        "LOOPX_RECALL_HOME": str(tmp_path / "home"),
        "LOOPX_RECALL_LOAD_PLUGINS": "",
        "PIP_NO_INDEX": "1",  # local wheels only; nothing is fetched
        "PIP_NO_CACHE_DIR": "1",
    }

    def loopx(*args: str) -> subprocess.CompletedProcess[str]:
        completed = subprocess.run(
            [str(python), "-c", "from loopx_recall_core.cli import main; main()", *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
            check=False,
        )
        assert "Traceback" not in completed.stderr
        return completed

    none_arrived = loopx("extension", "install", str(plain))
    assert none_arrived.returncode == 1, none_arrived.stderr
    assert "no loopx-recall extension arrived" in none_arrived.stderr
    assert list(purelib.glob("loopx_fake_tool-*.dist-info"))  # pip did install it

    refused = loopx("extension", "install", "--", f"-r{tmp_path / 'requirements.txt'}")
    assert refused.returncode == 1
    assert "not a pip option" in refused.stderr

    installed = loopx("extension", "install", str(extension), "--format", "json")
    assert installed.returncode == 0, installed.stderr
    assert json.loads(installed.stdout)["arrived"] == [
        {"distribution": "loopx-fake-ext", "version": "1.0"}
    ]
    assert list(purelib.glob("loopx_fake_ext-*.dist-info"))
    again = loopx("extension", "install", str(extension), "--format", "json")
    assert again.returncode == 0, again.stderr  # already there is not "nothing arrived"

    not_extension = loopx("extension", "uninstall", "loopx-fake-tool", "--yes")
    assert not_extension.returncode == 1
    assert list(purelib.glob("loopx_fake_tool-*.dist-info"))

    removed = loopx("extension", "uninstall", "loopx-fake-ext", "--yes")
    assert removed.returncode == 0, removed.stderr
    assert "uninstalled loopx-fake-ext; 0 enablement(s) kept" in removed.stdout
    assert not list(purelib.glob("loopx_fake_ext-*.dist-info"))
