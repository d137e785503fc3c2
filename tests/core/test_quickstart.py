# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""scripts/quickstart on a fresh machine that lacks what it needs: it stops at once.

The quickstart and ensure-node22 are copied into an empty folder laid out like a clone (so
no Node cached under the real clone's .cache/ is found) and run with a PATH that holds
only the tools they use: bash, coreutils and Python, but no node and no npm.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ("bash", "env", "dirname", "mkdir", "rm", "head", "od", "tr", "cat", "uname", "mktemp")


def _fresh_clone(tmp_path: Path, *, node: str | None = None) -> tuple[Path, dict[str, str]]:
    clone = tmp_path / "clone"
    (clone / "scripts").mkdir(parents=True)
    for name in ("quickstart", "ensure-node22"):
        shutil.copy2(ROOT / "scripts" / name, clone / "scripts" / name)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in TOOLS:
        found = shutil.which(tool)
        assert found, tool
        (bin_dir / tool).symlink_to(found)
    (bin_dir / "python3").symlink_to(sys.executable)
    if node is not None:
        (bin_dir / "node").symlink_to(node)
    home = tmp_path / "home"
    home.mkdir()
    return clone, {"HOME": str(home), "PATH": str(bin_dir), "TMPDIR": str(tmp_path)}


def _assert_stopped_before_anything(proc: subprocess.CompletedProcess[str], clone: Path) -> None:
    assert proc.returncode == 1, proc
    errors = proc.stderr.splitlines()
    assert len(errors) == 1, proc.stderr
    message = errors[0]
    assert "Node.js >= 22.13 is missing" in message
    assert "install Node.js >= 22.13" in message
    assert "LOOPX_RECALL_NODE22" in message
    # No venv, no state, no sample archive; no step of the journey ran.
    assert not (clone / ".cache").exists()
    assert "$ loopx-recall" not in proc.stdout
    assert "outcome" not in proc.stdout
    assert "quickstart done" not in proc.stdout
    assert [line for line in proc.stdout.splitlines() if line.strip()] == [
        "== checking for Node.js >= 22.13 (runs the Obelisk test double; "
        "fetched once with npm if missing)"
    ]


def test_quickstart_without_node_or_npm_stops_with_one_message(tmp_path):
    clone, env = _fresh_clone(tmp_path)
    proc = subprocess.run(
        [str(clone / "scripts" / "quickstart")],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    _assert_stopped_before_anything(proc, clone)
    assert "(no node on PATH)" in proc.stderr
    assert not list(tmp_path.glob("loopx-quickstart.*"))


def test_quickstart_with_an_old_node_and_no_npm_names_the_old_version(tmp_path):
    old = tmp_path / "old-node"
    old.write_text("#!/bin/sh\necho v20.11.1\n")
    old.chmod(0o755)
    clone, env = _fresh_clone(tmp_path, node=str(old))
    proc = subprocess.run(
        [str(clone / "scripts" / "quickstart")],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    _assert_stopped_before_anything(proc, clone)
    assert "(node on PATH is v20.11.1)" in proc.stderr


def test_quickstart_with_an_old_python_says_so(tmp_path):
    clone, env = _fresh_clone(tmp_path)
    fake = tmp_path / "old-python"
    # answers the version check as Python 3.10 would
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    env["PYTHON"] = str(fake)
    proc = subprocess.run(
        [str(clone / "scripts" / "quickstart")],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.splitlines() == [
        f"quickstart: {fake} is older than 3.11: install Python >= 3.11 "
        "(or set PYTHON=/path/to/python3.11)"
    ]
    assert not (clone / ".cache").exists()


def _python_heredocs(script: Path) -> list[str]:
    """The Python a shell script feeds to the interpreter (``<<'PY' ... PY`` blocks)."""
    blocks, current = [], None
    for line in script.read_text(encoding="utf-8").splitlines():
        if current is None and line.rstrip().endswith("<<'PY'"):
            current = []
        elif current is not None and line.strip() == "PY":
            blocks.append("\n".join(current))
            current = None
        elif current is not None:
            current.append(line)
    return blocks


def test_the_scripts_python_imports_exist():
    # The quickstart's Python runs only after a minute of installs: a moved module must
    # fail here, not in a newcomer's first run.
    import ast
    import importlib

    checked = 0
    for script in sorted((ROOT / "scripts").iterdir()):
        for block in _python_heredocs(script):
            for node in ast.walk(ast.parse(block)):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("loopx_"):
                    module = importlib.import_module(node.module)
                    for alias in node.names:
                        assert hasattr(module, alias.name), (script.name, node.module, alias.name)
                    checked += 1
    assert checked >= 1
