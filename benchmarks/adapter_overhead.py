# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Adapter overhead over a bare double call, and the flood fault's time-to-kill and memory.

Run: .venv/bin/python benchmarks/adapter_overhead.py   (prints figures; not a test)
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOUBLE = ROOT / "plugins" / "obelisk-session-evidence" / "tests" / "obelisk_double" / "obelisk"

from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence  # noqa: E402
from loopx_obelisk_session_evidence.runner import run  # noqa: E402

from loopx_recall_core.contracts import HistoricalEvidenceRequestV0, structure  # noqa: E402
from loopx_recall_core.qualification.transcripts import generate_archive  # noqa: E402

ROUNDS = 10


def main() -> None:
    node = subprocess.run([str(ROOT / "scripts" / "ensure-node22")], capture_output=True,
                          text=True, check=True).stdout.strip()
    os.environ["LOOPX_RECALL_NODE22"] = node
    home = Path(tempfile.mkdtemp())
    archive = generate_archive(home, now=datetime.now(UTC).replace(microsecond=0))
    os.environ["HOME"] = str(home)
    # The double's switches live in a settings file under its HOME (never in the env).
    settings = home / ".obelisk-double.json"
    settings.write_text(json.dumps({"build_grace_ms": 60000}))
    binary = str(DOUBLE)
    script = Path(tempfile.mkdtemp()) / "bare.js"
    script.write_text("return sql('SELECT count(*) AS n FROM messages');\n")
    env = dict(os.environ)
    run([binary, "--build"], env=env, timeout=60)

    bare = []
    for _ in range(ROUNDS):
        result = run([binary, "--query", str(script)], env=env, timeout=30)
        assert result.ok
        bare.append(result.elapsed)

    provider = ObeliskSessionEvidence()
    binding = {"history_sources": ["claude", "codex"], "window_days": 30,
               "private": {"repository_roots": [str(archive.repos["alpha"])],
                           "obelisk_bin": binary}}
    request = structure({
        "schema_version": "historical_evidence_request_v0", "request_id": "bench",
        "situation_id": "bench", "trigger": "operator_requested_history",
        "scope": {"agent_id": "a", "project_id": "p", "repository_id": "r",
                  "allow_cross_agent": False, "allow_cross_project": False},
        "evidence_types": ["prior_failure", "tool_outcome", "decision", "file_history", "summary"],
        "query_terms": ["pytest", "mypy"],
        "limits": {"max_sessions": 20, "max_items": 16, "max_snippet_chars": 800,
                   "max_total_chars": 8000},
    }, HistoricalEvidenceRequestV0)
    adapter = []
    for _ in range(ROUNDS):
        started = time.monotonic()
        result = provider.retrieve(request, binding, timeout=30)
        adapter.append(time.monotonic() - started)
    bare_p50, adapter_p50 = statistics.median(bare), statistics.median(adapter)
    print(f"bare double --query p50: {bare_p50 * 1000:.0f} ms")
    print(f"adapter retrieve p50 (--version + one --query + verification): "
          f"{adapter_p50 * 1000:.0f} ms; items {len(result.items)}")
    print(f"adapter overhead ratio: {adapter_p50 / bare_p50:.2f}x")

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    settings.write_text(json.dumps({"build_grace_ms": 60000, "fault": "flood"}))
    result = run([binary, "--query", str(script)], env=env, timeout=20)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"flood: overflowed={result.overflowed} killed after {result.elapsed * 1000:.0f} ms, "
          f"captured {len(result.stdout)} bytes (cap 2 MiB), peak RSS {after / 1024:.1f} MiB "
          f"(+{(after - before) / 1024:.1f} MiB)")


if __name__ == "__main__":
    main()
