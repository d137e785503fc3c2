# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall recall qualify`` end to end against the Obelisk double (its exits without a
provider run are in the host's tests/qualification/test_cli_exits.py)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from loopx_recall_core.testing import (
    GUARDED_FAMILIES,
    HOT_PATH_RUNS,
    StateStore,
    build_corpus,
    cli,
    guard_kind_of,
    planted_canaries,
    total_steps,
)

from ..obelisk_double.fixtures import a_users_double, version_of

CASES, SEED = 30, 7
FILES = ("report.json", "report.md", "report.svg")
LOOPX = str(Path(sys.executable).parent / "loopx-recall")


def qualify_process(args: list[str], env: dict[str, str]) -> SimpleNamespace:
    """``loopx-recall ARGS`` as its own process, as a user runs it: the run shares no state
    with whatever this test worker ran before (a worker's earlier in-process runs once left
    it unable to load the plugin, order-dependent and seen once in a full run)."""
    done = subprocess.run(
        [sys.executable, "-m", "loopx_recall_core", *args],
        env={**os.environ, **env}, capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    return SimpleNamespace(exit_code=done.returncode, stdout=done.stdout, stderr=done.stderr,
                           output=done.stdout + done.stderr)  # fmt: skip


@pytest.fixture(scope="session")
def qualified(obelisk_bin, once_per_run):
    """One qualification run (about 15 s of CPU) shared by the tests below, once per test
    run even when they land on different xdist workers: the result's exit code and
    output are kept beside the report and the LOOPX_RECALL_HOME it wrote."""

    def qualify(shared: Path) -> None:
        home, folder = shared / "loopx-home", shared / "out" / "report"
        home.mkdir()
        env = {
            "LOOPX_RECALL_HOME": str(home),
            "LOOPX_RECALL_OBELISK_BIN": str(obelisk_bin),
            "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence",
        }
        args = ["recall", "qualify", "--cases", str(CASES), "--seed", str(SEED)]
        result = qualify_process([*args, "--report", str(folder)], env)
        kept = {key: getattr(result, key) for key in ("exit_code", "output", "stdout", "stderr")}
        (shared / "result.json").write_text(json.dumps(kept), encoding="utf-8")

    shared = once_per_run("qualified", qualify)
    result = SimpleNamespace(**json.loads((shared / "result.json").read_text(encoding="utf-8")))
    return result, shared / "out" / "report", shared / "loopx-home"


def test_qualify_writes_the_report_and_records_the_pass(qualified):
    result, folder, home = qualified
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert "verdict for obelisk-session-evidence" in result.stdout
    assert "PASS" in result.stdout
    # Without a terminal, progress is plain lines on stderr: a start line, then one per
    # tenth of the run with steps done / total and the time elapsed.
    total = total_steps(CASES)
    progress = [line for line in result.stderr.splitlines() if line.startswith("qualifying")]
    assert progress[0] == f"qualifying: 0/{total} ({CASES} cases + {total - CASES} fault probes)"
    assert len(progress) == 11
    assert re.fullmatch(rf"qualifying: {total}/{total} done, \d+ s elapsed", progress[-1])
    for name in FILES:
        assert (folder / name).stat().st_size > 0
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    assert report["verdict"] == {"passed": True, "failed_gates": []}
    assert report["corpus"]["seed"] == SEED
    assert report["corpus"]["digest"] == build_corpus(seed=SEED, cases=CASES).digest
    provider = report["provider"]
    assert provider["runtime"]["template_version"].startswith("obelisk-session-evidence")
    arms = report["arms"]
    assert arms["b"]["provider_calls_per_case"] == 1.0
    assert arms["a"]["provider_calls_per_case"] == 0.0
    assert arms["b"]["scope"] == {"bait_rows": 0, "out_of_scope_rows": 0}
    assert arms["b"]["context"]["chars_max"] <= report["settings"]["limits"]["max_total_chars"]
    assert arms["c"]["context"]["chars_p50"] > arms["b"]["context"]["chars_p95"]
    assert {p["name"] for p in report["faults"] if p["gated"] and p["passed"]} >= {
        "garbage",
        "undefined",
        "inject",
        "unknown_request_field",
        "unknown_enable_option",
    }
    _assert_the_guard_families_ran(report, result.stdout)
    verdict = (
        StateStore(home).read().qualification(provider["provider_id"], provider["provider_version"])
    )
    assert verdict is not None
    assert verdict.passed is True
    assert verdict.report_digest == report["report_digest"]


def _assert_the_guard_families_ran(report: dict, stdout: str) -> None:
    """The repeat, near-miss, prior-success and bait steps through the
    guard's PreToolUse path against a set the double really answered."""
    corpus = build_corpus(seed=SEED, cases=CASES)
    guarded = [c for c in corpus.cases if c.family in GUARDED_FAMILIES]
    shards = {f.key for f in corpus.families if f.name in GUARDED_FAMILIES}
    guard = report["guard"]
    # one prefetch request per shard's scope, each answered
    assert guard["sets"]["requests"] == len(shards)
    assert guard["sets"]["statuses"] == {"succeeded": len(shards)}
    # the whole window in pages: more than one request's limits hold
    assert guard["sets"]["items_max"] > report["settings"]["limits"]["max_items"]
    assert guard["sets"]["bait_rows"] == 0
    kinds = guard["kinds"]
    repeats = sum(1 for c in guarded if c.label == "repeat")
    assert kinds["repeat"]["cases"] == kinds["prior_success"]["cases"] == repeats
    assert kinds["near_miss"]["cases"] == sum(1 for c in guarded if c.label == "near_miss")
    assert kinds["bait"]["cases"] == sum(1 for c in guarded if guard_kind_of(c) == "bait") > 0
    assert guard["payloads"] == len(guarded) + repeats == len(report["guard_cases"])
    assert kinds["repeat"]["warned"] == kinds["repeat"]["cases"]  # the set holds every call
    long = guard["long_history"]
    assert long["repeats"] == sum(
        1 for c in guarded if c.family == "long_history" and c.label == "repeat"
    ) > 0
    assert long["newer_calls_min"] >= 40
    assert long["warned_of_found"] == long["found_by_replan"] > 0
    for kind in ("near_miss", "prior_success", "bait", "novel"):
        assert kinds[kind]["warned"] == 0, kind
    assert guard["agreement"] == {"compared": guard["payloads"], "disagreements": 0}
    hot = guard["hot_path"]
    assert hot["runs"] == HOT_PATH_RUNS
    # the process never answers where the decision did not; under load a process past its
    # 300 ms deadline may be silent where the decision warned
    assert hot["answered_undecided"] == 0
    assert hot["answers_agreeing"] + hot["silent_decided"] == hot["runs"]
    assert hot["cpu_p95_ms"] > hot["yardstick_cpu_p95_ms"] > 0
    assert hot["p95_ms"] > hot["yardstick_p95_ms"] > 0
    names = [g["name"] for g in report["gates"]]
    assert names[-4:] == ["guard_zero_bait_warnings", "guard_hot_path",
                          "guard_agrees_with_replan", "guard_long_history"]  # fmt: skip
    assert "pass  guard_zero_bait_warnings: 0 warnings on" in stdout
    assert "pass  guard_long_history: guard warned" in stdout
    assert "guard long history: warned" in stdout
    assert "guard hook process p50 / p95:" in stdout


def test_the_recorded_pass_opens_stage_2_for_that_version(qualified, obelisk_bin, tmp_path):
    _result, _folder, home = qualified
    enable = ["capability", "enable", "agent-turn-recall", "--provider"]
    enable += ["obelisk-session-evidence", "--agent-id", "agent-a", "--project-id", "proj-j"]
    enable += ["--repository-id", "repo-r", "--stage", "2", "--history-source", "claude"]
    enable += ["--repository-root", str(tmp_path)]
    env = {"LOOPX_RECALL_OBELISK_BIN": str(obelisk_bin)}
    refused = CliRunner().invoke(
        cli, enable, env={**env, "LOOPX_RECALL_HOME": str(tmp_path / "new")}
    )
    assert refused.exit_code == 1
    assert "qualification" in refused.stderr
    granted = CliRunner().invoke(cli, enable, env={**env, "LOOPX_RECALL_HOME": str(home)})
    assert granted.exit_code == 0, granted.output


def test_a_pass_on_one_runtime_does_not_open_stage_2_for_another(qualified, obelisk_bin, tmp_path):
    """The verdict is keyed on the runtime it was earned on (version + executable digest):
    a different executable of the same version is a different runtime."""
    _result, _folder, home = qualified
    other = tmp_path / "other-obelisk"
    other.write_text(f'#!/bin/sh\n# another build\nexec "{obelisk_bin}" "$@"\n')
    other.chmod(0o755)
    enable = ["capability", "enable", "agent-turn-recall", "--provider"]
    enable += ["obelisk-session-evidence", "--agent-id", "agent-b", "--project-id", "proj-j"]
    enable += ["--repository-id", "repo-r", "--stage", "2", "--history-source", "claude"]
    enable += ["--repository-root", str(tmp_path)]
    env = {"LOOPX_RECALL_HOME": str(home), "LOOPX_RECALL_OBELISK_BIN": str(obelisk_bin)}
    refused = CliRunner().invoke(cli, [*enable, "--obelisk-bin", str(other)], env=env)
    assert refused.exit_code == 1, refused.output
    assert "qualification verdict" in refused.stderr
    assert "Traceback" not in refused.output
    status = ["capability", "status", "agent-turn-recall", "--provider"]
    status += ["obelisk-session-evidence", "--format", "json"]
    shown = json.loads(CliRunner().invoke(cli, status, env=env).stdout)["qualification"]
    assert shown["stage_2_allowed"] is True
    assert shown["verdict"]["passed"] is True
    elsewhere = {**env, "LOOPX_RECALL_OBELISK_BIN": str(other)}
    shown = json.loads(CliRunner().invoke(cli, status, env=elsewhere).stdout)["qualification"]
    assert shown["runtime_version"] == version_of(obelisk_bin)
    assert shown["verdict"] is None
    assert shown["stage_2_allowed"] is False
    text = CliRunner().invoke(cli, status[:-2], env=elsewhere).stdout
    assert f"stage 0 verdict: none for runtime {version_of(obelisk_bin)}" in text
    # a runtime with no verdict yet (an upgraded Obelisk: the guard went quiet) names the
    # command that runs Stage 0 on it (before: only "(stage 2 closed)")
    assert ("(stage 2 closed: `loopx-recall recall qualify --provider obelisk-session-evidence` "
            "runs it)") in text  # fmt: skip
    granted = CliRunner().invoke(cli, enable, env=env)
    assert granted.exit_code == 0, granted.output


def test_the_report_is_public_safe(qualified):
    """No transcript canary, command, query-term source, session id or path gets out."""
    result, folder, _home = qualified
    texts = {name: (folder / name).read_text(encoding="utf-8") for name in FILES}
    texts["stdout"] = result.stdout
    texts["stderr"] = result.stderr
    forbidden = ["CANARY", "codex:", "/home/", "/tmp/", "/src/", tempfile.gettempdir()]
    forbidden.append(str(folder))
    for case in build_corpus(seed=SEED, cases=CASES).cases:
        signals = case.situation["signals"]
        forbidden.append(case.situation["proposed_step"]["command"])
        for attempt in signals["attempts"]:
            forbidden.append(attempt["step"]["command"])
            forbidden.extend([attempt["error_signature"]] if "error_signature" in attempt else [])
        forbidden.extend(h["text"] for h in signals.get("hypotheses", []))
    session_id = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
    for name, text in texts.items():
        for needle in forbidden:
            assert needle not in text, (name, needle)
        assert session_id.search(text) is None, name


def test_no_planted_secret_reaches_the_report_the_output_or_the_state(qualified):
    """The corpus's long-history carrier sessions hold the canary corpus's 300 secrets in their
    commands, outputs and messages; the run passed (the first test), and not one 8-character
    piece of any secret is in the report's files, stdout, stderr or the state folder."""
    result, folder, home = qualified
    corpus = build_corpus(seed=SEED, cases=CASES)
    planted = {i for f in corpus.families for s in f.sessions for i in s.secrets}
    assert planted == set(range(len(planted_canaries())))
    texts = {name: (folder / name).read_text(encoding="utf-8") for name in FILES}
    texts.update(stdout=result.stdout, stderr=result.stderr)
    texts.update({str(p): p.read_text(errors="replace") for p in home.rglob("*") if p.is_file()})
    assert len(texts) > 5  # the state folder holds the verdict at least
    leaks = {}
    for name, text in texts.items():
        text = re.sub(r"CANARY-SECRET-[0-9a-f]{16}", "\x00", text)  # the generator's own
        found = sorted({c.kind for c in planted_canaries() if c.leaked(text)})
        if found:
            leaks[name] = found
    assert leaks == {}


def _user_without_the_binary_on_path(
    tmp_path: Path, obelisk_bin: Path
) -> tuple[dict[str, str], Path]:
    """A user whose Obelisk is named only by an enablement's ``--obelisk-bin``: not on PATH,
    no LOOPX_RECALL_OBELISK_BIN, and the state folder found through HOME (no
    LOOPX_RECALL_HOME, no XDG_STATE_HOME), as on a machine set up by the README; Node 22
    on PATH and the double outside the clone's .cache (``a_users_double``)."""
    home = tmp_path / "home"
    (tmp_path / "repo").mkdir()
    home.mkdir()
    binary, path = a_users_double(tmp_path / "user", obelisk_bin)
    env = {
        "PATH": path,
        "HOME": str(home),
        "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence",
    }
    return env, binary


def _cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [LOOPX, *args], env=env, capture_output=True, text=True, check=False, timeout=300
    )


