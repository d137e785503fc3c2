# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The README's paths, as written, from a fresh clone, on the Obelisk double.

Every fenced block of README.md runs, in order, in ONE bash (so ``cd`` and ``. activate``
carry over from block to block, as they do for a newcomer typing them), with a temporary
HOME holding a generated sample archive (``~/src/my-project`` a git repository of it), the
Obelisk protocol double on PATH as ``obelisk`` and Node 22 on PATH (LoopX needs it there).
The first block clones this repository's committed HEAD (``<this repository>`` is the one
placeholder the README asks the reader to fill in) and runs the quickstart. Nothing but
loopback: pip installs from a local folder of wheels (``PIP_NO_INDEX``, ``PIP_FIND_LINKS``:
the commands stay as written) and, where this user may make one (root), the whole run is
inside new network and process namespaces (``unshare -n -p``): loopback is up (LoopX's
effect runtime listens on 127.0.0.1) and nothing the run started outlives it.

A block in transcript form (``$ command`` lines, each followed by what it prints) is
compared with what each command printed (stdout and stderr together) after the one
normalisation the README announces: ``...`` inside a line stands for any text (ids,
dates, digests, temporary paths), a line of only ``...`` for any number of lines, and
trailing spaces do not count. Everything else must be printed exactly, no line more or
less. A block of bare commands shows no output: each must exit 0. Every command exits 0
and prints no traceback.

One block cannot run here: the test commands (``scripts/test``, the suite, and
``scripts/readme-lane``, which runs this very test; CI runs both from a clean clone). The
README marks it with ``<!-- readme-test: not run (why) -->`` on the line before it; it is
still checked with ``bash -n`` and by the checks below. This test is a lane of its own
(marker ``readme_lane``): about two minutes, outside the suite's four.
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


def _offline_wheels(folder: Path, wheelhouse: Path, loopx: Path) -> None:
    """What the README's ``pip install`` commands need, as wheels: the build backend, both
    distributions' dependencies and LoopX (fetched once per run; the README's run is offline)."""
    ours = [str(p) for p in sorted(wheelhouse.glob("loopx_*.whl"))]
    fetched = subprocess.run(
        [sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check",
         "-d", str(folder), "hatchling>=1.27", *ours],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    if fetched.returncode != 0:
        pytest.skip("the package index could not provide the README path's wheels (no network?)")
    shutil.copy2(loopx, folder / loopx.name)


@pytest.fixture(scope="session")
def offline_wheels(once_per_run, wheelhouse, loopx_wheel) -> Path:
    return once_per_run(
        "readme-wheels", lambda folder: _offline_wheels(folder, wheelhouse, loopx_wheel)
    )


def _sandbox(tmp_path: Path, wheels: Path) -> tuple[Path, dict[str, str]]:
    """``(HOME, environment)``: a sample archive in HOME, the double and Node 22 on PATH."""
    from loopx_recall_core.testing import generate_archive

    home = tmp_path / "home"
    archive = generate_archive(home, now=datetime.now(UTC).replace(microsecond=0))
    project = archive.repos["alpha"]
    git = ["git", "-c", "user.email=me@example.invalid", "-c", "user.name=me"]
    subprocess.run([*git, "init", "-q"], cwd=project, check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "start"], cwd=project,
                   check=True)  # fmt: skip
    (home / "src" / "my-project").symlink_to(project)
    node = os.environ.get("LOOPX_RECALL_NODE22") or subprocess.run(
        [str(ROOT / "scripts" / "ensure-node22")], capture_output=True, text=True, check=True,
        timeout=300,
    ).stdout.strip()  # fmt: skip
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "obelisk").symlink_to(DOUBLE)
    (tools / "node").symlink_to(node)
    dev_bin = str(Path(sys.executable).parent)
    path = [p for p in os.environ["PATH"].split(os.pathsep) if p and p != dev_bin]
    env = {
        "HOME": str(home),
        "PATH": os.pathsep.join([str(tools), *path]),
        "LOOPX_USAGE_PING": "0",  # docs/loopx.md: LoopX's usage ping off
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": str(wheels),
        "PIP_CACHE_DIR": str(tmp_path / "pip-cache"),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "TMPDIR": str(tmp_path),
        "LANG": "C.UTF-8",
    }
    return home, env


