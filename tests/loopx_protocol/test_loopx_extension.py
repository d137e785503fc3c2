# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The LoopX extension without LoopX: the packaged manifests, the one record mapping, and the
provider entry point's process contract (one JSON object on stdout, typed refusals, never a
traceback). The real LoopX runs it in plugins/.../tests/loopx_protocol/test_inside_loopx.py."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

from loopx_recall_core import __version__
from loopx_recall_core.cli import cli
from loopx_recall_core.contracts import (
    HistoricalEvidenceReceiptV0,
    HistoricalEvidenceRequestV0,
    HistoricalEvidenceResultV0,
    structure,
    unstructure,
)
from loopx_recall_core.contracts.loopx_protocol import RECORDS, LoopxReceipt
from loopx_recall_core.contracts.schema import top_level_records
from loopx_recall_core.loopx_protocol import capability, manifests
from loopx_recall_core.loopx_protocol.decision_context import (
    parse_scope_ref,
    query_terms,
    recall_timeout,
    scope_ref,
)
from loopx_recall_core.loopx_protocol.mapping import (
    advisory_items,
    history_result,
    loopx_receipt,
)
from loopx_recall_core.recall.outcome import RecallOutcome
from loopx_recall_core.recall.receipts import result_receipt

PROVIDER = str(Path(sys.executable).parent / "loopx-recall-loopx-provider")

#: LoopX 2.1.1's built-in capability ids (loopx/capabilities/*/catalog_entry.py): an
#: extension that provides one of them breaks `loopx capability list` for everyone.
LOOPX_BUILTIN_CAPABILITIES = {
    "agent-turn-recall", "benchmark-toolkit", "change-quality-qualification",
    "connector-registry", "content-ops", "decision-context", "deep-research", "explore",
    "external-evidence-research", "goal-capability-organization",
    "integration-branch-reconcile", "issue-fix", "material-lifecycle",
    "performance-diagnosis", "periodic-report", "pull-request-review",
    "progress-review-sentinel", "project-skill-delivery", "public-safe-outbound",
    "reliability-diagnostics", "repository-change-window", "reward-memory",
    "semantic-preference", "value-connectors",
}  # fmt: skip
#: LoopX 2.1.1's read-only result fields (extensions/capability_admission.py).
LOOPX_RESULT_FIELDS = {
    "schema_version", "invocation_id", "status", "observations", "domain_state_mutations",
    "domain_transition_receipts", "transition_proposals", "effect_receipt", "follow_up",
}  # fmt: skip
_KEBAB = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")

CANARY_TERM = "CANARY-TERM-6b1d"


def _manifest(name: str) -> dict:
    return tomllib.loads(manifests.manifest_path(name).read_text(encoding="utf-8"))


# ---- manifests ------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(manifests.MANIFESTS))
def test_manifests_follow_loopx_rules(name):
    manifest = _manifest(name)
    assert manifest["schema_version"] == "loopx_extension_manifest_v0"
    assert _KEBAB.match(manifest["id"])
    assert len(manifest["id"]) <= 48
    assert manifest["version"] == __version__
    runtime = manifest["runtime"]
    assert runtime["entrypoint"] == manifests.ENTRYPOINT
    assert runtime["doctor_args"] == ["--doctor"]
    assert set(runtime["required_permissions"]) <= set(manifest["permissions"])
    assert runtime["timeout_seconds"] == manifests.TIMEOUT_SECONDS
    # our recall answers (at worst a typed provider_timeout) before LoopX kills us
    assert capability.RECALL_TIMEOUT_S + 5 <= manifests.TIMEOUT_SECONDS
    assert recall_timeout(manifests.TIMEOUT_SECONDS) + 5 <= manifests.TIMEOUT_SECONDS
    for provided in manifest.get("provides", []):
        assert provided["id"] not in LOOPX_BUILTIN_CAPABILITIES
    for implemented in manifest.get("implements", []):
        assert implemented["protocol"] == runtime["protocol"]


