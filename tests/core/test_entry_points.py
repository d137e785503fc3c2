# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The entry-point listing without importlib.metadata lists what importlib.metadata does;
a distribution's name (normalized) and version come from its metadata folder's name."""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

import pytest

from loopx_recall_core.plugin import _entry_points
from loopx_recall_core.plugin._entry_points import entry_points, normalize_dist_name
from loopx_recall_core.plugin.protocols import ENTRY_POINT_GROUP


def _ours(group: str) -> list[tuple]:
    return [(e.name, e.value, e.group, e.distribution, e.version) for e in entry_points(group)]


def _theirs(group: str) -> list[tuple]:
    return [
        (e.name, e.value, e.group, normalize_dist_name(e.dist.name), e.dist.version)
        for e in metadata.entry_points(group=group)
    ]


@pytest.mark.parametrize("group", [ENTRY_POINT_GROUP, "console_scripts", "pytest11"])
def test_the_real_environment(group):
    assert _ours(group) == _theirs(group)
    if group == ENTRY_POINT_GROUP:
        assert ("loopx-obelisk-session-evidence", "0.1.0") in {r[3:] for r in _ours(group)}


def _dist(site: Path, folder: str, metadata_text: str | None, entry_points_text: str | None):
    info = site / folder
    info.mkdir(parents=True)
    if metadata_text is not None:
        name = "PKG-INFO" if folder.endswith((".egg-info", "EGG-INFO")) else "METADATA"
        (info / name).write_text(metadata_text, encoding="utf-8")
    if entry_points_text is not None:
        (info / "entry_points.txt").write_text(entry_points_text, encoding="utf-8")


GROUP_TEXT = f"[{ENTRY_POINT_GROUP}]\n"


def test_planted_distributions(tmp_path, monkeypatch):
    first, second = tmp_path / "first", tmp_path / "second"
    # a plain one, with comments, blank lines and another group around ours
    _dist(
        first,
        "Alpha_Plugin-1.0.dist-info",
        "Metadata-Version: 2.1\nName: Alpha_Plugin\nVersion: 1.0\n\nbody Name: no\n",
        "# comment\n[console_scripts]\nalpha = alpha:main\n\n"
        f"{GROUP_TEXT}  alpha-one = alpha.plugin\nalpha-two=alpha.other:make [extra]\n",
    )
    # the same distribution again, later on sys.path: shadowed, as in importlib
    _dist(
        second,
        "alpha_plugin-2.0.dist-info",
        "Name: alpha-plugin\nVersion: 2.0\n",
        GROUP_TEXT + "x = y\n",
    )
    # an egg-info folder with PKG-INFO
    _dist(
        first,
        "beta-0.5-py3.11.egg-info",
        "Name: beta\nVersion: 0.5\n",
        GROUP_TEXT + "beta = beta_mod:hook\n",
    )
    # a distribution without entry points, one without our group, a file egg-info
    _dist(first, "gamma-3.dist-info", "Name: gamma\nVersion: 3\n", None)
    _dist(first, "delta-4.dist-info", "Name: delta\nVersion: 4\n", "[other]\nd = d\n")
    (first / "epsilon-1.egg-info").write_text("Name: epsilon\nVersion: 1\n", encoding="utf-8")
    # a broken row value (loads fail, listing does not)
    _dist(second, "zeta-9.dist-info", "Name: zeta\r\nVersion: 9\r\n", GROUP_TEXT + "broken = !\n")
    # not a metadata folder
    (first / "notes.txt").write_text("x", encoding="utf-8")
    monkeypatch.setattr(sys, "path", [str(first), str(tmp_path / "missing"), str(second)])
    ours = _ours(ENTRY_POINT_GROUP)
    assert ours == _theirs(ENTRY_POINT_GROUP)
    assert [r[0] for r in ours] == ["alpha-one", "alpha-two", "beta", "broken"]
    assert _ours("console_scripts") == _theirs("console_scripts")


def test_load_matches_importlib(tmp_path, monkeypatch):
    site = tmp_path / "site"
    _dist(
        site,
        "omega-1.dist-info",
        "Name: omega\nVersion: 1\n",
        GROUP_TEXT
        + "mod = os.path\nattr = os.path:join\nbad = not valid!\nmissing = no_such_mod_q\n",
    )
    monkeypatch.setattr(sys, "path", [str(site), *sys.path])
    theirs = {e.name: e for e in metadata.entry_points(group=ENTRY_POINT_GROUP)}
    for ours in entry_points(ENTRY_POINT_GROUP):
        if ours.distribution != "omega":
            continue
        try:
            expected: object = theirs[ours.name].load()
        except Exception as exc:  # noqa: BLE001
            expected = type(exc)
        try:
            got: object = ours.load()
        except Exception as exc:  # noqa: BLE001
            got = type(exc)
        assert got == expected, ours.name


def test_a_zip_on_sys_path_is_left_to_importlib(tmp_path, monkeypatch):
    archive = tmp_path / "bundle.zip"
    archive.write_bytes(b"")
    monkeypatch.setattr(sys, "path", [str(archive), *sys.path])
    assert not _entry_points._walkable()
    assert _ours(ENTRY_POINT_GROUP) == _theirs(ENTRY_POINT_GROUP)


def test_a_malformed_row_elsewhere_does_not_break_the_listing(tmp_path, monkeypatch):
    """importlib.metadata fails the whole listing here; we list our group,
    and a row without "=" in it is one malformed entry point (its text not repeated)."""
    site = tmp_path / "site"
    _dist(site, "tool-1.dist-info", "Name: tool\nVersion: 1\n", "[console_scripts]\nbroken-row\n")
    _dist(
        site,
        "plug-2.dist-info",
        "Name: plug\nVersion: 2\n",
        GROUP_TEXT + "good = plug_mod\nsecret /home/secret/CANARY\n",
    )
    monkeypatch.setattr(sys, "path", [str(site), *sys.path])
    with pytest.raises((TypeError, ValueError)):
        metadata.entry_points(group=ENTRY_POINT_GROUP)
    for listing in (entry_points, _entry_points._from_importlib):
        ours = [e for e in listing(ENTRY_POINT_GROUP) if e.distribution == "plug"]
        assert [(e.name, e.value, e.malformed) for e in ours] == [
            ("good", "plug_mod", False),
            ("<malformed row 3>", "", True),
        ]
        with pytest.raises(_entry_points.MalformedEntryPoint):
            ours[1].load()


def test_the_name_and_version_come_from_the_folder_name_never_from_metadata(tmp_path, monkeypatch):
    site = tmp_path / "site"
    # METADATA that says another name, that is not UTF-8, or that is missing
    _dist(site, "Lambda_Plug-7.dist-info", "Name: other\nVersion: 8\n", GROUP_TEXT + "l = l\n")
    _dist(site, "mu-2.dist-info", None, GROUP_TEXT + "m = m\n")
    (site / "mu-2.dist-info" / "METADATA").write_bytes(b"Name: m\xe4\nVersion: \xff\n")
    _dist(site, "nu-3.dist-info", None, GROUP_TEXT + "n = n\n")
    # a legacy development install's folder has no version; an .egg names its EGG-INFO
    _dist(site, "xi.egg-info", "Name: xi\nVersion: 4\n", GROUP_TEXT + "x = x\n")
    egg = tmp_path / "Omicron_Egg-5-py3.11.egg"
    _dist(egg, "EGG-INFO", "Name: something-else\nVersion: 6\n", GROUP_TEXT + "o = o\n")
    monkeypatch.setattr(sys, "path", [str(site), str(egg), *sys.path])
    wanted = [
        ("l", "lambda-plug", "7"),
        ("m", "mu", "2"),
        ("n", "nu", "3"),
        ("x", "xi", None),
        ("o", "omicron-egg", "5"),
    ]
    ours = [(e.name, e.distribution, e.version) for e in entry_points(ENTRY_POINT_GROUP)]
    assert sorted(ours[: len(wanted)], key=str) == sorted(wanted, key=str)  # listdir's order
    for listing in (entry_points, _entry_points._from_importlib):
        mu = [e for e in listing(ENTRY_POINT_GROUP) if e.distribution == "mu"]
        assert [(e.name, e.unreadable) for e in mu] == [("m", None)]


def test_a_folder_name_that_is_not_utf8_makes_its_entry_points_unreadable(tmp_path, monkeypatch):
    site = tmp_path / "site"
    _dist(site, "pi-9\udcff.dist-info", None, GROUP_TEXT + "p = os.path\n")
    monkeypatch.setattr(sys, "path", [str(site), *sys.path])
    for listing in (entry_points, _entry_points._from_importlib):
        (row,) = [e for e in listing(ENTRY_POINT_GROUP) if e.distribution == "pi"]
        assert (row.name, row.version) == ("p", None)
        assert row.unreadable == _entry_points.UNREADABLE_METADATA
        with pytest.raises(_entry_points.UnreadableEntryPoint):
            row.load()


def test_installed_extensions_are_the_listing_plugin_loading_uses(tmp_path, monkeypatch):
    from loopx_recall_core.plugin import distributions as provider_distributions

    folder = tmp_path / "rho-1.dist-info"
    folder.mkdir()
    (folder / "METADATA").write_text("Name: rho\nVersion: 1\n", encoding="utf-8")
    rows = [
        _entry_points.ProviderEntryPoint(
            "b", "m", ENTRY_POINT_GROUP, "rho", "1", folder=str(folder)
        ),
        _entry_points.ProviderEntryPoint(
            "a", "m", ENTRY_POINT_GROUP, "rho", "1", folder=str(folder)
        ),
        _entry_points.ProviderEntryPoint("c", "m", ENTRY_POINT_GROUP, "sigma", None),
    ]
    monkeypatch.setattr(_entry_points, "entry_points", lambda group: rows)
    installed = provider_distributions.installed_extensions()
    assert sorted(installed) == ["rho", "sigma"]
    assert installed["rho"].entry_points == ("a", "b")
    assert installed["rho"].fingerprint == f"1@{(folder / 'METADATA').stat().st_mtime_ns}"
    assert (installed["sigma"].version, installed["sigma"].fingerprint) == ("unknown", "None@")
