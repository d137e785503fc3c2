# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Through the installed CLI and the double: a session claimed by the
runtime's hook is recalled, then forgotten, and from then on never returned (to this agent
or, under runtime identity, to another), never claimed again (exit 1; the hook logs
``forgotten``), and counted in status without its id. The transcript stays where it is."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import timedelta

from ..conftest import CAPABILITY, LOOPX
from ..hostile import codex_transcript, now_iso

THREAD = "CANARY-thread-forget-41c9"
KEPT = "thread-kept-0a7e"


def _refs(loopx, agent):
    out = loopx("recall", "history", "--agent-id", agent, "--project-id", "proj-j", "--term",
                "pytest", "--evidence-type", "prior_failure", "--format", "json",
                "--show-private").stdout  # fmt: skip
    data = json.loads(out)
    assert data["status"] == "succeeded", data
    return {item["session_ref"] for item in data["items"]}


def test_a_forgotten_session_is_never_returned_again(loopx, archive_home, tmp_path):
    home = archive_home.home
    repo = home / "src" / "forget-repo"
    repo.mkdir(parents=True)
    stamp = now_iso(-timedelta(hours=2))
    transcript = codex_transcript(home, THREAD, cwd=str(repo), timestamp=stamp)
    codex_transcript(home, KEPT, cwd=str(repo), timestamp=stamp, call_id="call_2")
    state = tmp_path / "loopx"
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "LOOPX_RECALL_HOME": str(state),
           "LOOPX_RECALL_AGENT_ID": "agent-a", "LOOPX_RECALL_PROJECT_ID": "proj-j"}  # fmt: skip

    def hook(thread):
        notify = {"type": "agent-turn-complete", "thread-id": thread, "turn-id": "t1",
                  "cwd": str(repo), "input-messages": ["go"], "last-assistant-message": "ok"}
        done = subprocess.run([LOOPX, "hook", "codex", json.dumps(notify)], env=env,
                              capture_output=True, timeout=60, check=False)  # fmt: skip
        assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")

    hook(THREAD)
    hook(KEPT)
    for agent, mode in (("agent-a", "claimed"), ("agent-r", "runtime")):
        loopx("capability", "enable", *CAPABILITY, "--agent-id", agent, "--project-id",
              "proj-j", "--history-source", "codex", "--repository-root", str(repo),
              "--repository-id", "repo-f", "--agent-sessions", mode)  # fmt: skip
    assert _refs(loopx, "agent-a") == {f"codex:{THREAD}", f"codex:{KEPT}"}
    assert _refs(loopx, "agent-r") == {f"codex:{THREAD}", f"codex:{KEPT}"}

    forget = ["session", "forget", "--agent-id", "agent-a", "--project-id", "proj-j",
              "--runtime", "codex", "--session", THREAD, "--format", "json"]  # fmt: skip
    assert json.loads(loopx(*forget).stdout)["changed"] is True
    assert _refs(loopx, "agent-a") == {f"codex:{KEPT}"}
    assert _refs(loopx, "agent-r") == {f"codex:{KEPT}"}  # any agent, any mode

    claim = loopx("session", "claim", "--agent-id", "agent-a", "--project-id", "proj-j",
                  "--runtime", "codex", "--session", THREAD, check=False)  # fmt: skip
    assert claim.returncode == 1
    assert THREAD not in claim.stdout + claim.stderr
    hook(THREAD)  # the runtime's hook fires again for it: refused, logged
    log = (state / "private" / "hooks.log").read_text()
    assert log.splitlines()[-1].endswith("forgotten")
    assert _refs(loopx, "agent-a") == {f"codex:{KEPT}"}

    status = loopx("capability", "status", *CAPABILITY, "--project-id", "proj-j",
                   "--format", "json").stdout  # fmt: skip
    counts = {e["agent_id"]: e["agent_sessions"] for e in json.loads(status)["enablements"]}
    assert counts["agent-a"]["forgotten_sessions"] == 1
    assert counts["agent-a"]["claimed_sessions"] == 1
    listed = loopx("session", "list", "--agent-id", "agent-a", "--format", "json").stdout
    assert json.loads(listed)["forgotten"] == 1
    for public in (status, listed, log):
        assert THREAD not in public
    assert transcript.exists()  # the runtime's data is never touched
