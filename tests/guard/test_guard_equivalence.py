# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""One comparison: the labelled replan corpus through `recall replan`'s compare() and
through the guard's decision gives the same verdict for every command case."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from loopx_recall_core.guard.decide import find_repeat, warning_text
from tests.guard import helpers
from tests.recall import corpus_wrappers
from tests.recall.replan import corpus
from tests.recall.replan.corpus_routes import ROUTES
from tests.recall.test_wrapper_routes import snippet as stored

# with the routes behind wrappers: time limits, output-only options, aliases, defaults
WRAPPERS = [
    ({"kind": "command", "command": proposed}, stored(prior, code), label)
    for proposed, prior, code, label, _ in corpus_wrappers.DEV + corpus_wrappers.HELD_OUT
]
CASES = corpus.CASES + corpus.HOLDOUT + ROUTES + WRAPPERS
AN_HOUR_AGO = (datetime.now(UTC) - timedelta(hours=1)).isoformat()


def test_the_guard_and_replan_give_the_same_verdicts_on_the_labelled_corpus():
    compared = 0
    disagreements = []
    for step, (evidence_type, snippet), _label in CASES:
        if step.get("kind") != "command":
            continue
        compared += 1
        replan = corpus.predict(step, (evidence_type, snippet))
        items = [helpers.item(evidence_type, snippet, at=AN_HOUR_AGO)]
        head, lines = helpers.set_lines(items)
        guard = find_repeat(step["command"], head, lines).verdict
        expected = {"repeat": "repeats_prior_failure", "near": "similar_to_prior_attempt",
                    "novel": "no_prior_match"}[replan]  # fmt: skip
        # the guard parses only items sharing a program: a "mentioned" item it skips can
        # never be a repeat, so only the repeat verdict must agree exactly
        if (guard == "repeats_prior_failure") != (expected == "repeats_prior_failure"):
            disagreements.append((step["command"], snippet, replan, guard))
    assert compared >= 270
    assert disagreements == []


def test_a_later_success_of_the_same_route_supersedes_the_failure():
    failed = helpers.item("prior_failure", "Bash: pytest tests/a.py\noutcome: failed (exit 1)\nE",
                          at="2026-01-01T10:00:00+00:00")  # fmt: skip
    fixed = helpers.item("tool_outcome", "Bash: pytest tests/a.py\noutcome: ok\n3 passed",
                         at="2026-01-01T10:05:00+00:00", ref="m2")  # fmt: skip
    head, lines = helpers.set_lines([failed, fixed])
    assert find_repeat("pytest tests/a.py", head, lines).verdict == "superseded"
    head, lines = helpers.set_lines([failed])
    assert find_repeat("pytest tests/a.py", head, lines).verdict == "repeats_prior_failure"


def test_the_warning_offers_what_succeeded_next_never_a_later_failure():
    failed = helpers.item(
        "prior_failure",
        "Bash: pytest tests/a.py\noutcome: failed (exit 1)\nE   ImportError: no module x\nmore",
        at="2026-01-01T10:00:00+00:00",
    )
    worse = helpers.item("prior_failure", "Bash: pytest tests/a.py -x\noutcome: failed (exit 2)",
                         at="2026-01-01T10:01:00+00:00", ref="m2")  # fmt: skip
    fixed = helpers.item("tool_outcome", "Bash: pytest tests/a.py -p no:cacheprovider\noutcome: ok",
                         at="2026-01-01T10:02:00+00:00", ref="m3")  # fmt: skip
    other = helpers.item("tool_outcome", "Bash: pytest tests/a.py -k fast\noutcome: ok",
                         at="2026-01-01T10:03:00+00:00", session="s2", ref="m4")  # fmt: skip
    head, lines = helpers.set_lines([failed, worse, fixed, other])
    match = find_repeat("pytest  tests/a.py", head, lines)
    assert match.verdict == "repeats_prior_failure"
    assert [step["ref"] for step in match.next_steps] == ["s1#m3"]
    now = datetime(2026, 1, 1, 13, 0, tzinfo=UTC).timestamp()
    text = warning_text(match, now)
    assert len(text) <= 600
    assert "3 h ago" in text
    assert "Failed: pytest tests/a.py" in text
    assert "ImportError: no module x" in text
    assert "Then in that session, succeeded: pytest tests/a.py -p no:cacheprovider" in text
    assert "-x" not in text
    assert "-k fast" not in text


def test_a_long_failure_is_cut_to_600_characters():
    failed = helpers.item("prior_failure", "Bash: make " + "x" * 1500 + "\noutcome: failed\n" +
                          "E" * 1500, at="2026-01-01T10:00:00+00:00")  # fmt: skip
    head, lines = helpers.set_lines([failed])
    match = find_repeat("make " + "x" * 1500, head, lines)
    assert match.verdict == "repeats_prior_failure"
    assert len(warning_text(match, datetime.now(UTC).timestamp())) <= 600


def test_the_warning_says_what_the_failing_session_did_next_whatever_the_program():
    # issue 28 item 8; before: a successor was offered only on the same program and targets
    failed = helpers.item("prior_failure", "Bash: pytest -q tests/test_api.py\noutcome: failed "
                          "(exit 1)\nE   ImportError: httpx", at="2026-01-01T10:00:00+00:00")
    pinned = helpers.item("tool_outcome", "Bash: pip install 'httpx<0.28'\noutcome: ok",
                          at="2026-01-01T10:01:00+00:00", ref="m2")
    broke = helpers.item("prior_failure", "Bash: make migrate\noutcome: failed (exit 2)",
                         at="2026-01-01T10:02:00+00:00", ref="m3")
    passed = helpers.item("tool_outcome", "Bash: pytest -q tests/test_api.py -x\noutcome: ok",
                          at="2026-01-01T10:03:00+00:00", ref="m4")
    elsewhere = helpers.item("tool_outcome", "Bash: git stash\noutcome: ok",
                             at="2026-01-01T10:01:30+00:00", session="s2", ref="m5")
    head, lines = helpers.set_lines([failed, pinned, broke, passed, elsewhere])
    match = find_repeat("pytest -q tests/test_api.py", head, lines)
    assert match.verdict == "repeats_prior_failure"
    text = warning_text(match, datetime(2026, 1, 1, 12, 0, tzinfo=UTC).timestamp())
    assert "pip install 'httpx<0.28'" in text
    assert "pytest -q tests/test_api.py -x" in text
    assert text.index("pip install") < text.index("tests/test_api.py -x")
    assert "make migrate" not in text  # a step that itself failed is never offered
    assert "git stash" not in text  # another session's step
    assert len(text) <= 600
