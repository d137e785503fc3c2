# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall external-evidence``: end to end in a subprocess, and each option in-process."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from loopx_recall_core.cli import cli
from loopx_recall_core.plugin.manager import PluginHost

# The package re-exports the click group under the module's name; get the module itself.
command_module = importlib.import_module("loopx_recall_core.cli.external_evidence")

ERROR_KEYS = ["ok", "schema_version", "status", "error"]
MAIN = "from loopx_recall_core.cli import main; main()"


@pytest.fixture(autouse=True)
def _no_installed_plugins(monkeypatch):
    monkeypatch.setenv("LOOPX_RECALL_LOAD_PLUGINS", "")


def _save(directory: Path, name: str, value: Any) -> str:
    path = directory / name
    path.write_text(json.dumps(value), encoding="utf-8")
    return str(path)


def _invoke(*args: str) -> tuple[int, Any, str]:
    result = CliRunner().invoke(cli, ["external-evidence", *args])
    stdout = result.stdout
    try:
        parsed = json.loads(stdout)
    except ValueError:
        parsed = stdout
    return result.exit_code, parsed, result.stderr


def _assert_error(code: int, record: Any, fragment: str) -> None:
    assert code == 1
    assert list(record) == ERROR_KEYS
    assert record["ok"] is False
    assert record["schema_version"] == "loopx_external_evidence_error_v0"
    assert record["status"] == "invalid_request"
    assert fragment in record["error"], record["error"]


# ---- the whole lifecycle in a subprocess --------------------------------------------


def test_end_to_end_in_a_subprocess(tmp_path, make):
    env = {**os.environ, "LOOPX_RECALL_LOAD_PLUGINS": ""}

    def run(*args: str) -> tuple[int, Any, str]:
        completed = subprocess.run(
            [sys.executable, "-c", MAIN, "external-evidence", *args],
            capture_output=True,
            text=True,
            encoding="utf-8",
            env=env,
            timeout=60,
            check=False,
        )
        return completed.returncode, json.loads(completed.stdout), completed.stderr

    providers = _save(tmp_path, "providers.json", {"providers": [make.provider()]})
    registry = _save(
        tmp_path, "registry.json", {"connectors": [{"id": "official-docs", "status": "supported"}]}
    )
    code, discovery, _ = run(
        "discover", "--provider-inventory-json", providers, "--connector-registry", registry
    )
    assert code == 0
    assert discovery["status"] == "ready"
    assert discovery["ready_provider_ids"] == ["host:external-research"]

    code, plan_record, _ = run(
        "plan",
        "--objective",
        "Inspect current behaviour of the retry API",
        "--user-activity",
        "Choosing a retry library",
        "--decision",
        "Whether to adopt library X",
        "--evidence-kind",
        "current_behavior",
        "--evidence-kind",
        "maintainer_statement",
        "--constraint",
        "public sources only",
        "--source-ref",
        make.source_a,
        "--search-term",
        "retry backoff",
        "--provider-inventory-json",
        providers,
        "--connector-registry",
        registry,
    )
    assert code == 0
    assert plan_record == make.plan(providers=[make.inventory_only(), make.provider()]), (
        "the CLI plan must equal the library plan for the same input"
    )
    plan_path = _save(tmp_path, "plan.json", plan_record)
    receipt_path = _save(tmp_path, "receipt.json", make.receipt(plan_record))

    code, observation, _ = run("receipt", "--plan-json", plan_path, "--receipt-json", receipt_path)
    assert code == 0
    assert observation["truth_contract"]["provider_execution_attested"] is False
    observation_path = _save(tmp_path, "observation.json", observation)

    admit_args = (
        "admit",
        "--plan-json",
        plan_path,
        "--receipt-json",
        observation_path,  # the receipt, held under "receipt"
        "--decision",
        "admit",
        "--reason",
        "Direct, recent, first-party evidence.",
        "--admit-source",
        make.source_a,
    )
    code, refused, stderr = run(*admit_args, "--admit-source", f"  {make.source_a}  ")
    _assert_error(code, refused, "decision.admitted_source_refs[1]: duplicate item")
    assert "admission_id" not in refused
    assert "Traceback" not in stderr

    code, admission, _ = run(*admit_args)
    assert code == 0
    assert admission["admitted_source_refs"] == [make.source_a]
    assert admission["downstream_projection"]["sources"][0]["source_ref"] == make.source_a
    admission_path = _save(tmp_path, "admission.json", admission)

    code, retained, _ = run("retire", "--admission-json", admission_path)
    assert code == 0
    assert retained["status"] == "retained"
    assert retained["missing_downstream_source_refs"] == [make.source_a]

    code, retired, _ = run(
        "retire", "--admission-json", admission_path, "--downstream-source", make.source_a
    )
    assert code == 0
    assert retired["status"] == "retire_ready"
    assert retired["reason"] == "all_admitted_sources_projected"


# ---- help ---------------------------------------------------------------------------


