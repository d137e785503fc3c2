# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Ground rules for the whole suite, the host's tests and the plugin's (this folder is a
parent of both; the plugin's own configuration reaches it with ``--confcutdir``).

* **The real HOME is never touched.** Before any test is collected the run's ``HOME`` and
  XDG folders point into a throw-away folder and the variables that would lead elsewhere
  (``CODEX_HOME``, ``CLAUDE_CONFIG_DIR``, ``OBELISK_HOME``, ``LOOPX_RECALL_HOME``) are unset,
  so they follow HOME as they do for a user without them; every test gets a HOME of its own,
  and the controlling process fails the run when anything under the real HOME changed. A
  provider, runtime or tool spawned without an explicit HOME therefore lands in a
  temporary folder, never in the user's ``~/.obelisk``, ``~/.claude`` or ``~/.codex``.
* ``once_per_run``: work done once per run, also across pytest-xdist workers.
* For the tests that install what we ship (marked ``slow``): ``wheelhouse`` (both
  distributions and a deliberately broken plugin, built once per run), ``loopx_wheel``
  (LoopX's real wheel from the package index, fetched once per run; marked ``network``,
  skipped only when the index cannot be reached) and ``venvs`` (scratch virtual
  environments and pip in them).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parent

#: Big tool installs under HOME whose files are not stat-ed one by one: their folders still
#: are, so a file created, removed or renamed anywhere in them is seen (0.6 s for the whole
#: HOME instead of 4 s).
_FOLDERS_ONLY = frozenset({".pyenv", ".rustup", ".cargo", ".m2"})
#: Package managers' download caches, not watched at all: any npm or pip the developer runs
#: meanwhile writes there, while one the suite starts writes under the test HOME.
_CACHES = frozenset({".npm", ".cache/pip"})
_GUARD = pytest.StashKey[tuple[Path, dict[str, tuple[int, ...]]]]()
_CHANGED = pytest.StashKey[list[str]]()


#: Variables that move a runtime's files away from HOME: unset, so they follow HOME.
ELSEWHERE = ("CODEX_HOME", "CLAUDE_CONFIG_DIR", "OBELISK_HOME", "LOOPX_RECALL_HOME")


def home_variables(home: Path) -> dict[str, str]:
    """The variables that locate a user's files, pointed into ``home``."""
    return {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_CACHE_HOME": str(home / ".cache"),
    }


def snapshot(home: Path) -> dict[str, tuple[int, ...]]:
    """Every entry under ``home`` with what changes when it is written, created or removed
    (folders: their mtime; files: mtime, size and inode), symlinks not followed."""
    seen: dict[str, tuple[int, ...]] = {}
    caches = {os.path.join(home, name) for name in _CACHES}  # not relpath per entry: 3 s

    def walk(folder: str, files_too: bool) -> None:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return
        for entry in entries:
            if entry.path in caches:
                continue
            try:
                stat = entry.stat(follow_symlinks=False)
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir:
                seen[entry.path] = (stat.st_mtime_ns,)
                tool = folder == str(home) and entry.name in _FOLDERS_ONLY
                walk(entry.path, files_too and not tool)
            elif files_too:
                seen[entry.path] = (stat.st_mtime_ns, stat.st_size, stat.st_ino)

    try:
        top = home.stat()
    except OSError:
        return seen
    seen[str(home)] = (top.st_mtime_ns,)
    walk(str(home), True)
    return seen


def changes(before: dict[str, tuple[int, ...]], after: dict[str, tuple[int, ...]]) -> list[str]:
    return sorted(
        [f"created  {p}" for p in after.keys() - before.keys()]
        + [f"removed  {p}" for p in before.keys() - after.keys()]
        + [f"changed  {p}" for p in before.keys() & after.keys() if before[p] != after[p]]
    )


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):
        return  # an xdist worker: it inherited the controller's redirected environment
    real = Path(os.environ.get("HOME") or os.path.expanduser("~"))
    config.stash[_GUARD] = (real, snapshot(real))
    run_home = Path(tempfile.mkdtemp(prefix="loopx-recall-test-home-"))
    config.add_cleanup(lambda: shutil.rmtree(run_home, ignore_errors=True))
    os.environ.update(home_variables(run_home))
    for name in ELSEWHERE:
        os.environ.pop(name, None)
    # pip's downloads stay in the project's (git-ignored) cache instead of the new HOME.
    os.environ.setdefault("PIP_CACHE_DIR", str(ROOT / ".cache" / "pip"))


def pytest_sessionfinish(session: pytest.Session) -> None:
    guard = session.config.stash.get(_GUARD, None)
    if guard is None:
        return
    real, before = guard
    changed = changes(before, snapshot(real))
    session.config.stash[_CHANGED] = changed
    if changed:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    changed = config.stash.get(_CHANGED, [])
    if changed:
        terminalreporter.section("the real HOME changed during the run", sep="!", red=True)
        for line in changed[:50]:
            terminalreporter.write_line(line)
        if len(changed) > 50:
            terminalreporter.write_line(f"... and {len(changed) - 50} more")


