# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Reusable pytest fixtures and helpers for the ``obelisk`` protocol double.

The plugin's tests/conftest.py exposes the fixtures to every test of the plugin; a test
imports the helpers relatively (``from ..obelisk_double.fixtures import double_settings``).

Fixtures
    obelisk_bin   (session) Path of the ``obelisk`` wrapper; makes sure node >= 22.13
                  exists (installing it once if needed: a failure ERRORS the test, it
                  never skips) and exports LOOPX_RECALL_NODE22 so every later spawn of the
                  wrapper, including ones made by code under test, skips the lookup.
    archive_now   the ``now`` the archive is generated for: the wall clock at whole
                  seconds, so the double's build times and the archive agree. Override
                  it in your own conftest for fully frozen timestamps.
    archive_home  an Archive (loopx_recall_core.qualification.transcripts) generated in
                  ``tmp_path/home``; use ``archive_home.home`` as HOME for the double.

Helpers
    INDEX_FILE, WRITER_LOCK_FILE
                                the index and the writer lease, relative to HOME
    double_settings(home, **values)
                                write the double's settings file ``home/.obelisk-double.json``
                                (build_grace_ms 0 unless given; fault, version, slow_ms,
                                nonce_poll_ms, flood_max_bytes ...): its switches,
                                replacing earlier ones
    double_env(home, extra_env=None, **settings)
                                env for a run against ``home`` (HOME plus ``extra_env``),
                                after writing ``double_settings(home, **settings)``
    a_users_double(folder, obelisk_bin)
                                the double and a PATH as on a machine with Node 22 on PATH
                                (no .cache/node22/selected), or the real binary of the lane
    run_obelisk(args, ...)      spawn the wrapper (or ``binary=``) in its own process group with a
                                wall-clock deadline and an output cap, killing the whole
                                group on either: the behaviour a real caller needs.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from loopx_recall_core.testing import Archive, generate_archive

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[3]  # plugins/obelisk-session-evidence/tests/obelisk_double
OBELISK_WRAPPER = HERE / "obelisk"
ENSURE_NODE22 = REPO_ROOT / "scripts" / "ensure-node22"
#: The double's settings file, relative to the HOME it runs with (see obelisk.mjs).
DOUBLE_SETTINGS_FILE = ".obelisk-double.json"
#: The index and the writer lease, relative to HOME: where the real 0.2.4 CLI keeps them
#: (always under ``$HOME/.obelisk``; it reads no OBELISK_HOME), and so the double too.
INDEX_FILE = Path(".obelisk") / "obelisk.sqlite"
WRITER_LOCK_FILE = Path(".obelisk") / "writer.lock.sqlite"
STDERR_CANARY = "CANARY-OBELISK-STDERR-7f3a"
STDOUT_CANARY = "CANARY-OBELISK-STDOUT-91c2"


@functools.cache
def node22() -> Path:
    """Absolute path of a node >= 22.13; raises (never skips) when it cannot be had."""
    started = time.monotonic()
    proc = subprocess.run(
        [str(ENSURE_NODE22)], capture_output=True, text=True, timeout=900, check=False
    )
    if proc.returncode != 0 or not proc.stdout.strip():
        raise RuntimeError(f"scripts/ensure-node22 failed (exit {proc.returncode}):\n{proc.stderr}")
    path = Path(proc.stdout.strip())
    elapsed = time.monotonic() - started
    if elapsed > 2:
        print(f"ensure-node22 took {elapsed:.1f}s -> {path}", file=sys.stderr)
    return path


def a_users_double(folder: Path, obelisk_bin: Path) -> tuple[Path, str]:
    """``obelisk_bin``, and a PATH, as on a user's machine whose Node 22 is on PATH.

    The product hands Obelisk an allowlisted environment (no LOOPX_RECALL_NODE22), so the
    double then finds its node as the clone of such a user does: scripts/ensure-node22 found
    the node on PATH, installed none and wrote no ``.cache/node22/selected``. For the double,
    a copy of it laid out as in a clone without ``.cache`` (the wrapper, obelisk.mjs,
    scripts/ensure-node22) and a PATH of a folder holding only ``node`` before /usr/bin:/bin
    (node22()): the node the double needs, and no ``obelisk``. A real binary (the
    real-binary lane) is returned as it is, with the same PATH.
    """
    only_node = folder / "node-only"
    only_node.mkdir(parents=True)
    (only_node / "node").symlink_to(node22())
    path = f"{only_node}:/usr/bin:/bin"
    if obelisk_bin != OBELISK_WRAPPER:
        return obelisk_bin, path
    clone = folder / "clone"
    double = clone / OBELISK_WRAPPER.parent.relative_to(REPO_ROOT)
    double.mkdir(parents=True)
    for name in ("obelisk", "obelisk.mjs"):
        shutil.copy2(HERE / name, double / name)
    (clone / "scripts").mkdir()
    shutil.copy2(ENSURE_NODE22, clone / "scripts" / "ensure-node22")
    return double / "obelisk", path


