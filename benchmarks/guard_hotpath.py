# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The guard's PreToolUse hot path over a 10,000-item prior-outcome set, paired against
``python -c pass`` (same interpreter, interleaved runs).

Run: .venv/bin/python benchmarks/guard_hotpath.py [--runs N] [--items N]  (not a test)

The set holds N items over 400 programs (a real set holds at most 64: the v0 limit);
the proposed command repeats one failure, in one of the route forms of :data:`FORMS` in
turn (a plain call, a folder, wrappers, an environment and a chain, a shell ``-c`` body,
interpreter code, a here-document, an input file, spec aliases), as the provider stores a
call made in a subfolder; so every run takes the full path: payload,
state.json, the set (mapped: the header and only the candidate lines read), replan's relation,
the session record and the decision record. The first run answers (a warning); the rest
are the same route again (once per route per session), which costs the same path. The
session's transcript (2 MB, ~20 KB more before each call) is read from where the last
call's read for the private marker stopped. Each
run is followed by the same call's ``PostToolUse`` (recorded, never answered), timed apart.
Target (issue 20): guard p95 <= 100 ms.
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
from pathlib import Path

from loopx_recall_core.guard import store
from loopx_recall_core.guard.decide import index_items, with_successors
from loopx_recall_core.state import DEFAULT_CEILINGS, Enablement, LimitCeilings, State, StateStore

LOOPX = str(Path(sys.executable).parent / "loopx-recall")


#: (proposed, the stored failure it repeats): one per route form of the route model.
FORMS = [
    ("tool7 run tests/test_7.py --flag 7", "tool7 run tests/test_7.py --flag 7"),
    ("cd web && npm run lint", "cd web && npm run lint"),
    ("nice -n 5 taskset -c 0 make -C web check", "cd web && make check"),
    ("export NODE_ENV=test && pnpm --filter=app test", "export NODE_ENV=test && pnpm -F app test"),
    ("bash -o pipefail -c 'cargo test -p core 2>&1 | tail -5'", "cargo test --package core"),
    ("python -c 'import app;app.main( )'", "python -c 'import app; app.main()'"),
    ("psql -h db app <<EOF\nselect 1;\nEOF", "psql -h db app <<EOF; select 1;; EOF"),
    ("mysql app < schema.sql  # again", "mysql app < schema.sql"),
    ("git -C vendor/lib/ pull -r", "git -C vendor/lib pull --rebase"),
    ("docker compose --file compose.yaml up -d api", "docker compose up --detach api"),
]


