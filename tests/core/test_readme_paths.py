# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The README's paths, as written, from a fresh clone, on the Obelisk double.

The "On a real project" block runs line by line in one shell, as a newcomer would type it:
in a ``git clone`` of this repository, with a HOME holding a generated sample archive
(``~/src/my-project`` a git repository of it) and the Obelisk protocol double on PATH as
``obelisk``. Every command exits 0, and every line the README shows after a command appears,
in order, in what it printed (``...`` stands for any text; a line of only ``...`` for any
lines). Then the "Removing it" block runs in the same HOME. The blocks that cannot run
here are checked for what can be checked: the guard block's commands and options exist;
the LoopX block's commands are those the real-LoopX lane runs; the Start-here block's
scripts exist. The Stage 0 figures in docs/stage0.md list every gate the code judges.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOUBLE = ROOT / "plugins" / "obelisk-session-evidence" / "tests" / "obelisk_double" / "obelisk"
LOOPX = str(Path(sys.executable).parent / "loopx-recall")


def _blocks(text: str) -> list[str]:
    return re.findall(r"^```[a-z]*\n(.*?)^```$", text, flags=re.S | re.M)


def _block(starting: str) -> str:
    (found,) = [b for b in _blocks(README.read_text()) if b.lstrip().startswith(starting)]
    return found


def _transcript(block: str) -> list[tuple[str, list[str]]]:
    """``[(command, shown output lines)]``: a command is a ``$ `` line and the lines it
    continues with a trailing backslash."""
    steps: list[tuple[str, list[str]]] = []
    lines = block.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("$ "):
            command = line[2:]
            while command.endswith("\\"):
                index += 1
                command += "\n" + lines[index]
            steps.append((command, []))
        elif steps:
            steps[-1][1].append(line)
        index += 1
    return steps


def _matches(shown: list[str], printed: list[str]) -> bool:
    """Each shown line matches a printed line, in order (``...``: any text)."""
    position = 0
    for line in shown:
        if line.strip() == "...":
            continue
        pattern = ".*".join(re.escape(part) for part in line.rstrip().split("..."))
        while position < len(printed) and not re.fullmatch(pattern, printed[position].rstrip()):
            position += 1
        if position == len(printed):
            return False
        position += 1
    return True


def test_the_readme_is_short_and_links_its_docs():
    text = README.read_text()
    assert len(text.splitlines()) <= 300
    for link in re.findall(r"\]\((docs/[^)#]+)", text):
        assert link.endswith(".md") or link.endswith(".svg"), link


def test_the_transcript_matcher_can_fail():
    assert _matches(["a ... c", "...", "e"], ["x", "a b c", "d", "e"])
    assert not _matches(["a ... c", "e"], ["e", "a b c"])
    assert not _matches(["freshness fresh"], ["freshness stale"])


def _sandbox(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    from loopx_recall_core.testing import generate_archive

    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True, timeout=120)
    home = tmp_path / "home"
    archive = generate_archive(home, now=datetime.now(UTC).replace(microsecond=0))
    project = archive.repos["alpha"]
    git = ["git", "-c", "user.email=me@example.invalid", "-c", "user.name=me"]
    subprocess.run([*git, "init", "-q"], cwd=project, check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "start"], cwd=project,
                   check=True)  # fmt: skip
    (home / "src" / "my-project").symlink_to(project)
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "obelisk").symlink_to(DOUBLE)
    dev_bin = str(Path(sys.executable).parent)
    path = [p for p in os.environ["PATH"].split(os.pathsep) if p and p != dev_bin]
    env = {
        "HOME": str(home),
        "PATH": os.pathsep.join([str(tools), *path]),
        "LOOPX_RECALL_NODE22": os.environ.get("LOOPX_RECALL_NODE22", ""),
        "PIP_CACHE_DIR": os.environ.get("PIP_CACHE_DIR", str(ROOT / ".cache" / "pip")),
        "TMPDIR": str(tmp_path),
        "LANG": "C.UTF-8",
    }
    if not env["LOOPX_RECALL_NODE22"]:
        node = subprocess.run([str(ROOT / "scripts" / "ensure-node22")], capture_output=True,
                              text=True, check=True, timeout=300).stdout.strip()  # fmt: skip
        env["LOOPX_RECALL_NODE22"] = node
    return clone, home, env


