# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The report files: structure, digest, renderings."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from loopx_recall_core.canonical import digest
from loopx_recall_core.qualification.report import render_text, write_report
from tests.qualification.builders import synthetic_report


def test_report_structure_and_digest(tmp_path):
    report = synthetic_report()
    assert report["schema_version"] == "loopx_qualification_report_v0"
    assert report["verdict"] == {"passed": True, "failed_gates": []}
    # Only whitelisted runtime facts: nothing else a readback may carry.
    assert report["provider"]["runtime"] == {"runtime_version": "0.2.4", "template_version": "t/1"}
    assert set(report["arms"]) == {"a", "b", "c"}
    assert len(report["cases"]) == report["corpus"]["cases"] == 30
    guard = report["guard"]
    assert guard["kinds"]["repeat"] == {"cases": 5, "warned": 4, "rate": 0.8}
    assert guard["kinds"]["bait"] == {"cases": 3, "warned": 0, "rate": 0.0}
    assert guard["recall"] == 0.8
    assert guard["sets"] == {"requests": 2, "statuses": {"succeeded": 2}, "items_max": 16,
                             "bait_rows": 0}  # fmt: skip
    assert guard["hot_path"]["runs"] == 4
    assert guard["hot_path"]["p95_ms"] == 120.0
    assert guard["hot_path"]["yardstick_p95_ms"] == 18.0
    assert guard["hot_path"]["cpu_p95_ms"] == 80.0
    assert len(report["guard_cases"]) == 14
    assert set(report["guard_cases"][0]) == {
        "case_id", "family", "kind", "warned", "verdict", "replan_verdict", "set_status",
        "decision_ms",
    }  # fmt: skip
    assert [g["name"] for g in report["gates"]][-4:] == [
        "guard_zero_bait_warnings", "guard_hot_path", "guard_agrees_with_replan",
        "guard_long_history",
    ]  # fmt: skip
    assert guard["long_history"] == {
        "shards": 1, "repeats": 2, "warned": 2, "found_by_replan": 2, "warned_of_found": 2,
        "rate_of_found": 1.0, "newer_calls_min": 48, "newer_failed_min": 24,
    }  # fmt: skip
    names = write_report(report, tmp_path / "out")
    assert names == ["report.json", "report.md", "report.svg"]
    loaded = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    claimed = loaded.pop("report_digest")
    assert claimed == digest(json.dumps(loaded, sort_keys=True, ensure_ascii=False))


def test_markdown_svg_and_text_renderings(tmp_path):
    report = synthetic_report(passing=False)
    write_report(report, tmp_path)
    markdown = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "**Verdict: FAIL** (failing gates: repeat_reduction)" in markdown
    assert "| measure | (a) current context only | (b) provider, typed policy |" in markdown
    assert "| provider_bind_unknown_option | provider_bind | `accepted` |" in markdown
    assert "## Guard (PreToolUse path)" in markdown
    assert (
        "- guard: repeats warned 4/5 (80%); warnings on near_miss 0/3, prior_success 0/3, "
        "bait 0/3, novel 0/0" in markdown
    )
    svg = ET.fromstring((tmp_path / "report.svg").read_text(encoding="utf-8"))
    assert svg.tag.endswith("svg")
    assert len([e for e in svg.iter() if e.tag.endswith("rect")]) >= 15
    text = render_text(report)
    assert text.splitlines()[0].startswith("measure")
    assert "FAIL  repeat_reduction" in text
    assert (
        "guard hook process p50 / p95: 120.0 / 120.0 ms vs python -c pass 18.0 / 18.0 ms; "
        "CPU p95 80.0 vs 15.0 ms (4 paired runs, 4 answered as decided, 0 silent past the "
        "deadline)" in text
    )
    assert "pass  guard_hot_path: hook process CPU p95 80 ms over 4 runs (needs <= 10 x" in text
    assert text.endswith("verdict for obelisk-session-evidence 9.9.9-test: FAIL (repeat_reduction)")


def test_a_verdict_failed_by_latency_alone_says_to_run_it_again_when_quieter():
    """Before: a run on a busy machine (load 10: p95 2,403 ms against 540 + 1,500) ended
    `FAIL (bounded_latency)` and said nothing more; a second run, quieter, passed."""
    report = synthetic_report()
    report["verdict"] = {"passed": False, "failed_gates": ["bounded_latency"]}
    hint = ("the wall-clock latency follows this machine's load (other work on its cores): "
            "run `loopx-recall recall qualify` again when it is quieter")  # fmt: skip
    assert render_text(report).splitlines()[-1] == hint
    report["verdict"] = {"passed": False, "failed_gates": ["bounded_latency", "typed_faults"]}
    assert hint not in render_text(report)  # a fault is not the machine's load
    report["verdict"] = {"passed": True, "failed_gates": []}
    assert hint not in render_text(report)