@pytest.fixture(autouse=True)
def _own_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test its own HOME (and state folder), so none reads another's files."""
    home = tmp_path_factory.mktemp("home")
    for name, value in home_variables(home).items():
        monkeypatch.setenv(name, value)
    for name in ELSEWHERE:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="session")
def once_per_run(tmp_path_factory) -> Callable[[str, Callable[[Path], None]], Path]:
    """``once_per_run(name, make)``: a folder that ``make(folder)`` filled once per test run.

    Under xdist the first worker that asks runs ``make`` in the run's shared temporary
    folder while holding a lock; the others wait on that lock (not on a clock) and reuse
    the folder. A ``make`` that raises (or skips) is not recorded as done: the next worker
    tries again and reports its own outcome. Without xdist it simply runs ``make`` once.
    """

    def run(name: str, make: Callable[[Path], None]) -> Path:
        worker = os.environ.get("PYTEST_XDIST_WORKER")
        if worker is None:  # not distributed; the session fixture caches the folder
            folder = tmp_path_factory.mktemp(name)
            make(folder)
            return folder
        shared = tmp_path_factory.getbasetemp().parent / f"once-{name}"
        shared.mkdir(exist_ok=True)
        folder, done = shared / "out", shared / "done.json"
        with (shared / "lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not done.exists():
                shutil.rmtree(folder, ignore_errors=True)  # what a failed attempt left
                folder.mkdir()
                make(folder)
                done.write_text(json.dumps({"made_by": worker}))
        return folder

    return run


# ---- what we ship, installed: wheels, LoopX's real wheel, scratch venvs --------------------

PLUGIN = ROOT / "plugins" / "obelisk-session-evidence"
#: The LoopX release the tests install beside ours.
LOOPX_RELEASE = "2.1.1"


def _build(source: Path, outdir: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(outdir), str(source)],
        check=True,
        capture_output=True,
    )


@pytest.fixture(scope="session")
def wheelhouse(once_per_run):
    """Both distributions and a deliberately broken plugin, built once per test run."""
    return once_per_run("wheelhouse", _build_wheelhouse)


def _build_wheelhouse(out: Path) -> None:
    _build(ROOT, out)
    _build(PLUGIN, out)
    broken = out / "broken-plugin-source"
    broken.mkdir()
    (broken / "broken_loopx_plugin").mkdir()
    (broken / "broken_loopx_plugin" / "__init__.py").write_text(
        'raise RuntimeError("CANARY-BROKEN-PLUGIN /home/secret")\n'
    )
    (broken / "pyproject.toml").write_text(
        textwrap.dedent(
            """
            [build-system]
            requires = ["hatchling>=1.27"]
            build-backend = "hatchling.build"
            [project]
            name = "broken-loopx-plugin"
            version = "0.0.1"
            [project.entry-points."loopx_recall_core.providers"]
            broken = "broken_loopx_plugin"
            [tool.hatch.build.targets.wheel]
            packages = ["broken_loopx_plugin"]
            """
        )
    )
    _build(broken, out)
    shutil.rmtree(broken)


@pytest.fixture(scope="session")
def loopx_wheel(once_per_run) -> Path:
    """LoopX's real wheel from the package index (skipped only when the index is unreachable),
    fetched once per test run whatever the number of workers."""
    return next(once_per_run("loopx-wheel", _download_loopx).glob("loopx-*.whl"))


def _download_loopx(folder: Path) -> None:
    fetched = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "-q",
            "--no-deps",
            "--disable-pip-version-check",
            f"loopx=={LOOPX_RELEASE}",
            "-d",
            str(folder),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    if fetched.returncode != 0 or not list(folder.glob("loopx-*.whl")):
        pytest.skip(f"the package index could not provide loopx=={LOOPX_RELEASE} (no network?)")


def _create_venv(folder: Path) -> Path:
    # without pip: bootstrapping pip costs about 5 s a venv, and _pip installs into it from
    # this environment's pip (``pip --python``); a test whose product runs the venv's own
    # pip (``extension install``) makes its venv with pip itself
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    return folder


def _pip(venv: Path, *args: str) -> None:
    python = str(venv / "bin" / "python")
    # ``install --no-compile``: byte-compiling every module at install (LoopX's 34 MB) cost 3 of
    # its 4.5 s; what a test runs is compiled when first imported, as without the flag
    if args and args[0] == "install":
        args = ("install", "--no-compile", *args[1:])
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", python, "-q", "--disable-pip-version-check",
         *args],
        check=True,
        capture_output=True,
        timeout=600,
    )  # fmt: skip


@pytest.fixture(scope="session")
def venvs() -> SimpleNamespace:
    """``venvs.create(folder)`` makes a virtual environment there (returns ``folder``);
    ``venvs.pip(venv, *args)`` runs that environment's pip quietly (raises on failure)."""
    return SimpleNamespace(create=_create_venv, pip=_pip)