def test_history_profile_names_our_published_schemas():
    manifest = _manifest("history")
    (provided,) = manifest["provides"]
    profile_file = manifests.manifest_path("history").parent / provided["integration_profile"]
    profile = json.loads(profile_file.read_text())
    assert profile["capability_id"] == provided["id"] == "agent-history-recall"
    assert profile["protocol"] == manifest["runtime"]["protocol"]
    operations = {op["id"]: op for op in profile["operations"]}
    assert sorted(operations) == ["history", "replan"]
    published = top_level_records()
    for op in operations.values():
        assert op["effect_class"] == "read_only"
        assert op["required_permission"] in manifest["runtime"]["required_permissions"]
        assert {op["request_schema"], op["result_schema"]} <= set(published)


def test_decision_context_manifest_implements_loopx_protocol():
    manifest = _manifest("decision-context")
    assert manifest["implements"] == [
        {"capability_id": "decision-context", "protocol": "decision_context_advisory_provider_v0"}
    ]
    assert manifest["runtime"]["required_permissions"] == ["decision_context.read"]
    assert "provides" not in manifest


def test_manifest_command_prints_text_path_and_copies(tmp_path):
    runner = CliRunner()
    shown = runner.invoke(cli, ["loopx", "manifest", "--path", "decision-context"])
    assert shown.exit_code == 0
    assert Path(shown.output.strip()) == manifests.manifest_path("decision-context")
    assert Path(shown.output.strip()).is_file()
    text = runner.invoke(cli, ["loopx", "manifest"])  # default: history, printed
    assert text.output == manifests.manifest_path("history").read_text()
    copied = runner.invoke(
        cli, ["loopx", "manifest", "history", "--into", str(tmp_path / "m"), "--path"]
    )
    assert copied.exit_code == 0, copied.output
    written = Path(copied.output.strip())
    assert written.parent == (tmp_path / "m").resolve()
    copy = tomllib.loads(written.read_text())
    assert Path(copy["runtime"]["entrypoint"]).is_absolute()
    assert Path(copy["runtime"]["entrypoint"]).name == manifests.ENTRYPOINT
    assert (written.parent / copy["provides"][0]["integration_profile"]).is_file()
    custom = runner.invoke(cli, ["loopx", "manifest", "--entrypoint", "/opt/x/provider"])
    assert tomllib.loads(custom.output)["runtime"]["entrypoint"] == "/opt/x/provider"
    refused = runner.invoke(cli, ["loopx", "manifest", "--path", "--entrypoint", "/opt/x"])
    assert refused.exit_code == 2


# ---- the one mapping ------------------------------------------------------------------


def _outcome(request_data, result_data, *, status="succeeded"):
    request = structure(request_data, HistoricalEvidenceRequestV0)
    result = structure(result_data, HistoricalEvidenceResultV0)
    receipt = result_receipt(request, result, key=b"k" * 32)
    return RecallOutcome(
        status=status,
        reason=None if status == "succeeded" else "provider_timeout",
        receipt=receipt,
        result=result if status == "succeeded" else None,
        private_ref="private:" + "ab" * 16,
        agent_sessions="claimed",
    )


def test_receipt_mapping_renames_only_raw_content_captured(request_data, result_data):
    ours = [f.name for f in attrs.fields(HistoricalEvidenceReceiptV0)]
    assert [f.name for f in attrs.fields(LoopxReceipt)] == ours  # one record, not a copy
    receipt = _outcome(request_data, result_data).receipt
    mapped = unstructure(loopx_receipt(receipt))
    original = unstructure(receipt)
    assert list(mapped) == [
        ("content_captured" if n == "raw_content_captured" else n) for n in ours
    ]
    assert mapped.pop("content_captured") is original.pop("raw_content_captured") is False
    assert mapped == original


def _keys(value):
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


@pytest.mark.parametrize("status", ["succeeded", "failed"])
def test_history_result_is_loopx_public_state(request_data, result_data, status):
    outcome = _outcome(request_data, result_data, status=status)
    result = history_result("capability-1", outcome)
    assert set(result) == LOOPX_RESULT_FIELDS
    assert result["status"] == ("succeeded" if status == "succeeded" else "no_change")
    assert result["invocation_id"] == "capability-1"
    for field in ("domain_state_mutations", "domain_transition_receipts", "transition_proposals"):
        assert result[field] == []
    assert result["effect_receipt"] is None
    assert not [k for k in _keys(result) if k == "raw" or k.startswith("raw_")]
    (observation,) = result["observations"]
    assert observation["recall_status"] == status
    assert observation["private_ref"] == outcome.private_ref
    text = json.dumps(result)
    for item in result_data["items"]:
        assert item["snippet"] not in text
        assert item["session_ref"] not in text
    for term in request_data["query_terms"]:
        assert term not in text
    structure(result, RECORDS["loopx_recall_history_result_v0"])  # its own contract


