# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The user's own exclusions, through the installed CLI: ``--exclude-path``
keeps the sessions under an excluded folder out (status counts the exclusions, never shows
them); a session in which the user wrote ``loopx-recall:private`` is left out as a whole,
its failures before the marker too, while the other sessions are answered."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from ..conftest import CAPABILITY
from ..hostile import claude_transcript, codex_transcript, now_iso

pytestmark = pytest.mark.real_obelisk

CANARY = "CANARY-excluded-output-8c1f"
MARKER = "loopx-recall:private"


def _history(loopx):
    out = loopx("recall", "history", "--agent-id", "agent-a", "--project-id", "proj-j",
                "--term", "pytest", "--evidence-type", "prior_failure", "--format", "json",
                "--show-private").stdout  # fmt: skip
    data = json.loads(out)
    assert (data["status"], data["reason"]) == ("succeeded", None), data
    return out, {item["session_ref"] for item in data["items"]}


def _enable(loopx, repo, *options, sources=("codex",), check=True):
    history = [arg for source in sources for arg in ("--history-source", source)]
    return loopx("capability", "enable", *CAPABILITY, "--agent-id", "agent-a", "--project-id",
                 "proj-j", *history, "--repository-root", str(repo), "--repository-id",
                 "repo-x", "--agent-sessions", "runtime", *options, check=check)  # fmt: skip


def test_an_excluded_folder_keeps_its_sessions_out(loopx, archive_home):
    home = archive_home.home
    repo = home / "src" / "exclude [repo]"
    (repo / "vendor" / "lib").mkdir(parents=True)
    (repo / "vendored").mkdir()
    stamp = now_iso(-timedelta(hours=2))
    failed = f"Exit code: 1\n{CANARY}"
    codex_transcript(home, "thread-vendor-lib", cwd=str(repo / "vendor" / "lib"),
                     timestamp=stamp, output=failed)  # fmt: skip
    codex_transcript(home, "thread-control", cwd=str(repo), timestamp=stamp)
    codex_transcript(home, "thread-vendored", cwd=str(repo / "vendored"), timestamp=stamp)

    refused = _enable(loopx, repo, "--exclude-path", "../secret-folder", check=False)
    assert refused.returncode != 0
    assert "--exclude-path" in refused.stdout + refused.stderr
    assert "secret-folder" not in refused.stdout + refused.stderr
    assert len((refused.stdout + refused.stderr).strip().splitlines()) == 1

    _enable(loopx, repo)  # before: every session of the repository is answered
    assert _history(loopx)[1] == {
        "codex:thread-vendor-lib", "codex:thread-control", "codex:thread-vendored"
    }  # fmt: skip
    # Exclusions change the scope: not without confirmation (not a terminal: --yes).
    unconfirmed = _enable(loopx, repo, "--exclude-path", "vendor/**", check=False)
    assert unconfirmed.returncode == 1
    said = unconfirmed.stdout + unconfirmed.stderr
    assert "binding.exclude_paths" in said
    assert "vendor" not in said
    assert len(_history(loopx)[1]) == 3  # nothing stored
    _enable(loopx, repo, "--exclude-path", "vendor/**", "--yes")
    out, refs = _history(loopx)
    assert refs == {"codex:thread-control", "codex:thread-vendored"}
    assert CANARY not in out

    status = loopx("capability", "status", *CAPABILITY, "--format", "json").stdout
    (enablement,) = json.loads(status)["enablements"]
    assert enablement["binding"]["exclude_path_count"] == 1
    assert "vendor" not in status
    private = loopx("capability", "status", *CAPABILITY, "--format", "json",
                    "--show-private").stdout  # fmt: skip
    (shown,) = json.loads(private)["enablements"]
    assert f"{str(repo).replace('[', '[[]')}/vendor/**" in shown["private"]["exclude_paths"]


def test_a_session_marked_private_by_its_user_is_left_out_whole(loopx, archive_home):
    home = archive_home.home
    repo = home / "src" / "marker-repo"
    repo.mkdir(parents=True)
    stamp = now_iso(-timedelta(hours=2))
    failed = f"Exit code: 1\n{CANARY}"
    # The failure comes first; the user marks the session private afterwards.
    codex_transcript(home, "thread-marked", cwd=str(repo), timestamp=stamp, output=failed,
                     later=(f"keep this one to yourself {MARKER} thanks",))  # fmt: skip
    claude_transcript(home, "claude-marked", cwd=str(repo), timestamp=stamp,
                      output=f"Exit code 1\n{CANARY}", later=(MARKER,))  # fmt: skip
    codex_transcript(home, "thread-kept", cwd=str(repo), timestamp=stamp, call_id="call_2",
                     later=("no marker here",))  # fmt: skip
    # Case-sensitive and exact: another spelling marks nothing.
    claude_transcript(home, "claude-upper", cwd=str(repo), timestamp=stamp,
                      later=(MARKER.upper(),))  # fmt: skip
    _enable(loopx, repo, sources=("codex", "claude"))
    out, refs = _history(loopx)
    assert refs == {"codex:thread-kept", "claude-upper"}
    assert CANARY not in out
