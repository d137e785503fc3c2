# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Stage 0 against a slow runtime: the double behind a stand-in that sleeps before every
query, as the real Obelisk 0.2 polls for seconds. The latency gate is relative to the
runtime's own floor, and the cases run concurrently, so a slow runtime still passes in
bounded time (the 200-case, 4.5 s figure is in benchmarks/slow_runtime.py)."""

from __future__ import annotations

import json

from .test_cli import qualify_process

SLEEP_S = 0.5  # far slower than the double's query (about 0.1 s)


def test_a_slow_runtime_qualifies_against_its_own_floor(obelisk_bin, tmp_path):
    slow = tmp_path / "slow-obelisk"
    slow.write_text(
        f'#!/bin/sh\nif [ "$1" = --query ]; then sleep {SLEEP_S}; fi\nexec "{obelisk_bin}" "$@"\n'
    )
    slow.chmod(0o755)
    env = {
        "LOOPX_RECALL_HOME": str(tmp_path / "home"),
        "LOOPX_RECALL_OBELISK_BIN": str(slow),
        "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence",
    }
    args = ["recall", "qualify", "--cases", "10", "--report", str(tmp_path / "r")]
    result = qualify_process([*args, "--format", "json"], env)  # its own process
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["verdict"] == {"passed": True, "failed_gates": []}
    floor = report["settings"]["latency_floor"]
    assert floor["p95_ms"] >= SLEEP_S * 1000
    assert report["arms"]["b"]["latency"]["p50_ms"] >= SLEEP_S * 1000
    assert all(p["passed"] for p in report["faults"] if p["gated"])
    # Its wall time is a benchmark figure (benchmarks/slow_runtime.py), not an assertion.
