# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The README's paths, as written, from a fresh clone, on the Obelisk double.

Every fenced block of README.md runs, in order, in ONE bash (so ``cd`` and ``. activate``
carry over from block to block, as they do for a newcomer typing them): in a ``git clone``
of this repository's committed HEAD, with a temporary HOME holding a generated sample
archive (``~/src/my-project`` a git repository of it) and the Obelisk protocol double on
PATH as ``obelisk``. Nothing but loopback: pip installs from a local folder of wheels
(``PIP_NO_INDEX``, ``PIP_FIND_LINKS``: the commands stay as written) and, where this user
may make one (root), the whole run is inside a new network namespace (``unshare -n``).

A block in transcript form (``$ command`` lines, each followed by what it prints) is
compared with what each command printed (stdout and stderr together) after the one
normalisation the README announces: ``...`` inside a line stands for any text (ids,
dates, digests, temporary paths), a line of only ``...`` for any number of lines, and
trailing spaces do not count. Everything else must be printed exactly, no line more or
less. A block of bare commands shows no output: each must exit 0. Every command exits 0
and prints no traceback.

A block that cannot run here is marked in the README by the comment
``<!-- readme-test: not run (why) -->`` on the line before it; such a block is still
checked with ``bash -n`` and by the checks below (the Start-here block: its scripts exist;
the LoopX block: its commands are those the real-LoopX lane runs).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOUBLE = ROOT / "plugins" / "obelisk-session-evidence" / "tests" / "obelisk_double" / "obelisk"
LOOPX = str(Path(sys.executable).parent / "loopx-recall")
NOT_RUN = re.compile(r"<!-- readme-test: not run \((?P<why>[^)]+)\) -->")


@dataclass(frozen=True)
class Block:
    body: str
    not_run: str | None  # why, when the README marks the block as not run here

    @property
    def transcript(self) -> bool:
        return any(line.startswith("$ ") for line in self.body.splitlines())

    def steps(self) -> list[tuple[str, list[str] | None]]:
        """``[(command, shown output lines)]``; ``None`` for a bare command (no output
        shown). A command continues on the next line after a trailing backslash."""
        steps: list[tuple[str, list[str] | None]] = []
        lines = self.body.splitlines()
        index = 0
        while index < len(lines):
            line = lines[index]
            prompt = line.startswith("$ ")
            if prompt or not self.transcript:
                command = line[2:] if prompt else line
                while command.endswith("\\"):
                    index += 1
                    command += "\n" + lines[index]
                if command.split("#")[0].strip():
                    steps.append((command, [] if self.transcript else None))
            elif steps and steps[-1][1] is not None:
                steps[-1][1].append(line)
            index += 1
        return steps


def _blocks(text: str) -> list[Block]:
    found = re.finditer(r"(?:^(?P<mark><!--[^\n]*-->)\n)?^```[a-z]*\n(?P<body>.*?)^```$",
                        text, flags=re.S | re.M)  # fmt: skip
    blocks = []
    for match in found:
        mark = NOT_RUN.fullmatch(match["mark"] or "")
        blocks.append(Block(match["body"], mark["why"] if mark else None))
    return blocks


def _block(starting: str) -> Block:
    (found,) = [b for b in _blocks(README.read_text()) if b.body.lstrip().startswith(starting)]
    return found


def _matches(shown: list[str], printed: list[str]) -> bool:
    """``printed`` is ``shown`` after the normalisation: ``...`` in a line is any text, a
    line of only ``...`` any lines, trailing spaces ignored; nothing else differs."""
    pattern = ""
    for line in shown:
        if line.strip() == "...":
            pattern += r"(?:[^\n]*\n)*?"
        else:
            parts = line.rstrip().split("...")
            pattern += "[^\n]*".join(re.escape(part) for part in parts) + r"[ \t]*\n"
    text = "".join(line.rstrip() + "\n" for line in printed)
    return re.fullmatch(pattern, text) is not None


def test_the_readme_is_short_and_links_its_docs():
    text = README.read_text()
    assert len(text.splitlines()) <= 300
    for link in re.findall(r"\]\((docs/[^)#]+)", text):
        assert link.endswith(".md") or link.endswith(".svg"), link


def test_the_transcript_matcher_can_fail():
    assert _matches(["a ... c", "...", "e"], ["a b c", "d", "x", "e  "])
    assert _matches(["a ... c", "...", "e"], ["a  c", "e"])
    assert not _matches(["a ... c", "e"], ["e", "a b c"])
    assert not _matches(["freshness fresh"], ["freshness stale"])
    assert not _matches(["a ... c"], ["x", "a b c"])  # a line more than shown
    assert not _matches(["a", "b"], ["a"])  # a line less
    assert not _matches([], ["printed where nothing is shown"])
    assert not _matches(["a ... c"], ["a b", "c"])  # ``...`` in a line stays in that line


