# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Bad input is a one-line error, never a traceback.

Non-UTF-8 command-line bytes, an over-long ``--agent-id``, a 5,000-digit integer or a
duplicate key in any JSON input file, and absurd counts reported by a provider. Each case
exits 1 (rejected input) or 2 (usage), prints one ``error:`` line (or the external-evidence
error record), never echoes the canary it was given, and writes nothing private.
"""

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
from loopx_recall_core.contracts import (
    ContractError,
    HistoricalEvidenceReceiptV0,
    HistoricalEvidenceResultV0,
    structure,
)
from loopx_recall_core.external_evidence import plan as make_plan
from loopx_recall_core.plugin import manager as plugins_module

from ..conftest import REQUEST, RESULT
from ..fake_provider import FakeProvider, host_with

capability_cli = importlib.import_module("loopx_recall_core.cli.capability")
# the operator commands load the plugins in the library, not in cli/
recall_lib = importlib.import_module("loopx_recall_core.operator_requests")

CANARY = "CANARY-TERM-77"
LOOPX = Path(sys.executable).with_name("loopx-recall")
BAD = CANARY.encode() + b"\xff\xfe-\xc3("  # invalid UTF-8 after a canary


# ---- non-UTF-8 bytes on the command line -----------------------------------------------

RECALL = [b"recall", b"history", b"--agent-id", b"agent-a", b"--project-id", b"proj-j"]
ENABLE = [
    b"capability",
    b"enable",
    b"agent-turn-recall",
    b"--provider",
    b"obelisk-session-evidence",
    b"--project-id",
    b"proj-j",
    b"--repository-id",
    b"repo-r",
]
ARGV_CASES = {
    "recall-term": ([*RECALL, b"--term", BAD], "--term"),
    "recall-term-equals": ([*RECALL, b"--term=" + BAD], "--term"),
    "recall-agent-id": (
        [b"recall", b"history", b"--agent-id", BAD, b"--project-id", b"p", b"--term", b"x"],
        "--agent-id",
    ),
    "recall-revision": ([*RECALL, b"--term", b"pytest", b"--revision", BAD], "--revision"),
    "recall-current-session": (
        [*RECALL, b"--term", b"pytest", b"--current-session", BAD],
        "--current-session",
    ),
    "enable-agent-id": ([*ENABLE, b"--agent-id", BAD], "--agent-id"),
    "enable-provider-option": (
        [*ENABLE, b"--agent-id", b"a", b"--history-source", BAD],
        "--history-source",
    ),
    "status-project-id": (
        [b"capability", b"status", b"agent-turn-recall", b"--provider", b"x", b"--project-id", BAD],
        "--project-id",
    ),
    "show-argument": ([b"recall", b"show", BAD], "argument 3"),
    "validate-path": ([b"recall", b"validate", b"request", BAD], "argument 4"),
    "evidence-objective": (
        [
            b"external-evidence",
            b"plan",
            b"--objective",
            BAD,
            b"--user-activity",
            b"u",
            b"--decision",
            b"d",
            b"--evidence-kind",
            b"k",
        ],
        "--objective",
    ),
    "extension-install": ([b"extension", b"install", BAD], "argument 3"),
}


@pytest.mark.parametrize("case", sorted(ARGV_CASES))
def test_non_utf8_argument_is_one_line_usage_error(case, tmp_path):
    argv, named = ARGV_CASES[case]
    home = tmp_path / "home"
    env = {**os.environ, "LOOPX_RECALL_HOME": str(home), "LOOPX_RECALL_LOAD_PLUGINS": ""}
    completed = subprocess.run(
        [os.fsencode(LOOPX), *argv], capture_output=True, env=env, timeout=60, check=False
    )
    stderr = completed.stderr.decode("utf-8", "replace")
    assert "Traceback" not in stderr
    assert completed.returncode == 2, stderr
    assert stderr.splitlines() == [
        f"error: {named}: not valid UTF-8 (command-line arguments must be UTF-8 text)"
    ]
    assert completed.stdout == b""
    for stream in (completed.stdout, completed.stderr):
        assert CANARY.encode() not in stream
        assert b"\xff" not in stream
    # nothing reached the state folder or the private store (no partial .r-* files)
    assert not home.exists() or not any(home.rglob("*"))


# ---- an over-long --agent-id on enable ----------------------------------------------------


@pytest.fixture
def fake_host(monkeypatch, loopx_home):
    monkeypatch.setenv("LOOPX_RECALL_LOAD_PLUGINS", "")
    fake = FakeProvider()
    for module in (capability_cli, recall_lib, plugins_module):
        monkeypatch.setattr(module, "load_host", lambda *a, **k: host_with(fake))
    return fake


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--agent-id", CANARY + "x" * 300),
        # 129 astral characters: 129 code points but 258 UTF-16 units
        ("--agent-id", CANARY + "\U0001d4b3" * 122),
        ("--project-id", CANARY + "p" * 300),
        ("--agent-id", "   "),
    ],
    ids=["ascii", "astral", "project", "blank"],
)
def test_enable_with_overlong_id_is_rejected_without_traceback(
    fake_host, loopx_home, option, value
):
    args = {
        "--agent-id": "agent-a",
        "--project-id": "proj-j",
        "--repository-id": "repo-fake",
        option: value,
    }
    result = CliRunner().invoke(
        cli,
        [
            "capability",
            "enable",
            "agent-turn-recall",
            "--provider",
            "obelisk-session-evidence",
            *[part for pair in args.items() for part in pair],
        ],
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.exit_code == 1, result.output
    reason = "must not be blank" if not value.strip() else "longer than 256 UTF-16 units"
    assert result.stderr.splitlines() == [f"error: {option}: {reason}"]
    assert CANARY not in result.output
    assert not loopx_home.exists() or not any(loopx_home.rglob("*.json"))


# ---- every JSON input file: huge integers and duplicate keys ------------------------------

HUGE = "{" + f'"{CANARY}": ' + "9" * 5000 + "}"
DUPLICATE = "{" + f'"{CANARY}": 1, "{CANARY}": 2' + "}"


def _json_inputs(tmp_path: Path, bad: Path) -> dict[str, list[str]]:
    good = tmp_path / "good.json"  # a valid JSON object, read before the bad file
    b = str(bad)
    return {
        "validate-request": ["recall", "validate", "request", b],
        "validate-result": ["recall", "validate", "result", b],
        "validate-receipt": ["recall", "validate", "receipt", b],
        "receipt-request": ["recall", "receipt", "--request-json", b, "--result-json", b],
        "receipt-result": ["recall", "receipt", "--request-json", str(good), "--result-json", b],
        "replan-situation": ["recall", "replan", "--situation-json", b],
        "replan-outcome": [
            "recall",
            "replan",
            "--situation-json",
            str(good),
            "--outcome-json",
            b,
        ],
        "ee-discover-inventory": ["external-evidence", "discover", "--provider-inventory-json", b],
        "ee-discover-registry": ["external-evidence", "discover", "--connector-registry", b],
        "ee-plan-request": ["external-evidence", "plan", "--request-json", b],
        "ee-receipt-plan": ["external-evidence", "receipt", "--plan-json", b, "--receipt-json", b],
        "ee-receipt-receipt": [
            "external-evidence",
            "receipt",
            "--plan-json",
            str(good),
            "--receipt-json",
            b,
        ],
        "ee-admit-plan": [
            "external-evidence",
            "admit",
            "--plan-json",
            b,
            "--receipt-json",
            b,
            "--decision",
            "reject",
            "--reason",
            "r",
        ],
        "ee-retire": ["external-evidence", "retire", "--admission-json", b],
    }


INPUT_CASES = sorted(_json_inputs(Path("/x"), Path("/x/bad")))


def _run_cli(args: list[str]) -> Any:
    result = CliRunner().invoke(cli, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result


@pytest.mark.parametrize(
    ("content", "message"),
    [(HUGE, "integer longer than 20 digits"), (DUPLICATE, "duplicate key in a JSON object")],
    ids=["huge-integer", "duplicate-key"],
)
@pytest.mark.parametrize("case", INPUT_CASES)
def test_every_json_input_is_read_strictly(
    case, content, message, tmp_path, loopx_home, monkeypatch
):
    monkeypatch.setenv("LOOPX_RECALL_LOAD_PLUGINS", "")
    (tmp_path / "good.json").write_text(json.dumps(REQUEST), encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    result = _run_cli(_json_inputs(tmp_path, bad)[case])
    assert result.exit_code == 1, result.output
    assert message in result.output
    assert CANARY not in result.output
    assert "Traceback" not in result.output


def _ready_plan() -> dict[str, Any]:
    provider = {
        "provider_id": "host:external-research",
        "provider_kind": "method",
        "protocol": "external_evidence_research_v0",
        "declared": True,
        "installed": True,
        "enabled": True,
        "ready": True,
        "unavailable_reason": None,
    }
    request = {
        "objective": "Inspect the retry API",
        "user_activity": "Choosing a retry library",
        "decision": "Whether to adopt library X",
        "evidence_kinds": ["current_behavior"],
    }
    return make_plan(request, [provider], None)


def test_receipt_with_duplicate_status_is_not_read_as_succeeded(tmp_path, monkeypatch):
    """The issue's case: ``"status":"failed","status":"succeeded"`` was accepted."""
    monkeypatch.setenv("LOOPX_RECALL_LOAD_PLUGINS", "")
    plan_record = _ready_plan()
    selected = plan_record["selected_provider"]
    receipt = {
        "schema_version": "loopx_external_evidence_receipt_v0",
        "plan_id": plan_record["plan_id"],
        "request_id": plan_record["request"]["request_id"],
        "provider_id": selected["provider_id"],
        "provider_kind": selected["provider_kind"],
        "status": "succeeded",
        "sources": [
            {
                "source_ref": "https://example.com/a",
                "source_family": "vendor documentation",
                "basis": "observed",
                "finding": CANARY,
                "limitation": "Only the latest release was read.",
                "publication_date": "2026-01-15",
                "accessed_at": "2026-03-01T10:00:00Z",
                "content_digest": "sha256:" + "a" * 64,
            }
        ],
        "summary": "Retries back off.",
        "limitations": [],
        "completed_at": "2026-03-01T10:05:00Z",
    }
    plan_path = tmp_path / "plan.json"
    plan_path.write_text(json.dumps(plan_record), encoding="utf-8")
    honest = tmp_path / "honest.json"
    honest.write_text(json.dumps(receipt), encoding="utf-8")
    ok = _run_cli(
        [
            "external-evidence",
            "receipt",
            "--plan-json",
            str(plan_path),
            "--receipt-json",
            str(honest),
        ]
    )
    assert ok.exit_code == 0, ok.output  # the fixture is valid: only the duplicate differs

    text = json.dumps(receipt).replace(
        '"status": "succeeded"', '"status": "failed", "status": "succeeded"'
    )
    assert text.count('"status"') == 2
    forged = tmp_path / "forged.json"
    forged.write_text(text, encoding="utf-8")
    for step in (
        ["receipt"],
        [
            "admit",
            "--decision",
            "admit",
            "--reason",
            "r",
            "--admit-source",
            "https://example.com/a",
        ],
    ):
        result = _run_cli(
            [
                "external-evidence",
                step[0],
                "--plan-json",
                str(plan_path),
                "--receipt-json",
                str(forged),
                *step[1:],
            ]
        )
        assert result.exit_code == 1, result.output
        record = json.loads(result.stdout)
        assert record["ok"] is False
        assert record["error"] == "--receipt-json: duplicate key in a JSON object"
        assert CANARY not in result.output


