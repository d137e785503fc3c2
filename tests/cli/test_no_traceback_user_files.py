# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The user's odd files and arguments are one line and an exit code,
never a traceback (a lone surrogate in ``settings.json``, a 500-deep array in Codex's
``config.toml``, a Codex session named to ``session claim --runtime claude``), and a
Codex install or uninstall that cannot finish changes nothing (every file is checked
before any is written)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

LOOPX = str(Path(sys.executable).parent / "loopx-recall")
DEEP_TOML = "model = " + "[" * 500 + "]" * 500 + "\n"


def _loopx(*args: str, home: Path, codex_home: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(home), "LOOPX_RECALL_HOME": str(home / "state")}
    env.pop("CODEX_HOME", None)
    if codex_home is not None:
        env["CODEX_HOME"] = str(codex_home)
    result = subprocess.run([LOOPX, *args], capture_output=True, text=True, cwd=home, env=env,
                            timeout=60, check=False, stdin=subprocess.DEVNULL)  # fmt: skip
    assert "Traceback" not in result.stderr
    return result


def test_a_lone_surrogate_in_settings_json_is_kept_and_no_traceback(tmp_path):
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    original = b'{\n  "name": "\\ud800 and \\udfff",\n  "model": "opus"\n}\n'
    settings.write_bytes(original)
    ids = ("--agent-id", "a", "--project-id", "j")
    done = _loopx("hook", "install", "claude", *ids, "--yes", home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert b'"\\ud800 and \\udfff"' in settings.read_bytes()
    done = _loopx("hook", "uninstall", "claude", "--yes", home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert settings.read_bytes() == original


def test_a_500_deep_array_in_config_toml_is_one_line(tmp_path):
    codex_home = tmp_path / "codex"
    codex_home.mkdir()
    config = codex_home / "config.toml"
    config.write_text(DEEP_TOML)
    ids = ("--agent-id", "a", "--project-id", "j")
    named = _loopx("hook", "install", "codex", *ids, "--settings", str(config), "--yes",
                   home=tmp_path, codex_home=codex_home)  # fmt: skip
    assert named.returncode == 1
    assert named.stderr.count("\n") == 1
    assert config.read_text() == DEEP_TOML
    removed = _loopx("hook", "uninstall", "codex", "--settings", str(config), "--yes",
                     home=tmp_path, codex_home=codex_home)  # fmt: skip
    assert removed.returncode == 1
    assert removed.stderr.count("\n") == 1
    # without --settings: config.toml keeps no hooks Codex could read, so hooks.json
    done = _loopx("hook", "install", "codex", *ids, "--yes", home=tmp_path,
                  codex_home=codex_home)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads((codex_home / "hooks.json").read_text())["hooks"]
    assert config.read_text() == DEEP_TOML


def test_the_status_reader_of_config_toml_survives_deep_nesting(tmp_path, monkeypatch):
    from loopx_recall_core.recall.hook_health import installed_hooks

    (tmp_path / "config.toml").write_text(DEEP_TOML)
    monkeypatch.setenv("CODEX_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    assert installed_hooks([]) == {}


def test_claiming_a_codex_session_as_claude_is_one_line(tmp_path, monkeypatch, loopx_home):
    from click.testing import CliRunner

    from loopx_recall_core.cli import cli, session

    # the listing found (a bound repository with a real Codex thread in it) is not what
    # is asked here: the session id of the other runtime is
    monkeypatch.setattr(session, "_listing", lambda agent, project: ([], None))
    done = CliRunner().invoke(cli, [
        "session", "claim", "--agent-id", "a", "--project-id", "j", "--runtime", "claude",
        "--session", "codex:0199a0b1-7c2d-7e3f-8a4b-5c6d7e8f9a0b"])  # fmt: skip
    assert done.exception is None or isinstance(done.exception, SystemExit)
    assert done.exit_code == 1
    assert done.output.startswith("error: ")
    assert done.output.count("\n") == 1


def test_a_broken_hooks_json_beside_config_toml_changes_nothing(tmp_path):
    # item 14: config.toml keeps hooks (ours go there) while hooks.json beside it, where
    # an earlier install wrote ours, is broken: before, config.toml was written, then the
    # command failed on hooks.json (exit 1, half done)
    codex_home = tmp_path / "codex"
    codex_home.mkdir()
    config = codex_home / "config.toml"
    config.write_text('[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "x"\n')
    broken = codex_home / "hooks.json"
    broken.write_text('{"hooks": {"SessionStart": [}')
    before = {p.name: p.read_bytes() for p in codex_home.iterdir()}
    ids = ("--agent-id", "a", "--project-id", "j")
    done = _loopx("hook", "install", "codex", *ids, "--yes", home=tmp_path, codex_home=codex_home)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1
    assert {p.name: p.read_bytes() for p in codex_home.iterdir()} == before
    removed = _loopx("hook", "uninstall", "codex", "--yes", home=tmp_path,
                     codex_home=codex_home)  # fmt: skip
    assert removed.returncode == 1
    assert {p.name: p.read_bytes() for p in codex_home.iterdir()} == before
