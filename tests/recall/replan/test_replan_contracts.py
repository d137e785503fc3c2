# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Strict structure of the Replan situation and outcome records."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from loopx_recall_core.contracts import ContractError, structure, unstructure
from loopx_recall_core.contracts.replan import RECORDS, ReplanOutcomeV0, ReplanSituationV0
from loopx_recall_core.contracts.schema import json_schema
from tests.recall.replan.helpers import SITUATION

CANARY = "CANARY-PRIVATE-c0ffee"

OUTCOME: dict[str, Any] = {
    "schema_version": "loopx_replan_outcome_v0",
    "situation_id": "sit-1",
    "kind": "grounded_successor",
    "rationale_refs": [
        {"kind": "current_evidence", "ref": "ev-1"},
        {"kind": "comparison_verdict", "ref": "no_prior_match"},
    ],
    "step": {"kind": "command", "command": "pytest tests/test_cli.py"},
}


def _at(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(data)
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is _DROP:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


_DROP = object()

SITUATION_CASES = [
    ("extra-chat", ("transcript",), CANARY, "$: unknown field 'transcript'"),
    ("signals-extra", ("signals", "chat"), CANARY, "$.signals: unknown field 'chat'"),
    ("step-extra", ("proposed_step", "raw"), CANARY, "$.proposed_step: unknown field 'raw'"),
    ("null-revision", ("revision",), None, "$.revision: must be absent or hold a value"),
    ("trigger-unknown", ("trigger",), "always", "$.trigger: expected"),
    ("agent-blank", ("agent_id",), "  ", "$.agent_id: must not be blank"),
    ("id-too-long", ("situation_id",), "x" * 257, "$.situation_id: longer than 256"),
    (
        "command-too-long",
        ("proposed_step", "command"),
        "y" * 4097,
        "$.proposed_step.command: longer than 4096",
    ),
    (
        "path-absolute",
        ("proposed_step", "file_paths"),
        [f"/home/{CANARY}/a.py"],
        "$.proposed_step.file_paths[0]: must be repository-relative",
    ),
    (
        "path-dotdot",
        ("proposed_step", "file_paths"),
        ["src/../../etc/passwd"],
        "$.proposed_step.file_paths[0]: must be repository-relative",
    ),
    (
        "path-home",
        ("proposed_step", "file_paths"),
        ["~/x.py"],
        "$.proposed_step.file_paths[0]: must be repository-relative",
    ),
    (
        "path-too-long",
        ("proposed_step", "file_paths"),
        ["p" * 1025],
        "$.proposed_step.file_paths[0]: longer than 1024",
    ),
    ("step-kind", ("proposed_step", "kind"), "shell", "$.proposed_step.kind: expected"),
    (
        "command-step-without-command",
        ("proposed_step",),
        {"kind": "command"},
        "$.proposed_step.command: required for a command step",
    ),
    (
        "probe-without-command",
        ("proposed_step",),
        {"kind": "probe", "hypothesis": "h"},
        "$.proposed_step.command: required for a probe step",
    ),
    (
        "edit-without-paths",
        ("proposed_step",),
        {"kind": "edit"},
        "$.proposed_step.file_paths: an edit step needs at least one path",
    ),
    (
        "hypothesis-without-text",
        ("proposed_step",),
        {"kind": "hypothesis"},
        "$.proposed_step.hypothesis: required for a hypothesis step",
    ),
    (
        "hypothesis-too-long",
        ("proposed_step",),
        {"kind": "hypothesis", "hypothesis": "h" * 2049},
        "$.proposed_step.hypothesis: longer than 2048",
    ),
    (
        "too-many-attempts",
        ("signals", "attempts"),
        [{"step": {"kind": "command", "command": "make"}, "outcome": "failed"}] * 33,
        "$.signals.attempts: more than 32 items",
    ),
    (
        "too-many-hypotheses",
        ("signals", "hypotheses"),
        [{"text": "h", "exhausted": True}] * 17,
        "$.signals.hypotheses: more than 16 items",
    ),
    (
        "attempt-outcome",
        ("signals", "attempts", 0, "outcome"),
        "meh",
        "$.signals.attempts[0].outcome: expected",
    ),
    (
        "repeated-route-str",
        ("signals", "repeated_route"),
        "true",
        "$.signals.repeated_route: expected bool, got str",
    ),
    (
        "coverage-unknown-word",
        ("signals", "prior_coverage"),
        "partial",
        "$.signals.prior_coverage: expected",
    ),
    (
        "missing-evidence-duplicate",
        ("signals", "handoff"),
        {
            "source_agent_id": "a",
            "receiving_agent_id": "a",
            "durable_state_identifies_work": True,
            "missing_evidence": ["decision", "decision"],
        },
        "$.signals.handoff.missing_evidence: duplicate item",
    ),
    ("root-relative", ("repository_root",), "src/alpha", "$.repository_root: must be an absolute"),
    ("no-proposed-step", ("proposed_step",), _DROP, "$.proposed_step: required field missing"),
]


@pytest.mark.parametrize(
    ("path", "value", "expected"), [pytest.param(*c[1:], id=c[0]) for c in SITUATION_CASES]
)
def test_situation_rejections_name_path_and_never_echo(path, value, expected):
    with pytest.raises(ContractError) as caught:
        structure(_at(SITUATION, path, value), ReplanSituationV0)
    assert expected in str(caught.value)
    assert CANARY not in str(caught.value)


OUTCOME_CASES = [
    ("kind-unknown", ("kind",), "done", "$.kind: expected"),
    ("no-refs", ("rationale_refs",), [], "$.rationale_refs: must hold 1..16 items"),
    (
        "too-many-refs",
        ("rationale_refs",),
        [{"kind": "current_evidence", "ref": "e"}] * 17,
        "$.rationale_refs: must hold 1..16 items",
    ),
    ("ref-kind", ("rationale_refs", 0, "kind"), "vibes", "$.rationale_refs[0].kind: expected"),
    ("ref-extra", ("rationale_refs", 0, "note"), CANARY, "$.rationale_refs[0]: unknown field"),
    ("successor-without-step", ("step",), _DROP, "$.step: required for grounded_successor"),
    (
        "successor-hypothesis-step",
        ("step",),
        {"kind": "hypothesis", "hypothesis": "h"},
        "$.step.kind: must be command | edit | probe for grounded_successor",
    ),
]


@pytest.mark.parametrize(
    ("path", "value", "expected"), [pytest.param(*c[1:], id=c[0]) for c in OUTCOME_CASES]
)
def test_outcome_rejections(path, value, expected):
    with pytest.raises(ContractError) as caught:
        structure(_at(OUTCOME, path, value), ReplanOutcomeV0)
    assert expected in str(caught.value)
    assert CANARY not in str(caught.value)


@pytest.mark.parametrize(
    ("kind", "step", "expected"),
    [
        ("coverage_backed_exhaustion", {"kind": "command", "command": "make"}, "no follow-up"),
        ("new_probe", {"kind": "command", "command": "make"}, "must be probe"),
        ("new_hypothesis", {"kind": "edit", "file_paths": ["a.py"]}, "must be hypothesis"),
        ("new_hypothesis", None, "required for new_hypothesis"),
    ],
)
def test_outcome_step_invariants(kind, step, expected):
    data = _at(OUTCOME, ("kind",), kind)
    data = _at(data, ("step",), _DROP if step is None else step)
    with pytest.raises(ContractError, match=expected):
        structure(data, ReplanOutcomeV0)


@pytest.mark.parametrize("kind", ["new_surface", "newly_evidenced_blocker"])
def test_step_is_optional_for_surface_and_blocker(kind):
    data = _at(_at(OUTCOME, ("kind",), kind), ("step",), _DROP)
    assert structure(data, ReplanOutcomeV0).step is None


def test_round_trip_is_exact():
    record = structure(copy.deepcopy(SITUATION), ReplanSituationV0)
    assert unstructure(record) == SITUATION
    outcome = structure(copy.deepcopy(OUTCOME), ReplanOutcomeV0)
    assert unstructure(outcome) == OUTCOME


def test_signals_default_to_no_signal():
    data = _at(SITUATION, ("signals",), {})
    signals = structure(data, ReplanSituationV0).signals
    assert (signals.attempts, signals.hypotheses, signals.handoff) == ((), (), None)
    assert (signals.repeated_route, signals.operator_requested) == (False, False)
    assert signals.prior_coverage == "unknown"


def test_records_and_schemas():
    assert set(RECORDS) == {"loopx_replan_situation_v0", "loopx_replan_outcome_v0"}
    jsonschema = pytest.importorskip("jsonschema")
    examples = {"loopx_replan_situation_v0": SITUATION, "loopx_replan_outcome_v0": OUTCOME}
    for name, cls in RECORDS.items():
        schema = json_schema(cls, schema_id=f"urn:loopx-recall-core:schema:{name}")
        jsonschema.Draft202012Validator.check_schema(schema)
        jsonschema.validate(examples[name], schema)
        assert schema["additionalProperties"] is False
    situation_schema = json_schema(ReplanSituationV0, schema_id="urn:x")
    step = situation_schema["$defs"]["Step"]["properties"]
    assert step["command"]["maxLength"] == 4096
    assert step["file_paths"]["items"]["maxLength"] == 1024
    signals = situation_schema["$defs"]["TriggerSignals"]["properties"]
    assert signals["attempts"]["maxItems"] == 32
    assert signals["hypotheses"]["maxItems"] == 16
