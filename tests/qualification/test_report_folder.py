# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The report folder gets the state folder's rules.

``recall qualify --report DIR`` wrote through a symbolic link planted in a shared folder
(another user's ``~/.bashrc`` got the SVG). The folder must now be new (created 0700) or
an existing one of the user's that group and others cannot write; neither the folder nor
a report file may be a link; files are written as a new temp file and renamed into place.
A refusal is one line, exit 2, before the run starts, and names no path.
"""

from __future__ import annotations

import os
import stat

import pytest
from click.testing import CliRunner

from loopx_recall_core.cli import cli
from loopx_recall_core.qualification import harness
from loopx_recall_core.qualification.harness import QualificationResult
from loopx_recall_core.qualification.report import ReportError, write_report
from tests.qualification.builders import synthetic_report

CANARY = "CANARY-REPORT-9d2e"
FILES = ("report.json", "report.md", "report.svg")
SENTINEL = b"# the victim's shell start-up file\n"


def _sentinel(tmp_path):
    victim = tmp_path / f"{CANARY}-victim"
    victim.mkdir()
    sentinel = victim / ".bashrc"
    sentinel.write_bytes(SENTINEL)
    return sentinel


def _shared(tmp_path, mode=0o1777):
    shared = tmp_path / f"{CANARY}-shared"
    shared.mkdir()
    shared.chmod(mode)
    return shared


@pytest.mark.parametrize("name", FILES)
def test_a_planted_link_to_a_file_is_refused_and_the_file_untouched(tmp_path, name):
    sentinel = _sentinel(tmp_path)
    folder = tmp_path / "out"
    folder.mkdir(mode=0o700)
    (folder / name).symlink_to(sentinel)
    with pytest.raises(ReportError, match="symbolic link") as caught:
        write_report(synthetic_report(), folder)
    assert CANARY not in str(caught.value)
    assert sentinel.read_bytes() == SENTINEL
    assert (folder / name).is_symlink()
    assert sorted(p.name for p in folder.iterdir()) == [name]  # nothing written beside it


def test_a_report_folder_that_is_a_link_is_refused(tmp_path):
    sentinel = _sentinel(tmp_path)
    sentinel.parent.chmod(0o700)
    link = tmp_path / "out"
    link.symlink_to(sentinel.parent)
    with pytest.raises(ReportError, match="symbolic link"):
        write_report(synthetic_report(), link)
    assert sorted(p.name for p in sentinel.parent.iterdir()) == [".bashrc"]


@pytest.mark.parametrize("mode", [0o1777, 0o770, 0o702])
def test_a_folder_others_can_write_is_refused_untouched(tmp_path, mode):
    shared = _shared(tmp_path, mode)
    with pytest.raises(ReportError, match="writable by group or others") as caught:
        write_report(synthetic_report(), shared)
    assert CANARY not in str(caught.value)
    assert list(shared.iterdir()) == []
    assert stat.S_IMODE(shared.stat().st_mode) == mode  # never chmodded


def test_a_folder_of_another_user_is_refused(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("only root can give a folder to another user")
    folder = tmp_path / "theirs"
    folder.mkdir(mode=0o755)
    os.chown(folder, 65534, -1)
    with pytest.raises(ReportError, match="not owned by you"):
        write_report(synthetic_report(), folder)
    assert list(folder.iterdir()) == []


def test_a_new_folder_is_0700_and_an_earlier_report_is_replaced(tmp_path):
    folder = tmp_path / "new" / "report"
    assert write_report(synthetic_report(passing=False), folder) == list(FILES)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    first = {name: (folder / name).read_bytes() for name in FILES}
    inode = (folder / "report.svg").stat().st_ino
    write_report(synthetic_report(), folder)
    assert (folder / "report.md").read_bytes() != first["report.md"]
    assert (folder / "report.svg").stat().st_ino != inode  # a new file renamed into place
    assert sorted(p.name for p in folder.iterdir()) == sorted(FILES)  # no temp file left
    for name in FILES:
        assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600


def test_a_folder_in_the_way_of_a_report_file_is_refused(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir(mode=0o700)
    (folder / "report.md").mkdir()
    with pytest.raises(ReportError, match="not a regular file"):
        write_report(synthetic_report(), folder)


# -- the CLI: the folder is checked before the run is spent ----------------------------


@pytest.fixture
def qualify(tmp_path, monkeypatch):
    monkeypatch.setenv("LOOPX_RECALL_HOME", str(tmp_path / "home"))
    runs = []

    def run_qualification(**_kw):
        runs.append(1)
        return QualificationResult(report=synthetic_report())

    monkeypatch.setattr(harness, "run_qualification", run_qualification)
    monkeypatch.setattr(harness, "_ready_runtime", lambda *_args: {})

    def invoke(folder):
        result = CliRunner().invoke(cli, ["recall", "qualify", "--report", str(folder)])
        assert "Traceback" not in result.output
        assert CANARY not in result.output
        return result, runs

    return invoke


def test_cli_refuses_a_planted_link_before_the_run(tmp_path, qualify):
    sentinel = _sentinel(tmp_path)
    folder = tmp_path / "out"
    folder.mkdir(mode=0o700)
    (folder / "report.svg").symlink_to(sentinel)
    result, runs = qualify(folder)
    assert result.exit_code == 2
    assert runs == []  # refused before the run starts
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("error: cannot write the report: report.svg in the report")
    assert "symbolic link" in result.stderr
    assert "state path" not in result.stderr  # not the state folder's hint
    assert sentinel.read_bytes() == SENTINEL
    # nothing recorded: the verdict goes with a report
    assert not (tmp_path / "home" / "state.json").exists()


def test_cli_refuses_a_group_writable_folder_before_the_run(tmp_path, qualify):
    shared = _shared(tmp_path, 0o775)
    result, runs = qualify(shared / "report")  # its own folder inside: fine
    assert result.exit_code == 0, result.output
    assert runs == [1]
    result, runs = qualify(shared)
    assert result.exit_code == 2
    assert runs == [1]
    assert "writable by group or others" in result.stderr
    assert sorted(p.name for p in shared.iterdir()) == ["report"]