def _items(count: int) -> list[dict]:
    items = [
        {
            "ref": f"f{n}#m{n}", "session": f"f{n}", "type": "prior_failure",
            "at": "2026-01-01T09:00:00+00:00",
            "snippet": f"Bash: {prior}\noutcome: failed (exit 1)\n" + "E   failed\n" * 4,
        }
        for n, (_, prior) in enumerate(FORMS)
    ]  # fmt: skip
    for n in range(len(FORMS), count):
        program = f"tool{n % 400}"
        outcome = "failed (exit 1)" if n % 3 else "ok"
        items.append({
            "ref": f"s{n % 50}#m{n}", "session": f"s{n % 50}",
            "type": "prior_failure" if n % 3 else "tool_outcome",
            "at": f"2026-01-0{1 + n % 9}T10:{n % 60:02d}:00+00:00",
            "snippet": f"Bash: {program} run tests/test_{n}.py --flag {n}\noutcome: {outcome}\n"
            + "E   AssertionError: something went wrong here\n" * 4,
        })  # fmt: skip
    return items


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--items", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        home = Path(scratch) / "state"
        home.mkdir(mode=0o700)
        enabled = Enablement(
            capability="agent-turn-recall", provider_id="p", surface="replan-history",
            agent_id="agent-a", project_id="proj-j", repository_id="repo-r", stage=2,
            limits=LimitCeilings(**DEFAULT_CEILINGS), guard="warn",
            binding={"private": {"repository_roots": ["/r"], "resolved_roots": ["/r"]}},
        )  # fmt: skip
        with StateStore(home).update() as box:
            box[0] = State(schema_version="loopx_state_v0", enablements=(enabled,))
        items = with_successors(_items(args.items), "/r")  # as the prefetch writes them
        header = {
            "schema_version": store.SET_VERSION, "agent_id": "agent-a", "project_id": "proj-j",
            "runtime": "claude", "session_id": "S", "created_at": time.time(), "as_of": time.time(),
            "ttl_s": 3600, "freshness": "fresh", "truncated": False, "status": "succeeded",
            "receipt_digest": "sha256:" + "0" * 64, "repository_root": "/r",
            "count": len(items), "index": index_items(items, "/r"),
        }  # fmt: skip
        path = store.write_set(home, header, items)
        # the session's transcript: 2 MB at the start, ~20 KB more before each call (a
        # turn's messages and tool output), as the hot path's private-marker read sees it
        transcript = Path(scratch) / "S.jsonl"
        turn = json.dumps({"type": "assistant", "message": "x" * 200}) + "\n"
        transcript.write_text(turn * 10_000)
        def pre_tool_use(command: str) -> bytes:
            return json.dumps({
                "session_id": "S", "transcript_path": str(transcript), "cwd": "/r",
                "permission_mode": "default",
                "hook_event_name": "PreToolUse", "tool_name": "Bash",
                "tool_input": {"command": command}, "tool_use_id": "t",
            }).encode()  # fmt: skip

        env = {**os.environ, "LOOPX_RECALL_HOME": str(home), "LOOPX_RECALL_LOAD_PLUGINS": ""}
        guard_cmd = [LOOPX, "guard", "claude", "--agent-id", "agent-a", "--project-id", "proj-j"]
        guard, post, bare, answered = [], [], [], 0
        guard_cpu, bare_cpu = [], []
        warned: set[str] = set()
        for run in range(args.runs):
            proposed = FORMS[run % len(FORMS)][0]
            payload = pre_tool_use(proposed)
            after = json.dumps({**json.loads(payload), "hook_event_name": "PostToolUse",
                                "tool_response": {"stdout": ""}}).encode()  # fmt: skip
            with transcript.open("a") as grown:
                grown.write(turn * 100)
            started, cpu = time.perf_counter(), _children_cpu()
            done = subprocess.run(guard_cmd, input=payload, env=env, capture_output=True,
                                  check=False)  # fmt: skip
            guard.append((time.perf_counter() - started) * 1000)
            guard_cpu.append(_children_cpu() - cpu)
            answered += bool(done.stdout)
            if done.stdout:
                warned.add(proposed)
            started = time.perf_counter()
            subprocess.run(guard_cmd, input=after, env=env, capture_output=True, check=False)
            post.append((time.perf_counter() - started) * 1000)
            started, cpu = time.perf_counter(), _children_cpu()
            subprocess.run([sys.executable, "-c", "pass"], check=False)
            bare.append((time.perf_counter() - started) * 1000)
            bare_cpu.append(_children_cpu() - cpu)
        size = path.stat().st_size / 1e6
        print(f"set: {args.items} items, {size:.1f} MB; runs: {args.runs}; answered: {answered}")
        print(f"route forms warned: {len(warned)} of {len(FORMS)}")
        for form, _ in FORMS:
            if form not in warned:
                print(f"  not warned: {form!r}")
        print(f"guard      p50 {statistics.median(guard):6.1f} ms  p95 {_p(guard, 0.95):6.1f} ms")
        print(f"post-tool  p50 {statistics.median(post):6.1f} ms  p95 {_p(post, 0.95):6.1f} ms")
        print(f"python -c  p50 {statistics.median(bare):6.1f} ms  p95 {_p(bare, 0.95):6.1f} ms")
        print(f"ratio p50 {statistics.median(guard) / statistics.median(bare):.1f}x")
        # CPU time (user + system) of each process: what the hook itself costs, which a
        # busy machine's wait for a core does not inflate
        print(f"CPU: guard p50 {statistics.median(guard_cpu):6.1f} ms  p95 "
              f"{_p(guard_cpu, 0.95):6.1f} ms; python -c p50 {statistics.median(bare_cpu):6.1f}"
              f" ms  p95 {_p(bare_cpu, 0.95):6.1f} ms; load average {os.getloadavg()[0]:.1f}")


def _children_cpu() -> float:
    """User + system CPU time of this process's waited-for children so far, in ms."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


if __name__ == "__main__":
    main()
