# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The guard on a long history (issue 28): 200 claimed Claude Code sessions of agent-a in
one repository, 25 shell calls each (5,000 calls, every other one failed), each session
holding one failure that a later proposal repeats (the repeats spread over the whole
window), plus bait: agent-b's sessions in the same repository, agent-a's sessions in
another repository, Codex sessions (a runtime the enablement does not bind) and sessions
older than the window, each with failures that are proposed word for word.

The set is made by the prefetch's own code (``run_prefetch``: one admitted request run in
pages, PagedRecallProvider) against the Obelisk double behind a wrapper that counts its
query processes; every proposal is decided by the hook's own function (``decide_payload``)
as a PreToolUse payload in a new session; a sample of the repeats is asked of
``recall replan`` (one recall each) to measure the guard against what replan finds.

Run: .venv/bin/python benchmarks/guard_long_history.py [--sessions N] [--replan N]
(prints figures; not a test). Transcript lines are Claude Code's, as the plugin's tests
write them (tests/guard/test_guard_end_to_end.py); the Codex ones are the tests' hostile.py's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLUGIN_TESTS = ROOT / "plugins" / "obelisk-session-evidence" / "tests"
DOUBLE = PLUGIN_TESTS / "obelisk_double" / "obelisk"
CALLS = 25
VARIANTS = ("{c}", "python -m {c}", "{c} -q", "  {c}  ", "uv run {c}")


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _claude(home: Path, session: str, cwd: str, calls: list[tuple[str, bool, datetime]]) -> None:
    folder = home / ".claude" / "projects" / "-bench"
    folder.mkdir(parents=True, exist_ok=True)
    lines, parent = [], None
    for n, (command, failed, at) in enumerate(calls):
        tool = f"toolu_{session}_{n}"
        output = "Exit code 1\nE   AssertionError: boom" if failed else "ok"
        for uuid, role, content in (
            (f"{session}-a{n}", "assistant",
             [{"type": "tool_use", "id": tool, "name": "Bash", "input": {"command": command}}]),
            (f"{session}-u{n}", "user",
             [{"type": "tool_result", "tool_use_id": tool, "content": output,
               "is_error": failed}]),
        ):  # fmt: skip
            lines.append(json.dumps({"type": role, "uuid": uuid, "parentUuid": parent,
                                     "sessionId": session, "timestamp": _iso(at), "cwd": cwd,
                                     "version": "2.0.0",
                                     "message": {"role": role, "content": content}}))  # fmt: skip
            parent = uuid
    (folder / f"{session}.jsonl").write_text("\n".join(lines) + "\n")


