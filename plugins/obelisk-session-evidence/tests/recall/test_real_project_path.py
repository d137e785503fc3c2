# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""README's "On a real project" path, end to end, on a fixture repository
with the Obelisk protocol double: enable (claimed agent sessions, the default), install the
hook into a settings file, list and claim the past sessions, ask about a command that
failed before, and read what happened (``--show-private``, ``recall show``)."""

from __future__ import annotations

import json

from ..conftest import CAPABILITY

IDS = ("--agent-id", "agent-a", "--project-id", "proj-j")


def test_the_real_project_path_ends_with_the_repeated_failure_shown(
    loopx, archive_home, tmp_path
):
    alpha = str(archive_home.repos["alpha"])
    failure = next(
        e for e in archive_home.events
        if e.kind == "prior_failure" and e.visible and e.repo_root == alpha and e.command
    )  # fmt: skip
    enabled = loopx("capability", "enable", *CAPABILITY, "--surface", "replan-history", *IDS,
                    "--history-source", "claude", "--history-source", "codex",
                    "--repository-root", alpha, "--repository-id", "repo-alpha")  # fmt: skip
    assert "enabled" in enabled.stdout.lower(), enabled.stdout
    settings = tmp_path / "settings.json"
    hook = loopx("hook", "install", "claude", *IDS, "--settings", str(settings), "--yes")
    assert "hooks installed in" in hook.stdout
    assert "hook claude --agent-id agent-a" in settings.read_text()

    # Before any claim: an answer that says its coverage is incomplete and how to claim.
    before = loopx("recall", "replan", "--proposed-command", failure.command, *IDS).stdout
    assert "coverage incomplete" in before
    candidates = loopx("session", "candidates", *IDS, "--format", "json")
    listed = json.loads(candidates.stdout)
    assert listed, candidates.stdout
    claimed = loopx("session", "claim", *IDS, "--candidates", "--yes")
    assert claimed.returncode == 0
    after = json.loads(loopx("session", "candidates", *IDS, "--format", "json").stdout)
    assert after != listed

    asked = loopx("recall", "replan", "--proposed-command", failure.command, *IDS,
                  "--show-private").stdout  # fmt: skip
    assert "  comparison: repeats_prior_failure" in asked.splitlines()
    assert "  - same_route_failed [prior_failure] " in asked
    assert failure.command in asked  # the matched item: what failed, and how
    (handle,) = [line.split("`")[1] for line in asked.splitlines() if "stored: `" in line]
    shown = loopx(*handle.split()[1:])
    assert shown.returncode == 0
    assert failure.command in shown.stdout
    status = loopx("capability", "status", *CAPABILITY, "--agent-id", "agent-a",
                   "--show-private").stdout  # fmt: skip
    assert f"    repository_roots: {alpha}" in status.splitlines()