# ---- counts a provider reports are bounded --------------------------------------------------


@pytest.mark.parametrize("count", [10**30, 2**53, -1])
def test_result_omitted_count_is_bounded(count):
    data = {**json.loads(json.dumps(RESULT)), "truncated": True, "omitted_count": count}
    with pytest.raises(ContractError) as caught:
        structure(data, HistoricalEvidenceResultV0)
    assert "$.omitted_count: " in str(caught.value)
    assert "2**53-1" in str(caught.value)
    assert count < 0 or str(count)[:8] not in str(caught.value)
    # the bound is JavaScript's Number.MAX_SAFE_INTEGER, inclusive
    data["omitted_count"] = 2**53 - 1
    assert structure(data, HistoricalEvidenceResultV0).omitted_count == 2**53 - 1


@pytest.mark.parametrize(
    ("field", "value", "path"),
    [
        ("omitted_count", 10**30, "$.omitted_count"),
        (
            "evidence_type_counts",
            {"prior_failure": 10**30, "decision": -(10**30) + 1},
            "$.evidence_type_counts['prior_failure']: integer outside the safe range",
        ),
        (
            "evidence_type_counts",
            {"prior_failure": 65, "decision": -65},
            "$.evidence_type_counts['prior_failure']: must be 0..64",
        ),
    ],
)
def test_receipt_counts_are_bounded(field, value, path):
    receipt = {
        "schema_version": "historical_evidence_receipt_v0",
        "request_id": "req-1",
        "provider_id": "obelisk-session-evidence",
        "provider_version": "0.1.0",
        "index_revision_digest": "sha256:" + "a" * 64,
        "scope_digest": "sha256:" + "b" * 64,
        "query_digest": "sha256:" + "c" * 64,
        "result_digest": "sha256:" + "d" * 64,
        "result_count": 0,
        "evidence_type_counts": {},
        "freshness": "fresh",
        "truncated": True,
        "omitted_count": 1,
        "grants_new_action_authority": False,
        "external_writes_performed": False,
        "raw_content_captured": False,
        field: value,
    }
    with pytest.raises(ContractError) as caught:
        structure(receipt, HistoricalEvidenceReceiptV0)
    assert path in str(caught.value)
    assert "1000000000" not in str(caught.value)


