# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The adapter against the Obelisk protocol double, through the real ``loopx`` CLI."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from ..conftest import FAULT_REASONS, LOOPX, processes_with_home
from ..obelisk_double.fixtures import OBELISK_WRAPPER, double_settings

BASE = ["agent-turn-recall", "--provider", "obelisk-session-evidence"]
HISTORY = ["recall", "history", "--agent-id", "agent-a", "--project-id", "proj-j"]


@pytest.fixture
def journey(loopx, enable_alpha, archive_home):
    enable_alpha("codex")
    return loopx, archive_home


def test_status_history_and_scope(journey):
    loopx, archive = journey
    status = json.loads(
        loopx("capability", "status", *BASE, "--project-id", "proj-j", "--format", "json").stdout
    )
    assert status["provider"]["ready"] is True, status
    assert status["runtime"]["runtime_version"]
    assert status["runtime"]["template_version"].startswith("obelisk-session-evidence-template/")
    assert status["runtime"]["freshness"] == "fresh"
    alpha = str(archive.repos["alpha"])
    failures = [
        e
        for e in archive.events
        if e.kind == "prior_failure"
        and e.runtime == "codex"
        and e.repo_root == alpha
        and e.visible
        and e.command
    ]
    assert failures
    term = failures[0].command.split()[-1]
    out = loopx(
        "recall",
        "history",
        "--agent-id",
        "agent-a",
        "--project-id",
        "proj-j",
        "--term",
        term,
        "--evidence-type",
        "prior_failure",
        "--format",
        "json",
        "--show-private",
    )
    data = json.loads(out.stdout)
    assert data["status"] == "succeeded", data
    assert data["receipt"]["result_count"] >= 1
    for item in data["items"]:
        assert item["session_ref"].startswith("codex:")
    public = loopx(
        "recall",
        "history",
        "--agent-id",
        "agent-a",
        "--project-id",
        "proj-j",
        "--term",
        term,
        "--format",
        "json",
    ).stdout
    for canary in archive.canaries:
        assert canary not in public
    assert alpha not in public


@pytest.mark.parametrize(
    ("fault", "reason"),
    FAULT_REASONS,
)
def test_fault_matrix(journey, leftovers, fault, reason):
    loopx, archive = journey
    double_settings(archive.home, fault=fault)  # the double's switch lives under its HOME
    # a term some in-scope row holds (the injection copies a returned row): the program of
    # an alpha Codex failure (the seeded archive decides which programs those are)
    alpha = str(archive.repos["alpha"])
    term = next(e.command.split()[0] for e in archive.events if e.kind == "prior_failure"
                and e.runtime == "codex" and e.repo_root == alpha and e.command)  # fmt: skip
    started = time.monotonic()
    out = loopx(
        "recall",
        "history",
        "--agent-id",
        "agent-a",
        "--project-id",
        "proj-j",
        "--term",
        term,
        "--timeout",
        "3",
        "--format",
        "json",
    )
    # The double's hang never ends: returning at all (well within a minute) proves the deadline.
    assert time.monotonic() - started < 3 + 45
    data = json.loads(out.stdout)
    assert (data["status"], data["reason"]) == ("failed", reason)
    for canary in ("CANARY-OBELISK-STDERR-7f3a", "CANARY-OBELISK-STDOUT-91c2", *archive.canaries):
        assert canary not in out.stdout + out.stderr
    assert leftovers() == []


def test_missing_binary_is_typed(journey):
    loopx, _ = journey
    out = loopx(
        "recall",
        "history",
        "--agent-id",
        "agent-a",
        "--project-id",
        "proj-j",
        "--term",
        "pytest",
        "--format",
        "json",
        extra_env={"LOOPX_RECALL_OBELISK_BIN": "/nonexistent/obelisk"},
    )
    data = json.loads(out.stdout)
    assert (data["status"], data["reason"]) == ("failed", "provider_unavailable")


def test_current_session_is_excluded_from_the_cli(journey):
    loopx, archive = journey
    alpha = str(archive.repos["alpha"])
    codex = sorted(
        {e.session_id for e in archive.events if e.runtime == "codex" and e.repo_root == alpha}
    )
    args = [
        "recall",
        "history",
        "--agent-id",
        "agent-a",
        "--project-id",
        "proj-j",
        "--term",
        "e",
        "--format",
        "json",
        "--show-private",
    ]
    before = json.loads(loopx(*args).stdout)
    assert {i["session_ref"] for i in before["items"]} & set(codex)
    excluded = [a for s in codex for a in ("--current-session", s)]
    after = json.loads(loopx(*args, *excluded).stdout)
    assert not {i["session_ref"] for i in after["items"]} & set(codex)


def _command_lines_with(needle: bytes) -> list[str]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if needle in (entry / "cmdline").read_bytes():
                found.append(entry.name)
        except OSError:
            continue
    return found


@pytest.mark.parametrize("form", ["history", "replan"])
def test_terms_from_stdin_stay_off_every_command_line(journey, archive_home, form):
    # Other local users read every process's argv (ps): --terms-file - and
    # --proposed-command-file - keep the query out of ours, and the provider's query
    # file keeps it out of the runtime's. Checked while the runtime is running (the
    # double's `hang` fault keeps it there until the deadline).
    loopx, archive = journey
    term = "CANARY-TERM-IN-ARGV-4b1d"
    double_settings(archive.home, fault="hang")
    env = {"PATH": os.environ["PATH"], "HOME": str(archive.home),
           "LOOPX_RECALL_OBELISK_BIN": str(OBELISK_WRAPPER),
           "LOOPX_RECALL_NODE22": os.environ["LOOPX_RECALL_NODE22"],
           "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence"}  # fmt: skip
    state = json.loads(loopx("state", "path", "--format", "json").stdout)
    env["LOOPX_RECALL_HOME"] = state["state_folder"]
    if form == "history":
        args, text = [*HISTORY, "--terms-file", "-"], f"pytest\n{term}\n"
    else:
        args = ["recall", "replan", "--agent-id", "agent-a", "--project-id", "proj-j",
                "--proposed-command-file", "-"]  # fmt: skip
        text = f"pytest tests/{term}.py\n"
    process = subprocess.Popen([LOOPX, *args, "--timeout", "5", "--format", "json"], env=env,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)  # fmt: skip
    process.stdin.write(text.encode())
    process.stdin.close()
    process.stdin = None  # closed: communicate() must not flush it
    seen_runtime = False
    while process.poll() is None:  # until the deadline ends the hanging runtime
        assert _command_lines_with(term.encode()) == []
        seen_runtime = seen_runtime or bool(processes_with_home(archive.home))
    out, err = process.communicate()
    assert seen_runtime  # the runtime did run while we looked
    data = json.loads(out)
    recall = data if form == "history" else data["recall"]
    assert (recall["status"], recall["reason"]) == ("failed", "provider_timeout"), err
