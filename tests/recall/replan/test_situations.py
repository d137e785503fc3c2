# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The situation table: triggers, stage gate, handoff receiver, scope, and comparisons.

Every row runs the whole ``replan`` path: strict structure, admission reducer (through the
host ``admit``), the recall callable (only when admitted), and the route comparison.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from loopx_recall_core.contracts import ContractError
from loopx_recall_core.recall.replan.flow import replan
from tests.recall.replan.helpers import (
    AGENT,
    ROOT,
    FakeRecall,
    attempt,
    bound,
    command,
    enablement,
    failure,
    item,
    situation,
    success,
)

API = "pytest tests/test_api.py -x"


def repetition(*steps: dict[str, Any], **signals: Any) -> dict[str, Any]:
    return {"attempts": [attempt(step) for step in steps], **signals}


def hypotheses(*exhausted: bool, coverage: str = "unknown") -> dict[str, Any]:
    return {
        "hypotheses": [
            {"text": f"the cache_layer races with the watcher_{n}", "exhausted": done}
            for n, done in enumerate(exhausted)
        ],
        "prior_coverage": coverage,
    }


def handoff(
    *,
    source: str = AGENT,
    receiver: str = AGENT,
    identified: bool = True,
    missing: tuple[str, ...] = ("decision",),
) -> dict[str, Any]:
    return {
        "handoff": {
            "source_agent_id": source,
            "receiving_agent_id": receiver,
            "durable_state_identifies_work": identified,
            "missing_evidence": list(missing),
        }
    }


def trig(trigger: str, signals: dict[str, Any], **more: Any) -> dict[str, Any]:
    return situation(trigger=trigger, signals=signals, **more)


STAGE2 = [enablement(stage=2)]
STAGE1 = [enablement(stage=1)]
ADMITTED = (True, None)


def refused(reason: str) -> tuple[bool, str]:
    return (False, reason)


