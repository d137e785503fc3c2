# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""One Replan consultation reads the proposed command once: the query terms and the
comparison both take the one canonical route made of it (redacted first), so a command
is split and normalized once, whatever the situation's path through admission, recall and
comparison."""

from __future__ import annotations

from collections import Counter

import pytest

from loopx_recall_core.recall.replan.flow import replan
from loopx_recall_core.routes import chain as shell
from tests.recall.replan.helpers import (
    FakeRecall,
    attempt,
    bound,
    command,
    enablement,
    failure,
    item,
    situation,
)

PROPOSED = "pytest -q tests/test_api.py -k login"
# the same route spelled otherwise, so the snippet's own parse is not the proposed text
PRIOR = "python -m pytest tests/test_api.py -q -k login"
SECRET = "curl -H 'Authorization: Bearer ghp_0123456789abcdefABCDEF0123456789abcd' https://x.test/a"


@pytest.fixture
def parses(monkeypatch) -> Counter:
    """How many times each command text is split into segments (every parse of a command
    line, by ``command_segments`` or anything else, goes through the grammar's ``parse``)."""
    counted: Counter = Counter()
    real = shell.parse

    def counting(command):
        counted[command] += 1
        return real(command)

    monkeypatch.setattr(shell, "parse", counting)
    return counted


def _consult(command: str, prior: str):
    data = situation(
        trigger="operator_requested_history",
        signals={"operator_requested": True},
        proposed_step={"kind": "command", "command": command},
    )
    recall = FakeRecall([item(failure(prior))])
    return replan(data, recall=bound(recall, [enablement()])), recall


def test_the_proposed_command_is_parsed_once(parses):
    report, recall = _consult(PROPOSED, PRIOR)
    assert report.comparison.verdict == "repeats_prior_failure"
    assert recall.requests[0].query_terms  # the terms were derived from it
    assert parses[PROPOSED] == 1
    assert parses[PRIOR] == 1  # the stored snippet's header, read once too


def test_a_command_with_a_secret_is_parsed_once_as_redacted(parses):
    report, recall = _consult(SECRET, SECRET)
    assert report.comparison.verdict == "repeats_prior_failure"
    assert "ghp_" not in " ".join(recall.requests[0].query_terms)
    assert parses[SECRET] == 0  # never parsed unredacted
    (redacted,) = [text for text in parses if "[redacted:" in text]
    # once for the proposed step, once for the stored (redacted) snippet's header
    assert parses[redacted] == 2


def test_each_attempt_is_parsed_once(parses):
    # a repetition (two attempts, the same route), its terms (the attempts' routes too) and
    # the legality of a successor (is it one of the failed attempts?) all read the attempts
    first, second = "pytest tests/test_api.py -x", "python -m pytest -x ./tests/test_api.py"
    data = situation(
        signals={"attempts": [attempt(command(first)), attempt(command(second))]},
        proposed_step=command("make test"),
    )
    outcome = {
        "schema_version": "loopx_replan_outcome_v0",
        "situation_id": data["situation_id"],
        "kind": "grounded_successor",
        "step": command("pytest tests/test_api.py -x -k login"),
        "rationale_refs": [{"kind": "current_evidence", "ref": "log:1"}],
    }
    recall = FakeRecall([item(failure("pytest -x tests/test_api.py"))])
    report = replan(data, recall=bound(recall, [enablement()]), outcome=outcome)
    assert report.admission.admitted
    assert report.legality is not None
    assert {"pytest", "make"} <= set(recall.requests[0].query_terms)
    assert (parses[first], parses[second], parses["make test"]) == (1, 1, 1)
