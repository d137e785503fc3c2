# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Stage 0 qualification figures: throughput, CLI cold start, peak memory under flood.

Run: .venv/bin/python benchmarks/qualification.py [--cases N] [--runs N]
(prints figures; not a test). Needs both distributions installed and node >= 22.13
(scripts/ensure-node22). The adapter's overhead over a bare double call is measured by
benchmarks/adapter_overhead.py.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOUBLE = ROOT / "plugins" / "obelisk-session-evidence" / "tests" / "obelisk_double" / "obelisk"
LOOPX = Path(sys.executable).parent / "loopx-recall"

_FLOOD_CHILD = textwrap.dedent(
    """
    import json, os, resource, sys, time
    from datetime import UTC, datetime
    from pathlib import Path
    from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence
    from loopx_recall_core.contracts import HistoricalEvidenceRequestV0, structure
    from loopx_recall_core.plugin.records import ProviderFailure
    from loopx_recall_core.qualification.transcripts import generate_archive

    home = Path(sys.argv[1])
    archive = generate_archive(home, now=datetime.now(UTC).replace(microsecond=0))
    os.environ["HOME"] = str(home)
    binding = {"history_sources": ["claude", "codex"], "window_days": 30,
               "private": {"repository_roots": [str(archive.repos["alpha"])]}}
    request = structure({
        "schema_version": "historical_evidence_request_v0", "request_id": "flood",
        "situation_id": "flood", "trigger": "operator_requested_history",
        "scope": {"agent_id": "a", "project_id": "p", "repository_id": "r",
                  "allow_cross_agent": False, "allow_cross_project": False},
        "evidence_types": ["prior_failure"], "query_terms": ["pytest"],
        "limits": {"max_sessions": 20, "max_items": 16, "max_snippet_chars": 800,
                   "max_total_chars": 8000}}, HistoricalEvidenceRequestV0)
    provider = ObeliskSessionEvidence()
    provider.retrieve(request, binding, timeout=30)  # build the index, warm up
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    (home / ".obelisk-double.json").write_text(json.dumps({"fault": "flood"}))  # double's switch
    started = time.monotonic()
    try:
        provider.retrieve(request, binding, timeout=30)
        reason = "none"
    except ProviderFailure as failure:
        reason = failure.reason
    print(json.dumps({
        "reason": reason, "seconds": time.monotonic() - started, "rss_before_kib": before,
        "rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "children_rss_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
    """
)


def _median_run(argv: list[str], env: dict[str, str], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(argv, env=env, capture_output=True, check=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--runs", type=int, default=9, help="cold-start runs (median)")
    args = parser.parse_args()

    node = subprocess.run(
        [str(ROOT / "scripts" / "ensure-node22")], capture_output=True, text=True, check=True
    ).stdout.strip()
    os.environ["LOOPX_RECALL_NODE22"] = node
    os.environ["LOOPX_RECALL_OBELISK_BIN"] = str(DOUBLE)
    work = Path(tempfile.mkdtemp(prefix="loopx-bench-"))
    os.environ["LOOPX_RECALL_HOME"] = str(work / "loopx")

    from loopx_recall_core.qualification.harness import run_qualification

    started = time.perf_counter()
    result = run_qualification(cases=args.cases)
    seconds = time.perf_counter() - started
    report = result.report
    print(
        f"qualification: {args.cases} cases + {len(report['faults'])} fault probes in "
        f"{seconds:.1f} s = {args.cases / seconds:.2f} cases/s "
        f"(verdict {'PASS' if result.passed else 'FAIL'})"
    )
    for arm in ("a", "b", "c"):
        latency = report["arms"][arm]["latency"]
        print(
            f"  arm ({arm}) per-case latency p50 {latency['p50_ms']:.1f} ms, "
            f"p95 {latency['p95_ms']:.1f} ms"
        )

    env = dict(os.environ)
    status = [str(LOOPX), "capability", "status", "agent-turn-recall"]
    status += ["--provider", "obelisk-session-evidence", "--format", "json"]
    bare = _median_run([sys.executable, "-c", "pass"], env, args.runs)
    cli = _median_run(status, env, args.runs)
    print(
        f"cold start (median of {args.runs}): python -c pass {bare * 1000:.0f} ms; "
        f"loopx-recall capability status --format json {cli * 1000:.0f} ms; ratio {cli / bare:.1f}x"
    )

    child = subprocess.run(
        [sys.executable, "-c", _FLOOD_CHILD, str(work / "flood-home")],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    flood = json.loads(child.stdout.strip().splitlines()[-1])
    print(
        f"flood fault: {flood['reason']} after {flood['seconds'] * 1000:.0f} ms; peak RSS "
        f"of the adapter process {flood['rss_kib'] / 1024:.1f} MiB (before the flood "
        f"{flood['rss_before_kib'] / 1024:.1f} MiB); largest child (node double) "
        f"{flood['children_rss_kib'] / 1024:.1f} MiB; "
        f"this process {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MiB"
    )


if __name__ == "__main__":
    main()
