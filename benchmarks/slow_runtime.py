# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Stage 0 wall time against a slow runtime: the Obelisk double behind a stand-in that
sleeps before every ``--query`` (default 4.5 s, the real Obelisk 0.2's per-query floor).

Run: .venv/bin/python benchmarks/slow_runtime.py [--cases 200] [--sleep 4.5]
(prints figures; not a test). Yardstick: the default corpus within 4 minutes on 2 cores,
every gate passing; sequentially it would take cases x sleep (200 x 4.5 s = 15 minutes)
before any probe or floor call.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOUBLE = ROOT / "plugins" / "obelisk-session-evidence" / "tests" / "obelisk_double" / "obelisk"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--sleep", type=float, default=4.5)
    args = parser.parse_args()
    if "LOOPX_RECALL_NODE22" not in os.environ:
        node = subprocess.run(
            [str(ROOT / "scripts" / "ensure-node22")], capture_output=True, text=True, check=True
        ).stdout.strip()
        os.environ["LOOPX_RECALL_NODE22"] = node
    with tempfile.TemporaryDirectory(prefix="loopx-slow-bench-") as folder:
        slow = Path(folder) / "obelisk"
        slow.write_text(
            f'#!/bin/sh\nif [ "$1" = --query ]; then sleep {args.sleep}; fi\nexec "{DOUBLE}" "$@"\n'
        )
        slow.chmod(0o755)
        os.environ["LOOPX_RECALL_OBELISK_BIN"] = str(slow)
        os.environ["LOOPX_RECALL_HOME"] = str(Path(folder) / "state")
        os.environ["LOOPX_RECALL_LOAD_PLUGINS"] = "loopx-obelisk-session-evidence"
        from loopx_recall_core.qualification.harness import WORKERS, run_qualification

        started = time.monotonic()
        report = run_qualification(cases=args.cases).report
        wall = time.monotonic() - started
    floor = report["settings"]["latency_floor"]
    latency = report["arms"]["b"]["latency"]
    print(f"cases {args.cases}, runtime sleep {args.sleep} s per query, workers {WORKERS}")
    print(f"cpus {os.cpu_count()}, load average {os.getloadavg()[0]:.1f}")
    print(f"wall time {wall:.1f} s")
    print(f"bare call p50/p95 {floor['p50_ms']:.0f}/{floor['p95_ms']:.0f} ms")
    print(f"arm (b) latency p50/p95 {latency['p50_ms']:.0f}/{latency['p95_ms']:.0f} ms")
    print(f"verdict {report['verdict']}")
    sys.exit(0 if report["verdict"]["passed"] else 1)


if __name__ == "__main__":
    main()
