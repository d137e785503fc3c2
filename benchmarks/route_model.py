# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The route model's cost (issue 38), paired against yardsticks in the same run:

* **import**: ``import loopx_recall_core.routes`` in a fresh interpreter, against ``python
  -c pass`` (interleaved);
* **one route**: ``command_route`` on every command of the labelled corpus
  (``tests/recall/corpus_route_model.py``: proposals and priors, 1,030 command lines of
  every route form), against :func:`shlex.split` of the same lines (a tokenizer alone,
  the floor of any reading), each spec read once per process as on the hot path;
* **one comparison**: ``same_route`` on every labelled pair's two routes.

Run: .venv/bin/python benchmarks/route_model.py [--runs N]  (not a test)
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from loopx_recall_core.routes import command_route, same_route  # noqa: E402
from tests.recall import corpus_route_model as corpus  # noqa: E402


def _per_line_us(function, lines: list[str], runs: int) -> float:
    timings = []
    for _ in range(runs):
        started = time.perf_counter()
        for line in lines:
            function(line)
        timings.append((time.perf_counter() - started) / len(lines) * 1e6)
    return statistics.median(timings)


def _split(line: str) -> list[str]:
    try:
        return shlex.split(line)
    except ValueError:
        return line.split()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    pairs = [*corpus.DEV, *corpus.HELD_OUT]
    lines = [line for pair in pairs for line in (pair.proposed, pair.prior)]
    for line in lines:  # every spec read once, as a long-lived hot path would have it
        command_route(line, "/r")
    route_us = _per_line_us(lambda line: command_route(line, "/r"), lines, args.runs)
    split_us = _per_line_us(_split, lines, args.runs)
    routes = [(command_route(p.proposed, "/r", cwd=p.cwd),
               command_route(p.prior, "/r", cwd=p.prior_cwd)) for p in pairs]  # fmt: skip
    started = time.perf_counter()
    for _ in range(args.runs):
        for a, b in routes:
            same_route(a, b)
    compare_us = (time.perf_counter() - started) / (args.runs * len(routes)) * 1e6
    imports, bare = [], []
    for _ in range(args.runs):
        for target, code in ((imports, "import loopx_recall_core.routes"), (bare, "pass")):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
            target.append((time.perf_counter() - started) * 1000)
    print(f"{len(lines)} command lines, {len(pairs)} pairs, {args.runs} runs")
    print(f"command_route   {route_us:8.1f} us/line   shlex.split {split_us:6.1f} us/line  "
          f"({route_us / split_us:.1f}x)")  # fmt: skip
    print(f"same_route      {compare_us:8.1f} us/pair")
    print(f"import routes   {statistics.median(imports):8.1f} ms        python -c pass "
          f"{statistics.median(bare):6.1f} ms  (+{statistics.median(imports) - statistics.median(bare):.1f} ms)")  # fmt: skip  # noqa: E501


if __name__ == "__main__":
    main()