def test_advisory_items_are_bounded(request_data, result_data):
    result_data["items"] = [
        {"session_ref": f"s-{n}", "evidence_type": "decision", "snippet": f"switch {n}"}
        for n in range(4)
    ]
    request_data["evidence_types"] = ["decision"]
    outcome = _outcome(request_data, result_data)
    items = advisory_items(outcome, max_results=3)
    assert [i["content"] for i in items] == ["switch 0", "switch 1", "switch 2"]
    for item in items:
        assert set(item) == {"resource_ref", "summary", "content", "score"}
        assert item["resource_ref"].startswith("loopx-recall:private:")
        assert len(item["resource_ref"]) <= 512
        assert "switch" not in item["summary"]


def test_scope_refs_and_query_terms():
    assert parse_scope_ref(scope_ref("agent-a", "proj-j")) == ("agent-a", "proj-j")
    for bad in (
        "loopx-recall:agent/a/project/",
        "loopx-recall:agent/a/b/project/p",
        "loopx-recall:agent/a/project/p/x",
        "agent/a/project/p",
        "loopx-recall:agent/a b/project/p",
        "loopx-recall:agent/*/project/*x\n",
    ):
        assert parse_scope_ref(bad) is None, bad
    assert query_terms("pytest  Pytest tests/test_x.py a " + " ".join(f"w{n}" for n in range(9)))[
        :3
    ] == ("pytest", "tests/test_x.py", "w0")
    assert len(query_terms(" ".join(f"w{n}" for n in range(20)))) == 8
    assert query_terms("a b ") == ()


# ---- the provider process ---------------------------------------------------------


def _provider(*args, stdin: bytes | None = b"", env=None, timeout=60):
    environment = {**os.environ, "LOOPX_RECALL_LOAD_PLUGINS": "", **(env or {})}
    return subprocess.run(
        [PROVIDER, *args],
        input=stdin,
        capture_output=True,
        env=environment,
        timeout=timeout,
        check=False,
    )


def _one_object(done) -> dict:
    lines = done.stdout.decode().splitlines()
    assert len(lines) == 1, done.stdout
    assert b"Traceback" not in done.stderr
    return json.loads(lines[0])


