# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""CLI start-up paired against ``python -c pass`` (same interpreter, same run).

Run: .venv/bin/python benchmarks/cli_startup.py [--runs N]   (prints figures; not a test)

Each row runs the command and its yardstick alternately N times (A/B interleaved, so
machine noise hits both alike) and prints both medians and their ratio. The status rows
run against an empty private state under a throwaway HOME:

- ``status, no provider``: ``LOOPX_RECALL_LOAD_PLUGINS=""``, so no plugin is imported
  (the entry points are still listed, as ``not_loaded``);
- ``status, plugin, no runtime``: the obelisk plugin loads, but no obelisk executable
  exists (``LOOPX_RECALL_OBELISK_BIN`` names a missing file), so no subprocess starts.

Targets (issue 14): ``--help`` <= 3x, ``capability status --format json`` <= 4x. The last
rows are floors: under every click command, ``python -c "import click"`` alone (click imports
``typing``, ``inspect``, ``datetime``, ...), against the same yardstick; and
``python -c "import attrs"``, the floor under ``capability status`` (its state records
and the provider readback are attrs classes): about 4.3x on its own here.

The last row pairs two ways of listing the plugins' entry points under the same ``status,
plugin, no runtime`` command: B lists them through ``importlib.metadata`` (what
``_entry_points`` falls back to), A with ``_entry_points``' own walk of ``sys.path``. The
walk is kept while it saves at least 10 ms (B - A, printed).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
STATUS = ["capability", "status", "agent-turn-recall", "--provider",
          "obelisk-session-evidence", "--format", "json"]


def _time(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    return time.perf_counter() - start


def paired(
    argv: list[str], env: dict[str, str], runs: int, yardstick: list[str] | None = None
) -> tuple[float, float]:
    """Medians (seconds) of ``yardstick`` (``python -c pass`` unless given) and ``argv``,
    interleaved ``runs`` times."""
    yardstick = yardstick or [sys.executable, "-c", "pass"]
    _time(yardstick, env)
    _time(argv, env)  # warm the page cache and .pyc files before counting
    a, b = [], []
    for _ in range(runs):
        a.append(_time(yardstick, env))
        b.append(_time(argv, env))
    return statistics.median(a), statistics.median(b)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    runs = parser.parse_args().runs
    command = str(BIN / "loopx-recall")
    home = tempfile.mkdtemp(prefix="cli-startup-")
    base = {k: v for k, v in os.environ.items() if not k.startswith("LOOPX_RECALL_")}
    base.update(HOME=home, XDG_STATE_HOME=str(Path(home, ".state")),
                XDG_CONFIG_HOME=str(Path(home, ".config")))
    no_plugin = {**base, "LOOPX_RECALL_LOAD_PLUGINS": ""}
    no_runtime = {**base, "LOOPX_RECALL_OBELISK_BIN": str(Path(home, "no-such-obelisk"))}
    rows = [
        ("loopx-recall --help", [command, "--help"], base, 3.0),
        ("loopx-recall --version", [command, "--version"], base, None),
        ("capability status --format json, no provider", [command, *STATUS], no_plugin, 4.0),
        ("capability status --format json, plugin, no runtime", [command, *STATUS],
         no_runtime, 4.0),
        ("floor: python -c 'import click'", [sys.executable, "-c", "import click"], base, None),
        # what status cannot go under while the state records it reads are attrs classes
        ("floor: python -c 'import attrs'", [sys.executable, "-c", "import attrs"], base, None),
    ]
    # status run in-process by ``python -c``, the entry points listed one way or the other
    status = f"import sys; sys.argv = ['loopx-recall', *{STATUS!r}]; "
    run_cli = "from loopx_recall_core.cli import main; main()"
    by_metadata = ("import loopx_recall_core.plugin._entry_points as e; "
                   "e._walkable = lambda: False; ")
    walk = [sys.executable, "-c", status + run_cli]
    metadata = [sys.executable, "-c", status + by_metadata + run_cli]
    print(f"python: {sys.executable}; {runs} interleaved runs per row; medians")
    print(f"{'command':55} {'B (s)':>7} {'A: -c pass':>10} {'B/A':>6} {'target':>7}")
    for name, argv, env, target in rows:
        a, b = paired(argv, env, runs)
        ratio = b / a
        verdict = "" if target is None else (f"<={target:g}x " + ("ok" if ratio <= target
                                                                  else "MISSED"))
        print(f"{name:55} {b:7.3f} {a:10.3f} {ratio:5.1f}x {verdict}")
    a, b = paired(metadata, no_runtime, runs, yardstick=walk)
    print(f"{'status, entry points: B importlib.metadata, A the walk':55} {b:7.3f} {a:10.3f} "
          f"{b / a:5.1f}x  B-A {1000 * (b - a):+.0f} ms (walk kept at >= 10 ms)")


if __name__ == "__main__":
    main()
