# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Routes behind the wrappers people type, end to end: the labelled held-out set of
``tests/recall/corpus_wrappers.py`` (a time limit or timing prefix, output-only options,
long/short spellings, options set to their defaults, chains; near misses and bait) run
through ``recall replan`` and through the guard against an Obelisk (the double by default;
a real build with ``--obelisk PATH``).

The history: each case's prior call in its own claimed Claude Code session of agent-a in
one repository (a failure with the case's exit status), then newer sessions with the
ordinary calls of ``tests/recall/replan/retrieval.py``'s background (the worst case for
retrieval: the prior call is the oldest). Each proposal is asked of ``recall replan``
(one admitted recall, one provider process, its query terms from the canonical route) and
decided by the guard's hook function (``decide_payload``) on the prior-outcome set the
prefetch made with one provider process. Then the installed hook command is run as a
process on a repeat, paired with ``python -c pass`` (interleaved), for the hot path's
wall time.

With ``--corpus route-model`` the pairs are those of issue 38
(``tests/recall/corpus_route_model.py``): each prior call made from its own folder (the
transcript's ``cwd``), each proposal from its own (the guard's payload ``cwd``; for
``recall replan``, which asks about a command as run from the repository root, ``cd
<folder> &&`` before it).

Run: .venv/bin/python benchmarks/wrapper_routes.py [--corpus wrappers|route-model]
[--set held-out|dev] [--obelisk PATH] [--runs N]. Prints figures; not a test. For the
figures before a change, run it from another folder with PYTHONPATH naming an export of
the older tree (``git archive <commit> | tar -x -C /tmp/before``; the hook processes
inherit it): ``cd /tmp &&
PYTHONPATH=/tmp/before <venv>/bin/python <repo>/benchmarks/wrapper_routes.py``. The hook's
CPU time is reported beside its wall time: on a busy machine the wall time of a process
that imports more stretches far more than the yardstick's (as in ``recall qualify``).
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
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLUGIN_TESTS = ROOT / "plugins" / "obelisk-session-evidence" / "tests"
DOUBLE = PLUGIN_TESTS / "obelisk_double" / "obelisk"
LOOPX = str(Path(sys.executable).parent / "loopx-recall")
BACKGROUND_SESSIONS = 4
HOT_PATH_PROPOSAL = "time make test-api"


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _claude(home: Path, session: str, cwd: str, calls: list[tuple[str, int, datetime]]) -> None:
    """A Claude Code transcript as the plugin's tests write one (tool_use, then its
    tool_result; a failure is ``is_error`` with Claude's ``Exit code N`` first line)."""
    folder = home / ".claude" / "projects" / "-bench"
    folder.mkdir(parents=True, exist_ok=True)
    lines, parent = [], None
    for n, (command, code, at) in enumerate(calls):
        tool = f"toolu_{session}_{n}"
        output = f"Exit code {code}\nerror: see above" if code else "ok"
        for uuid, role, content in (
            (f"{session}-a{n}", "assistant",
             [{"type": "tool_use", "id": tool, "name": "Bash", "input": {"command": command}}]),
            (f"{session}-u{n}", "user",
             [{"type": "tool_result", "tool_use_id": tool, "content": output,
               "is_error": bool(code)}]),
        ):  # fmt: skip
            lines.append(json.dumps({"type": role, "uuid": uuid, "parentUuid": parent,
                                     "sessionId": session, "timestamp": _iso(at), "cwd": cwd,
                                     "version": "2.0.0",
                                     "message": {"role": role, "content": content}}))  # fmt: skip
            parent = uuid
    (folder / f"{session}.jsonl").write_text("\n".join(lines) + "\n")


def _counting_wrapper(folder: Path, obelisk: Path) -> tuple[Path, Path]:
    counter = folder / "queries.log"
    wrapper = folder / "obelisk"
    wrapper.write_text(
        "#!/usr/bin/env bash\n"
        f'for arg in "$@"; do [[ "$arg" == --query ]] && echo query >> "{counter}"; done\n'
        f'exec "{obelisk}" "$@"\n'
    )
    wrapper.chmod(0o755)
    return wrapper, counter


