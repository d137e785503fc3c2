# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The guard as the runtimes call it, idle and on a busy machine (issue 39).

A labelled corpus of our own: 60 Claude Code sessions of agent-a in one repository, each
with one case's command early on and at least 40 newer shell calls after it (the
session's own, then the later sessions'), indexed by the Obelisk double; the set is made
by the prefetch's own code (``run_prefetch``). Labels:

* ``repeat`` (30): a failure, proposed again (in one of five spellings);
* ``secret_look`` (10): a failure whose command looks like it holds a secret (``auth``,
  ``api``, ``host:port``: before issue 39 these loaded the detector on the hot path),
  proposed again;
* ``superseded`` (10): a failure the same session later ran again with success;
* ``near`` (10): a failure, proposed with another argument;
* ``novel`` (10): never run.

The first two should be warned, the rest not. Every proposal is one ``loopx-recall guard
claude`` process with Claude Code's PreToolUse payload on stdin and no option but the ids
(the bound is the runtime's: what the installed hook does), timed from start to exit,
each paired with a ``python -c pass`` run (the yardstick, same interpreter, interleaved).
The corpus runs twice: on the machine as it is ("idle"), then beside a CPU load of our own
(busy loops, twice the cores this process may run on, ended by their pids when the pass
ends); then once more beside the load with the hook's old 300 ms deadline
(``--deadline-ms 300``), the behaviour before issue 39. Target: recall under load >= 0.95
of recall idle.

Run: .venv/bin/python benchmarks/guard_under_load.py  (prints figures; not a test)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from guard_long_history import ROOT, _claude, _counting_wrapper

LOOPX = str(Path(sys.executable).parent / "loopx-recall")
NEWER = 44  # shell calls after each case's command in its own session
VARIANTS = ("{c}", "{c}", "  {c}  ", "{c}", "{c}")
PROGRAMS = ("pytest tests/test_{n}.py -x", "npm run test:{n}", "cargo test -p crate{n}",
            "make check-{n}", "go test ./pkg{n}/...", "ruff check src/mod{n}.py")  # fmt: skip
SECRET_LOOKING = ("curl -H 'X-Auth: none' http://localhost:80{n:02d}/api/health",
                  "psql -h db{n}.internal:5432 -c 'select api_version()'")  # fmt: skip


def _corpus() -> list[dict]:
    """One case per session: its label, the command run early in it (and whether it
    failed, and whether the session later succeeded with it), the proposal."""
    cases = []
    for n in range(30):
        command = PROGRAMS[n % len(PROGRAMS)].format(n=n)
        cases.append({"label": "repeat", "ran": command, "failed": True, "fixed": False,
                      "proposal": VARIANTS[n % len(VARIANTS)].format(c=command)})  # fmt: skip
    for n in range(10):
        command = SECRET_LOOKING[n % 2].format(n=n)
        cases.append({"label": "secret_look", "ran": command, "failed": True, "fixed": False,
                      "proposal": command})  # fmt: skip
    for n in range(10):
        command = f"pytest tests/test_fixed_{n}.py"
        cases.append({"label": "superseded", "ran": command, "failed": True, "fixed": True,
                      "proposal": command})  # fmt: skip
    for n in range(10):
        cases.append({"label": "near", "ran": f"cargo test -p near{n} --lib", "failed": True,
                      "fixed": False, "proposal": f"cargo test -p near{n}x --lib"})  # fmt: skip
    for n in range(10):
        cases.append({"label": "novel", "ran": f"make unrelated-{n}", "failed": False,
                      "fixed": False, "proposal": f"pytest tests/test_new_{n}.py"})  # fmt: skip
    return cases


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _load(count: int, seconds: float) -> list[subprocess.Popen]:
    """``count`` busy loops, each ending by itself after ``seconds`` at the latest."""
    code = f"import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end: pass\n"
    return [subprocess.Popen([sys.executable, "-c", code]) for _ in range(count)]


def _children_cpu() -> float:
    """User + system CPU time of this process's waited-for children so far, in ms."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


def _pass(cases, state: Path, env: dict, repo: Path, *extra: str) -> dict:
    from loopx_recall_core.guard import store

    warned, guard_ms, bare_ms, guard_cpu = [], [], [], []
    for n, case in enumerate(cases):
        store.write_session(state, "claude", "S-now", {})  # each proposal judged afresh
        payload = json.dumps({
            "session_id": "S-now", "transcript_path": None, "cwd": str(repo),
            "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": case["proposal"], "description": "run",
                           "timeout": 120000},
            "tool_use_id": f"toolu_{n}_{time.monotonic_ns()}",
        }).encode()  # fmt: skip
        started, cpu = time.perf_counter(), _children_cpu()
        done = subprocess.run([LOOPX, "guard", "claude", "--agent-id", "agent-a",
                               "--project-id", "proj-j", *extra], input=payload, env=env,
                              capture_output=True, check=False)  # fmt: skip
        guard_ms.append((time.perf_counter() - started) * 1000)
        guard_cpu.append(_children_cpu() - cpu)
        warned.append(bool(done.stdout.strip()))
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=False)
        bare_ms.append((time.perf_counter() - started) * 1000)
    positive = [w for w, c in zip(warned, cases, strict=True)
                if c["label"] in ("repeat", "secret_look")]  # fmt: skip
    negative = [w for w, c in zip(warned, cases, strict=True)
                if c["label"] not in ("repeat", "secret_look")]  # fmt: skip
    by_label: dict[str, list[int]] = {}
    for w, c in zip(warned, cases, strict=True):
        by_label.setdefault(c["label"], [0, 0])
        by_label[c["label"]][0] += w
        by_label[c["label"]][1] += 1
    true = sum(positive)
    return {
        "recall": true / len(positive),
        "precision": true / max(true + sum(negative), 1),
        "by_label": by_label,
        "guard_p50": statistics.median(guard_ms), "guard_p95": _p(guard_ms, 0.95),
        "bare_p50": statistics.median(bare_ms), "bare_p95": _p(bare_ms, 0.95),
        "guard_max": max(guard_ms),
        "cpu_p50": statistics.median(guard_cpu), "cpu_p95": _p(guard_cpu, 0.95),
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--load-factor", type=int, default=2, help="busy loops per core")
    args = parser.parse_args()
    node = subprocess.run([str(ROOT / "scripts" / "ensure-node22")], capture_output=True,
                          text=True, check=True).stdout.strip()  # fmt: skip
    scratch = Path(tempfile.mkdtemp())
    home, state = scratch / "home", scratch / "state"
    repo = home / "src" / "load-repo"
    repo.mkdir(parents=True)
    wrapper, _counter = _counting_wrapper(scratch)
    os.environ.update({"HOME": str(home), "LOOPX_RECALL_HOME": str(state),
                       "LOOPX_RECALL_NODE22": node, "LOOPX_RECALL_OBELISK_BIN": str(wrapper),
                       "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence"})  # fmt: skip
    (home / ".obelisk-double.json").write_text(json.dumps({"build_grace_ms": 0}))
    sys.path.insert(0, str(ROOT / "plugins" / "obelisk-session-evidence" / "tests"))
    from _guarded import guard_on

    from loopx_recall_core.guard import prefetch, store

    cases = _corpus()
    now = datetime.now(UTC)
    start = now - timedelta(days=10)
    sessions = []
    for s, case in enumerate(cases):  # one session a case, oldest first, 2 h apart
        base = start + timedelta(hours=2 * s)
        calls = [(f"git status --short -- part{s}", False, base),
                 (case["ran"], case["failed"], base + timedelta(minutes=1))]  # fmt: skip
        for k in range(NEWER):
            at = base + timedelta(minutes=2 + k)
            if case["fixed"] and k == NEWER // 2:
                calls.append((case["ran"], False, at))  # the same route, then a success
            else:
                failed = k % 3 == 0
                command = f"ruff check src/s{s}_{k}.py" if failed else f"make step-{s}-{k}"
                calls.append((command, failed, at))
        session = f"c-{s:04d}"
        _claude(home, session, str(repo), calls)
        sessions.append(session)
    guard_on(state, wrapper, repo, project_id="proj-j", repository_id="repo-g",
             claims=[("agent-a", s) for s in [*sessions, "S-now"]])  # fmt: skip
    made = prefetch.run_prefetch(state, {"runtime": "claude", "session_id": "S-now",
                                         "agent_id": "agent-a", "project_id": "proj-j",
                                         "requested_at": time.time()})  # fmt: skip
    lines = store.read_set_lines(store.set_path(state, "claude", "S-now"))
    header = store.read_header(lines) if lines else {}
    env = {**os.environ}
    idle = _pass(cases, state, env, repo)
    count = args.load_factor * _cores()
    load = _load(count, seconds=900)
    try:
        time.sleep(1.0)  # the loops are running
        loaded = _pass(cases, state, env, repo)
        loadavg = os.getloadavg()[0]
        # the same corpus beside the same load with the hook's old 300 ms deadline
        # (before issue 39 the default; --deadline-ms 300 gives it back)
        old = _pass(cases, state, env, repo, "--deadline-ms", "300")
    finally:
        for process in load:  # ours, by pid
            process.kill()
            process.wait()
    shell_calls = len(cases) * (NEWER + 2)
    print(f"corpus: {len(cases)} cases in {len(cases)} sessions, {shell_calls} shell calls, "
          f">= {NEWER} newer shell calls after each case; set {made}, {header.get('count')} "
          f"entries, freshness {header.get('freshness')}")
    for name, figures in (("idle", idle),
                          (f"load ({count} busy loops, load avg {loadavg:.1f})", loaded),
                          ("load, the old 300 ms deadline", old)):  # fmt: skip
        labels = ", ".join(f"{k} {w}/{t}" for k, (w, t) in figures["by_label"].items())
        print(f"{name}: recall {figures['recall']:.3f}, precision {figures['precision']:.3f} "
              f"({labels})")
        print(f"  guard      p50 {figures['guard_p50']:7.1f} ms  p95 {figures['guard_p95']:7.1f} "
              f"ms  max {figures['guard_max']:7.1f} ms")
        print(f"  python -c  p50 {figures['bare_p50']:7.1f} ms  p95 {figures['bare_p95']:7.1f} ms")
        print(f"  guard CPU  p50 {figures['cpu_p50']:7.1f} ms  p95 {figures['cpu_p95']:7.1f} ms")
    ratio = loaded["recall"] / idle["recall"] if idle["recall"] else 0.0
    print(f"recall under load / idle: {ratio:.3f} (target >= 0.95: "
          f"{'met' if ratio >= 0.95 else 'NOT met'})")


if __name__ == "__main__":
    main()
