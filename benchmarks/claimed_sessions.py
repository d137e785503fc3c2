# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The cost of claimed agent sessions: 10,000 claims for one agent, against the double.

Per recall the claimed mode adds (a) the host's ledger read and the claimed-reference set,
(b) a 10,000-id bind list in the template's SQL (``json_each``) and in the query file,
(c) the row check's set lookup. Compared with runtime identity (no filter) on the same
sample archive, with every real session of the repository among the claims, so both modes
return the same items.

Run: .venv/bin/python benchmarks/claimed_sessions.py   (prints figures; not a test)
"""

from __future__ import annotations

import json
import os
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
from loopx_recall_core.recall.service import _claimed_refs  # noqa: E402
from loopx_recall_core.recall.sessions.ledger import Claim, SessionLedger  # noqa: E402

ROUNDS = 10
CLAIMS = 10_000


def _p50_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main() -> None:
    node = subprocess.run([str(ROOT / "scripts" / "ensure-node22")], capture_output=True,
                          text=True, check=True).stdout.strip()
    os.environ["LOOPX_RECALL_NODE22"] = node
    home = Path(tempfile.mkdtemp())
    archive = generate_archive(home, now=datetime.now(UTC).replace(microsecond=0))
    os.environ["HOME"] = str(home)
    (home / ".obelisk-double.json").write_text(json.dumps({"build_grace_ms": 60000}))
    binary = str(DOUBLE)
    run([binary, "--build"], env=dict(os.environ), timeout=60)

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
        "limits": {"max_sessions": 50, "max_items": 64, "max_snippet_chars": 800,
                   "max_total_chars": 32000},
    }, HistoricalEvidenceRequestV0)

    # Every real session the runtime-identity recall returns is claimed; the rest are filler.
    baseline = provider.retrieve(request, binding, timeout=30)
    real = sorted({item.session_ref for item in baseline.items})
    claims = [
        ("codex", ref.removeprefix("codex:")) if ref.startswith("codex:") else ("claude", ref)
        for ref in real
    ]
    claims += [("codex", f"filler-{i:05d}") for i in range(CLAIMS - len(claims))]
    state = Path(tempfile.mkdtemp()) / "state"
    ledger = SessionLedger(state)
    ledger.claim(agent_id="a", project_id="p", runtime=claims[0][0], session_id=claims[0][1])
    stamp = datetime.now(UTC).isoformat(timespec="milliseconds")
    # Seeded in one write: 10,000 claims one by one would rewrite the file 10,000 times.
    ledger._write(
        Claim(agent_id="a", project_id="p", runtime=r, session_id=s, first_seen=stamp)
        for r, s in claims
    )
    size = ledger.path.stat().st_size

    host = []
    for _ in range(ROUNDS):
        started = time.monotonic()
        held = ledger.claims(agent_id="a", project_id="p")
        _claimed_refs(held)
        host.append(time.monotonic() - started)
    claimed_binding = {
        **binding,
        "agent_sessions": "claimed",
        "claimed_sessions": [{"runtime": c.runtime, "session_id": c.session_id} for c in held],
    }

    plain, filtered = [], []
    for _ in range(ROUNDS):  # interleaved, so machine noise hits both alike
        started = time.monotonic()
        runtime_result = provider.retrieve(request, binding, timeout=30)
        plain.append(time.monotonic() - started)
        started = time.monotonic()
        claimed_result = provider.retrieve(request, claimed_binding, timeout=30)
        filtered.append(time.monotonic() - started)
    same = [i.session_ref for i in runtime_result.items] == [
        i.session_ref for i in claimed_result.items
    ]
    plain_ms, filtered_ms, host_ms = _p50_ms(plain), _p50_ms(filtered), _p50_ms(host)
    print(f"claims: {len(held)} for one agent (ledger {size / 1e6:.2f} MB); "
          f"{len(real)} real sessions in the result; same items in both modes: {same}")
    print(f"host ledger read + claimed set, p50: {host_ms:.1f} ms")
    print(f"provider retrieve, runtime identity (no filter), p50: {plain_ms:.0f} ms")
    print(f"provider retrieve, claimed (10,000-id bind list), p50: {filtered_ms:.0f} ms")
    overhead = filtered_ms + host_ms - plain_ms
    print(f"per-recall overhead of the claimed filter: {overhead:.0f} ms; "
          f"ratio to no filter: {(filtered_ms + host_ms) / plain_ms:.2f}x")


if __name__ == "__main__":
    main()
