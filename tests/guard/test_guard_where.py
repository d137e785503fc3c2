# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A user-scope hook runs in every repository: the guard answers, and the SessionStart
hook claims and prefetches, only when the payload's ``cwd`` (symlinks resolved) is the
enablement's repository or a folder below it. Elsewhere: silent, exit 0, one content-free
line in the hook log, nothing recorded, no prefetch started."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta

import pytest

from loopx_recall_core.guard import repository_scope, store
from loopx_recall_core.guard.stats import guard_stats
from loopx_recall_core.recall.sessions.ledger import SessionLedger
from loopx_recall_core.session_hook import read_log, run_hook
from tests.guard import helpers
from tests.state_builders import enablement, seed

FAILED = "Bash: pytest tests/test_api.py\noutcome: failed (exit 1)\nE   AssertionError: 500"
AT = (datetime.now(UTC) - timedelta(hours=2)).isoformat()


@pytest.fixture
def repo(tmp_path):
    """A real repository folder, a link to it, and a sibling whose name extends it."""
    top = tmp_path / "work" / "alpha"
    (top / "src" / "deep").mkdir(parents=True)
    (tmp_path / "work" / "alpha-other").mkdir()
    (tmp_path / "link").symlink_to(top)
    return top


def _guarded(home, roots, policy="warn", folder=None):
    """``folder``: where the prior failure ran (the folder is part of the route)."""
    binding = {"private": {"repository_roots": roots, "resolved_roots": roots}} if roots else {}
    seed(enablement("fake-provider", stage=2, guard=policy, binding=binding))
    failed = FAILED.replace("Bash: ", f"Bash: cd {folder} && ") if folder else FAILED
    helpers.write(home, [helpers.item("prior_failure", failed, at=AT)])
    return home


def _propose(home, cwd):
    payload = {**helpers.pre_tool_use("pytest tests/test_api.py"), "cwd": str(cwd)}
    done = helpers.run_guard(home, "claude", payload)
    assert (done.returncode, done.stderr) == (0, b"")
    return json.loads(done.stdout) if done.stdout else None


@pytest.mark.parametrize("where_from", ["top", "subfolder", "through_a_link"])
def test_inside_the_repository_the_repeat_is_warned(loopx_home, repo, where_from):
    folder = {"top": None, "subfolder": "src/deep", "through_a_link": "src"}[where_from]
    home = _guarded(loopx_home, [str(repo)], folder=folder)
    cwd = {"top": repo, "subfolder": repo / "src" / "deep",
           "through_a_link": repo.parent.parent / "link" / "src"}[where_from]  # fmt: skip
    answer = _propose(home, cwd)
    assert "pytest tests/test_api.py" in answer["hookSpecificOutput"]["additionalContext"]


def test_a_root_given_through_a_link_holds_its_real_folder(loopx_home, repo):
    home = _guarded(loopx_home, [str(repo.parent.parent / "link")], folder="src")
    assert _propose(home, repo / "src") is not None


@pytest.mark.parametrize("elsewhere", ["sibling_with_the_same_prefix", "parent", "other"])
def test_outside_the_repository_the_guard_is_silent_and_logs_why(loopx_home, repo, elsewhere):
    home = _guarded(loopx_home, [str(repo)])
    cwd = {"sibling_with_the_same_prefix": repo.parent / "alpha-other",
           "parent": repo.parent, "other": "/"}[elsewhere]  # fmt: skip
    assert _propose(home, cwd) is None
    assert read_log(home)[-1].endswith(" guard claude: outside_repository")
    assert guard_stats(home, "proj-j")["guarded_calls"] == 0  # nothing recorded
    assert not store.set_path(home, "claude", "S-unknown").with_suffix(".pending").exists()
    # no prefetch either, for a session without a set
    payload = {**helpers.pre_tool_use("ls", session="S-unknown"), "cwd": str(cwd)}
    assert helpers.run_guard(home, "claude", payload).stdout == b""
    assert not store.set_path(home, "claude", "S-unknown").with_suffix(".pending").exists()
    log = "\n".join(read_log(home))
    for private in (str(repo), "S-current", "pytest"):
        assert private not in log


@pytest.mark.parametrize(
    ("roots", "cwd", "code"),
    [([], "/tmp", "no_repository_root"), (["/x"], None, "no_cwd"), (["/x"], "rel", "no_cwd")],
)
def test_without_a_root_or_a_cwd_the_guard_is_silent(loopx_home, roots, cwd, code):
    home = _guarded(loopx_home, roots)
    payload = helpers.pre_tool_use("pytest tests/test_api.py")
    payload.pop("cwd")
    if cwd is not None:
        payload["cwd"] = cwd
    done = helpers.run_guard(home, "claude", payload)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert read_log(home)[-1].endswith(f" guard claude: {code}")


def test_session_start_outside_the_repository_claims_nothing(loopx_home, repo):
    seed(enablement("fake-provider", stage=2, guard="warn",
                    binding={"private": {"repository_roots": [str(repo)]}}))  # fmt: skip
    payload = {"session_id": "S-elsewhere", "transcript_path": "/x.jsonl", "cwd": "/",
               "hook_event_name": "SessionStart", "source": "startup"}  # fmt: skip
    outcome = run_hook("claude", agent_id="agent-a", project_id="proj-j",
                       stdin=json.dumps(payload).encode(), root=loopx_home)  # fmt: skip
    assert outcome == "outside_repository"
    assert read_log(loopx_home)[-1].endswith("hook claude: outside_repository")
    assert SessionLedger(loopx_home).claims(agent_id="agent-a", project_id="proj-j") == []
    assert not store.set_path(loopx_home, "claude", "S-elsewhere").with_suffix(".pending").exists()
    inside = {**payload, "session_id": "S-here", "cwd": str(repo / "src")}
    outcome = run_hook("claude", agent_id="agent-a", project_id="proj-j",
                       stdin=json.dumps(inside).encode(), root=loopx_home)  # fmt: skip
    assert outcome == "claimed"


def test_where_needs_no_git_and_reads_only_the_binding(tmp_path):
    link = tmp_path / "l"
    link.symlink_to(tmp_path)
    bound = {"private": {"repository_roots": [str(tmp_path)]}}
    assert repository_scope.verdict(str(link / "a"), bound) is None
    assert repository_scope.verdict(os.sep, bound) == "outside_repository"
    relative = {"private": {"repository_roots": ["relative"]}}
    assert repository_scope.verdict(str(tmp_path), relative) == "no_repository_root"