def test_qualify_runs_every_case_on_the_enablements_binary(obelisk_bin, tmp_path):
    env, obelisk_bin = _user_without_the_binary_on_path(tmp_path, obelisk_bin)
    enable = ["capability", "enable", "agent-turn-recall", "--provider"]
    enable += ["obelisk-session-evidence", "--agent-id", "agent-a", "--project-id", "proj-j"]
    enable += ["--repository-id", "repo-r", "--history-source", "claude"]
    enable += ["--repository-root", str(tmp_path / "repo"), "--obelisk-bin", str(obelisk_bin)]
    assert _cli(env, *enable).returncode == 0
    folder = tmp_path / "report"
    result = _cli(env, "recall", "qualify", "--cases", "10", "--report", str(folder))
    assert "Traceback" not in result.stderr
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    # Before: the cases re-resolved the binary with HOME at the archive, found none and
    # answered provider_unavailable in 20-50 ms each.
    assert report["arms"]["b"]["reasons"] == {}
    # every gate that does not time a process passes; the wall-clock latency gate follows
    # the machine's load (two cores shared with other suites), which is not this test's point
    timed = {"bounded_latency"}
    assert set(report["verdict"]["failed_gates"]) <= timed, result.stdout
    assert result.returncode == (1 if report["verdict"]["failed_gates"] else 0), result.stderr


def test_qualify_with_no_reachable_runtime_stops_before_the_run(obelisk_bin, tmp_path):
    env, _ = _user_without_the_binary_on_path(tmp_path, obelisk_bin)
    result = _cli(env, "recall", "qualify", "--cases", "10", "--report", str(tmp_path / "r"))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "error: provider 'obelisk-session-evidence' is not ready: obelisk not found: install "
        "Obelisk 0.2.1 or later (`npm install -g @obelisk-apps/cli` or "
        "github.com/tommy0103/obelisk), then name it: on PATH, --obelisk-bin PATH or "
        "LOOPX_RECALL_OBELISK_BIN"
    ]
    assert not (tmp_path / "r").exists()
    status = _cli(env, "capability", "status", "agent-turn-recall", "--provider",
                  "obelisk-session-evidence", "--format", "json")
    assert json.loads(status.stdout)["qualification"]["verdict"] is None