def double_settings(home: Path, **values: object) -> Path:
    """Write the double's settings file under ``home`` and return its path.

    The double takes its switches (``fault``, ``version``, ``slow_ms``, ``build_grace_ms``,
    ``nonce_poll_ms``, ``flood_max_bytes``) only from this file, never from the
    environment, so the product has no test-only variable to forward. ``build_grace_ms``
    is 0 unless given, so every query sees the transcripts as they are now. The file is
    replaced, not merged: switches of an earlier call do not linger.
    """
    home.mkdir(parents=True, exist_ok=True)
    path = home / DOUBLE_SETTINGS_FILE
    path.write_text(json.dumps({"build_grace_ms": 0, **values}), encoding="utf-8")
    return path


def double_env(
    home: Path, extra_env: dict[str, str] | None = None, **settings: object
) -> dict[str, str]:
    """Environment overrides for running the double against ``home``.

    Writes ``double_settings(home, **settings)`` first, so each run gets exactly the
    switches it names (build grace 0 by default) and none left from an earlier run.
    """
    double_settings(home, **settings)
    return {"HOME": str(home), **(extra_env or {})}


@dataclass(frozen=True)
class ObeliskRun:
    returncode: int | None  # None when we had to kill it
    stdout: str
    stderr: str
    timed_out: bool
    overflow: bool
    elapsed: float


