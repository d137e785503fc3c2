# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The guard from an environment whose PATH has neither Obelisk nor its Node (issue 39
item 3), end to end on the double through the installed CLI.

Obelisk as a user installs it: a launcher on the user's PATH whose first line is
``#!/usr/bin/env node`` (npm's ``bin`` scripts), with Node 22 beside it; this machine's
``/usr/bin/node`` is older (20: no ``node:sqlite``, which the double needs as Obelisk
does). ``capability enable`` runs from that shell without ``--obelisk-bin``; the runtime
then starts from an IDE or a desktop launcher with ``PATH=/usr/bin:/bin``.

Before: the hooks found no ``obelisk`` (or the old Node), the sets said ``refused:
trigger_not_admitted_at_stage`` and the guard stayed silent, with nothing saying why. Now
``capability enable`` pins the absolute executable and the folder of the Node its launcher
resolves to, and every command uses them whatever its PATH."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import attrs

from loopx_recall_core.testing import QualificationVerdict, StateStore

from ..conftest import CAPABILITY, LOOPX
from ..obelisk_double.fixtures import OBELISK_WRAPPER, double_settings, node22
from .test_guard_end_to_end import PRIOR_A, REPEATED, _claude_transcript

IDE_PATH = "/usr/bin:/bin"


def _user_bin(folder: Path) -> Path:
    """The user's bin folder: Node 22 and an npm-style ``obelisk`` launcher."""
    folder.mkdir()
    (folder / "node").symlink_to(node22())
    launcher = folder / "obelisk"
    script = OBELISK_WRAPPER.parent / "obelisk.mjs"
    launcher.write_text(f"#!/usr/bin/env node\nimport({json.dumps(str(script))});\n")
    launcher.chmod(0o755)
    return launcher


def test_the_guard_warns_from_an_ide_environment_without_obelisk_or_node_on_path(
    archive_home, tmp_path, monkeypatch
):
    home = archive_home.home
    double_settings(home)
    repo = home / "src" / "CANARY-ide-repo"
    repo.mkdir(parents=True)
    _claude_transcript(home, PRIOR_A, str(repo), REPEATED, failed=True)
    launcher = _user_bin(tmp_path / "user-bin")
    state = tmp_path / "loopx"
    base = {"HOME": str(home), "LOOPX_RECALL_HOME": str(state),
            "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence",
            "LOOPX_RECALL_AGENT_ID": "agent-a", "LOOPX_RECALL_PROJECT_ID": "proj-j"}  # fmt: skip
    shell = {**base, "PATH": f"{launcher.parent}:{IDE_PATH}"}  # the user's shell
    ide = {**base, "PATH": IDE_PATH}  # env -i PATH=/usr/bin:/bin, as an IDE starts it

    def run(env, *args, payload=None):
        done = subprocess.run([LOOPX, *args], env=env, capture_output=True, timeout=120,
                              check=False, input=json.dumps(payload).encode() if payload
                              else None)  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        assert b"Traceback" not in done.stderr
        return done

    # a passing Stage 0 verdict on this launcher, as `recall qualify` records it
    from loopx_obelisk_session_evidence import PROVIDER_ID, __version__
    from loopx_obelisk_session_evidence.qualification import identity_of

    monkeypatch.setenv("PATH", shell["PATH"])
    monkeypatch.setenv("LOOPX_RECALL_HOME", str(state))
    monkeypatch.delenv("LOOPX_RECALL_OBELISK_BIN", raising=False)
    identity = identity_of(str(launcher), 60)
    with StateStore(state).update() as box:
        verdict = QualificationVerdict(
            provider_id=PROVIDER_ID, provider_version=__version__, passed=True,
            report_digest="sha256:" + "0" * 64, recorded_at="2026-12-01T00:00:00Z",
            runtime_version=identity.runtime_version, binary_digest=identity.binary_digest,
        )  # fmt: skip
        box[0] = attrs.evolve(box[0], qualifications=(verdict,))

    run(shell, "capability", "enable", *CAPABILITY, "--agent-id", "agent-a", "--project-id",
        "proj-j", "--history-source", "claude", "--repository-root", str(repo),
        "--repository-id", "repo-g", "--stage", "2")  # fmt: skip
    private = StateStore(state).read().enablements[0].binding["private"]
    assert private["obelisk_bin"] == str(launcher)  # pinned as found
    assert private["node_dir"] == str(launcher.parent)
    run(shell, "session", "claim", "--agent-id", "agent-a", "--project-id", "proj-j",
        "--runtime", "claude", "--session", PRIOR_A, "--force")  # fmt: skip
    run(shell, "hook", "install", "claude", "--agent-id", "agent-a", "--project-id", "proj-j",
        "--guard", "--yes")  # fmt: skip

    # status, from the IDE's environment: both pinned, ready
    status = json.loads(run(ide, "capability", "status", *CAPABILITY, "--agent-id", "agent-a",
                            "--project-id", "proj-j", "--format", "json").stdout)  # fmt: skip
    assert status["runtime"]["executable_pinned"] is True
    assert status["runtime"]["node_pinned"] is True
    assert status["provider"]["ready"] is True, status["provider"]["unavailable_reason"]

    # the runtime, started from the IDE: the session starts, then its first shell call
    start = {"session_id": "S-ide", "transcript_path": f"{home}/.claude/x/S-ide.jsonl",
             "cwd": str(repo), "hook_event_name": "SessionStart", "source": "startup"}
    run(ide, "hook", "claude", payload=start)
    call = {"session_id": "S-ide", "transcript_path": None, "cwd": str(repo),
            "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": REPEATED}, "tool_use_id": "toolu_ide"}  # fmt: skip
    answer = json.loads(run(ide, "guard", "claude", payload=call).stdout)
    assert "AssertionError: 500" in answer["hookSpecificOutput"]["additionalContext"]


def test_status_says_when_the_pinned_node_or_executable_is_gone(tmp_path, monkeypatch):
    from loopx_obelisk_session_evidence.provider import (
        NODE_GONE,
        PINNED_GONE,
        ObeliskSessionEvidence,
    )

    launcher = _user_bin(tmp_path / "user-bin")
    monkeypatch.setenv("LOOPX_RECALL_HOME", str(tmp_path / "loopx"))
    binding = {"private": {"obelisk_bin": str(launcher), "node_dir": str(tmp_path / "gone")}}
    readback = ObeliskSessionEvidence().readback(binding)
    assert (readback.ready, readback.unavailable_reason) == (False, NODE_GONE)
    assert readback.runtime["node_pinned"] is True
    launcher.unlink()
    readback = ObeliskSessionEvidence().readback(binding)
    assert (readback.ready, readback.unavailable_reason) == (False, PINNED_GONE)
    assert "capability enable" in PINNED_GONE