class _HugeCountProvider(FakeProvider):
    """Returns a result whose omitted_count is 10**30 (as a plain dict, as JSON would)."""

    def retrieve(self, request: Any, binding: Any, *, timeout: float, exclude_sessions=()) -> Any:
        self.mode = "dict"
        result = super().retrieve(request, binding, timeout=timeout)
        return {**result, "truncated": True, "omitted_count": 10**30}


def test_provider_huge_count_never_reaches_a_receipt(monkeypatch, loopx_home):
    monkeypatch.setenv("LOOPX_RECALL_LOAD_PLUGINS", "")
    fake = _HugeCountProvider()
    for module in (capability_cli, recall_lib, plugins_module):
        monkeypatch.setattr(module, "load_host", lambda *a, **k: host_with(fake))
    enabled = _run_cli(
        [
            "capability",
            "enable",
            "agent-turn-recall",
            "--provider",
            "obelisk-session-evidence",
            "--agent-id",
            "agent-a",
            "--project-id",
            "proj-j",
        ]
    )
    assert enabled.exit_code == 0, enabled.output
    result = _run_cli(
        [
            "recall",
            "history",
            "--agent-id",
            "agent-a",
            "--project-id",
            "proj-j",
            "--term",
            "pytest",
            "--format",
            "json",
        ]
    )
    assert result.exit_code == 0, result.output
    assert fake.calls == 1
    data = json.loads(result.stdout)
    assert (data["status"], data["reason"]) == ("failed", "contract_violation")
    assert data["receipt"]["omitted_count"] == 0
    assert str(10**30) not in result.output
