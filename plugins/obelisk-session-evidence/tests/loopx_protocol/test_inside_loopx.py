# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Inside the real LoopX (PyPI ``loopx`` 2.1.1), end to end against the protocol double.

One scratch venv holds LoopX and our two distributions (from the ``wheelhouse``); LoopX
installs both of our manifests with its own ``loopx extension install --manifest ...
--execute`` (doctor-verified), a Goal is bootstrapped, ``agent-history-recall`` is bound to
it, then ``loopx capability invoke`` and ``loopx decision-context recall-context`` run our
provider. Two agents work in one repository, each session claimed by its agent. A second
venv holds LoopX alone: it reaches our provider by the absolute path a manifest copy names.
LoopX's usage ping is off (``LOOPX_USAGE_PING=0``); every run has the sample archive as HOME.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import threading
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from loopx_recall_core.testing import generate_archive

from ..conftest import processes_with_home
from ..hostile import codex_transcript, now_iso
from ..obelisk_double.fixtures import double_settings, node22

pytestmark = [pytest.mark.slow, pytest.mark.network]

THREAD_A = "0199a7c3-thread-agent-a"
THREAD_B = "7f00e2d1-thread-agent-b"
CMD_A = "pytest tests/test_alpha_feature.py"
CMD_B = "pytest tests/test_beta_feature.py"
#: Planted in the failing outputs: each reaches its own agent's advisory content only, and
#: nothing of it may reach LoopX's state.
CANARY_A = "CANARY-OUTPUT-AGENT-A-3c9e"
CANARY_B = "CANARY-OUTPUT-AGENT-B-51d0"
NEAR_MISS = "pytest tests/test_alpha_feature.py -k parser"
GOAL = "recall-goal"
CONTEXT_REFS = [{"kind": "todo", "ref": "todo_recall1", "digest": "sha256:" + "0" * 64}]