def test_help_documents_each_step():
    code, text, _ = _invoke("--help")
    assert code == 0
    for step in ("discover", "plan", "receipt", "admit", "retire"):
        assert step in text
    for number, step in enumerate(["discover", "plan", "receipt", "admit", "retire"], start=1):
        code, text, _ = _invoke(step, "--help")
        assert code == 0
        assert f"Step {number}" in text
        assert "--format" in text


# ---- input files --------------------------------------------------------------------


def test_oversized_input_is_rejected(tmp_path):
    path = tmp_path / "big.json"
    path.write_text('{"providers": [], "pad": "' + "x" * 1_000_000 + '"}', encoding="utf-8")
    code, record, _ = _invoke("discover", "--provider-inventory-json", str(path))
    _assert_error(code, record, "larger than 1000000 bytes")


def test_an_input_of_exactly_the_cap_is_read(tmp_path):
    path = tmp_path / "exact.json"
    prefix = '{"providers": [], "p": "'
    path.write_text(prefix + "x" * (1_000_000 - len(prefix) - 2) + '"}', encoding="utf-8")
    assert path.stat().st_size == 1_000_000
    code, record, _ = _invoke("discover", "--provider-inventory-json", str(path))
    _assert_error(code, record, "provider inventory: unknown field")


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("[]", "--plan-json: must hold a JSON object"),
        ('"plan"', "--plan-json: must hold a JSON object"),
        ("{not json", "--plan-json: not valid JSON"),
        (b"\xff\xfe", "--plan-json: not UTF-8"),
    ],
)
def test_malformed_input_is_rejected(tmp_path, content, fragment):
    path = tmp_path / "plan.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    receipt = _save(tmp_path, "receipt.json", {})
    code, record, _ = _invoke("receipt", "--plan-json", str(path), "--receipt-json", receipt)
    _assert_error(code, record, fragment)


@pytest.mark.parametrize("kind", ["missing", "directory"])
def test_unreadable_input_is_rejected(tmp_path, kind):
    path = tmp_path / "missing.json" if kind == "missing" else tmp_path
    code, record, _ = _invoke("retire", "--admission-json", str(path))
    _assert_error(code, record, "--admission-json: cannot read the file")
    assert str(tmp_path) not in record["error"]


def test_receipt_under_a_receipt_key_must_be_an_object(tmp_path, make):
    plan_path = _save(tmp_path, "plan.json", make.plan())
    wrapped = _save(tmp_path, "receipt.json", {"receipt": "nope"})
    code, record, _ = _invoke("receipt", "--plan-json", plan_path, "--receipt-json", wrapped)
    _assert_error(code, record, "--receipt-json: receipt must hold a JSON object")


# ---- plan: flags, request file, usage errors ----------------------------------------


def test_plan_from_a_request_file_equals_plan_from_flags(tmp_path, make):
    providers = _save(tmp_path, "providers.json", {"providers": [make.provider()]})
    request = make.request(constraints=..., source_refs=..., search_terms=...)
    request_path = _save(tmp_path, "request.json", request)
    code, from_file, _ = _invoke(
        "plan", "--request-json", request_path, "--provider-inventory-json", providers
    )
    assert code == 0
    flags = ["--objective", request["objective"], "--user-activity", request["user_activity"]]
    flags += ["--decision", request["decision"]]
    for kind in request["evidence_kinds"]:
        flags += ["--evidence-kind", kind]
    code, from_flags, _ = _invoke("plan", *flags, "--provider-inventory-json", providers)
    assert code == 0
    assert from_file == from_flags


def test_an_explicitly_empty_search_term_list_needs_a_request_file(tmp_path, make):
    providers = _save(tmp_path, "providers.json", {"providers": [make.provider()]})
    with_empty = _save(tmp_path, "request.json", make.request(search_terms=[]))
    code, record, _ = _invoke(
        "plan", "--request-json", with_empty, "--provider-inventory-json", providers
    )
    assert code == 0
    assert record["request"]["search_terms"] == []


@pytest.mark.parametrize(
    "args",
    [
        ["--request-json", "r.json", "--objective", "x"],
        ["--objective", "x", "--user-activity", "y", "--decision", "z"],
        ["--evidence-kind", "k"],
    ],
)
def test_plan_usage_errors_exit_2(args):
    code, _, stderr = _invoke("plan", *args)
    assert code == 2
    assert "Traceback" not in stderr


def test_admit_rejects_an_unknown_decision_as_usage(tmp_path):
    code, _, _ = _invoke(
        "admit", "--plan-json", "p", "--receipt-json", "r", "--decision", "maybe", "--reason", "x"
    )
    assert code == 2


def test_a_blank_flag_is_a_contract_error_not_usage(tmp_path, make):
    providers = _save(tmp_path, "providers.json", {"providers": [make.provider()]})
    code, record, _ = _invoke(
        "plan",
        *["--objective", "  ", "--user-activity", "u", "--decision", "d", "--evidence-kind", "k"],
        *["--provider-inventory-json", providers],
    )
    _assert_error(code, record, "request.objective: must not be blank")