def _isolated() -> tuple[list[str], str]:
    """``(prefix, preamble)``, where this user may make them: a new network namespace whose
    only interface, loopback, is up, and a new process namespace, so that what the README
    starts and leaves running (LoopX's effect runtime) ends with the run; else nothing."""
    unshare, ip = shutil.which("unshare"), shutil.which("ip")
    prefix = [unshare, "-n", "-p", "-f", "--mount-proc"] if unshare and ip else []
    if prefix and subprocess.run([*prefix, ip, "link", "set", "lo", "up"], capture_output=True,
                                 check=False).returncode == 0:  # fmt: skip
        return prefix, f"{shlex.quote(ip)} link set lo up || exit 97\n"
    return [], ""


def _run_in_one_shell(steps: list[str], cwd: Path, env: dict[str, str]) -> list[tuple[int, str]]:
    """Run ``steps`` in one bash (``cd`` and ``. activate`` carry over); each one's exit
    status and what it printed (stdout and stderr, interleaved)."""
    marker = "@@loopx-readme-step@@"
    prefix, preamble = _isolated()
    script = preamble + "".join(
        f"{{ {step}\n}} 2>&1 </dev/null\necho \"{marker} $?\"\n" for step in steps
    )
    done = subprocess.run([*prefix, "bash", "-c", script], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL,
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
@pytest.mark.readme_lane
def test_every_readme_block_runs_as_written_and_prints_what_it_shows(tmp_path, offline_wheels):
    blocks = _blocks(README.read_text())
    run = [block for block in blocks if block.not_run is None]
    assert len(run) >= 5
    assert len(blocks) - len(run) <= 1
    steps = [step for block in run for step in block.steps()]
    assert len(steps) >= 20
    assert steps[0][0].startswith("git clone <this repository> ")
    home, env = _sandbox(tmp_path, offline_wheels)
    commands = [command.replace("<this repository>", shlex.quote(str(ROOT)), 1)
                for command, _shown in steps]  # fmt: skip
    results = _run_in_one_shell(commands, tmp_path, env)
    drifted = []  # every step that failed or printed other than shown, all at once
    for (command, shown), (status, printed) in zip(steps, results, strict=True):
        if (status != 0 or "Traceback" in printed
                or (shown is not None and not _matches(shown, printed.splitlines()))):  # fmt: skip
            expected = "\n".join(shown or [])
            drifted.append(f"$ {command}\n(exit {status}; the README shows)\n{expected}\n"
                           f"(it printed)\n{printed[-3000:]}")  # fmt: skip
    assert not drifted, "\n\n".join(drifted)
    # the way out ran last: nothing of ours is left in HOME's state, nor the settings file
    # step 4 made (there was none: it goes, not a `{}` of ours)
    assert not (home / ".claude" / "settings.json").exists()
    assert not (home / ".local" / "state" / "loopx-recall").exists()


def test_the_one_block_not_run_here_is_the_suite_ci_runs():
    blocks = [block for block in _blocks(README.read_text()) if block.not_run is not None]
    commands = [command for block in blocks for command, _shown in block.steps()]
    assert [command.split()[0] for command in commands] == ["scripts/test", "scripts/readme-lane"]
    ci = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
          if line and not line.startswith(("#", "set ", "cd "))]  # fmt: skip
    assert ci == ["scripts/test", "exec scripts/readme-lane"]
    for block in blocks:
        script = "\n".join(command for command, _shown in block.steps())
        checked = subprocess.run(["bash", "-n"], input=script, capture_output=True, text=True,
                                 check=False)  # fmt: skip
        assert checked.returncode == 0, (block.not_run, checked.stderr)


def test_the_start_blocks_name_the_scripts_there_are():
    for starting in ("git clone <this repository>", "scripts/test"):
        for name in re.findall(r"^(scripts/\S+)", _block(starting).body, flags=re.M):
            assert os.access(ROOT / name, os.X_OK), name


def test_the_stage0_figures_list_every_gate_the_code_judges():
    from loopx_recall_core.qualification.verdict import GATES

    text = (ROOT / "docs" / "stage0.md").read_text()
    block = text.split("<!-- stage0-report: begin -->")[1].split("<!-- stage0-report: end -->")[0]
    rows = re.findall(r"^\| (\w+) \| (pass|fail) \|", block, flags=re.M)
    assert [name for name, _result in rows] == list(GATES)
    assert "**Verdict: PASS**" in block
