# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Recall cost against its yardsticks, in one run (plain figures, not a test):

* Obelisk processes per recall (counted by a logging wrapper around the double);
* recall vs the bare binary's ``--query`` on the same index, paired and interleaved;
* recall and status on an archive with 50,000 Codex sessions outside the scope vs the
  same requests on a 100-session archive;
* ``loopx-recall capability status --format json`` (enabled, readback cached) vs
  ``python -c pass``.

Run: .venv/bin/python benchmarks/recall_scale.py
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "plugins" / "obelisk-session-evidence" / "tests"))

from hostile import codex_transcript, iso, request  # noqa: E402
from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence  # noqa: E402
from loopx_obelisk_session_evidence.runner import run  # noqa: E402

ROUNDS = 15
DOUBLE = ROOT / "plugins" / "obelisk-session-evidence" / "tests" / "obelisk_double" / "obelisk"
LOOPX_RECALL = Path(sys.executable).parent / "loopx-recall"


def _p50(values: list[float]) -> float:
    return statistics.median(values) * 1000


def _world(base: Path, sessions_outside: int) -> tuple[Path, Path, Path]:
    """HOME with 100 in-scope Codex sessions (last 20 days) plus ``sessions_outside`` old
    ones (two years back, another repository), an index built, and a counting wrapper."""
    home, root, state = base / "home", base / "repo", base / "state"
    for folder in (home, root):
        folder.mkdir(parents=True)
    state.mkdir(mode=0o700)
    now = datetime.now(UTC)
    for number in range(100):
        stamp = iso(now - timedelta(hours=number * 5))
        codex_transcript(
            home,
            f"in-{number}",
            cwd=str(root),
            timestamp=stamp,
            command=f"pytest tests/test_{number}.py",
        )
    old = now - timedelta(days=730)
    folder = home / ".codex" / "sessions" / f"{old.year:04d}" / f"{old.month:02d}"
    line = (
        json.dumps(
            {
                "timestamp": iso(old),
                "type": "session_meta",
                "payload": {"id": "x", "cwd": "/elsewhere/other"},
            }
        )
        + "\n"
    )
    for number in range(sessions_outside):
        day = folder / f"{1 + number % 28:02d}"
        if number < 28:
            day.mkdir(parents=True, exist_ok=True)
        (day / f"rollout-old-{number}.jsonl").write_text(line)
    (home / ".obelisk-double.json").write_text(json.dumps({"build_grace_ms": 3_600_000}))
    counter = base / "calls.log"
    wrapper = base / "obelisk"
    wrapper.write_text(f'#!/bin/sh\necho "$1" >> {counter}\nexec {DOUBLE} "$@"\n')
    wrapper.chmod(0o755)
    os.environ["HOME"] = str(home)
    run([str(DOUBLE), "--build"], env=dict(os.environ), timeout=600)
    return home, root, wrapper


def _binding(root: Path, wrapper: Path) -> dict:
    return ObeliskSessionEvidence().bind(
        {"history_source": ["codex"], "repository_root": [str(root)], "obelisk_bin": str(wrapper)},
        cwd=str(root),
    )


def _timed(function) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def main() -> None:
    os.environ["LOOPX_RECALL_NODE22"] = subprocess.run(
        [str(ROOT / "scripts" / "ensure-node22")], capture_output=True, text=True, check=True
    ).stdout.strip()
    provider = ObeliskSessionEvidence()
    ask = request(("pytest",))
    figures: dict[str, dict[str, float]] = {}
    for label, outside in (("small", 0), ("large", 50_000)):
        base = Path(tempfile.mkdtemp(prefix=f"loopx-bench-{label}-"))
        os.environ["LOOPX_RECALL_HOME"] = str(base / "state")
        _home, root, wrapper = _world(base, outside)
        bound = _binding(root, wrapper)
        provider.retrieve(ask, bound, timeout=60)  # warm: version probed, first lines cached
        counter = base / "calls.log"
        counter.write_text("")
        script = base / "bare.js"
        script.write_text("return sql('SELECT count(*) AS n FROM messages');\n")
        recall, bare, status = [], [], []
        for _ in range(ROUNDS):  # interleaved pairs: the machine's noise hits both alike
            bare_query = [str(DOUBLE), "--query", str(script)]
            bare.append(_timed(lambda q=bare_query: run(q, env=dict(os.environ), timeout=60)))
            recall.append(_timed(lambda b=bound: provider.retrieve(ask, b, timeout=60)))
            status.append(_timed(lambda b=bound: provider.readback(b)))
        calls = counter.read_text().split()
        figures[label] = {
            "recall": _p50(recall),
            "bare": _p50(bare),
            "status": _p50(status),
            "processes": calls.count("--query") / ROUNDS,
            "versions": calls.count("--version"),
        }
    small, large = figures["small"], figures["large"]
    print(
        f"obelisk processes per recall: {small['processes']:.0f} "
        f"(--version runs after warm-up: {small['versions'] + large['versions']})"
    )
    print(
        f"recall vs bare --query (p50, paired, {ROUNDS} rounds, 100 sessions): "
        f"{small['recall']:.0f} ms vs {small['bare']:.0f} ms "
        f"(+{small['recall'] - small['bare']:.0f} ms)"
    )
    print(
        f"recall with 50,000 sessions outside the scope vs 100-session archive (p50): "
        f"{large['recall']:.0f} ms vs {small['recall']:.0f} ms "
        f"(ratio {large['recall'] / small['recall']:.2f}; bare query there "
        f"{large['bare']:.0f} ms vs {small['bare']:.0f} ms)"
    )
    print(
        f"status readback, same pair (p50, cached): {large['status']:.1f} ms vs "
        f"{small['status']:.1f} ms"
    )

    env = {**os.environ, "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence"}
    enable = [
        str(LOOPX_RECALL),
        "capability",
        "enable",
        "agent-turn-recall",
        "--provider",
        "obelisk-session-evidence",
        "--surface",
        "replan-history",
        "--agent-id",
        "a",
        "--project-id",
        "p",
        "--history-source",
        "codex",
        "--repository-root",
        str(Path(os.environ["HOME"]).parent / "repo"),
        "--repository-id",
        "r",
    ]
    subprocess.run(enable, env=env, capture_output=True, check=True)
    status_cmd = [
        str(LOOPX_RECALL),
        "capability",
        "status",
        "agent-turn-recall",
        "--provider",
        "obelisk-session-evidence",
        "--format",
        "json",
    ]
    subprocess.run(status_cmd, env=env, capture_output=True, check=True)  # readback cached
    cli, python = [], []
    for _ in range(ROUNDS):
        python.append(_timed(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True)))
        cli.append(
            _timed(lambda: subprocess.run(status_cmd, env=env, capture_output=True, check=True))
        )
    print(
        f"capability status --format json vs python -c pass (p50, paired): "
        f"{_p50(cli):.0f} ms vs {_p50(python):.0f} ms (ratio {_p50(cli) / _p50(python):.1f}x)"
    )


if __name__ == "__main__":
    main()