def test_preferred_provider_and_blocked_plan(tmp_path, make):
    providers = _save(
        tmp_path,
        "providers.json",
        {"providers": [make.provider(), make.provider("host:down", ready=False)]},
    )
    request = _save(tmp_path, "request.json", make.request())
    code, blocked, _ = _invoke(
        "plan",
        *["--request-json", request, "--provider-inventory-json", providers],
        *["--preferred-provider-id", "host:down"],
    )
    assert code == 0
    assert blocked["blocker"] == "preferred_provider_not_ready"
    plan_path = _save(tmp_path, "plan.json", blocked)
    receipt = _save(tmp_path, "receipt.json", make.receipt(make.plan()))
    code, record, _ = _invoke("receipt", "--plan-json", plan_path, "--receipt-json", receipt)
    _assert_error(code, record, "requires a ready plan")


def test_errors_never_echo_private_input(tmp_path, make):
    secret = "sk-PRIVATE-0123456789"
    providers = _save(tmp_path, "providers.json", {"providers": [make.provider(secret)]})
    code, record, _ = _invoke("discover", "--provider-inventory-json", providers)
    _assert_error(code, record, "provider inventory providers[0].provider_id")
    assert secret not in json.dumps(record)


# ---- plugins, text output, lone surrogates ------------------------------------------


class _LiveProvider:
    provider_id = "plugin:live"
    provider_kind = "connector"

    def readback(self) -> dict[str, Any]:
        return {"declared": True, "installed": True, "enabled": True, "ready": True}


class _Plugin:
    from loopx_recall_core import hookimpl

    @hookimpl
    def loopx_external_evidence_providers(self) -> list[Any]:
        return [_LiveProvider()]


def test_discover_includes_installed_plugin_rows(monkeypatch, tmp_path):
    def fake_load_host() -> PluginHost:
        host = PluginHost()
        host.register(_Plugin(), distribution="test-plugin", version="1")
        return host

    monkeypatch.setattr(command_module, "load_host", fake_load_host)
    registry = _save(tmp_path, "registry.json", {"connectors": [{"id": "x"}]})
    code, record, _ = _invoke("discover", "--connector-registry", registry)
    assert code == 0
    assert record["ready_provider_ids"] == ["plugin:live"]
    assert record["summary"]["connector_count"] == 2


def test_text_format_summarizes_each_step(tmp_path, make):
    providers = _save(tmp_path, "providers.json", {"providers": make.providers()})
    code, text, _ = _invoke("discover", "--provider-inventory-json", providers, "--format", "text")
    assert code == 0
    assert text.startswith("discovery: ready (2 providers: 1 method, 1 connector;")
    assert "connector:official-docs [connector]: unavailable" in text

    plan_record, receipt, observation, admission = make.lifecycle()
    plan_path = _save(tmp_path, "plan.json", plan_record)
    receipt_path = _save(tmp_path, "receipt.json", receipt)
    request_path = _save(tmp_path, "request.json", make.request())
    code, text, _ = _invoke(
        "plan", "--request-json", request_path, "--provider-inventory-json", providers,
        "--format", "text",
    )  # fmt: skip
    assert text.splitlines()[0] == f"plan {plan_record['plan_id']}: ready"
    code, text, _ = _invoke(
        "receipt", "--plan-json", plan_path, "--receipt-json", receipt_path, "--format", "text"
    )
    assert observation["receipt_observation_id"] in text
    assert "not attested" in text
    code, text, _ = _invoke(
        "admit",
        *["--plan-json", plan_path, "--receipt-json", receipt_path, "--format", "text"],
        *["--decision", "admit", "--reason", "Direct, recent, first-party evidence."],
        *["--admit-source", make.source_a, "--admit-source", make.source_c],
    )
    assert (
        text.splitlines()[0] == f"admission {admission['admission_id']}: admit (2 sources admitted)"
    )
    admission_path = _save(tmp_path, "admission.json", admission)
    code, text, _ = _invoke("retire", "--admission-json", admission_path, "--format", "text")
    assert "retained (admitted_sources_not_yet_projected)" in text
    assert "missing downstream sources: 2" in text


def test_a_lone_surrogate_is_written_as_an_escape(tmp_path, make):
    providers = _save(tmp_path, "providers.json", {"providers": [make.provider()]})
    request = tmp_path / "request.json"
    request.write_text(
        json.dumps(make.request(objective="half \ud800 pair"), ensure_ascii=True), encoding="utf-8"
    )
    result = CliRunner().invoke(
        cli,
        [
            *["external-evidence", "plan", "--request-json", str(request)],
            *["--provider-inventory-json", providers],
        ],
    )
    assert result.exit_code == 0
    assert "half \\ud800 pair" in result.stdout
    assert json.loads(result.stdout)["request"]["objective"] == "half \ud800 pair"


def test_deeply_nested_json_is_rejected_without_a_traceback(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000, encoding="utf-8")
    code, record, stderr = _invoke("retire", "--admission-json", str(path))
    _assert_error(code, record, "--admission-json: JSON nests too deeply")
    assert "Traceback" not in stderr
