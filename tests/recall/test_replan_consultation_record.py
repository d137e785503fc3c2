# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``recall replan`` hands the library one typed record, :class:`Consultation`, made
where its options are parsed: the situation as a contract record (``--situation-json``,
checked by the converter) or its flag form (:class:`ProposedCommand`), the outcome as a
contract record. The report it gets back renders itself."""

from __future__ import annotations

import json

import attrs
import pytest
from click.testing import CliRunner

from loopx_recall_core import operator_requests
from loopx_recall_core.cli import cli
from loopx_recall_core.contracts.replan import ReplanOutcomeV0, ReplanSituationV0
from loopx_recall_core.operator_requests import (
    Consultation,
    OperatorRefused,
    ProposedCommand,
)
from loopx_recall_core.plugin.manager import PluginHost
from tests.recall.replan.helpers import situation

OUTCOME = {
    "schema_version": "loopx_replan_outcome_v0",
    "situation_id": "sit-1",
    "kind": "newly_evidenced_blocker",
    "rationale_refs": [{"kind": "current_evidence", "ref": "log:1"}],
}


@pytest.fixture
def asked(monkeypatch) -> list[Consultation]:
    """The records the command line hands the library (the real library answers)."""
    seen: list[Consultation] = []
    real = operator_requests.replan

    def capture(consultation, *args, **kwargs):
        seen.append(consultation)
        return real(consultation, *args, **kwargs)

    monkeypatch.setattr(operator_requests, "replan", capture)
    monkeypatch.setattr(operator_requests, "load_host", lambda *a, **k: PluginHost())
    return seen


def test_the_flag_form_is_one_record(asked, loopx_home):
    args = ["recall", "replan", "--proposed-command-file", "-", "--agent-id", "agent-a",
            "--project-id", "proj-j", "--trigger", "replan_repetition", "--revision", "r1",
            "--situation-id", "sit-9", "--timeout", "7", "--current-session", "s-now"]  # fmt: skip
    result = CliRunner().invoke(cli, args, input="make test\n")
    assert result.exit_code == 0, result.output
    assert asked == [
        Consultation(
            situation=ProposedCommand(
                command="make test", agent_id="agent-a", project_id="proj-j",
                trigger="replan_repetition", situation_id="sit-9", revision="r1",
            ),
            timeout=7.0,
            current_sessions=("s-now",),
        )
    ]  # fmt: skip


def test_the_file_form_is_checked_by_the_converter_before_the_library(
    asked, loopx_home, tmp_path
):
    (tmp_path / "s.json").write_text(json.dumps(situation()))
    (tmp_path / "o.json").write_text(json.dumps(OUTCOME))
    args = ["recall", "replan", "--situation-json", str(tmp_path / "s.json"),
            "--outcome-json", str(tmp_path / "o.json"), "--format", "json"]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    (consultation,) = asked
    assert isinstance(consultation.situation, ReplanSituationV0)
    assert isinstance(consultation.outcome, ReplanOutcomeV0)

    (tmp_path / "s.json").write_text(json.dumps({**situation(), "agent_id": 7}))
    del asked[:]
    result = CliRunner().invoke(cli, args)
    assert (result.exit_code, asked) == (1, [])
    assert result.stderr.startswith("error: $.agent_id: ")


def test_the_report_renders_itself_as_the_command_prints_it(loopx_home, monkeypatch):
    monkeypatch.setattr(operator_requests, "load_host", lambda *a, **k: PluginHost())
    flags = ProposedCommand(command="make", agent_id="agent-a", project_id="proj-j",
                            situation_id="sit-3")  # fmt: skip
    report = operator_requests.replan(Consultation(situation=flags))
    args = ["recall", "replan", "--proposed-command", "make", "--agent-id", "agent-a",
            "--project-id", "proj-j", "--situation-id", "sit-3"]  # fmt: skip
    printed = CliRunner().invoke(cli, args).stdout
    assert printed == report.text() + "\n"
    assert report.text().startswith("situation sit-3\n  admission: refused (not_enabled)\n")
    assert (report.agent_id, report.project_id) == ("agent-a", "proj-j")


def test_a_flag_form_the_converter_refuses_is_one_line(loopx_home, monkeypatch):
    monkeypatch.setattr(operator_requests, "load_host", lambda *a, **k: PluginHost())
    flags = ProposedCommand(command="make", agent_id="a" * 500, project_id="proj-j")
    with pytest.raises(OperatorRefused, match=r"^\$\.agent_id: "):
        operator_requests.replan(Consultation(situation=flags))


def test_a_trigger_the_flag_form_cannot_assert_is_refused():
    with pytest.raises(ValueError, match="trigger"):
        ProposedCommand(
            command="make", agent_id="a", project_id="j", trigger="resume_or_handoff_gap"
        )
    assert attrs.fields(ProposedCommand).trigger.default == "operator_requested_history"