def kill_group(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def run_obelisk(
    args: list[str],
    *,
    env: dict[str, str] | None = None,
    timeout: float = 60.0,
    max_output: int = 16 * 1024 * 1024,
    cwd: Path | None = None,
    binary: Path | None = None,
) -> ObeliskRun:
    """Run the wrapper (or ``binary``: e.g. ``obelisk_bin`` for a double-vs-real agreement
    test) with ``env`` layered over os.environ; never hangs, never floods."""
    full_env = dict(os.environ)
    full_env["LOOPX_RECALL_NODE22"] = str(node22())
    full_env.update(env or {})
    started = time.monotonic()
    deadline = started + timeout
    proc = subprocess.Popen(
        [str(binary or OBELISK_WRAPPER), *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=full_env,
        cwd=cwd,
        start_new_session=True,
    )
    buffers = {proc.stdout: bytearray(), proc.stderr: bytearray()}
    timed_out = overflow = False
    with selectors.DefaultSelector() as sel:
        for stream in buffers:
            sel.register(stream, selectors.EVENT_READ)
        while sel.get_map() and not overflow:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                timed_out = True
                break
            for key, _ in sel.select(remaining):
                chunk = os.read(key.fd, 1 << 16)
                if not chunk:
                    sel.unregister(key.fileobj)
                    continue
                buffers[key.fileobj] += chunk
                overflow = overflow or len(buffers[key.fileobj]) > max_output
    returncode: int | None = None
    if not (timed_out or overflow):
        try:
            returncode = proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:  # closed its pipes but kept running
            timed_out = True
    if returncode is None:
        kill_group(proc)
    for stream in buffers:
        stream.close()
    return ObeliskRun(
        returncode=returncode,
        stdout=buffers[proc.stdout].decode("utf-8", "replace"),
        stderr=buffers[proc.stderr].decode("utf-8", "replace"),
        timed_out=timed_out,
        overflow=overflow,
        elapsed=time.monotonic() - started,
    )


#: The real-binary lane: this variable names one real ``obelisk`` executable, or several
#: separated by ``os.pathsep`` (``:``, as in PATH; never installed by the suite: see
#: docs/obelisk-releases.md). Set, the tests that take ``obelisk_bin`` run once per named
#: executable of a supported release, those that take ``runtime_bin`` (double-vs-real
#: agreement) once per named executable, and ``-m real_obelisk`` selects the tests meant
#: to pass against them.
REAL_OBELISK_ENV = "LOOPX_RECALL_REAL_OBELISK"


@dataclass(frozen=True)
class Release:
    """What differs between the Obelisk releases the double can answer as (the same facts
    as ``releaseOf`` in obelisk.mjs; sources in README.md, "Releases")."""

    version: str
    codex_call_ids_per_thread: bool
    messages_visibility: bool
    summaries_visibility: bool
    nonce_phase: bool
    build_reports_outcome: bool

    @classmethod
    def of(cls, version: str) -> Release:
        parts = version.strip().lstrip("v").split(".")
        try:
            v = tuple(int(p.split("-")[0]) for p in parts[:3])
        except ValueError:
            v = (0, 3, 0)
        return cls(
            version=version.strip(),
            codex_call_ids_per_thread=v >= (0, 2, 1),
            messages_visibility=v >= (0, 2, 1),
            summaries_visibility=v >= (0, 2, 4),
            nonce_phase=v >= (0, 2, 4),
            build_reports_outcome=v >= (0, 2, 4),
        )


@dataclass(frozen=True)
class LaneRuntime:
    path: Path
    release: Release

    @property
    def supported(self) -> bool:
        """Not refused for a semantic fault (its index's schema is checked by a query)."""
        from loopx_obelisk_session_evidence.adapter import refusal

        parts = tuple(int(p) for p in self.release.version.split("-")[0].split(".")[:3])
        return refusal(parts) is None  # type: ignore[arg-type]


@functools.cache
def lane_runtimes() -> tuple[LaneRuntime, ...]:
    """The real executables the lane names, each with the release it reports; empty
    outside the lane (then every test meets the double)."""
    named = os.environ.get(REAL_OBELISK_ENV)
    if not named:
        return ()
    found = []
    for part in filter(None, named.split(os.pathsep)):
        path = shutil.which(part)
        if path is None:
            pytest.exit(f"{REAL_OBELISK_ENV} names no executable: {part}", returncode=2)
        answer = subprocess.run(
            [path, "--version"], capture_output=True, text=True, timeout=120, check=False
        )
        if answer.returncode != 0 or not answer.stdout.strip():
            pytest.exit(f"{part} --version failed (exit {answer.returncode})", returncode=2)
        found.append(LaneRuntime(Path(path), Release.of(answer.stdout)))
    return tuple(found)


def real_obelisk() -> Path | None:
    """The first real executable the lane names, or None."""
    runtimes = lane_runtimes()
    return runtimes[0].path if runtimes else None


def _lane_ids(runtimes) -> list[str]:
    return [f"obelisk-{r.release.version}" for r in runtimes]


_SUPPORTED = [r for r in lane_runtimes() if r.supported] if lane_runtimes() else [None]


@pytest.fixture(
    scope="session",
    params=_SUPPORTED,
    ids=_lane_ids(_SUPPORTED) if lane_runtimes() else ["double"],
)
def obelisk_bin(request) -> Path:
    """The runtime under test: each real binary of a supported release the lane names (one
    run of the test per binary), else the double."""
    os.environ["LOOPX_RECALL_NODE22"] = str(node22())
    return request.param.path if request.param is not None else OBELISK_WRAPPER


#: Outside the lane the agreement tests still run once per supported release the double
#: models, the double on both sides: each release's expected answers (taken from the real
#: binaries) then check the double's model of that release. (Its 0.2.0, a refused release,
#: meets the real 0.2.0 in the lane; the refusal tests use it everywhere.)
DOUBLE_RELEASES = ("0.3.0", "0.2.4", "0.2.1")
#: What the double answers as when no setting names a release (obelisk.mjs).
DOUBLE_DEFAULT_VERSION = DOUBLE_RELEASES[0]


def version_of(executable: Path) -> str:
    """The release ``executable`` reports: the double's default, or a lane binary's."""
    for runtime in lane_runtimes():
        if runtime.path == executable:
            return runtime.release.version
    return DOUBLE_DEFAULT_VERSION
_RUNTIMES = list(lane_runtimes()) or [
    LaneRuntime(OBELISK_WRAPPER, Release.of(v)) for v in DOUBLE_RELEASES
]


@pytest.fixture(
    scope="session",
    params=_RUNTIMES,
    ids=[
        f"{'obelisk' if lane_runtimes() else 'double'}-{r.release.version}" for r in _RUNTIMES
    ],
)
def runtime_bin(request) -> LaneRuntime:
    """Every runtime the lane names, supported or not, else the double as each release it
    models: what a double-vs-real agreement test compares the double, answering as the
    same release, with."""
    os.environ["LOOPX_RECALL_NODE22"] = str(node22())
    return request.param


@pytest.fixture(scope="session")
def double_bin() -> Path:
    """The double, whatever the lane (for double-vs-real agreement tests)."""
    os.environ["LOOPX_RECALL_NODE22"] = str(node22())
    return OBELISK_WRAPPER


@pytest.fixture
def archive_now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


@pytest.fixture
def archive_home(tmp_path: Path, archive_now: datetime) -> Archive:
    return generate_archive(tmp_path / "home", now=archive_now)