# (id, situation, enablements, recall, (admitted, refusal reason), verdict)
CASES: list[tuple[str, dict[str, Any], list[Any], FakeRecall, tuple[bool, Any], str]] = [
    # -- replan_repetition ---------------------------------------------------------------
    ("rep-two-unchanged", situation(), STAGE2, FakeRecall(), ADMITTED, "no_prior_match"),
    (
        "rep-explicit-signal",
        trig("replan_repetition", repetition(command(API), repeated_route=True)),
        STAGE2,
        FakeRecall(),
        ADMITTED,
        "no_prior_match",
    ),
    (
        "rep-env-and-wrapper-unchanged",
        trig(
            "replan_repetition",
            repetition(command(API), command("NO_COLOR=1 uv run pytest -x tests/test_api.py")),
        ),
        STAGE2,
        FakeRecall(),
        ADMITTED,
        "no_prior_match",
    ),
    (
        "rep-same-edit-twice",
        trig(
            "replan_repetition",
            repetition(
                {"kind": "edit", "file_paths": ["src/a.py"]},
                {"kind": "edit", "file_paths": ["./src/a.py"]},
            ),
        ),
        STAGE2,
        FakeRecall(),
        ADMITTED,
        "no_prior_match",
    ),
    (
        "rep-one-attempt",
        trig("replan_repetition", repetition(command(API))),
        STAGE2,
        FakeRecall(),
        refused("repetition_not_evidenced"),
        "undetermined",
    ),
    (
        "rep-no-attempts",
        trig("replan_repetition", {}),
        STAGE2,
        FakeRecall(),
        refused("repetition_not_evidenced"),
        "undetermined",
    ),
    (
        "rep-different-files",
        trig("replan_repetition", repetition(command(API), command("pytest tests/test_cli.py -x"))),
        STAGE2,
        FakeRecall(),
        refused("repetition_not_evidenced"),
        "undetermined",
    ),
    (
        "rep-different-selector",
        trig(
            "replan_repetition",
            repetition(command("pytest -k alpha tests/a.py"), command("pytest -k beta tests/a.py")),
        ),
        STAGE2,
        FakeRecall(),
        refused("repetition_not_evidenced"),
        "undetermined",
    ),
    (
        "rep-stage1-gate",
        situation(),
        STAGE1,
        FakeRecall(),
        refused("trigger_not_admitted_at_stage"),
        "undetermined",
    ),
    # -- hypothesis_history_gap ------------------------------------------------------------
    (
        "hyp-all-exhausted-unknown",
        trig("hypothesis_history_gap", hypotheses(True, True)),
        STAGE2,
        FakeRecall(),
        ADMITTED,
        "no_prior_match",
    ),
    (
        "hyp-one-open",
        trig("hypothesis_history_gap", hypotheses(True, False)),
        STAGE2,
        FakeRecall(),
        refused("hypotheses_not_exhausted"),
        "undetermined",
    ),
    (
        "hyp-none",
        trig("hypothesis_history_gap", {}),
        STAGE2,
        FakeRecall(),
        refused("hypotheses_not_exhausted"),
        "undetermined",
    ),
    (
        "hyp-coverage-known",
        trig("hypothesis_history_gap", hypotheses(True, coverage="known")),
        STAGE2,
        FakeRecall(),
        refused("prior_coverage_known"),
        "undetermined",
    ),
    (
        "hyp-stage1-gate",
        trig("hypothesis_history_gap", hypotheses(True)),
        STAGE1,
        FakeRecall(),
        refused("trigger_not_admitted_at_stage"),
        "undetermined",
    ),
    # -- resume_or_handoff_gap -------------------------------------------------------------
    (
        "handoff-same-agent-decision",
        trig("resume_or_handoff_gap", handoff()),
        STAGE2,
        FakeRecall(),
        ADMITTED,
        "no_prior_match",
    ),
    (
        "handoff-resume-failure",
        trig("resume_or_handoff_gap", handoff(missing=("failure", "decision"))),
        STAGE2,
        FakeRecall(),
        ADMITTED,
        "no_prior_match",
    ),
    (
        "handoff-other-receiver",
        trig("resume_or_handoff_gap", handoff(receiver="agent-b")),
        STAGE2,
        FakeRecall(),
        refused("handoff_receiver_not_source"),
        "undetermined",
    ),
    (
        "handoff-inherited-from-other-source",
        trig("resume_or_handoff_gap", handoff(source="agent-b")),
        STAGE2,
        FakeRecall(),
        refused("handoff_receiver_not_source"),
        "undetermined",
    ),
    (
        "handoff-receiver-enabled-elsewhere",
        trig(
            "resume_or_handoff_gap",
            handoff(source="agent-b", receiver="agent-b"),
        ),
        [enablement(stage=2), enablement(stage=2, agent="agent-b")],
        FakeRecall(),
        refused("handoff_receiver_not_source"),
        "undetermined",
    ),
    (
        "handoff-work-not-identified",
        trig("resume_or_handoff_gap", handoff(identified=False)),
        STAGE2,
        FakeRecall(),
        refused("work_not_identified"),
        "undetermined",
    ),
    (
        "handoff-nothing-missing",
        trig("resume_or_handoff_gap", handoff(missing=())),
        STAGE2,
        FakeRecall(),
        refused("no_missing_evidence"),
        "undetermined",
    ),
    (
        "handoff-absent",
        trig("resume_or_handoff_gap", {}),
        STAGE2,
        FakeRecall(),
        refused("no_handoff"),
        "undetermined",
    ),
    (
        "handoff-stage1-gate",
        trig("resume_or_handoff_gap", handoff()),
        STAGE1,
        FakeRecall(),
        refused("trigger_not_admitted_at_stage"),
        "undetermined",
    ),
    # -- operator_requested_history --------------------------------------------------------
    (
        "operator-stage1",
        trig("operator_requested_history", {"operator_requested": True}),
        STAGE1,
        FakeRecall(),
        ADMITTED,
        "no_prior_match",
    ),
    (
        "operator-stage2",
        trig("operator_requested_history", {"operator_requested": True}),
        STAGE2,
        FakeRecall(),
        ADMITTED,
        "no_prior_match",
    ),
    (
        "operator-not-requested",
        trig("operator_requested_history", {}),
        STAGE2,
        FakeRecall(),
        refused("operator_request_missing"),
        "undetermined",
    ),
    # -- scope and enablement --------------------------------------------------------------
    (
        "scope-other-repository",
        situation(repository_id="repo-other"),
        STAGE2,
        FakeRecall(),
        refused("scope_mismatch"),
        "undetermined",
    ),
    (
        "scope-enabled-for-other-agent",
        situation(),
        [enablement(agent="agent-b")],
        FakeRecall(),
        refused("not_enabled"),
        "undetermined",
    ),
    (
        "scope-enabled-for-other-project",
        situation(),
        [enablement(project="proj-other")],
        FakeRecall(),
        refused("not_enabled"),
        "undetermined",
    ),
    ("no-provider-enabled", situation(), [], FakeRecall(), refused("not_enabled"), "undetermined"),
    (
        "no-query-terms",
        trig(
            "operator_requested_history",
            {"operator_requested": True},
            proposed_step={"kind": "hypothesis", "hypothesis": "it is the one"},
        ),
        STAGE2,
        FakeRecall(),
        refused("no_query_terms"),
        "undetermined",
    ),
    # -- comparison: repeats -----------------------------------------------------------------
    (
        "cmp-repeat-exact",
        situation(),
        STAGE2,
        FakeRecall([item(failure(API))]),
        ADMITTED,
        "repeats_prior_failure",
    ),
    (
        "cmp-repeat-trivial-differences",
        situation(repository_root=ROOT),
        STAGE2,
        FakeRecall(
            [item(failure(f"cd {ROOT} && NO_COLOR=1 pytest -x -q {ROOT}/tests/test_api.py | tail"))]
        ),
        ADMITTED,
        "repeats_prior_failure",
    ),
    (
        "cmp-repeat-codex-shell",
        situation(),
        STAGE2,
        FakeRecall(
            # Codex's ["bash", "-lc", S] as the provider writes it: S (snippet_rules); a
            # login shell typed into a command is another environment (issue 38)
            [item(failure("bash -c 'python3 -m pytest \"tests/test_api.py\" -x'", "shell"))]
        ),
        ADMITTED,
        "repeats_prior_failure",
    ),
    (
        "cmp-repeat-absolute-without-root",
        situation(),
        STAGE2,
        FakeRecall([item(failure("pytest -x /home/someone/work/alpha/tests/test_api.py"))]),
        ADMITTED,
        "repeats_prior_failure",
    ),
    (
        "cmp-repeat-tool-outcome-failed",
        situation(),
        STAGE2,
        FakeRecall([item(failure(API), evidence_type="tool_outcome")]),
        ADMITTED,
        "repeats_prior_failure",
    ),
    (
        "cmp-repeat-found-in-stale-index",
        situation(),
        STAGE2,
        FakeRecall([item(failure(API))], freshness="stale"),
        ADMITTED,
        "repeats_prior_failure",
    ),
    # -- comparison: near misses -------------------------------------------------------------
    (
        "cmp-near-other-test-same-file",
        situation(),
        STAGE2,
        FakeRecall([item(failure("pytest tests/test_api.py::test_roundtrip -x"))]),
        ADMITTED,
        "similar_to_prior_attempt",
    ),
    (
        "cmp-near-k-expression",
        situation(),
        STAGE2,
        FakeRecall([item(failure("pytest tests/test_api.py -x -k roundtrip"))]),
        ADMITTED,
        "similar_to_prior_attempt",
    ),
    (
        "cmp-near-flag-removed",
        situation(),
        STAGE2,
        FakeRecall([item(failure("pytest tests/test_api.py"))]),
        ADMITTED,
        "similar_to_prior_attempt",
    ),
    (
        "cmp-near-other-interpreter",
        situation(),
        STAGE2,
        FakeRecall([item(failure("uv run --python 3.12 pytest tests/test_api.py -x"))]),
        ADMITTED,
        "similar_to_prior_attempt",
    ),
    (
        "cmp-same-route-succeeded",
        situation(),
        STAGE2,
        FakeRecall([item(success(API), evidence_type="tool_outcome")]),
        ADMITTED,
        "similar_to_prior_attempt",
    ),
    (
        "cmp-decision-mentions-route",
        situation(),
        STAGE2,
        FakeRecall([item("Stop running pytest on tests/test_api.py: it hangs on CI.", "decision")]),
        ADMITTED,
        "similar_to_prior_attempt",
    ),
    (
        "cmp-cut-header-is-never-a-repeat",
        situation(),
        STAGE2,
        FakeRecall([item("Bash: pytest tests/test_api.py -x…\noutcome: failed (exit 1)")]),
        ADMITTED,
        "similar_to_prior_attempt",
    ),
    (
        "cmp-other-working-directory",
        situation(),
        STAGE2,
        FakeRecall([item(failure(f"cd frontend && {API}"))]),
        ADMITTED,
        "similar_to_prior_attempt",
    ),
    (
        "cmp-edit-file-history",
        trig(
            "operator_requested_history",
            {"operator_requested": True},
            repository_root=ROOT,
            proposed_step={"kind": "edit", "file_paths": ["src/cache.py"]},
        ),
        STAGE2,
        FakeRecall([item(f"Edit: {ROOT}/src/cache.py", "file_history")]),
        ADMITTED,
        "similar_to_prior_attempt",
    ),
    # -- comparison: genuinely new, and absence that proves nothing ------------------------
    (
        "cmp-novel-other-file",
        situation(),
        STAGE2,
        FakeRecall([item(failure("pytest tests/test_cli.py -x"))]),
        ADMITTED,
        "no_prior_match",
    ),
    (
        "cmp-novel-other-program",
        situation(),
        STAGE2,
        FakeRecall([item(failure("npm run build", exit_code=2)), item("chose uv", "decision")]),
        ADMITTED,
        "no_prior_match",
    ),
    (
        "cmp-stale-empty",
        situation(),
        STAGE2,
        FakeRecall([], freshness="stale"),
        ADMITTED,
        "undetermined",
    ),
    (
        "cmp-incomplete-near-miss",
        situation(),
        STAGE2,
        FakeRecall([item(failure("pytest tests/test_api.py"))], freshness="incomplete"),
        ADMITTED,
        "undetermined",
    ),
    (
        "cmp-unknown-freshness",
        situation(),
        STAGE2,
        FakeRecall([item(failure("pytest tests/test_cli.py"))], freshness="unknown"),
        ADMITTED,
        "undetermined",
    ),
    (
        "cmp-fresh-but-truncated",
        situation(),
        STAGE2,
        FakeRecall([item(failure("pytest tests/test_cli.py"))], omitted=3),
        ADMITTED,
        "undetermined",
    ),
    (
        "cmp-provider-unavailable",
        situation(),
        STAGE2,
        FakeRecall(fail="provider_unavailable"),
        ADMITTED,
        "undetermined",
    ),
]


