# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A question without a terminal says `--yes`; the guard's
hook commands have a help that shows `--deadline-ms`; no listing cuts a summary
mid-sentence; the LoopX provider does not wait forever on stdin; `cleanup` lists
everything we wrote and removes it, hooks first (what each step of the way out leaves:
test_way_out_told.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
LOOPX = str(BIN / "loopx-recall")
IDS = ("--agent-id", "agent-a", "--project-id", "proj-j")


def _run(*args: str, home: Path, **extra) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(home), "LOOPX_RECALL_HOME": str(home / "state")}
    env.pop("CODEX_HOME", None)
    env.pop("CLAUDE_CONFIG_DIR", None)
    result = subprocess.run([LOOPX, *args], capture_output=True, text=True, cwd=home,
                            env=env, timeout=120, check=False, stdin=subprocess.DEVNULL,
                            **extra)  # fmt: skip
    assert "Traceback" not in result.stderr
    return result


@pytest.mark.parametrize(
    "args",
    [
        ("hook", "install", "claude", *IDS),
        ("hook", "uninstall", "claude"),
        ("extension", "uninstall", "obelisk-session-evidence"),
        ("cleanup", "--remove"),
    ],
)
def test_a_question_without_a_terminal_names_yes(args, tmp_path):
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"model": "opus"}\n')
    (tmp_path / "state").mkdir()  # something for cleanup --remove to ask about
    if args[1] == "uninstall" and args[0] == "hook":
        assert _run("hook", "install", "claude", *IDS, "--yes", home=tmp_path).returncode == 0
    before = settings.read_bytes()
    done = _run(*args, home=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "pass --yes" in done.stderr
    assert "Aborted!" not in done.stderr
    assert settings.read_bytes() == before


@pytest.mark.parametrize("runtime", ["claude", "codex"])
def test_the_guard_hook_commands_have_a_help(runtime, tmp_path):
    done = _run("guard", runtime, "--help", home=tmp_path)
    assert done.returncode == 0
    assert "--deadline-ms" in done.stdout
    assert "Usage: loopx-recall guard " + runtime in done.stdout


def _listings(home: Path) -> list[str]:
    from loopx_recall_core.cli import GROUPS

    outputs = [_run("--help", home=home).stdout]
    outputs += [_run(name, "--help", home=home).stdout for name in GROUPS]
    return outputs


def test_no_listing_cuts_a_summary_mid_sentence(tmp_path):
    for output in _listings(tmp_path):
        listing = output.split("Commands:\n", 1)[-1] if "Commands:\n" in output else ""
        cut = [line for line in listing.splitlines() if line.endswith("...")]  # click's cut
        assert not cut, listing


def test_the_loopx_provider_does_not_wait_forever_on_stdin():
    env = {**os.environ, "LOOPX_RECALL_PROVIDER_STDIN_S": "1"}
    process = subprocess.Popen([str(BIN / "loopx-recall-loopx-provider"), "capability"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env)  # fmt: skip
    # stdin stays open while we wait for the exit (communicate() would close it: the wait
    # must end because the provider gave up reading, not because its input ended)
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        pytest.fail("the provider waited on a stdin that never closed")
    finally:
        assert process.stdin is not None
        process.stdin.close()
    out, err = process.stdout.read(), process.stderr.read()  # type: ignore[union-attr]
    assert process.returncode == 1
    answer = json.loads(out)
    assert answer["ok"] is False
    assert answer["reason_code"] == "invalid_request"
    assert err.decode().count("\n") == 1


def test_cleanup_lists_everything_we_wrote_and_removes_it_hooks_first(tmp_path):
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    original = b'{\r\n    "model": "opus"\r\n}'
    settings.write_bytes(original)
    codex = tmp_path / ".codex"
    assert _run("hook", "install", "claude", *IDS, "--yes", home=tmp_path).returncode == 0
    assert _run("hook", "install", "codex", *IDS, "--yes", home=tmp_path).returncode == 0
    copies = tmp_path / ".config" / "loopx-recall-manifests"
    wrote = _run("loopx", "manifest", "history", "--into", str(copies), home=tmp_path)
    assert wrote.returncode == 0, wrote.stderr
    (tmp_path / "state").mkdir(exist_ok=True)
    listed = _run("cleanup", "--format", "json", home=tmp_path)
    assert listed.returncode == 0, listed.stderr
    items = json.loads(listed.stdout)["items"]
    kinds = [item["kind"] for item in items]
    assert kinds == ["hooks", "hooks", "backup", "manifests", "state"]
    assert {Path(i["path"]) for i in items if i["kind"] == "hooks"} == {
        settings, codex / "hooks.json"}  # fmt: skip
    assert settings.read_bytes() != original  # listing changes nothing
    removed = _run("cleanup", "--remove", "--yes", home=tmp_path)
    assert removed.returncode == 0, removed.stderr
    assert settings.read_bytes() == original  # the user's own bytes back
    assert not (codex / "hooks.json").exists()  # hook install made it: no `{}` of ours left
    assert not list(settings.parent.glob("*.loopx-backup*"))
    assert not copies.exists()
    assert not (tmp_path / "state").exists()
    again = _run("cleanup", home=tmp_path)
    assert again.stdout.startswith("nothing of loopx-recall's is left")
