# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""One ``entry_points.txt`` or ``METADATA`` that is not UTF-8, anywhere
on ``sys.path``, broke every command that loads plugins with a ``UnicodeDecodeError``
traceback (the fast ``capability status`` included).

Now what is not UTF-8 outside the ``loopx_recall_core.providers`` group is never read as
a problem, and no ``METADATA`` is read at all (a distribution's name and version come from
its folder's name); a row of the group that is not UTF-8, or a distribution of the group
whose folder name is not, is one broken entry point (listed as broken, as a plugin that
fails to import is), and every other plugin loads. The fake distributions sit in a site
folder on ``PYTHONPATH`` and the installed ``loopx-recall`` runs as a child process.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from loopx_recall_core.cli import cli
from loopx_recall_core.plugin import _entry_points
from loopx_recall_core.plugin import distributions as provider_distributions
from loopx_recall_core.plugin import manager as plugins
from loopx_recall_core.plugin.protocols import ENTRY_POINT_GROUP

LOOPX = Path(sys.executable).with_name("loopx-recall")
CANARY = b"CANARY-ROW-13"
GROUP = f"[{ENTRY_POINT_GROUP}]\n".encode()

PROVIDER = """
from loopx_recall_core import hookimpl
from loopx_recall_core.plugin.records import ProviderReadback


class Provider:
    provider_version = "1.0"
    provider_id = "fake-good-13"

    def binding_options(self):
        return []

    def bind(self, options, *, cwd):
        return {}

    def readback(self, binding):
        return ProviderReadback(provider_id="fake-good-13", version="1.0", ready=True)

    def retrieve(self, request, binding, *, timeout, exclude_sessions=()):
        raise NotImplementedError


@hookimpl
def loopx_recall_providers():
    return [Provider()]
"""


def _dist(site: Path, folder: str, metadata: bytes, entry_points: bytes | None) -> None:
    # a folder name with "\udcff" is created with the byte 0xff (surrogateescape)
    info = site / folder
    info.mkdir(parents=True)
    (info / "METADATA").write_bytes(metadata)
    if entry_points is not None:
        (info / "entry_points.txt").write_bytes(entry_points)


def _site(root: Path) -> Path:
    """Distributions with bytes that are not UTF-8, around one good provider."""
    site = root / "site"
    site.mkdir()
    (site / "loopx_item13_good.py").write_text(PROVIDER, encoding="utf-8")
    _dist(
        site,
        "loopx_good13-1.0.dist-info",
        b"Metadata-Version: 2.1\nName: loopx-good13\nVersion: 1.0\n",
        GROUP + b"good = loopx_item13_good\n",
    )
    # outside our group: a console script row, a whole METADATA, a description
    _dist(
        site,
        "tool13-1.dist-info",
        b"Name: tool13\nVersion: 1\n",
        b"[console_scripts]\ntool = tool13:m\xe4in " + CANARY + b"\n",
    )
    _dist(site, "latin13-2.dist-info", b"Name: l\xe4tin13\nVersion: 2\n\xff\xfe", None)
    _dist(
        site,
        "described13-3.dist-info",
        b"Name: described13\nVersion: 3\nSummary: caf\xe9\n\nd\xe9scription\n",
        b"[console_scripts]\nd = d:m\n" + GROUP + b"described = os.path\n",
    )
    # in our group: a METADATA that is not UTF-8 (never read: the entry point loads)
    _dist(
        site,
        "metalatin13-6.dist-info",
        b"Name: m\xe9talatin13\nVersion: \xff\n",
        GROUP + b"latin = json\n",
    )
    # in our group: one row that is not UTF-8 beside a good one; a folder name that is not
    _dist(
        site,
        "mixed13-4.dist-info",
        b"Name: mixed13\nVersion: 4\n",
        GROUP + b"bad\xff = " + CANARY + b"_mod\nok = string\n",
    )
    _dist(
        site,
        "badname13-5\udcff.dist-info",
        b"Name: badname13\nVersion: 5\n",
        GROUP + b"ep = os.path\n",
    )
    return site


WANTED = {
    ("loopx-good13", "good"): ("loaded", None),
    ("described13", "described"): ("loaded", None),
    ("metalatin13", "latin"): ("loaded", None),
    ("mixed13", "ok"): ("loaded", None),
    ("mixed13", "<unreadable row 2>"): (
        "broken",
        "failed during import: its entry_points.txt row is not UTF-8",
    ),
    ("badname13", "ep"): (
        "broken",
        "failed during import: its distribution's name or version (metadata folder name) "
        "is not UTF-8",
    ),
}


def _run(site: Path, home: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {
        **os.environ,
        "PYTHONPATH": str(site),
        "PYTHONIOENCODING": "utf-8",  # the fast path answers on UTF-8 streams only
        "LOOPX_RECALL_HOME": str(home),
        "LOOPX_RECALL_LOAD_PLUGINS": "loopx-good13,described13,metalatin13,mixed13,badname13",
    }
    env.pop("COLUMNS", None)
    completed = subprocess.run(
        [str(LOOPX), *args], capture_output=True, env=env, timeout=120, check=False
    )
    for stream in (completed.stdout, completed.stderr):
        assert b"Traceback" not in stream, completed.stderr.decode("utf-8", "replace")
        assert CANARY not in stream
    return completed


def _rows(records: list[dict]) -> dict[tuple[str, str], tuple[str, str | None]]:
    return {
        (r["distribution"], r["entry_point"]): (r["status"], r["error"])
        for r in records
        if r["distribution"] in {d for d, _ep in WANTED}
    }


def test_extension_list_lists_the_unreadable_entry_points_as_broken(tmp_path):
    site = _site(tmp_path)
    listed = _run(site, tmp_path / "home", "extension", "list", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    assert _rows(json.loads(listed.stdout)["extensions"]) == WANTED
    text = _run(site, tmp_path / "home", "extension", "list")
    assert text.returncode == 0, text.stderr
    assert b"BROKEN (UnreadableEntryPoint" in text.stdout


@pytest.mark.parametrize("output", ["json", "text"])
def test_capability_status_fast_path_still_answers(tmp_path, output):
    site = _site(tmp_path)
    args = ["capability", "status", "agent-turn-recall", "--provider", "fake-good-13"]
    status = _run(site, tmp_path / "home", *args, "--format", output)
    assert status.returncode == 0, status.stderr
    if output == "json":
        provider = json.loads(status.stdout)["provider"]
        assert provider["installed"] is True


def test_capability_status_click_path_still_answers(tmp_path, monkeypatch):
    # in process: click, not the fast path, answers a CliRunner
    site = _site(tmp_path)
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("LOOPX_RECALL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("LOOPX_RECALL_LOAD_PLUGINS", "loopx-good13,mixed13,badname13")
    result = CliRunner().invoke(
        cli,
        ["capability", "status", "agent-turn-recall", "--provider", "fake-good-13"],
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.exit_code == 0, result.output


def _in_process_records(site: Path, monkeypatch) -> dict:
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delenv("LOOPX_RECALL_LOAD_PLUGINS", raising=False)
    importlib.invalidate_caches()
    host = plugins.load_host(["loopx-good13", "described13", "metalatin13", "mixed13", "badname13"])
    return {
        key: value
        for key, value in (
            ((r.distribution, r.entry_point), (r.status, r.error)) for r in host.records
        )
        if key in WANTED
    }


def test_the_listing_without_importlib_metadata(tmp_path, monkeypatch):
    assert _in_process_records(_site(tmp_path), monkeypatch) == WANTED


def test_the_importlib_metadata_listing_reads_them_the_same_way(tmp_path, monkeypatch):
    # a zip archive on sys.path hands the listing to importlib.metadata
    archive = tmp_path / "bundle.zip"
    archive.write_bytes(b"")
    monkeypatch.syspath_prepend(str(archive))
    site = _site(tmp_path)
    assert not _entry_points._walkable()
    assert _in_process_records(site, monkeypatch) == WANTED


def test_extension_install_and_uninstall_read_them_too(tmp_path, monkeypatch):
    """``extension install`` snapshots the installed extensions with importlib.metadata
    before and after pip; ``uninstall`` reads its target's entry points."""
    monkeypatch.syspath_prepend(str(_site(tmp_path)))
    importlib.invalidate_caches()
    installed = provider_distributions.installed_extensions()
    assert installed["mixed13"].entry_points == ("<unreadable row 2>", "ok")
    assert installed["loopx-good13"].entry_points == ("good",)
    assert (installed["metalatin13"].version, installed["badname13"].version) == ("6", "unknown")
    target = provider_distributions.uninstall_target("mixed13")
    assert target.entry_points == ("<unreadable row 2>", "ok")
    with pytest.raises(provider_distributions.ExtensionRefused):
        # registers no provider: refused, not a crash
        provider_distributions.uninstall_target("tool13")