class World:
    """The sample archive, both venvs and the commands that run in them."""

    def __init__(self, root: Path, both: Path, loopx_only: Path, obelisk: Path) -> None:
        self.root, self.both, self.loopx_only = root, both, loopx_only
        self.home = root / "home"
        self.project = root / "project"
        node = node22()
        self.env = {
            "PATH": f"{both / 'bin'}:{node.parent}:/usr/bin:/bin",
            "HOME": str(self.home),
            "LOOPX_USAGE_PING": "0",
            "LOOPX_RECALL_HOME": str(root / "recall-state"),
            "LOOPX_RECALL_NODE22": str(node),
            "LOOPX_RECALL_OBELISK_BIN": str(obelisk),
            # LoopX keeps its effect runtime's files under TMPDIR: this test's, not /tmp
            "TMPDIR": str(root),
        }

    def run(self, *argv: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> str:
        done = subprocess.run(
            list(argv),
            capture_output=True,
            text=True,
            env=env or self.env,
            cwd=cwd or self.project,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, (argv, done.stdout[-2000:], done.stderr[-2000:])
        assert "Traceback" not in done.stderr
        return done.stdout

    def loopx(self, *args: str, **kwargs) -> dict:
        return json.loads(self.run("loopx", "--format", "json", *args, **kwargs))

    def recall(self, *args: str) -> str:
        return self.run("loopx-recall", *args)

    def invoke(self, operation: str, given: dict, **kwargs) -> dict:
        path = self.root / f"input-{operation}.json"
        path.write_text(json.dumps({"context_refs": CONTEXT_REFS, "input": given}))
        answer = self.loopx(
            "capability", "invoke", "agent-history-recall", "--operation", operation,
            "--goal-id", GOAL, "--input-json", str(path), "--execute", **kwargs,
        )  # fmt: skip
        assert answer["ok"] is True
        assert answer["status"] == answer["provider_result"]["status"]
        return answer["provider_result"]

    def recall_context(self, agent: str, query: str) -> tuple[dict, str]:
        out = self.run(
            "loopx", "--format", "json", "decision-context", "recall-context",
            "--goal-id", GOAL, "--agent-id", "loopx-agent",
            "--profile", str(self.root / "profile.json"),
            "--context-scope-ref", f"loopx-recall:agent/{agent}/project/proj-j",
            "--query", query, "--query-summary", "earlier attempts",
        )  # fmt: skip
        return json.loads(out), out


@pytest.fixture(scope="session")
def loopx_venvs(once_per_run, wheelhouse, loopx_wheel, venvs) -> Path:
    """``venv-both`` (LoopX and our two distributions) and ``venv-loopx`` (LoopX alone),
    made once per run, side by side: the lane's time is pip's."""
    wheels = [str(p) for p in sorted(wheelhouse.glob("loopx_*.whl"))]  # host and plugin
    jobs = {"venv-both": [str(loopx_wheel), *wheels], "venv-loopx": [str(loopx_wheel)]}

    def make(folder: Path) -> None:
        failures: list[BaseException] = []

        def one(name: str) -> None:
            try:
                venvs.pip(venvs.create(folder / name), "install", *jobs[name])
            except BaseException as exc:  # noqa: BLE001 - re-raised in the fixture's thread
                failures.append(exc)

        threads = [threading.Thread(target=one, args=(name,)) for name in jobs]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if failures:
            raise failures[0]

    return once_per_run("inside-loopx-venvs", make)


@pytest.fixture
def world(tmp_path, archive_now, loopx_venvs, obelisk_bin) -> Iterator[World]:
    """Two agents, one repository, each agent's session claimed; both enabled (claimed
    sessions); the generated sample archive around them. No LoopX state yet.

    LoopX starts a background effect runtime (a Node server) that outlives its commands:
    at the end it is stopped, and nothing started with this HOME is left running."""
    world = World(tmp_path, loopx_venvs / "venv-both", loopx_venvs / "venv-loopx", obelisk_bin)
    archive = generate_archive(world.home, now=archive_now)
    world.canaries = [*archive.canaries, CANARY_A, CANARY_B]
    double_settings(world.home)
    shared = world.home / "src" / "shared"
    shared.mkdir(parents=True)
    stamp = now_iso(-timedelta(hours=2))
    for thread, command, canary in ((THREAD_A, CMD_A, CANARY_A), (THREAD_B, CMD_B, CANARY_B)):
        output = f"Exit code: 1\nFAILED {command.split()[-1]} {canary}"
        codex_transcript(world.home, thread, cwd=str(shared), timestamp=stamp, command=command,
                         output=output)  # fmt: skip
    world.project.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=world.project, check=True)
    for agent, thread in (("agent-a", THREAD_A), ("agent-b", THREAD_B)):
        world.recall(
            "capability", "enable", "agent-turn-recall", "--provider", "obelisk-session-evidence",
            "--agent-id", agent, "--project-id", "proj-j", "--history-source", "codex",
            "--repository-root", str(shared), "--repository-id", "repo-shared",
        )  # fmt: skip
        world.recall("session", "claim", "--agent-id", agent, "--project-id", "proj-j",
                     "--runtime", "codex", "--session", thread)  # fmt: skip
    yield world
    for pid in processes_with_home(world.home):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    for pid in processes_with_home(world.home):  # a server that ignored SIGTERM
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _install_and_bind(world: World) -> list[dict]:
    installed = []
    for name in ("history", "decision-context"):
        manifest = world.recall("loopx", "manifest", "--path", name).strip()
        installed.append(world.loopx("extension", "install", "--manifest", manifest, "--execute"))
    world.loopx("bootstrap", "--project", ".", "--goal-id", GOAL, "--objective", "recall")
    bound = world.loopx(
        "capability", "bind", "agent-history-recall", "--goal-id", GOAL,
        "--operation", "history", "--operation", "replan", "--execute",
    )  # fmt: skip
    assert bound["binding"]["operations"] == ["history", "replan"]
    (world.root / "profile.json").write_text(json.dumps(PROFILE))
    return installed


PROFILE = {
    "schema_version": "decision_context_profile_v0",
    "goal_id": GOAL,
    "enabled": True,
    "enabled_agents": ["loopx-agent"],
    "source_provider_bindings": [],
    "sources": [],
    "context_provider": {
        "provider": "extension",
        "namespace": "decision-context",
        "max_results": 4,
        "timeout_seconds": 25,
        "config": {"extension_id": "loopx-recall-decision-context"},
    },
    "automation": {"automatic_capture": False, "fail_open": True, "source_ids": []},
}


def _assert_no_canary_in(world: World, folders: list[Path]) -> None:
    files = [p for folder in folders if folder.exists() for p in folder.rglob("*") if p.is_file()]
    assert len(files) > 5  # LoopX did keep state there
    for path in files:
        data = path.read_bytes()
        for secret in (*world.canaries, THREAD_A, THREAD_B):
            assert secret.encode() not in data, path.name


def test_inside_loopx_end_to_end(world):
    installed = _install_and_bind(world)
    assert [i["extension_id"] for i in installed] == [
        "loopx-recall-history",
        "loopx-recall-decision-context",
    ]
    for one in installed:
        assert one["doctor"]["status"] == "ready"
    listed = {e["id"]: e for e in world.loopx("extension", "list")["extensions"]}
    assert listed["loopx-recall-history"]["doctor_verified"] is True
    assert listed["loopx-recall-decision-context"]["doctor_verified"] is True

    _the_manifests_entry_command_runs(world)
    _repeat_found_near_miss_not(world)
    _other_agents_session_never_appears(world)
    _recall_context_items_and_refusals(world)
    _unenabled_history_is_no_change(world)
    _assert_no_canary_in(world, [world.home / ".loopx", world.project / ".loopx"])
    _the_way_out_turns_ours_off_in_loopx(world)


def _the_manifests_entry_command_runs(world: World) -> None:
    """The history manifest's ``entry_command`` (issue 31 item 7: it named an option
    ``--capability`` that LoopX rejects) runs as written, LoopX's ``<...>`` placeholders
    (the form its own bundled manifests use) filled in."""
    import shlex
    import tomllib

    manifest = Path(world.recall("loopx", "manifest", "--path", "history").strip())
    (provided,) = tomllib.loads(manifest.read_text())["provides"]
    given = world.root / "entry-input.json"
    given.write_text(json.dumps({"context_refs": CONTEXT_REFS, "input": {
        "agent_id": "agent-a", "project_id": "proj-j", "terms": ["pytest"]}}))  # fmt: skip
    filled = {"<goal-id>": GOAL, "<input.json>": str(given)}
    argv = [filled.get(arg, arg) for arg in shlex.split(provided["entry_command"])]
    assert argv[:4] == ["loopx", "capability", "invoke", "agent-history-recall"]
    answer = json.loads(world.run(argv[0], "--format", "json", *argv[1:]))
    assert answer["ok"] is True
    assert answer["provider_result"]["status"] == "succeeded"


def _repeat_found_near_miss_not(world: World) -> None:
    result = world.invoke("replan", {"agent_id": "agent-a", "project_id": "proj-j",
                                     "proposed_command": CMD_A})  # fmt: skip
    assert result["status"] == "succeeded"
    (observation,) = result["observations"]
    assert observation["verdict"] == "repeats_prior_failure"
    assert observation["lookup"]["agent_sessions"] == "claimed"
    assert observation["lookup"]["cross_agent_used"] is False
    assert observation["lookup"]["receipt"]["content_captured"] is False

    near = world.invoke("replan", {"agent_id": "agent-a", "project_id": "proj-j",
                                   "proposed_command": NEAR_MISS})  # fmt: skip
    (observation,) = near["observations"]
    assert observation["admitted"] is True
    assert observation["verdict"] == "similar_to_prior_attempt"


def _other_agents_session_never_appears(world: World) -> None:
    # agent-b proposes agent-a's failed route: agent-a's session is not agent-b's history
    result = world.invoke("replan", {"agent_id": "agent-b", "project_id": "proj-j",
                                     "proposed_command": CMD_A})  # fmt: skip
    (observation,) = result["observations"]
    assert observation["verdict"] == "no_prior_match"
    history = world.invoke("history", {"agent_id": "agent-b", "project_id": "proj-j",
                                       "terms": ["pytest", "test_alpha_feature"]})  # fmt: skip
    (lookup,) = history["observations"]
    stored = json.loads(world.recall("recall", "show", lookup["private_ref"], "--format", "json"))
    assert {item["session_ref"] for item in stored["result"]["items"]} == {f"codex:{THREAD_B}"}

    data, out = world.recall_context("agent-b", "pytest FAILED test_alpha_feature")
    assert (data["ok"], data["status"]) == (True, "completed")
    assert data["results"]
    assert CANARY_B in out
    assert CANARY_A not in out
    assert THREAD_A not in out


def _recall_context_items_and_refusals(world: World) -> None:
    data, out = world.recall_context("agent-a", "pytest FAILED test_alpha_feature")
    assert (data["ok"], data["status"]) == (True, "completed")
    assert 1 <= data["result_count"] <= 4
    assert CANARY_A in out
    for item in data["results"]:
        assert item["content_trust"] == "untrusted_advisory"
        assert item["content_may_instruct"] is False
    assert CANARY_A not in json.dumps(data["retrieval_receipt"])
    for agent, reason in (("agent-c", "not_enabled"), ("a/b", "scope_ref_invalid")):
        data, _ = world.recall_context(agent, "pytest")
        assert (data["status"], data["reason_code"]) == ("unavailable", reason)


def _unenabled_history_is_no_change(world: World) -> None:
    result = world.invoke("history", {"agent_id": "agent-c", "project_id": "proj-j",
                                      "terms": ["pytest"]})  # fmt: skip
    assert result["status"] == "no_change"
    (observation,) = result["observations"]
    assert (observation["recall_status"], observation["reason_code"]) == ("refused", "not_enabled")


def _the_way_out_turns_ours_off_in_loopx(world: World) -> None:
    """``cleanup``'s command for LoopX's record runs as printed and turns both of ours off.
    Before: it named `loopx extension disable loopx-recall-history`, which LoopX 2.1.1 only
    previews (``dry_run: True``, ``changed: False``; seen in a newcomer's pass)."""
    import re
    import shlex

    line = next(x for x in world.recall("cleanup").splitlines() if "LoopX's own file" in x)
    command = re.search(r"`(loopx extension disable [^`]*)`", line).group(1)
    ids = ["loopx-recall-history", *re.search(r"\(and ([^)]*)\)", line).group(1).split(", ")]
    assert ids[0] in command
    for extension_id in ids:
        argv = shlex.split(command.replace(ids[0], extension_id))
        world.run(argv[0], *argv[1:])
    listed = {e["id"]: e["enabled"] for e in world.loopx("extension", "list")["extensions"]}
    assert listed == {"loopx-recall-history": False, "loopx-recall-decision-context": False}


def test_loopx_in_its_own_venv_reaches_the_provider_by_absolute_path(world):
    copy = world.recall("loopx", "manifest", "history", "--into", str(world.root / "copy"),
                        "--path").strip()  # fmt: skip
    runtime_root = world.root / "loopx-own"
    node = Path(world.env["LOOPX_RECALL_NODE22"]).parent
    # LoopX alone on PATH: our provider is reachable only by the copy's absolute path
    env = {**world.env, "PATH": f"{world.loopx_only / 'bin'}:{node}:/usr/bin:/bin"}
    project = world.root / "project-own"
    project.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)

    def own(*args: str) -> dict:
        return world.loopx("--runtime-root", str(runtime_root), *args, env=env, cwd=project)

    installed = own("extension", "install", "--manifest", copy, "--execute")
    assert installed["doctor"]["status"] == "ready"
    own("bootstrap", "--project", ".", "--goal-id", "own-goal", "--objective", "recall")
    own("capability", "bind", "agent-history-recall", "--goal-id", "own-goal",
        "--operation", "history", "--execute")  # fmt: skip
    path = world.root / "own-input.json"
    path.write_text(json.dumps({"context_refs": CONTEXT_REFS, "input": {
        "agent_id": "agent-a", "project_id": "proj-j", "terms": ["test_alpha_feature"]}}))
    answer = own("capability", "invoke", "agent-history-recall", "--operation", "history",
                 "--goal-id", "own-goal", "--input-json", str(path), "--execute")  # fmt: skip
    (observation,) = answer["provider_result"]["observations"]
    assert observation["recall_status"] == "succeeded"
    assert observation["receipt"]["result_count"] >= 1
    _assert_no_canary_in(world, [runtime_root, project / ".loopx"])
