# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Measured: 300 synthetic secrets of 66 kinds (vendor formats and the forms found
leaking) and issue 40's 276 command-line and credential-file forms
(``tests/core/secrets_corpus.py``), planted in Codex transcripts (tool commands and
outputs) and in a hook payload, go through the installed CLI, the plugin and the Obelisk
double, in four parts (one result holds at most 32,000 characters). Not one 8-character
piece of any of them reaches `recall history --show-private` (text and JSON), `recall
show`, `recall replan --show-private`, both LoopX protocols, stderr, the hook log or any
file under the state root, while each secret's line does come through, redacted."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from loopx_recall_core.testing import secret_canaries, vendor_canaries

from ..conftest import CAPABILITY, LOOPX
from ..hostile import codex_transcript, now_iso

ALL = secret_canaries() + vendor_canaries()


def _corpus() -> list:
    """The corpus of command-line and credential-file secrets (issue 40; the repository's
    ``tests/core/secrets_corpus.py``, read by path: this plugin's ``tests`` is another
    package), each form as a canary."""
    path = Path(__file__).resolve().parents[4] / "tests" / "core" / "secrets_corpus.py"
    spec = importlib.util.spec_from_file_location("loopx_secrets_corpus", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return list(module.FORMS)


CORPUS = _corpus()
HALVES = {
    "first": ALL[: len(ALL) // 2],
    "second": ALL[len(ALL) // 2 :],
    "corpus-1": CORPUS[: len(CORPUS) // 2],
    "corpus-2": CORPUS[len(CORPUS) // 2 :],
}
GROUP = 6
LIMITS = ["--max-sessions", "50", "--max-items", "64", "--max-snippet-chars", "2000",
          "--max-total-chars", "32000"]  # fmt: skip
AGENT = ["--agent-id", "agent-a", "--project-id", "proj-j"]


# The two LoopX protocols' requests, as LoopX 2.1.1 builds them (the same shapes as
# tests/loopx_protocol/test_loopx_extension.py: capability_admission.py,
# decision_context/extension_provider.py)
DECISION = {
    "schema_version": "decision_context_advisory_retrieve_request_v0", "operation": "retrieve",
    "namespace": "decision-context", "scope_ref": "loopx-recall:agent/agent-a/project/proj-j",
    "query": "deploy staging", "query_summary": "earlier attempts", "max_results": 8,
    "timeout_seconds": 30.0, "observed_at": "2026-11-30T10:00:00+00:00",
}  # fmt: skip
HISTORY = {
    "schema_version": "loopx_recall_history_request_v0",
    "invocation_id": "capability-0123456789abcdef01234567",
    "capability_id": "agent-history-recall", "operation": "history",
    "goal": {"goal_id": "recall-goal", "capability_binding_digest": "sha256:" + "0" * 64},
    "provider": {"extension_id": "loopx-recall-history", "revision": "sha256:" + "1" * 64,
                 "profile_digest": "sha256:" + "2" * 64},
    "context_refs": [{"kind": "todo", "ref": "todo_abcdef", "digest": "sha256:" + "3" * 64}],
    "input": {"agent_id": "agent-a", "project_id": "proj-j", "terms": ["deploy"]},
}  # fmt: skip


def _leaks(text: str) -> list[str]:
    return sorted({c.kind for c in ALL + CORPUS if c.leaked(text)})


@pytest.fixture(params=list(HALVES))
def world(request, loopx, archive_home, tmp_path, obelisk_bin):
    CANARIES = HALVES[request.param]
    home = archive_home.home
    repo = home / "src" / "service"
    repo.mkdir(parents=True)
    stamp = now_iso(-timedelta(hours=2))
    groups = [CANARIES[i : i + GROUP] for i in range(0, len(CANARIES), GROUP)]
    for n, group in enumerate(groups):
        inline = next(c for c in group if "\n" not in c.text)  # one in the command itself
        codex_transcript(home, f"thread-redact-{n}", cwd=str(repo), timestamp=stamp,
                         call_id=f"call_{n}", command=f"./deploy.sh --env staging; {inline.text}",
                         output="Exit code: 1\n" + "\n".join(c.text for c in group))  # fmt: skip
    loopx("capability", "enable", *CAPABILITY, *AGENT, "--history-source", "codex",
          "--repository-root", str(repo), "--repository-id", "repo-r", "--agent-sessions",
          "runtime", *LIMITS)  # fmt: skip
    state = tmp_path / "loopx"
    # a runtime's hook payload holding secrets: the hook keeps an outcome code, nothing else
    notify = {"type": "agent-turn-complete", "thread-id": "thread-redact-0", "turn-id": "t1",
              "cwd": str(repo), "input-messages": [CANARIES[0].text],
              "last-assistant-message": CANARIES[1].text}  # fmt: skip
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "LOOPX_RECALL_HOME": str(state),
           "LOOPX_RECALL_AGENT_ID": "agent-a", "LOOPX_RECALL_PROJECT_ID": "proj-j"}  # fmt: skip
    done = subprocess.run([LOOPX, "hook", "codex", json.dumps(notify)], env=env,
                          capture_output=True, timeout=60, check=False)  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    return loopx, state, len(groups), CANARIES, home, obelisk_bin


def test_no_canary_reaches_any_output_store_or_log(world):
    loopx, state, sessions, CANARIES, home, obelisk_bin = world
    history = [*AGENT, "--term", "deploy", "--evidence-type", "prior_failure", *LIMITS]
    runs = [loopx("recall", "history", *history, "--show-private", "--format", "json")]
    data = json.loads(runs[0].stdout)
    assert data["status"] == "succeeded", data
    assert len(data["items"]) == sessions  # every planted session came back
    redacted = runs[0].stdout
    # every canary's line came through: one marker per canary, at least
    assert len(re.findall(r"\[redacted:[a-z_]+\]", redacted)) >= len(CANARIES)
    runs.append(loopx("recall", "history", *history, "--show-private"))
    for fmt in ("json", "text"):
        runs.append(loopx("recall", "show", data["private_ref"], "--format", fmt))
        runs.append(loopx("recall", "replan", "--proposed-command", "./deploy.sh --env staging",
                          *AGENT, "--show-private", "--format", fmt))  # fmt: skip
    # both LoopX provider protocols answer from the same redacted results
    provider = str(Path(LOOPX).parent / "loopx-recall-loopx-provider")
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "LOOPX_RECALL_HOME": str(state),
           "LOOPX_RECALL_NODE22": os.environ["LOOPX_RECALL_NODE22"],
           "LOOPX_RECALL_OBELISK_BIN": str(obelisk_bin),
           "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence"}  # fmt: skip
    asks = [("decision-context", DECISION), ("capability", HISTORY)]
    answers = []
    for protocol, request in asks:
        done = subprocess.run([provider, protocol], input=json.dumps(request), env=env,
                              capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
        answers.append(done)
        runs.append(done)
    assert json.loads(answers[0].stdout)["items"], answers[0].stdout[:300]
    assert "[redacted:" in answers[0].stdout
    # recall show prints the stored, redacted items
    assert all("[redacted:" in run.stdout for run in (runs[2], runs[4]))
    for run in runs:
        assert _leaks(run.stdout + run.stderr) == []
    files = [p for p in state.rglob("*") if p.is_file()]
    assert any(p.name == "hooks.log" for p in files)
    # 2 history, 2 replan, 1 each from the LoopX protocols
    assert len([p for p in files if p.parent.parent.name == "results"]) == 6
    stored = {str(p.relative_to(state)): p.read_bytes().decode(errors="replace") for p in files}
    assert {name: _leaks(text) for name, text in stored.items() if _leaks(text)} == {}


def test_a_text_item_is_redacted_before_its_cut():
    """A decision or summary cut at its cap keeps no piece of a secret."""
    from loopx_obelisk_session_evidence.evidence import snippet_for

    token = "ghp_kT9vQ2mXw4Lp7RzB1nC8yH3dF6gJ0sA5eU2i"
    text = "y" * 780 + f" token {token} rotated"
    snippet = snippet_for("decision", {"text": text}, 800)
    assert len(snippet) <= 800
    assert not any(token[i : i + 8] in snippet for i in range(len(token) - 7))
