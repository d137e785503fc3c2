# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The cost of redaction per recall, against the double.

Paired in one run: (a) the provider's own ``retrieve`` on the sample archive (a real result
at the ceilings: 64 items, 2,000-character snippets) and the host's redaction of that
result (``recall/service.py``'s ``_redacted``), interleaved; (b) a result at the ceilings
(64 items, 32,000 characters) of ordinary build output, and the worst case, as many
characters dense with secrets (the canary corpus, every line a secret), each next to the
keyed receipt digests the host computes over the same result anyway.

Run: .venv/bin/python benchmarks/redaction.py   (prints figures; not a test)
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

import attrs

ROOT = Path(__file__).resolve().parent.parent
DOUBLE = ROOT / "plugins" / "obelisk-session-evidence" / "tests" / "obelisk_double" / "obelisk"

from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence  # noqa: E402
from loopx_obelisk_session_evidence.runner import run  # noqa: E402

from loopx_recall_core import redaction  # noqa: E402
from loopx_recall_core.contracts import (  # noqa: E402
    EvidenceItem,
    HistoricalEvidenceRequestV0,
    structure,
)
from loopx_recall_core.qualification.canaries import (  # noqa: E402
    ordinary_lines,
    secret_canaries,
)
from loopx_recall_core.qualification.transcripts import generate_archive  # noqa: E402
from loopx_recall_core.recall.receipts import result_receipt  # noqa: E402
from loopx_recall_core.recall.service import _redacted  # noqa: E402

ROUNDS = 15
KEY = b"k" * 32


def _p50_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def _timed(call, rounds: int = ROUNDS, *, seen: bool = False) -> list[float]:
    """Each call on texts this process has not redacted yet (the per-process memo emptied),
    or, ``seen``, on texts it has (what a Stage 0 run or a guard set mostly meets)."""
    samples = []
    for _ in range(rounds):
        if not seen:
            redaction._DONE.clear()
        started = time.perf_counter()
        call()
        samples.append(time.perf_counter() - started)
    return samples


def main() -> None:
    node = subprocess.run([str(ROOT / "scripts" / "ensure-node22")], capture_output=True,
                          text=True, check=True).stdout.strip()
    os.environ["LOOPX_RECALL_NODE22"] = node
    home = Path(tempfile.mkdtemp())
    archive = generate_archive(home, now=datetime.now(UTC).replace(microsecond=0))
    os.environ["HOME"] = str(home)
    (home / ".obelisk-double.json").write_text(json.dumps({"build_grace_ms": 60000}))
    run([str(DOUBLE), "--build"], env=dict(os.environ), timeout=60)

    provider = ObeliskSessionEvidence()
    binding = {"history_sources": ["claude", "codex"], "window_days": 30,
               "private": {"repository_roots": [str(archive.repos["alpha"])],
                           "obelisk_bin": str(DOUBLE)}}
    request = structure({
        "schema_version": "historical_evidence_request_v0", "request_id": "bench",
        "situation_id": "bench", "trigger": "operator_requested_history",
        "scope": {"agent_id": "a", "project_id": "p", "repository_id": "r",
                  "allow_cross_agent": False, "allow_cross_project": False},
        "evidence_types": ["prior_failure", "tool_outcome", "decision", "file_history", "summary"],
        "query_terms": ["pytest", "mypy", "cargo", "npm", "ruff"],
        "limits": {"max_sessions": 50, "max_items": 64, "max_snippet_chars": 2000,
                   "max_total_chars": 32000},
    }, HistoricalEvidenceRequestV0)

    retrieve, redact_real = [], []
    for _ in range(ROUNDS):  # interleaved, so machine noise hits both alike
        started = time.perf_counter()
        result = provider.retrieve(request, binding, timeout=30)
        retrieve.append(time.perf_counter() - started)
        redaction._DONE.clear()
        started = time.perf_counter()
        _redacted(request, result)
        redact_real.append(time.perf_counter() - started)
    chars = sum(len(i.snippet) for i in result.items)
    print(f"real result: {len(result.items)} items, {chars:,} snippet characters")
    print(f"  provider retrieve p50 {_p50_ms(retrieve):.1f} ms; host redaction p50 "
          f"{_p50_ms(redact_real):.2f} ms ({_p50_ms(redact_real) / _p50_ms(retrieve):.1%})")

    # The ceilings filled: ordinary build output, then secrets one line after another.
    for what, lines in (
        ("ordinary build output", "\n".join(ordinary_lines())),
        ("secrets (worst case)", ("\n".join(c.text for c in secret_canaries()) + "\n") * 8),
    ):
        full = attrs.evolve(result, items=tuple(
            EvidenceItem(session_ref=f"s{i}", evidence_type="prior_failure",
                         snippet=lines[i * 500 : i * 500 + 500])
            for i in range(64)
        ), truncated=False, omitted_count=0)  # fmt: skip
        redact_full = _timed(lambda full=full: _redacted(request, full))
        redact_seen = _timed(lambda full=full: _redacted(request, full), seen=True)
        digests = _timed(lambda full=full: result_receipt(request, full, key=KEY))
        print(f"ceilings filled with {what}: 64 items, 32,000 characters")
        print(f"  host redaction p50 {_p50_ms(redact_full):.2f} ms (texts seen before in this "
              f"process: {_p50_ms(redact_seen):.2f} ms); the receipt's keyed digests over the "
              f"same result p50 {_p50_ms(digests):.2f} ms")


if __name__ == "__main__":
    main()
