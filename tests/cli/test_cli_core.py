# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The host CLI surface of the core: help, extension list, record validation, receipts."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from loopx_recall_core.cli import cli

CANARY = "CANARY-CLI-SECRET-4242"


@pytest.fixture
def runner(monkeypatch):
    monkeypatch.setenv("LOOPX_RECALL_LOAD_PLUGINS", "")
    return CliRunner()


def _write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return str(path)


def test_help_lists_groups(runner):
    result = runner.invoke(cli, ["--help"])
    assert result.exit_code == 0
    assert "extension" in result.output
    assert "recall" in result.output


def test_extension_list_empty(runner):
    result = runner.invoke(cli, ["extension", "list", "--format", "json", "--available"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    # LOOPX_RECALL_LOAD_PLUGINS="" loads nothing: installed plugins are listed, not imported.
    assert all(row["status"] == "not_loaded" for row in data["extensions"])
    assert all(row["providers"] == [] for row in data["extensions"])
    assert data["available"][0]["distribution"] == "loopx-obelisk-session-evidence"


def test_validate_accepts_and_rejects(runner, tmp_path, request_data):
    ok = runner.invoke(
        cli, ["recall", "validate", "request", _write(tmp_path, "r.json", request_data)]
    )
    assert ok.exit_code == 0, ok.output
    request_data["limits"]["max_items"] = "5"
    request_data["query_terms"] = [CANARY]
    bad = runner.invoke(
        cli, ["recall", "validate", "request", _write(tmp_path, "b.json", request_data)]
    )
    assert bad.exit_code == 1
    assert "$.limits.max_items: expected int, got str" in bad.output
    assert CANARY not in bad.output
    assert "Traceback" not in bad.output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[1, 2]", "must hold a JSON object"),
        ("{not json " + CANARY, "not valid JSON"),
        ("x" * 1_000_001, "larger than 1000000 bytes"),
    ],
)
def test_bad_files_are_rejected_without_echo(runner, tmp_path, content, message):
    result = runner.invoke(
        cli, ["recall", "validate", "request", _write(tmp_path, "f.json", content)]
    )
    assert result.exit_code == 1
    assert message in result.output
    assert CANARY not in result.output


def test_missing_file_is_rejected(runner, tmp_path):
    secret_path = str(tmp_path / CANARY / "nope.json")
    result = runner.invoke(cli, ["recall", "validate", "request", secret_path])
    assert result.exit_code == 1
    assert CANARY not in result.output


def test_usage_error_exits_2(runner):
    result = runner.invoke(cli, ["recall", "validate", "nonsense", "x"])
    assert result.exit_code == 2


def test_receipt_projection(runner, tmp_path, request_data, result_data, loopx_home):
    # loopx_home: the receipt key is created in a test state folder, never in the real one
    result_data["items"][0]["snippet"] = CANARY
    args = [
        "recall",
        "receipt",
        "--request-json",
        _write(tmp_path, "q.json", request_data),
        "--result-json",
        _write(tmp_path, "r.json", result_data),
        "--format",
        "json",
    ]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    receipt = json.loads(result.output)
    assert receipt["result_count"] == 2
    assert receipt["evidence_type_counts"] == {"prior_failure": 1, "decision": 1}
    assert receipt["raw_content_captured"] is False
    assert CANARY not in result.output


def test_receipt_refuses_out_of_scope_result(runner, tmp_path, request_data, result_data):
    result_data["scope_applied"]["repository_id"] = "another-repo"
    args = [
        "recall",
        "receipt",
        "--request-json",
        _write(tmp_path, "q.json", request_data),
        "--result-json",
        _write(tmp_path, "r.json", result_data),
    ]
    result = runner.invoke(cli, args)
    assert result.exit_code == 1
    assert "$.scope_applied.repository_id" in result.output


def test_deeply_nested_json_is_rejected_cleanly(runner, tmp_path):
    path = _write(tmp_path, "deep.json", '{"a":' + "[" * 100_000 + "]" * 100_000 + "}")
    result = runner.invoke(cli, ["recall", "validate", "request", path])
    assert result.exit_code == 1
    assert "nests too deeply" in result.output


def test_lone_surrogate_output_is_escaped():
    from loopx_recall_core.cli._common import dumps

    assert dumps({"a": "x\ud800"}) == '{\n  "a": "x\\ud800"\n}'
    dumps({"a": "x\ud800"}).encode("utf-8")