def _score(name: str, cases: list, predicted: list[bool]) -> dict:
    repeats = [p for p, case in zip(predicted, cases, strict=True) if case[3] == "repeat"]
    said = sum(predicted)
    right = sum(repeats)
    bait = sum(p for p, case in zip(predicted, cases, strict=True) if case[4] == "bait")
    missed = [case[0] for p, case in zip(predicted, cases, strict=True)
              if case[3] == "repeat" and not p]  # fmt: skip
    false = [case[0] for p, case in zip(predicted, cases, strict=True)
             if case[3] != "repeat" and p]  # fmt: skip
    recall = right / len(repeats) if repeats else 1.0
    precision = right / said if said else 1.0
    print(f"{name}: repeat recall {right}/{len(repeats)} = {recall:.3f}, precision "
          f"{precision:.3f}, bait repeats {bait}")  # fmt: skip
    for command in missed:
        print(f"  missed: {command}")
    for command in false:
        print(f"  false repeat: {command}")
    return {"recall": recall, "precision": precision, "bait": bait}


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--set", choices=("held-out", "dev"), default="held-out")
    parser.add_argument("--corpus", choices=("wrappers", "route-model"), default="wrappers")
    parser.add_argument("--obelisk", type=Path, default=DOUBLE, help="an Obelisk executable")
    parser.add_argument("--runs", type=int, default=30, help="hook processes timed")
    args = parser.parse_args()
    node = subprocess.run([str(ROOT / "scripts" / "ensure-node22")], capture_output=True,
                          text=True, check=True).stdout.strip()  # fmt: skip
    scratch = Path(tempfile.mkdtemp())
    home, state = scratch / "home", scratch / "state"
    repo = home / "src" / "bench-repo"
    repo.mkdir(parents=True)
    wrapper, counter = _counting_wrapper(scratch, args.obelisk.resolve())
    os.environ.update({"HOME": str(home), "LOOPX_RECALL_HOME": str(state),
                       "LOOPX_RECALL_NODE22": node, "LOOPX_RECALL_OBELISK_BIN": str(wrapper),
                       "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence"})  # fmt: skip
    (home / ".obelisk-double.json").write_text(json.dumps({"build_grace_ms": 0}))
    sys.path.insert(0, str(PLUGIN_TESTS))
    sys.path.append(str(ROOT))  # after PYTHONPATH: an older tree named there is measured
    from _guarded import guard_on

    from loopx_recall_core.guard import hotpath, prefetch, store
    from loopx_recall_core.operator_requests import Consultation, ProposedCommand
    from loopx_recall_core.operator_requests import replan as replan_consultation
    from tests.recall import corpus_route_model, corpus_wrappers
    from tests.recall.replan.retrieval import _BG_CALLS, _BG_FAILED

    chosen = corpus_wrappers if args.corpus == "wrappers" else corpus_route_model
    given = chosen.HELD_OUT if args.set == "held-out" else chosen.DEV
    # (proposed, prior, exit, label, tag, folder proposed from, folder the prior ran in)
    cases = [(*case[:5], *(case[5:] or (".", "."))) for case in given]
    now = datetime.now(UTC)
    start = now - timedelta(days=20)
    claims = []
    for k, (_, prior, code, _, _, _, prior_cwd) in enumerate(cases):
        session = f"p-{k:03d}"
        folder = repo if prior_cwd == "." else repo / prior_cwd
        folder.mkdir(parents=True, exist_ok=True)
        _claude(home, session, str(folder), [(prior, code, start + timedelta(minutes=10 * k))])
        claims.append(session)
    background = [line for line in _BG_CALLS.splitlines() if line]
    for b in range(BACKGROUND_SESSIONS):
        base = start + timedelta(days=5 + b)
        calls = [(line, 1 if line in _BG_FAILED else 0, base + timedelta(minutes=n))
                 for n, line in enumerate(background)]  # fmt: skip
        _claude(home, f"bg-{b}", str(repo), calls)
        claims.append(f"bg-{b}")
    if args.obelisk.resolve() != DOUBLE.resolve():
        subprocess.run([str(args.obelisk), "--build"], capture_output=True, check=False,
                       env={**os.environ})  # fmt: skip

    guard_on(state, wrapper, repo, project_id="proj-w", repository_id="repo-w",
             claims=[("agent-a", s) for s in [*claims, "S-now"]])  # fmt: skip

    counter.write_text("")
    facts = {"runtime": "claude", "session_id": "S-now", "agent_id": "agent-a",
             "project_id": "proj-w", "requested_at": time.time()}  # fmt: skip
    made = prefetch.run_prefetch(state, facts)
    set_queries = len(counter.read_text().splitlines())
    lines = store.read_set_lines(store.set_path(state, "claude", "S-now"))
    header = store.read_header(lines) if lines else {}

    def payload(command: str, cwd: str = ".") -> dict:
        where = repo if cwd == "." else repo / cwd
        return {"session_id": "S-now", "transcript_path": None, "cwd": str(where),
                "permission_mode": "default", "hook_event_name": "PreToolUse",
                "tool_name": "Bash", "tool_input": {"command": command},
                "tool_use_id": f"t-{time.monotonic_ns()}"}  # fmt: skip

    def warns(command: str, cwd: str) -> bool:
        store.write_session(state, "claude", "S-now", {})  # each proposal judged afresh
        return hotpath.decide_payload("claude", payload(command, cwd), agent_id="agent-a",
                                      project_id="proj-w", root=state, now=time.time(),
                                      started=time.monotonic(), deadline=30.0,
                                      refresh=False) is not None  # fmt: skip

    guard = [warns(case[0], case[5]) for case in cases]
    counter.write_text("")
    replan = []
    for case in cases:
        report = replan_consultation(Consultation(situation=ProposedCommand(
            command=case[0] if case[5] == "." else f"cd {case[5]} && {case[0]}",
            agent_id="agent-a", project_id="proj-w",
            trigger="replan_repetition", repository_root=str(repo))))  # fmt: skip
        replan.append(report.comparison.verdict == "repeats_prior_failure")
    replan_queries = len(counter.read_text().splitlines())

    newer = BACKGROUND_SESSIONS * len(background)
    repeats = sum(c[3] == "repeat" for c in cases)
    print(f"{args.corpus} {args.set}: {len(cases)} cases ({repeats} repeats, "
          f"{sum(c[4] == 'bait' for c in cases)} bait); history {len(cases)} prior calls + "
          f"{newer} newer calls; obelisk {args.obelisk}")  # fmt: skip
    print(f"guard set: {made}; status {header.get('status')}, {header.get('count')} entries, "
          f"made by {set_queries} provider process(es); replan: {replan_queries} provider "
          f"processes for {len(cases)} proposals")  # fmt: skip
    _score("replan", cases, replan)
    _score("guard ", cases, guard)
    disagree = sum(a != b for a, b in zip(guard, replan, strict=True))
    print(f"guard vs replan repeat verdicts: {disagree} disagreement(s)")

    # The hot path: the installed hook as a process, on a repeat, against python -c pass.
    # one proposal both the older rules and these warn (``time`` was dropped before), so a
    # before/after pair times the same path: a warning
    warned = [case[0] for case, w in zip(cases, guard, strict=True) if w and case[3] == "repeat"]
    repeat = HOT_PATH_PROPOSAL if HOT_PATH_PROPOSAL in warned else warned[0]
    body = json.dumps(payload(repeat)).encode()
    hook = [LOOPX, "guard", "claude", "--agent-id", "agent-a", "--project-id", "proj-w"]
    timings: dict[str, tuple[list[float], list[float]]] = {"hook": ([], []), "python": ([], [])}

    def timed(name: str, argv: list[str], stdin: bytes) -> bool:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.perf_counter()
        done = subprocess.run(argv, input=stdin, capture_output=True, check=False)
        wall = (time.perf_counter() - began) * 1000
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000
        timings[name][0].append(wall)
        timings[name][1].append(cpu)
        return bool(done.stdout)

    answered = 0
    for _ in range(args.runs):
        store.write_session(state, "claude", "S-now", {})  # so every run answers
        answered += timed("hook", hook, body)
        timed("python", [sys.executable, "-c", "pass"], b"")
    for name, (wall, cpu) in timings.items():
        print(f"{name:>6} process ({args.runs} runs): wall p50 {statistics.median(wall):.1f} "
              f"p95 {_percentile(wall, 0.95):.1f} ms; CPU p50 {statistics.median(cpu):.1f} "
              f"p95 {_percentile(cpu, 0.95):.1f} ms")  # fmt: skip
    hook_cpu, python_cpu = timings["hook"][1], timings["python"][1]
    print(f"hook CPU p95 / python -c pass CPU p95: "
          f"{_percentile(hook_cpu, 0.95) / max(_percentile(python_cpu, 0.95), 0.001):.1f}x; "
          f"{answered}/{args.runs} hook runs warned ({repeat!r}); load average "
          f"{os.getloadavg()[0]:.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