@pytest.mark.parametrize(
    ("situation_data", "enablements", "recall", "admission", "verdict"),
    [pytest.param(*case[1:], id=case[0]) for case in CASES],
)
def test_situation_table(situation_data, enablements, recall, admission, verdict):
    report = replan(situation_data, recall=bound(recall, enablements))
    assert (report.admission.admitted, report.admission.reason) == admission
    assert report.comparison.verdict == verdict
    if report.admission.admitted:
        assert len(recall.requests) == 1
        request = recall.requests[0]
        assert 1 <= len(request.query_terms) <= 8
        assert request.scope.allow_cross_agent is False
    else:
        assert recall.requests == []  # a refused situation never reaches a provider
        assert report.outcome is None
        assert report.comparison.reason == "not_admitted"


def test_table_is_large_enough():
    assert len(CASES) >= 40
    triggers = {case[1]["trigger"] for case in CASES}
    assert triggers == {
        "replan_repetition",
        "hypothesis_history_gap",
        "resume_or_handoff_gap",
        "operator_requested_history",
    }


def run(data: dict[str, Any], recall: FakeRecall | None = None, **kwargs: Any):
    return replan(data, recall=bound(recall or FakeRecall(), [enablement()]), **kwargs)


def test_evidence_types_follow_trigger_and_missing_evidence():
    recall = FakeRecall()
    run(trig("resume_or_handoff_gap", handoff(missing=("failure",))), recall)
    run(trig("resume_or_handoff_gap", handoff(missing=("decision",))), recall)
    run(situation(), recall)
    types = [request.evidence_types for request in recall.requests]
    assert types == [
        ("prior_failure", "tool_outcome"),
        ("decision", "summary"),
        ("prior_failure", "decision", "tool_outcome"),
    ]