def test_doctor_answers_without_reading_stdin(loopx_home):
    # stdin is a pipe nobody writes to or closes: a doctor that read it would hang
    process = subprocess.Popen(
        [PROVIDER, "capability", "--doctor"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        process.wait(timeout=30)
    finally:
        process.kill()
        out, err = process.communicate()
    assert process.returncode == 0
    assert out.decode().splitlines() == [
        f"loopx-recall-loopx-provider {__version__}: capability ready"
    ]
    assert err == b""
    assert not loopx_home.exists()  # the probe creates no state


def test_unknown_arguments_are_usage_errors():
    for args in ((), ("bogus",), ("capability", "decision-context")):
        done = _provider(*args)
        assert done.returncode == 2
        assert done.stdout == b""
        assert done.stderr.decode().startswith("usage: loopx-recall-loopx-provider")


@pytest.mark.parametrize(
    ("stdin", "reason"),
    [
        (b"", "invalid_request"),
        (b"{not json", "invalid_request"),
        (b'{"a": 1, "a": 2}', "invalid_request"),
        (b"[]", "invalid_request"),
        (b" " * 1_000_001, "invalid_request"),
        (json.dumps({"operation": "delete"}).encode(), "unsupported_operation"),
    ],
)
def test_bad_requests_are_one_typed_failure(loopx_home, stdin, reason):
    done = _provider("capability", stdin=stdin)
    answer = _one_object(done)
    assert done.returncode == 1
    assert (answer["ok"], answer["reason_code"]) == (False, reason)
    structure(answer, RECORDS["loopx_recall_provider_error_v0"])
    assert done.stderr.decode() == f"loopx-recall-loopx-provider: {reason}\n"


def loopx_request(operation: str, given: dict) -> dict:
    """The request LoopX 2.1.1 builds for `capability invoke` (capability_admission.py)."""
    return {
        "schema_version": f"loopx_recall_{operation}_request_v0",
        "invocation_id": "capability-0123456789abcdef01234567",
        "capability_id": "agent-history-recall",
        "operation": operation,
        "goal": {"goal_id": "recall-goal", "capability_binding_digest": "sha256:" + "0" * 64},
        "provider": {
            "extension_id": "loopx-recall-history",
            "revision": "sha256:" + "1" * 64,
            "profile_digest": "sha256:" + "2" * 64,
        },
        "context_refs": [{"kind": "todo", "ref": "todo_abcdef", "digest": "sha256:" + "3" * 64}],
        "input": given,
    }


def test_a_request_that_breaks_the_contract_names_the_path_not_the_value(loopx_home):
    request = loopx_request(
        "history", {"agent_id": "agent-a", "project_id": "proj-j", "terms": [CANARY_TERM], "x": 1}
    )
    done = _provider("capability", stdin=json.dumps(request).encode())
    answer = _one_object(done)
    assert answer["reason_code"] == "invalid_request"
    assert "$.input" in answer["message"]
    assert CANARY_TERM not in done.stdout.decode() + done.stderr.decode()


def test_history_without_enablement_is_a_typed_refusal(loopx_home):
    request = loopx_request(
        "history", {"agent_id": "agent-a", "project_id": "proj-j", "terms": [CANARY_TERM]}
    )
    done = _provider("capability", stdin=json.dumps(request).encode())
    assert done.returncode == 0
    result = _one_object(done)
    assert set(result) == LOOPX_RESULT_FIELDS
    assert result["status"] == "no_change"
    (observation,) = result["observations"]
    assert (observation["recall_status"], observation["reason_code"]) == ("refused", "not_enabled")
    assert observation["receipt"]["result_count"] == 0
    assert CANARY_TERM not in done.stdout.decode() + done.stderr.decode()


def test_replan_without_enablement_is_undetermined(loopx_home):
    request = loopx_request(
        "replan",
        {
            "agent_id": "agent-a",
            "project_id": "proj-j",
            "proposed_command": f"pytest {CANARY_TERM}",
        },
    )
    done = _provider("capability", stdin=json.dumps(request).encode())
    result = _one_object(done)
    assert result["status"] == "no_change"
    (observation,) = result["observations"]
    assert observation["admitted"] is False
    assert observation["verdict"] == "undetermined"
    assert CANARY_TERM not in done.stdout.decode()


def decision_request(scope: str, query: str = "pytest failed", **extra) -> dict:
    """The request LoopX 2.1.1 sends (capabilities/decision_context/extension_provider.py)."""
    return {
        "schema_version": "decision_context_advisory_retrieve_request_v0",
        "operation": "retrieve",
        "namespace": "decision-context",
        "scope_ref": scope,
        "query": query,
        "query_summary": "earlier attempts",
        "max_results": 4,
        "timeout_seconds": 30.0,
        "observed_at": "2026-11-30T10:00:00+00:00",
        **extra,
    }


@pytest.mark.parametrize(
    ("scope", "reason"),
    [
        ("loopx-recall:agent/agent-a/project/proj-j", "not_enabled"),
        ("loopx-recall:agent/*/project/*", "not_enabled"),
        ("anything", "scope_ref_invalid"),
        ("loopx-recall:agent//project/proj-j", "scope_ref_invalid"),
    ],
)
def test_decision_context_refusals_are_typed_and_unavailable(loopx_home, scope, reason):
    done = _provider("decision-context", stdin=json.dumps(decision_request(scope)).encode())
    assert done.returncode == 0
    assert _one_object(done) == {
        "schema_version": "decision_context_advisory_retrieve_response_v0",
        "ok": True,
        "status": "unavailable",
        "reason_code": reason,
        "items": [],
    }


def test_decision_context_refuses_what_is_not_its_protocol(loopx_home):
    request = decision_request("loopx-recall:agent/a/project/p", extra_field=1)
    answer = _one_object(_provider("decision-context", stdin=json.dumps(request).encode()))
    assert (answer["ok"], answer["reason_code"]) == (False, "invalid_request")
    request = decision_request("loopx-recall:agent/a/project/p", operation="sync")
    answer = _one_object(_provider("decision-context", stdin=json.dumps(request).encode()))
    assert (answer["ok"], answer["reason_code"]) == (False, "unsupported_operation")
