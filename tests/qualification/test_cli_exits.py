# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall recall qualify``'s exits without a provider run: a canned verdict, a missing
provider, a bad case count (the end-to-end run against the Obelisk double is in
plugins/obelisk-session-evidence/tests/qualification/test_cli.py)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from loopx_recall_core.cli import cli
from loopx_recall_core.qualification import harness
from loopx_recall_core.qualification.harness import QualificationResult
from loopx_recall_core.state import StateStore
from tests.qualification.builders import synthetic_report

FILES = ("report.json", "report.md", "report.svg")


@pytest.fixture
def canned_runtime(monkeypatch):
    """The provider to qualify, without asking its runtime: a canned run needs none (the
    CLI's check that the runtime can be reached is tested with the double)."""
    provider = "obelisk-session-evidence"
    monkeypatch.setattr(harness, "qualifiable_provider", lambda _host, name=None: (provider, None))


def test_a_failing_verdict_exits_1_names_the_gate_and_is_recorded(
    tmp_path, monkeypatch, canned_runtime
):
    monkeypatch.setenv("LOOPX_RECALL_HOME", str(tmp_path / "home"))
    canned = QualificationResult(report=synthetic_report(passing=False))
    monkeypatch.setattr(harness, "run_qualification", lambda **_kw: canned)
    folder = tmp_path / "report"
    result = CliRunner().invoke(
        cli, ["recall", "qualify", "--report", str(folder), "--format", "json"]
    )
    assert result.exit_code == 1, result.output
    shown = json.loads(result.stdout)
    assert shown["verdict"] == {"passed": False, "failed_gates": ["repeat_reduction"]}
    assert sorted(p.name for p in folder.iterdir()) == sorted(FILES)
    verdict = (
        StateStore(tmp_path / "home").read().qualification("obelisk-session-evidence", "9.9.9-test")
    )
    assert verdict is not None
    assert verdict.passed is False
    assert verdict.failed_gates == ("repeat_reduction",)


def test_a_pass_replaces_the_earlier_verdict_of_that_version(
    tmp_path, monkeypatch, canned_runtime
):
    monkeypatch.setenv("LOOPX_RECALL_HOME", str(tmp_path / "home"))
    for passing in (False, True):
        canned = QualificationResult(report=synthetic_report(passing=passing))
        monkeypatch.setattr(harness, "run_qualification", lambda c=canned, **_kw: c)
        CliRunner().invoke(cli, ["recall", "qualify", "--report", str(tmp_path / "r")])
    state = StateStore(tmp_path / "home").read()
    assert len(state.qualifications) == 1
    assert state.qualification("obelisk-session-evidence", "9.9.9-test").passed is True


def test_a_missing_provider_is_an_environment_problem(tmp_path, monkeypatch):
    monkeypatch.setenv("LOOPX_RECALL_HOME", str(tmp_path / "home"))
    folder = tmp_path / "report"
    result = CliRunner().invoke(
        cli, ["recall", "qualify", "--provider", "no-such-provider", "--report", str(folder)]
    )
    assert result.exit_code == 2
    assert "not installed" in result.stderr
    assert "qualifying:" not in result.stderr  # refused before any progress is shown
    assert not folder.exists()
    assert not (tmp_path / "home" / "state.json").exists()


def test_an_empty_provider_name_is_not_taken_for_no_name(tmp_path, monkeypatch):
    monkeypatch.setenv("LOOPX_RECALL_HOME", str(tmp_path / "home"))
    result = CliRunner().invoke(
        cli, ["recall", "qualify", "--provider", "", "--report", str(tmp_path / "report")]
    )
    assert result.exit_code == 2
    assert result.stderr == "error: provider '' is not installed\n"


@pytest.mark.parametrize("cases", ["9", "2001", "x"])
def test_case_count_is_bounded(cases):
    result = CliRunner().invoke(cli, ["recall", "qualify", "--cases", cases])
    assert result.exit_code == 2


def test_the_report_goes_under_the_state_folder_not_the_working_directory(
    tmp_path, monkeypatch, canned_runtime
):
    monkeypatch.setenv("LOOPX_RECALL_HOME", str(tmp_path / "home"))
    canned = QualificationResult(report=synthetic_report(passing=True))
    monkeypatch.setattr(harness, "run_qualification", lambda **_kw: canned)
    repository = tmp_path / "the-users-repository"
    repository.mkdir()
    monkeypatch.chdir(repository)
    result = CliRunner().invoke(cli, ["recall", "qualify"])
    assert result.exit_code == 0, result.output
    assert list(repository.iterdir()) == []  # before: qualification-report/ was left here
    folder = tmp_path / "home" / "qualification-report"
    assert sorted(p.name for p in folder.iterdir()) == sorted(FILES)
    assert f"in {folder}; verdict recorded in state" in result.stdout