def test_request_id_is_a_deterministic_digest():
    first, second = FakeRecall(), FakeRecall()
    run(situation(), first)
    run(situation(), second)
    other = FakeRecall()
    run(situation(situation_id="sit-2"), other)
    (a,), (b,), (c,) = first.requests, second.requests, other.requests
    assert a.request_id == b.request_id
    assert a.request_id.startswith("sha256:")
    assert c.request_id != a.request_id
    explicit = FakeRecall()
    run(situation(), explicit, request_id="req-explicit")
    assert explicit.requests[0].request_id == "req-explicit"


def test_limits_are_clamped_by_the_enablement():
    recall = FakeRecall()
    run(situation(), recall)
    assert recall.requests[0].limits.max_items <= enablement().limits.max_items


def test_recall_that_raises_is_a_typed_failure():
    def broken(_request):
        raise RuntimeError("boom")

    report = replan(situation(), recall=bound(broken, [enablement()]))
    assert report.outcome is not None
    assert (report.outcome.status, report.outcome.reason) == ("failed", "provider_failed")
    assert report.comparison.verdict == "undetermined"
    assert report.comparison.reason == "recall_failed"


def test_result_for_another_request_is_rejected():
    recall = FakeRecall([item(failure(API))])

    def mismatched(request):
        import attrs

        return recall(attrs.evolve(request, request_id="req-other"))

    report = replan(situation(), recall=bound(mismatched, [enablement()]))
    assert report.comparison.verdict == "undetermined"
    assert report.comparison.reason == "result_rejected"


