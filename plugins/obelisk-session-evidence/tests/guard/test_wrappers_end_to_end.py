# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Routes behind wrappers, end to end on the Obelisk double (or the real binary): a held-out
case of each class (a time limit in front, output-only options, a long option spelling, an
option set to its default) is warned by the installed guard hook and found by ``recall
replan`` through the CLI, each proposal worded otherwise than its prior failure; bait
(``env -C`` another folder, ``--dry-run=server``) is neither.
The whole held-out set runs the same way in ``benchmarks/wrapper_routes.py``."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
from datetime import timedelta
from pathlib import Path

import pytest

from ..conftest import LOOPX
from ..hostile import now_iso
from .test_guard_end_to_end import _counting_wrapper, _wait_for_set, stage_two

pytestmark = pytest.mark.real_obelisk

# The host's labelled set (tests/recall/corpus_wrappers.py: data only), read by its path:
# the plugin's tests are a package named "tests" too.
_SPEC = importlib.util.spec_from_file_location(
    "corpus_wrappers", Path(__file__).resolve().parents[4] / "tests/recall/corpus_wrappers.py"
)
_CORPUS = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_CORPUS)
HELD_OUT = _CORPUS.HELD_OUT

#: One held-out repeat per class, and bait, by their proposals.
CHOSEN = (
    "timeout -k 10 5m npm run test:unit",
    "pytest -vv --tb=short -rA tests/test_shipping.py",
    "helm install redis bitnami/redis --namespace cache --values redis.yaml",
    "kubectl apply --dry-run=none -f k8s/api.yaml",
    "env -C services/api make test-int",
    "kubectl apply --dry-run=server -f k8s/worker.yaml",
)
CASES = [case for case in HELD_OUT if case[0] in CHOSEN]


def _transcript(home: Path, cwd: str) -> list[str]:
    """One Claude Code session per prior call (Claude's transcript lines, as the plugin's
    other tests write them: a failure is ``is_error`` with ``Exit code N`` first)."""
    folder = home / ".claude" / "projects" / "-wrappers"
    folder.mkdir(parents=True, exist_ok=True)
    sessions = []
    for n, (_, prior, code, _, _) in enumerate(CASES):
        session = f"CANARY-wrap-{n}"
        stamp = now_iso(-timedelta(hours=3, minutes=n))
        tool = f"toolu_{n}"
        lines = []
        for uuid, parent, role, content in (
            (f"{session}-a", None, "assistant",
             [{"type": "tool_use", "id": tool, "name": "Bash", "input": {"command": prior}}]),
            (f"{session}-u", f"{session}-a", "user",
             [{"type": "tool_result", "tool_use_id": tool, "is_error": True,
               "content": f"Exit code {code}\nerror: it failed"}]),
        ):  # fmt: skip
            lines.append(json.dumps({"type": role, "uuid": uuid, "parentUuid": parent,
                                     "sessionId": session, "timestamp": stamp, "cwd": cwd,
                                     "version": "2.0.0",
                                     "message": {"role": role, "content": content}}))  # fmt: skip
        (folder / f"{session}.jsonl").write_text("\n".join(lines) + "\n")
        sessions.append(session)
    return sessions


def test_wrapped_repeats_are_warned_and_found_and_bait_is_not(loopx, archive_home, obelisk_bin,
                                                              tmp_path):  # fmt: skip
    assert len(CASES) == len(CHOSEN)
    home = archive_home.home
    repo = home / "src" / "CANARY-wrap-repo"
    repo.mkdir(parents=True)
    sessions = _transcript(home, str(repo))
    wrapper, counter = _counting_wrapper(tmp_path, obelisk_bin)
    state = tmp_path / "loopx"
    extra = {"LOOPX_RECALL_OBELISK_BIN": str(wrapper)}

    def cli(*args):
        return loopx(*args, extra_env=extra)

    stage_two(cli, state, wrapper, repo, "claude", ())
    for session in sessions:
        cli("session", "claim", "--agent-id", "agent-a", "--project-id", "proj-j", "--runtime",
            "claude", "--session", session, "--force")  # fmt: skip
    cli("hook", "install", "claude", "--agent-id", "agent-a", "--project-id", "proj-j",
        "--guard", "--policy", "warn", "--yes")  # fmt: skip
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "LOOPX_RECALL_HOME": str(state),
           "LOOPX_RECALL_OBELISK_BIN": str(wrapper),
           "LOOPX_RECALL_NODE22": os.environ["LOOPX_RECALL_NODE22"],
           "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence",
           "LOOPX_RECALL_AGENT_ID": "agent-a", "LOOPX_RECALL_PROJECT_ID": "proj-j"}  # fmt: skip

    def run(kind, payload):
        args = ["--deadline-ms", "30000"] if kind == "guard" else []
        done = subprocess.run([LOOPX, kind, "claude", *args], input=json.dumps(payload).encode(),
                              env=env, capture_output=True, timeout=60, check=False)  # fmt: skip
        assert (done.returncode, done.stderr) == (0, b"")
        return json.loads(done.stdout) if done.stdout else None

    counter.write_text("")
    start = {"session_id": "S-now", "transcript_path": None, "cwd": str(repo),
             "hook_event_name": "SessionStart", "source": "startup"}  # fmt: skip
    assert run("hook", start) is None
    assert _wait_for_set(store_path(state), home), "the prefetch made no set"
    assert len(counter.read_text().splitlines()) == 1  # one provider process made the set

    guard, replan = {}, {}
    for proposed, *_ in CASES:
        answer = run("guard", {
            "session_id": "S-now", "transcript_path": None, "cwd": str(repo),
            "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": proposed, "description": "run"},
            "tool_use_id": f"toolu_{len(guard)}"})  # fmt: skip
        guard[proposed] = answer is not None
        data = json.loads(cli("recall", "replan", "--proposed-command", proposed, "--agent-id",
                              "agent-a", "--project-id", "proj-j", "--trigger",
                              "replan_repetition", "--format", "json").stdout)  # fmt: skip
        replan[proposed] = data["comparison"]["verdict"] == "repeats_prior_failure"
    expected = {proposed: label == "repeat" for proposed, _, _, label, _ in CASES}
    assert guard == expected
    assert replan == expected


def store_path(state: Path) -> Path:
    from loopx_recall_core.testing import guard_store

    return guard_store.set_path(state, "claude", "S-now")