def _counting_wrapper(folder: Path) -> tuple[Path, Path]:
    counter = folder / "queries.log"
    wrapper = folder / "obelisk"
    wrapper.write_text(
        "#!/usr/bin/env bash\n"
        f'for arg in "$@"; do [[ "$arg" == --query ]] && echo query >> "{counter}"; done\n'
        f'exec "{DOUBLE}" "$@"\n'
    )
    wrapper.chmod(0o755)
    return wrapper, counter


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--replan", type=int, default=40, help="repeats asked of replan")
    args = parser.parse_args()
    node = subprocess.run([str(ROOT / "scripts" / "ensure-node22")], capture_output=True,
                          text=True, check=True).stdout.strip()  # fmt: skip
    scratch = Path(tempfile.mkdtemp())
    home, state = scratch / "home", scratch / "state"
    repo, other_repo = home / "src" / "bench-repo", home / "src" / "other-repo"
    repo.mkdir(parents=True)
    other_repo.mkdir(parents=True)
    wrapper, counter = _counting_wrapper(scratch)
    os.environ.update({"HOME": str(home), "LOOPX_RECALL_HOME": str(state),
                       "LOOPX_RECALL_NODE22": node, "LOOPX_RECALL_OBELISK_BIN": str(wrapper),
                       "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence"})  # fmt: skip
    (home / ".obelisk-double.json").write_text(json.dumps({"build_grace_ms": 0}))
    sys.path.insert(0, str(PLUGIN_TESTS))
    from _guarded import guard_on
    from hostile import codex_transcript

    from loopx_recall_core.guard import hotpath, prefetch, store
    from loopx_recall_core.operator_requests import (
        Consultation,
        ProposedCommand,
        replan,
    )

    now = datetime.now(UTC)
    start = now - timedelta(days=25)
    repeats, bait = [], []
    claims: list[tuple[str, str]] = []
    for s in range(args.sessions):  # agent-a's history in the repository
        base = start + timedelta(hours=3 * s)
        target = f"pytest tests/test_mod_{s}.py"
        calls = []
        for n in range(CALLS):
            if n == 3:
                calls.append((target, True, base + timedelta(minutes=n)))
            else:
                failed = n % 2 == 0
                command = f"ruff check src/m{s}_{n}.py" if failed else f"make step-{s}-{n}"
                calls.append((command, failed, base + timedelta(minutes=n)))
        session = f"a-{s:04d}"
        _claude(home, session, str(repo), calls)
        claims.append(("agent-a", session))
        repeats.append(VARIANTS[s % len(VARIANTS)].format(c=target))
    for k in range(10):  # bait: another agent, another repository, outside the window
        _claude(home, f"b-{k}", str(repo), [(f"npm run bait-b-{k}", True, start)])
        claims.append(("agent-b", f"b-{k}"))
        bait.append(f"npm run bait-b-{k}")
        _claude(home, f"o-{k}", str(other_repo), [(f"cargo test bait_o_{k}", True, start)])
        claims.append(("agent-a", f"o-{k}"))
        bait.append(f"cargo test bait_o_{k}")
        _claude(home, f"w-{k}", str(repo), [(f"go test ./old/{k}", True, now - timedelta(days=90))])
        claims.append(("agent-a", f"w-{k}"))
        bait.append(f"go test ./old/{k}")
        thread = f"019d0000-0000-7000-8000-0000000{k:05d}"
        codex_transcript(home, thread, cwd=str(repo), timestamp=_iso(start),
                         command=f"make bait-codex-{k}", output="Exit code: 1\nboom")  # fmt: skip
        bait.append(f"make bait-codex-{k}")
    novel = [f"pytest tests/test_new_{k}.py" for k in range(50)]

    guard_on(state, wrapper, repo, project_id="proj-j", repository_id="repo-g",
             agents=("agent-a", "agent-b"), claims=[*claims, ("agent-a", "S-now")])

    counter.write_text("")
    started = time.monotonic()
    facts = {"runtime": "claude", "session_id": "S-now", "agent_id": "agent-a",
             "project_id": "proj-j", "requested_at": time.time()}  # fmt: skip
    made = prefetch.run_prefetch(state, facts)
    make_s = time.monotonic() - started
    queries = len(counter.read_text().splitlines())
    lines = store.read_set_lines(store.set_path(state, "claude", "S-now"))
    header = store.read_header(lines) if lines else {}

    def warns(command: str) -> bool:
        payload = {"session_id": "S-now", "transcript_path": None, "cwd": str(repo),
                   "permission_mode": "default", "hook_event_name": "PreToolUse",
                   "tool_name": "Bash", "tool_input": {"command": command},
                   "tool_use_id": f"t-{time.monotonic_ns()}"}  # fmt: skip
        store.write_session(state, "claude", "S-now", {})  # each proposal judged afresh
        return hotpath.decide_payload("claude", payload, agent_id="agent-a", project_id="proj-j",
                                      root=state, now=time.time(), started=time.monotonic(),
                                      deadline=30.0, refresh=False) is not None  # fmt: skip

    warned = [warns(c) for c in repeats]
    bait_warned = sum(warns(c) for c in bait)
    novel_warned = sum(warns(c) for c in novel)
    step = max(len(repeats) // max(args.replan, 1), 1)
    sample = list(range(0, len(repeats), step))[: args.replan]
    replan_found = guard_too = 0
    for index in sample:
        report = replan(Consultation(situation=ProposedCommand(
            command=repeats[index], agent_id="agent-a", project_id="proj-j",
            trigger="replan_repetition", repository_root=str(repo))))  # fmt: skip
        if report.comparison.verdict == "repeats_prior_failure":
            replan_found += 1
            guard_too += warned[index]
    true_warnings = sum(warned)
    all_warnings = true_warnings + bait_warned + novel_warned
    print(f"history: {args.sessions * CALLS} shell calls of agent-a over {args.sessions} "
          f"sessions; bait: {len(bait)} failures (another agent, repository, runtime, window)")
    print(f"set: {made}; status {header.get('status')}, {header.get('count')} entries in "
          f"{header.get('pages')} pages; made in {make_s:.1f} s by {queries} provider process(es)")
    print(f"guard warned {true_warnings}/{len(repeats)} repeats "
          f"({true_warnings / len(repeats):.3f}); bait warnings {bait_warned}; "
          f"novel warnings {novel_warned}; precision {true_warnings / max(all_warnings, 1):.3f}")
    print(f"replan found {replan_found}/{len(sample)} sampled repeats; the guard warned "
          f"{guard_too} of those ({guard_too / max(replan_found, 1):.3f})")


if __name__ == "__main__":
    main()
