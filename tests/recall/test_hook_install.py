# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall hook install|uninstall claude|codex``: lifecycle hooks (SessionStart, and
PreToolUse with ``--guard``) in Claude Code's user or project-local settings and Codex's
``hooks.json``; the user's content kept, idempotent, a backup, our own entry replaced;
``--guard`` only where stage 2 holds (one line saying what is missing, nothing written);
uninstall removes exactly what install added and turns the guard off."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from loopx_recall_core.cli import cli
from loopx_recall_core.plugin.records import RuntimeIdentity
from loopx_recall_core.state import QualificationVerdict, StateStore

from ..fake_provider import FakeProvider, host_with
from ..state_builders import enablement, seed

LOOPX = str(Path(sys.executable).parent / "loopx-recall")
IDENTITY = RuntimeIdentity(runtime_version="0.2.4", binary_digest="sha256:" + "a" * 64)
USER_CONTENT = {
    "permissions": {"allow": ["Bash(ls)"]},
    "hooks": {
        "SessionStart": [{"hooks": [{"type": "command", "command": "echo hi"}]}],
        "PreToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "lint"}]}],
    },
}


def _install(*args, cwd, home, stdin=None):
    env = {**os.environ, "HOME": str(home)}
    env.pop("CODEX_HOME", None)
    result = subprocess.run(
        [LOOPX, "hook", *args], capture_output=True, text=True, cwd=cwd, env=env,
        timeout=30, check=False, input=stdin,
    )  # fmt: skip
    assert "Traceback" not in result.stderr
    return result


def _commands(settings: dict, event: str) -> list[str]:
    return [h["command"] for g in settings["hooks"].get(event, []) for h in g["hooks"]]


def _ours(command: str) -> list[str]:
    return shlex.split(command)[1:]