def test_public_json_carries_no_private_text():
    canary = "CANARYc0ffee"
    data = situation(
        repository_root=f"/home/{canary}/alpha",
        proposed_step=command(f"pytest tests/test_{canary}.py -x", f"tests/test_{canary}.py"),
    )
    data["signals"]["attempts"][0]["error_signature"] = f"ImportError: {canary}"
    snippet = failure(f"pytest tests/test_{canary}.py -x")
    recall = FakeRecall([item(snippet, session=f"sess-{canary}", message=f"msg-{canary}")])
    outcome = {
        "schema_version": "loopx_replan_outcome_v0",
        "situation_id": "sit-1",
        "kind": "new_hypothesis",
        "rationale_refs": [
            {"kind": "current_evidence", "ref": f"ev-{canary}"},
            {"kind": "prior_item", "ref": f"sess-{canary}#msg-{canary}"},
        ],
        "step": {"kind": "hypothesis", "hypothesis": f"the {canary} fixture leaks state"},
    }
    report = run(data, recall, outcome=outcome)
    assert report.comparison.verdict == "repeats_prior_failure"
    assert report.legality is not None
    assert report.legality.legal
    public = json.dumps(report.public_json())
    assert canary not in public
    private = json.dumps(report.private_json())
    assert f"sess-{canary}#msg-{canary}" in private  # the matching item's private ref
    assert canary in json.dumps(report.private_json()["request"]["query_terms"])


def test_invalid_situation_raises_before_any_recall():
    recall = FakeRecall()
    data = situation()
    data["chat"] = "CANARY raw chat text"
    with pytest.raises(ContractError) as caught:
        run(data, recall)
    assert "$: unknown field 'chat'" in str(caught.value)
    assert recall.requests == []


def test_invalid_outcome_raises_before_any_recall():
    recall = FakeRecall()
    bad = {"schema_version": "loopx_replan_outcome_v0", "situation_id": "sit-1", "kind": "done"}
    with pytest.raises(ContractError):
        run(situation(), recall, outcome=bad)
    assert recall.requests == []


def test_no_outcome_means_no_legality():
    assert run(situation()).legality is None


def test_the_documented_entry_point_is_the_flow():
    import loopx_recall_core.recall.replan as package
    from loopx_recall_core.recall.replan import flow

    assert package.replan is flow.replan
    assert package.ReplanReport is flow.ReplanReport