def _run_in_one_shell(steps: list[str], cwd: Path, env: dict[str, str]) -> list[tuple[int, str]]:
    """Run ``steps`` in one bash (``cd`` and ``. activate`` carry over); each one's exit
    status and what it printed (stdout and stderr, interleaved)."""
    marker = "@@loopx-readme-step@@"
    script = "".join(f"{step}\necho \"{marker} $?\"\n" for step in steps)
    done = subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600, stdin=subprocess.DEVNULL,
                          check=False)  # fmt: skip
    outputs, lines = [], []
    for line in (done.stdout).splitlines():
        if line.startswith(marker):
            outputs.append((int(line.split()[-1]), "\n".join(lines)))
            lines = []
        else:
            lines.append(line)
    assert len(outputs) == len(steps), (done.stdout[-3000:], done.stderr[-3000:])
    return outputs


@pytest.mark.slow
@pytest.mark.network
def test_the_real_project_path_runs_as_written_from_a_fresh_clone(tmp_path):
    clone, home, env = _sandbox(tmp_path)
    steps = _transcript(_block("$ obelisk --build"))
    assert len(steps) >= 9
    commands = [f"{command} 2>&1" if "\n" not in command else f"{{ {command}\n}} 2>&1"
                for command, _shown in steps]  # fmt: skip
    cleanup = [line.split("#")[0].strip() + " 2>&1"
               for line in _block("loopx-recall cleanup").splitlines()]  # fmt: skip
    results = _run_in_one_shell([*commands, *cleanup], clone, env)
    for (command, shown), (status, printed) in zip(steps, results, strict=False):
        assert status == 0, (command, printed[-2000:])
        assert "Traceback" not in printed
        assert _matches(shown, printed.splitlines()), (command, shown, printed[-3000:])
    listed, removing = results[len(steps):]
    assert listed[0] == 0, listed[1]
    assert "hooks " in listed[1]
    assert "state " in listed[1]
    assert removing[0] == 1  # no terminal here: it asks for --yes, one line
    assert "pass --yes" in removing[1]
    settings = home / ".claude" / "settings.json"
    assert "hook claude --agent-id me --project-id my-project" in settings.read_text()


def _options(command: str) -> list[str]:
    return [word.split("=")[0] for word in shlex.split(command) if word.startswith("--")]


def test_the_guard_blocks_commands_and_options_exist():
    block = _block("loopx-recall recall qualify")
    for command in block.replace("\\\n", " ").splitlines():
        command = command.split("#")[0].strip()
        words = shlex.split(command)
        subcommand = [w for w in words[1:] if not w.startswith("-")][:2]
        if words[1] == "capability":
            subcommand = ["capability", "enable"]
        helped = subprocess.run([LOOPX, *subcommand, "--help"], capture_output=True, text=True,
                                timeout=60, check=False)  # fmt: skip
        assert helped.returncode == 0, helped.stderr
        for option in _options(command):
            if option in ("--history-source",):  # the provider's own option
                continue
            assert option in helped.stdout, (command, option)


def test_the_loopx_block_is_what_the_real_loopx_lane_runs():
    lane = (ROOT / "plugins" / "obelisk-session-evidence" / "tests"
            / "loopx_extension" / "test_inside_loopx.py").read_text()  # fmt: skip
    for command in _block("loopx extension install").splitlines():
        words = [w for w in shlex.split(command) if not w.startswith("$(")]
        assert words[0] == "loopx"
        for word in words[1:4]:
            if not word.startswith("-") and word not in ("recall-goal", "recall", "."):
                assert f'"{word}"' in lane, (command, word)


def test_the_start_block_names_the_scripts_there_are():
    block = _block("git clone <this repository>")
    for name in re.findall(r"^(scripts/\S+)", block, flags=re.M):
        assert os.access(ROOT / name, os.X_OK), name
    assert shutil.which("git")


def test_the_stage0_figures_list_every_gate_the_code_judges():
    from loopx_recall_core.qualification.verdict import GATES

    text = (ROOT / "docs" / "stage0.md").read_text()
    block = text.split("<!-- stage0-report: begin -->")[1].split("<!-- stage0-report: end -->")[0]
    rows = re.findall(r"^\| (\w+) \| (pass|fail) \|", block, flags=re.M)
    assert [name for name, _result in rows] == list(GATES)
    assert "**Verdict: PASS**" in block