def _offline_wheels(folder: Path, wheelhouse: Path) -> None:
    """What ``pip install .`` and ``extension install`` need, as wheels: the build backend
    and both distributions' dependencies (fetched once per run; the README's run is offline)."""
    ours = [str(p) for p in sorted(wheelhouse.glob("loopx_*.whl"))]
    fetched = subprocess.run(
        [sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check",
         "-d", str(folder), "hatchling>=1.27", *ours],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    if fetched.returncode != 0:
        pytest.skip("the package index could not provide the README path's wheels (no network?)")


@pytest.fixture(scope="session")
def offline_wheels(once_per_run, wheelhouse) -> Path:
    return once_per_run("readme-wheels", lambda folder: _offline_wheels(folder, wheelhouse))


def _sandbox(tmp_path: Path, wheels: Path) -> tuple[Path, Path, dict[str, str]]:
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
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": str(wheels),
        "PIP_CACHE_DIR": str(tmp_path / "pip-cache"),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "TMPDIR": str(tmp_path),
        "LANG": "C.UTF-8",
    }
    if not env["LOOPX_RECALL_NODE22"]:
        node = subprocess.run([str(ROOT / "scripts" / "ensure-node22")], capture_output=True,
                              text=True, check=True, timeout=300).stdout.strip()  # fmt: skip
        env["LOOPX_RECALL_NODE22"] = node
    return clone, home, env


def _isolated() -> list[str]:
    """A new network namespace (only loopback) where this user may make one, else nothing."""
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "-n", "true"], capture_output=True,
                                  check=False).returncode == 0:  # fmt: skip
        return [unshare, "-n"]
    return []


def _run_in_one_shell(steps: list[str], cwd: Path, env: dict[str, str]) -> list[tuple[int, str]]:
    """Run ``steps`` in one bash (``cd`` and ``. activate`` carry over); each one's exit
    status and what it printed (stdout and stderr, interleaved)."""
    marker = "@@loopx-readme-step@@"
    script = "".join(f"{{ {step}\n}} 2>&1 </dev/null\necho \"{marker} $?\"\n" for step in steps)
    done = subprocess.run([*_isolated(), "bash", "-c", script], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL,
                          check=False)  # fmt: skip
    outputs, lines = [], []
    for line in done.stdout.splitlines():
        if line.startswith(marker):
            outputs.append((int(line.split()[-1]), "\n".join(lines)))
            lines = []
        else:
            lines.append(line)
    assert len(outputs) == len(steps), (done.stdout[-3000:], done.stderr[-3000:])
    return outputs


@pytest.mark.slow
@pytest.mark.network
def test_every_readme_block_runs_as_written_and_prints_what_it_shows(tmp_path, offline_wheels):
    blocks = _blocks(README.read_text())
    run = [block for block in blocks if block.not_run is None]
    assert len(run) >= 2
    assert len(blocks) - len(run) <= 3
    steps = [step for block in run for step in block.steps()]
    assert len(steps) >= 11
    clone, home, env = _sandbox(tmp_path, offline_wheels)
    results = _run_in_one_shell([command for command, _shown in steps], clone, env)
    drifted = []  # every step that failed or printed other than shown, all at once
    for (command, shown), (status, printed) in zip(steps, results, strict=True):
        if (status != 0 or "Traceback" in printed
                or (shown is not None and not _matches(shown, printed.splitlines()))):  # fmt: skip
            expected = "\n".join(shown or [])
            drifted.append(f"$ {command}\n(exit {status}; the README shows)\n{expected}\n"
                           f"(it printed)\n{printed[-3000:]}")  # fmt: skip
    assert not drifted, "\n\n".join(drifted)
    # the way out ran last: nothing of ours is left in the settings file or HOME's state
    settings = home / ".claude" / "settings.json"
    assert "loopx-recall" not in settings.read_text()


def test_the_blocks_not_run_here_are_few_and_still_parse():
    blocks = [block for block in _blocks(README.read_text()) if block.not_run is not None]
    assert len(blocks) <= 3
    for block in blocks:
        script = "\n".join(command for command, _shown in block.steps())
        checked = subprocess.run(["bash", "-n"], input=script, capture_output=True, text=True,
                                 check=False)  # fmt: skip
        assert checked.returncode == 0, (block.not_run, checked.stderr)


def _options(command: str) -> list[str]:
    return [word.split("=")[0] for word in shlex.split(command) if word.startswith("--")]


def test_the_guard_blocks_commands_and_options_exist():
    block = _block("loopx-recall recall qualify").body
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
    for command in _block("loopx extension install").body.splitlines():
        words = [w for w in shlex.split(command) if not w.startswith("$(")]
        assert words[0] == "loopx"
        for word in words[1:4]:
            if not word.startswith("-") and word not in ("recall-goal", "recall", "."):
                assert f'"{word}"' in lane, (command, word)


def test_the_start_block_names_the_scripts_there_are():
    block = _block("git clone <this repository>").body
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