def test_print_shows_both_lifecycle_hooks_and_changes_nothing(tmp_path):
    for runtime in ("claude", "codex"):
        out = _install("install", runtime, "--agent-id", "a", "--project-id", "j", "--guard",
                       "--print", cwd=tmp_path, home=tmp_path)  # fmt: skip
        assert out.returncode == 0, out.stderr
        snippet = json.loads(out.stdout.split("\n", 1)[1])
        (start,) = _commands(snippet, "SessionStart")
        assert _ours(start) == ["hook", runtime, "--agent-id", "a", "--project-id", "j"]
        (group,) = snippet["hooks"]["PreToolUse"]
        assert group["matcher"] == "Bash"
        assert _ours(group["hooks"][0]["command"]) == [
            "guard", runtime, "--agent-id", "a", "--project-id", "j"
        ]
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_claude_user_scope_keeps_the_users_content_is_idempotent_and_backs_up(tmp_path):
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(USER_CONTENT))
    args = ("install", "claude", "--agent-id", "a", "--project-id", "j")
    original = settings.read_bytes()
    declined = _install(*args, cwd=tmp_path, home=tmp_path, stdin="n\n")
    assert declined.returncode == 1  # no terminal to ask: one line that names --yes
    assert "pass --yes" in declined.stderr
    assert "Aborted!" not in declined.stderr
    assert settings.read_bytes() == original
    done = _install(*args, "--yes", cwd=tmp_path, home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"hooks installed in {settings} (backup kept beside it)\n"
    merged = json.loads(settings.read_text())
    assert merged["permissions"] == USER_CONTENT["permissions"]
    assert merged["hooks"]["PreToolUse"] == USER_CONTENT["hooks"]["PreToolUse"]  # no --guard
    start = _commands(merged, "SessionStart")
    assert start[0] == "echo hi"
    assert _ours(start[1]) == ["hook", "claude", "--agent-id", "a", "--project-id", "j"]
    (backup,) = settings.parent.glob("settings.json.loopx-backup*")
    assert json.loads(backup.read_text()) == USER_CONTENT
    before = settings.read_bytes()
    again = _install(*args, "--yes", cwd=tmp_path, home=tmp_path)
    assert again.returncode == 0
    assert "no change" in again.stdout
    assert settings.read_bytes() == before
    assert len(list(settings.parent.glob("settings.json.loopx-backup*"))) == 1
    # another agent replaces our own entry (one loopx-recall entry per file)
    other = _install("install", "claude", "--agent-id", "b", "--project-id", "j", "--yes",
                     cwd=tmp_path, home=tmp_path)  # fmt: skip
    assert other.returncode == 0, other.stderr
    start = _commands(json.loads(settings.read_text()), "SessionStart")
    assert start[0] == "echo hi"
    assert [_ours(c)[3] for c in start[1:]] == ["b"]
    removed = _install("uninstall", "claude", "--yes", cwd=tmp_path, home=tmp_path)
    assert removed.returncode == 0, removed.stderr
    assert settings.read_bytes() == original  # exactly what install added, byte for byte
    assert len(list(settings.parent.glob("settings.json.loopx-backup*"))) == 1


def test_installing_again_is_no_change_when_the_user_added_hooks_after_ours():
    # before: ours were taken out and appended again behind the user's new group, so the
    # same install rewrote the file (and kept one more backup) each time
    from loopx_recall_core.recall import hook_install

    first = json.loads(hook_install.merge(json.dumps(USER_CONTENT).encode(), "claude", "a", "j",
                                          True))  # fmt: skip
    first["hooks"]["SessionStart"].append({"hooks": [{"type": "command", "command": "later"}]})
    assert hook_install.merge(json.dumps(first).encode(), "claude", "a", "j", True) is None
    assert hook_install.merge(json.dumps(first).encode(), "claude", "b", "j", True) is not None


def test_project_local_scope_writes_the_git_ignored_file_at_the_repository_root(tmp_path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "sub").mkdir()
    shared = repo / ".claude" / "settings.json"
    shared.parent.mkdir()
    shared.write_text("{}\n")
    done = _install("install", "claude", "--agent-id", "a", "--project-id", "j", "--scope",
                    "project-local", "--yes", cwd=repo / "sub", home=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    local = repo / ".claude" / "settings.local.json"
    assert str(local) in done.stdout
    assert _ours(_commands(json.loads(local.read_text()), "SessionStart")[0])[1] == "claude"
    assert shared.read_text() == "{}\n"  # the shared file is never written unless named
    assert not (tmp_path / ".claude").exists()
    outside = tmp_path / "nowhere"
    outside.mkdir()
    refused = _install("install", "claude", "--agent-id", "a", "--project-id", "j", "--scope",
                       "project-local", "--yes", cwd=outside, home=tmp_path)  # fmt: skip
    assert refused.returncode == 1
    assert refused.stderr.count("\n") == 1
    assert "git repository" in refused.stderr


def test_codex_writes_hooks_json_in_codex_home_unless_config_toml_keeps_hooks(tmp_path):
    codex_home = tmp_path / "codex-home"
    codex_home.mkdir()
    (codex_home / "config.toml").write_text('model = "gpt-5-codex"\n[hooks.state]\n')
    env = {**os.environ, "HOME": str(tmp_path), "CODEX_HOME": str(codex_home)}
    args = [LOOPX, "hook", "install", "codex", "--agent-id", "a", "--project-id", "j", "--yes"]
    done = subprocess.run(args, env=env, cwd=tmp_path, capture_output=True, text=True,
                          timeout=30, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    hooks = codex_home / "hooks.json"
    installed, trust = done.stdout.splitlines()
    assert installed == f"hooks installed in {hooks}"
    # how to trust them, both ways (issue 27 item 5; facts in runtimes/codex.py)
    assert "/hooks" in trust
    assert "`codex exec --dangerously-bypass-hook-trust ...`" in trust
    (start,) = _commands(json.loads(hooks.read_text()), "SessionStart")
    assert _ours(start) == ["hook", "codex", "--agent-id", "a", "--project-id", "j"]
    # no notify; [hooks.state] (Codex's trust records) is no event: hooks.json was used
    assert (codex_home / "config.toml").read_text() == 'model = "gpt-5-codex"\n[hooks.state]\n'
    assert not (tmp_path / ".codex").exists()
    # hooks kept inline in config.toml: ours go there (tests/recall/test_hook_install_toml.py)
    (codex_home / "config.toml").write_text('[[hooks.SessionStart]]\nmatcher = "x"\n')
    inline = subprocess.run(args, env=env, cwd=tmp_path, capture_output=True, text=True,
                            timeout=30, check=False)  # fmt: skip
    assert inline.returncode == 0, inline.stderr
    assert inline.stdout.splitlines()[:2] == [
        f"hooks installed in {codex_home}/config.toml (backup kept beside it)",
        # moved, not doubled; install had made hooks.json, so it goes
        f"hooks removed: {hooks} held only ours (hook install made it), so it is gone",
    ]
    assert not hooks.exists()


def test_codex_default_is_home_dot_codex_and_an_odd_id_stays_valid(tmp_path):
    agent = "agent\x7f\x1b[0m\u0085\"\\x 'q'"
    done = _install("install", "codex", "--agent-id", agent, "--project-id", "j", "--yes",
                    cwd=tmp_path, home=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    hooks = json.loads((tmp_path / ".codex" / "hooks.json").read_text(encoding="utf-8"))
    (start,) = _commands(hooks, "SessionStart")
    assert _ours(start) == ["hook", "codex", "--agent-id", agent, "--project-id", "j"]
    again = _install("install", "codex", "--agent-id", agent, "--project-id", "j", "--yes",
                     cwd=tmp_path, home=tmp_path)  # fmt: skip
    assert "no change" in again.stdout


@pytest.mark.parametrize("runtime", ["claude", "codex"])
@pytest.mark.parametrize(
    ("option", "value", "reason"),
    [
        ("--agent-id", "", "must not be blank"),
        ("--project-id", "\u3000", "must not be blank"),
        ("--agent-id", "a" * 257, "longer than 256 UTF-16 units"),
    ],
)
def test_an_id_enable_refuses_is_refused_and_nothing_is_written(tmp_path, runtime, option,
                                                                 value, reason):  # fmt: skip
    ids = {"--agent-id": "a", "--project-id": "j", option: value}
    args = ["install", runtime, *(x for pair in ids.items() for x in pair)]
    for extra in (["--yes"], ["--print"]):
        result = _install(*args, *extra, cwd=tmp_path, home=tmp_path)
        assert result.returncode == 1
        assert result.stderr == f"error: {option}: {reason}\n"  # one line, never the value
        assert result.stdout == ""
    assert list(tmp_path.iterdir()) == []


def test_invalid_json_is_refused_and_left_alone(tmp_path):
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(b"{not json")
    result = _install("install", "claude", "--agent-id", "a", "--project-id", "j", "--yes",
                      cwd=tmp_path, home=tmp_path)  # fmt: skip
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1
    assert settings.read_bytes() == b"{not json"
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.json"]


def test_a_read_only_settings_file_is_refused_and_left_alone(tmp_path):
    # before: the atomic rename replaced the user's 0444 file all the same (and chmodded
    # the new one 0444): a file its owner made read-only was changed without a word
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(USER_CONTENT))
    settings.chmod(0o444)
    result = _install("install", "claude", "--agent-id", "a", "--project-id", "j", "--yes",
                      cwd=tmp_path, home=tmp_path)  # fmt: skip
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1
    assert "read-only" in result.stderr
    assert json.loads(settings.read_text()) == USER_CONTENT
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.json"]


def test_a_linked_settings_file_is_refused_without_pointing_at_the_state_folder(tmp_path):
    # before: "... it is a symbolic link (`loopx-recall state path` prints where the state
    # folder is)": the state folder has nothing to do with the user's settings file
    real = tmp_path / "dotfiles.json"
    real.write_text(json.dumps(USER_CONTENT))
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.symlink_to(real)
    result = _install("install", "claude", "--agent-id", "a", "--project-id", "j", "--yes",
                      cwd=tmp_path, home=tmp_path)  # fmt: skip
    assert result.returncode == 1
    assert result.stderr == (
        "error: cannot read the Claude Code settings file: it is a symbolic link\n"
    )
    assert json.loads(real.read_text()) == USER_CONTENT


# -- --guard: in-process, with a provider that names its runtime ------------------------


@pytest.fixture
def guard_world(monkeypatch, loopx_home, tmp_path):
    """An in-process CLI run with HOME=tmp_path and the fake provider; returns
    ``(run, settings, verdict)``; ``verdict(passed)`` records one for the fake's runtime."""
    fake = FakeProvider()
    fake.runtime_identity = lambda binding, timeout: IDENTITY  # type: ignore[attr-defined]
    monkeypatch.setattr("loopx_recall_core.plugin.manager.load_host",
                        lambda *a, **k: host_with(fake))
    monkeypatch.setattr("loopx_recall_core.cli.capability.load_host",
                        lambda *a, **k: host_with(fake))  # fmt: skip
    monkeypatch.setenv("HOME", str(tmp_path))
    settings = tmp_path / ".claude" / "settings.json"

    def verdict(passed: bool) -> None:
        with StateStore().update() as box:
            box[0] = type(box[0])(schema_version="loopx_state_v0",
                                  enablements=box[0].enablements, qualifications=(
                QualificationVerdict(provider_id=fake.provider_id,
                                     provider_version=fake.provider_version, passed=passed,
                                     report_digest="sha256:" + "0" * 64,
                                     recorded_at="2026-12-01T00:00:00Z",
                                     runtime_version=IDENTITY.runtime_version,
                                     binary_digest=IDENTITY.binary_digest),))  # fmt: skip

    def run(*args):
        if args[0] != "capability":
            args = ("hook", *args)
        result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
        assert "Traceback" not in result.output
        return result

    return run, settings, verdict


def _guard_of(agent="agent-a"):
    return [e.guard for e in StateStore().read().find(agent_id=agent, project_id="proj-j")]


GUARD = ("install", "claude", "--agent-id", "agent-a", "--project-id", "proj-j", "--guard",
         "--yes")  # fmt: skip


@pytest.mark.parametrize(
    ("arrange", "missing"),
    [
        (lambda verdict: None, "stage-2 enablement"),  # nothing enabled
        (lambda verdict: seed(enablement("obelisk-session-evidence")), "stage-2 enablement"),
        (lambda verdict: (seed(enablement("obelisk-session-evidence", stage=2)),),
         "passing Stage 0 verdict"),
        (lambda verdict: (seed(enablement("obelisk-session-evidence", stage=2)),
                          verdict(False)), "passing Stage 0 verdict"),
    ],
)
def test_guard_without_stage_two_says_what_is_missing_and_writes_nothing(
    guard_world, arrange, missing
):
    run, settings, verdict = guard_world
    arrange(verdict)
    result = run(*GUARD)
    assert result.exit_code == 1
    assert result.output.count("\n") == 1
    assert missing in result.output
    assert not settings.parent.exists()
    assert all(g is None for g in _guard_of())


def test_guard_install_policy_change_and_uninstall(guard_world):
    run, settings, verdict = guard_world
    seed(enablement("obelisk-session-evidence", stage=2),
         enablement("obelisk-session-evidence", stage=2, agent_id="agent-b"))  # fmt: skip
    verdict(True)
    done = run(*GUARD)
    assert done.exit_code == 0, done.output
    assert "guard on (warn)" in done.output
    assert _guard_of() == ["warn"]
    assert _guard_of("agent-b") == [None]
    written = json.loads(settings.read_text())
    (guard_command,) = _commands(written, "PreToolUse")
    assert _ours(guard_command) == ["guard", "claude", "--agent-id", "agent-a", "--project-id",
                                    "proj-j"]  # fmt: skip
    assert written["hooks"]["PreToolUse"][0]["matcher"] == "Bash"
    # PostToolUse: the same command records what ran (the follow-up of a warning)
    # Claude Code fires PostToolUse after a success and PostToolUseFailure after a failure
    for event in ("PostToolUse", "PostToolUseFailure"):
        assert _commands(written, event) == [guard_command]
        assert written["hooks"][event][0]["matcher"] == "Bash"
    (claim_command,) = _commands(written, "SessionStart")
    # a turn's and a session's end (Claude Code 2.1.328 fires Stop, then SessionEnd): the
    # claiming command, which makes the agent's set for the next session's first call
    for event in ("Stop", "SessionEnd"):
        assert _commands(written, event) == [claim_command]
        assert "matcher" not in written["hooks"][event][0]
    # another policy: our entries replaced, not doubled; the policy follows
    again = run(*GUARD, "--policy", "deny-once")
    assert again.exit_code == 0, again.output
    assert _guard_of() == ["deny-once"]
    assert json.loads(settings.read_text()) == written  # the same entries
    removed = run("uninstall", "claude", "--yes")
    assert removed.exit_code == 0, removed.output
    assert "guard off" in removed.output
    assert _guard_of() == [None]
    assert not settings.exists()  # install made it from nothing: no `{}` of ours is left
    nothing = run("uninstall", "claude", "--yes")
    assert nothing.exit_code == 0
    assert "no change" in nothing.output


STATUS = ("capability", "status", "agent-turn-recall", "--provider", "obelisk-session-evidence",
          "--project-id", "proj-j")  # fmt: skip


def test_status_shows_the_guard_and_its_sets_as_counts_and_ages_only(guard_world, loopx_home):
    import time

    from tests.guard import helpers

    run, _settings, verdict = guard_world
    seed(enablement("obelisk-session-evidence", stage=2),
         enablement("obelisk-session-evidence", stage=2, agent_id="agent-b"))  # fmt: skip
    verdict(True)
    assert run(*GUARD, "--policy", "deny-once").exit_code == 0
    failed = "Bash: pytest tests/CANARY_api.py\noutcome: failed (exit 1)"
    items = [helpers.item("prior_failure", failed, at="2026-01-01T10:00:00+00:00")]
    helpers.write(loopx_home, items, session="CANARY-S1", created_at=time.time() - 120)
    helpers.write(loopx_home, items, session="CANARY-S2", freshness="stale",
                  created_at=time.time() - 30 * 3600)  # fmt: skip
    helpers.write(loopx_home, items, session="CANARY-S3", agent_id="agent-b")
    out = run(*STATUS, "--format", "json").output
    rows = {row["agent_id"]: row["guard"] for row in json.loads(out)["enablements"]}
    assert rows["agent-b"] == {"on": False, "policy": None, "last_silence": None, "sets": {
        "count": 1, "newest_age_s": rows["agent-b"]["sets"]["newest_age_s"],
        "oldest_age_s": rows["agent-b"]["sets"]["oldest_age_s"], "past_ttl": 0,
        "freshness": {"fresh": 1}, "last_unanswered": None}, "hooks": {}}  # fmt: skip
    guard = rows["agent-a"]
    assert (guard["on"], guard["policy"]) == (True, "deny-once")
    assert guard["hooks"] == {"claude": "ok"}
    sets = guard["sets"]
    assert sets["count"] == 2
    assert 100 <= sets["newest_age_s"] <= 1000
    assert 30 * 3600 - 60 <= sets["oldest_age_s"] <= 30 * 3600 + 600
    assert sets["past_ttl"] == 1
    assert sets["freshness"] == {"fresh": 1, "stale": 1}
    text = run(*STATUS).output
    assert "guard: deny-once (2 session set(s)" in text
    assert "guard: off (1 session set(s)" in text
    for shown in (out, text):
        assert "CANARY" not in shown


def test_status_says_when_a_hook_command_points_nowhere(guard_world, loopx_home):
    """The venv that installed the hook is gone: the runtime has nothing to run and our
    hook cannot log it, so status says so (a runtime name, never the path)."""
    run, settings, verdict = guard_world
    seed(enablement("obelisk-session-evidence", stage=2))
    verdict(True)
    assert run(*GUARD).exit_code == 0
    gone = "/nonexistent/CANARY-venv/bin/loopx-recall"
    text = settings.read_text()
    program = shlex.split(_commands(json.loads(text), "SessionStart")[0])[0]
    settings.write_text(text.replace(program, gone))
    assert gone in settings.read_text()
    out = run(*STATUS, "--format", "json").output
    assert json.loads(out)["enablements"][0]["guard"]["hooks"] == {"claude": "points_nowhere"}
    shown = run(*STATUS).output
    assert "hooks (claude): the hook command points nowhere" in shown
    assert "hook install claude" in shown
    for text in (out, shown):
        assert "CANARY" not in text


def test_status_says_when_the_session_end_hooks_are_missing(guard_world, loopx_home):
    """An install from before the end events were added (Stop and SessionEnd missing):
    the guard's first call in a new session misses the session that just ended, so status
    names it and says how to fix it."""
    run, settings, verdict = guard_world
    seed(enablement("obelisk-session-evidence", stage=2))
    verdict(True)
    assert run(*GUARD).exit_code == 0
    out = run(*STATUS, "--format", "json").output
    assert json.loads(out)["enablements"][0]["guard"]["hooks"] == {"claude": "ok"}
    written = json.loads(settings.read_text())
    for event in ("Stop", "SessionEnd"):
        del written["hooks"][event]
    settings.write_text(json.dumps(written))
    out = run(*STATUS, "--format", "json").output
    assert json.loads(out)["enablements"][0]["guard"]["hooks"] == {"claude": "no_session_end"}
    shown = run(*STATUS).output
    assert "hooks (claude): installed without the session-end hooks" in shown
    assert "hook install claude ... --guard" in shown
    assert run(*GUARD).exit_code == 0  # installing again adds them
    out = run(*STATUS, "--format", "json").output
    assert json.loads(out)["enablements"][0]["guard"]["hooks"] == {"claude": "ok"}


# -- CLAUDE_CONFIG_DIR (issue 27 item 4) ----------------------------------------------------
# Fact (Claude Code 2.1.328, /work/shared/AGENT_RUNTIMES.md): with CLAUDE_CONFIG_DIR set,
# Claude Code reads user settings only from $CLAUDE_CONFIG_DIR/settings.json.


def test_claude_user_scope_follows_claude_config_dir(tmp_path):
    config = tmp_path / "claude-config"
    env_home = tmp_path / "home"
    env_home.mkdir()
    args = ("claude", "--agent-id", "a", "--project-id", "j", "--yes")
    env = {**os.environ, "HOME": str(env_home), "CLAUDE_CONFIG_DIR": str(config)}

    def hook(*more):
        result = subprocess.run([LOOPX, "hook", *more], capture_output=True, text=True,
                                cwd=tmp_path, env=env, timeout=30, check=False)  # fmt: skip
        assert "Traceback" not in result.stderr
        return result

    done = hook("install", *args)
    assert done.returncode == 0, done.stderr
    assert f"hooks installed in {config / 'settings.json'}" in done.stdout
    written = json.loads((config / "settings.json").read_text())
    assert _ours(_commands(written, "SessionStart")[0])[:2] == ["hook", "claude"]
    assert not (env_home / ".claude").exists()  # the file Claude Code would not read
    removed = hook("uninstall", "claude", "--yes")
    assert removed.returncode == 0, removed.stderr
    assert not (config / "settings.json").exists()  # install made it: uninstall takes it


def test_status_reads_the_claude_settings_in_claude_config_dir(guard_world, monkeypatch, tmp_path):
    run, settings, verdict = guard_world
    config = tmp_path / "claude-config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    seed(enablement("obelisk-session-evidence", stage=2))
    verdict(True)
    assert run(*GUARD).exit_code == 0
    assert (config / "settings.json").is_file()
    assert not settings.exists()  # ~/.claude/settings.json, which Claude Code skips now
    out = run(*STATUS, "--format", "json").output
    assert json.loads(out)["enablements"][0]["guard"]["hooks"] == {"claude": "ok"}


# -- Codex trust in status (issue 27 item 5) ------------------------------------------------
# Facts (runtimes/codex.py, with sources): Codex runs a non-managed hook only once trusted,
# skipping it silently otherwise, and records trust in $CODEX_HOME/config.toml as
# [hooks.state."<hooks file>:<event in snake case>:<group>:<handler>"] trusted_hash = ...


CODEX_GUARD = ("install", "codex", "--agent-id", "agent-a", "--project-id", "proj-j",
               "--guard", "--yes")  # fmt: skip


def _trust(codex_home: Path, events: list[str]) -> None:
    hooks_file = codex_home / "hooks.json"
    lines = [f'[hooks.state."{hooks_file}:{event}:0:0"]\ntrusted_hash = "sha256:{"1" * 64}"'
             for event in events]  # fmt: skip
    (codex_home / "config.toml").write_text('model = "m"\n' + "\n".join(lines) + "\n")


def test_status_says_whether_codex_recorded_trust_for_our_hooks(guard_world, monkeypatch,
                                                                 tmp_path):  # fmt: skip
    run, _settings, verdict = guard_world
    codex_home = tmp_path / "codex-home"
    codex_home.mkdir()
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    seed(enablement("obelisk-session-evidence", stage=2))
    verdict(True)
    assert run(*CODEX_GUARD).exit_code == 0

    def hooks_state():
        out = run(*STATUS, "--format", "json").output
        return json.loads(out)["enablements"][0]["guard"]["hooks"], run(*STATUS).output

    state, text = hooks_state()  # no trust record at all: Codex will skip them
    assert state == {"codex": "not_trusted"}
    assert "hooks (codex): installed, not trusted yet" in text
    assert "--dangerously-bypass-hook-trust" in text
    _trust(codex_home, ["session_start", "pre_tool_use"])  # one of ours still untrusted
    assert hooks_state()[0] == {"codex": "not_trusted"}
    _trust(codex_home, ["session_start", "stop", "session_end", "pre_tool_use", "post_tool_use"])
    state, text = hooks_state()
    assert state == {"codex": "trust_recorded"}
    assert "trusted once (whether that trust still covers them as written: unknown" in text
    (codex_home / "config.toml").write_text("[hooks.state\n")  # Codex's file unreadable
    assert hooks_state()[0] == {"codex": "trust_unknown"}
    assert str(codex_home) not in hooks_state()[1]
