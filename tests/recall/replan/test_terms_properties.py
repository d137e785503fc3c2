# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Query terms: bounded, and never holding text absent from the canonical fields."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loopx_recall_core.canonical import js_trim, utf16_len
from loopx_recall_core.contracts import structure
from loopx_recall_core.contracts.replan import ReplanSituationV0
from loopx_recall_core.recall.replan.flow import replan
from loopx_recall_core.recall.replan.terms import query_terms
from loopx_recall_core.routes.invocation import vocabulary
from tests.recall.replan.helpers import FakeRecall, bound, enablement

VOCABULARY = vocabulary()
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_NAME = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_0123456789-", min_size=1, max_size=12)
_SEGMENT = _NAME.filter(lambda s: s not in (".", ".."))
_REL_PATH = st.builds(
    lambda prefix, parts, ext: prefix + "/".join(parts) + ext,
    st.sampled_from(["", "./"]),
    st.lists(_SEGMENT, min_size=1, max_size=4),
    st.sampled_from(["", ".py", ".ts", ".rs", "::test_x", "/"]),
)
_ABS_PATH = st.builds(lambda p: "/home/u/" + p.lstrip("./"), _REL_PATH)
_WORD = st.one_of(
    _NAME,
    _REL_PATH,
    _ABS_PATH,
    st.sampled_from(
        [
            "pytest",
            "python",
            "-m",
            "-x",
            "-k",
            "-q",
            "--lf",
            "uv",
            "run",
            "env",
            "time",
            "FOO=1",
            "&&",
            "||",
            "|",
            ";",
            "2>&1",
            ">",
            "tail",
            "cd",
            "bash",
            "-lc",
            "'",
            '"',
            "\\",
            "\n",
            "npm",
            "--",
            "make",
            "git",
            "-m",
            "commit",
            "…",
            "🚀",
            "東京",
        ]
    ),
)
_COMMAND = st.one_of(
    st.lists(_WORD, min_size=1, max_size=14).map(" ".join),
    st.text(min_size=1, max_size=160),
).filter(lambda s: js_trim(s) != "" and utf16_len(s) <= 4096)
_FREE_TEXT = st.text(min_size=1, max_size=160).filter(lambda s: js_trim(s) != "")
_PATHS = st.lists(_REL_PATH, max_size=4)


@st.composite
def steps(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["command", "edit", "probe", "hypothesis"]))
    step: dict[str, Any] = {"kind": kind}
    if kind in ("command", "probe") or draw(st.booleans()):
        step["command"] = draw(_COMMAND)
    paths = draw(_PATHS)
    if kind == "edit" and not paths:
        paths = [draw(_REL_PATH)]
    if paths:
        step["file_paths"] = paths
    if kind == "hypothesis" or draw(st.booleans()):
        step["hypothesis"] = draw(_FREE_TEXT)
    return step


@st.composite
def situations(draw: st.DrawFn) -> dict[str, Any]:
    attempts = []
    for _ in range(draw(st.integers(0, 4))):
        entry: dict[str, Any] = {
            "step": draw(steps()),
            "outcome": draw(st.sampled_from(["failed", "succeeded", "inconclusive"])),
        }
        if draw(st.booleans()):
            entry["error_signature"] = draw(_FREE_TEXT)
        attempts.append(entry)
    hypotheses = [
        {"text": draw(_FREE_TEXT), "exhausted": draw(st.booleans())}
        for _ in range(draw(st.integers(0, 3)))
    ]
    data: dict[str, Any] = {
        "schema_version": "loopx_replan_situation_v0",
        # Ids and the root are not canonical term sources: they carry a marker no other
        # field can hold, so a term containing it would have leaked from them.
        "situation_id": "ID\u2063situation",
        "agent_id": "agent-a",
        "project_id": "proj-j",
        "repository_id": "repo-r",
        "trigger": "operator_requested_history",
        "signals": {"attempts": attempts, "hypotheses": hypotheses, "operator_requested": True},
        "proposed_step": draw(steps()),
    }
    if draw(st.booleans()):
        data["repository_root"] = "/home/u"
    return data


def sources(data: dict[str, Any]) -> list[str]:
    """The canonical fields, read straight from the JSON (independent of the code)."""
    out: list[str] = []
    all_steps = [data["proposed_step"], *(a["step"] for a in data["signals"]["attempts"])]
    for step in all_steps:
        out += [step[k] for k in ("command", "hypothesis") if k in step]
        out += step.get("file_paths", [])
    out += [a["error_signature"] for a in data["signals"]["attempts"] if "error_signature" in a]
    out += [h["text"] for h in data["signals"]["hypotheses"]]
    return out


@SETTINGS
@given(situations())
def test_terms_come_only_from_canonical_fields(data):
    terms = query_terms(structure(data, ReplanSituationV0))
    fields = sources(data)
    assert len(terms) <= 8
    assert len({t.casefold() for t in terms}) == len(terms)
    for term in terms:
        # A verbatim piece of a canonical field, or a word of the public program tables
        # (another spelling of the route's program or subcommand): never other text.
        assert any(term in field for field in fields) or term in VOCABULARY
        assert js_trim(term) == term
        assert term
        assert utf16_len(term) <= 128
        assert "\u2063" not in term
        assert not term.startswith(("/", "~", "-"))


@SETTINGS
@given(situations())
def test_admitted_request_carries_exactly_the_derived_terms(data):
    recall = FakeRecall()
    report = replan(data, recall=bound(recall, [enablement()]))
    terms = query_terms(structure(data, ReplanSituationV0))
    if terms:
        assert report.admission.admitted
        assert recall.requests[0].query_terms == terms
    else:
        assert report.admission.reason == "no_query_terms"
        assert recall.requests == []


@SETTINGS
@given(situations(), st.text(min_size=1, max_size=50))
def test_terms_ignore_text_outside_the_canonical_fields(data, noise):
    """Changing ids, the revision or the root hint never changes the terms."""
    base = query_terms(structure(data, ReplanSituationV0))
    changed = dict(data, situation_id="sit " + noise, revision={"current": "r" + noise})
    changed["agent_id"] = "agent " + noise
    if "repository_root" in data:
        changed["repository_root"] = "/home/u"
    assert query_terms(structure(changed, ReplanSituationV0)) == base


def test_terms_prefer_the_proposed_step_and_are_bounded():
    data = {
        "schema_version": "loopx_replan_situation_v0",
        "situation_id": "s",
        "agent_id": "a",
        "project_id": "p",
        "repository_id": "r",
        "repository_root": "/home/u/alpha",
        "trigger": "operator_requested_history",
        "signals": {
            "operator_requested": True,
            "attempts": [
                {
                    "step": {"kind": "command", "command": "make lint"},
                    "outcome": "failed",
                    "error_signature": "E501 " + "x" * 200 + " Line too long",
                }
            ],
            "hypotheses": [{"text": "The JSON cache races with the watcher", "exhausted": True}],
        },
        "proposed_step": {
            "kind": "command",
            "command": "cd /home/u/alpha && FOO=1 python -m pytest -x /home/u/alpha/tests/a.py"
            "::test_x /elsewhere/b.py",
            "file_paths": ["./src/cache.py"],
        },
    }
    terms = query_terms(structure(data, ReplanSituationV0))
    # "py.test" is not in the step: it is pytest's other usual name (issue 18 item E),
    # so a prior attempt spelled that way is found too.
    assert terms == (
        "pytest",
        "py.test",
        "tests/a.py::test_x",
        "tests/a.py",
        "src/cache.py",
        "E501",
        "make",
        "lint",
    )
