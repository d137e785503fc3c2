# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The one subprocess runner of this plugin (obelisk and git both go through it).

argv only, never a shell; its own process group, killed whole on timeout, on oversize
output and after exit (a grandchild cannot linger); stdout capped WHILE reading; stderr
read and capped, for classification only. Output is returned as bytes to the caller and
never logged or put into an exception message.

Nothing outlives the caller: every child's environment carries a run marker, so after a
run (and at interpreter exit, which SIGTERM/SIGINT/SIGHUP reach through the host CLI) the
group is killed and so is any descendant that left it with ``setsid``, found on Linux by
the marker in ``/proc/<pid>/environ``. The exact limit: a descendant that leaves the
group AND starts with an environment scrubbed of the marker, a child still between fork
and exec while the caller exits, or any process still alive after ``kill -9`` of the caller
itself, is out of reach. Private scratch folders made with
:func:`private_folder` are removed on every exit path the same way.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import secrets
import selectors
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import attrs

__all__ = ["RunResult", "git_output", "private_folder", "run"]

_CHUNK = 65536
_EXIT_GRACE_S = 0.25
#: Environment variable naming the run, inherited by every descendant:
#: ``<this process's prefix>.<run number>``.
MARKER_VARIABLE = "LOOPX_RECALL_RUN"
_PREFIX = f"{os.getpid()}-{secrets.token_hex(8)}"
_runs = itertools.count(1)

_lock = threading.Lock()
_live_groups: set[int] = set()
_live_folders: set[str] = set()
#: Set under _lock: whether a run ever started, and whether the exit cleanup has begun.
_state = {"started": False, "exiting": False}


@attrs.frozen
class RunResult:
    returncode: int | None
    stdout: bytes
    stderr: bytes
    timed_out: bool
    overflowed: bool
    elapsed: float

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out and not self.overflowed


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _marked_processes(marker: str) -> list[int]:
    """Live processes (other than this one) whose environment starts with ``marker``:
    one run's (``prefix.N\0``) or every run's of this process (``prefix.``)."""
    needle = f"\0{MARKER_VARIABLE}={marker}".encode()
    found = []
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit() or int(entry.name) == os.getpid():
                continue
            try:
                environ = Path(entry.path, "environ").read_bytes()
            except OSError:
                continue
            if needle in b"\0" + environ:
                found.append(int(entry.name))
    return found


def _reap_escaped(marker: str) -> None:
    # A descendant that called setsid left our group; kill it and whatever group it leads.
    for _ in range(3):  # a killed escapee's own children may be found on the next pass
        pids = _marked_processes(marker)
        if not pids:
            return
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
            _kill_group(pid)
        time.sleep(0.01)


def _cleanup_at_exit() -> None:
    with _lock:
        _state["exiting"] = True
        groups, folders = list(_live_groups), list(_live_folders)
        started = _state["started"]
    for pgid in groups:
        _kill_group(pgid)
    if started:
        # By marker, even with no group registered: the thread that started a child may not
        # have registered it yet when a signal ends the process (seen on a loaded machine:
        # the child was running, its parent thread had not run since Popen returned).
        _reap_escaped(f"{_PREFIX}.")
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)


atexit.register(_cleanup_at_exit)


@contextlib.contextmanager
def private_folder(prefix: str) -> Iterator[str]:
    """A 0700 scratch folder, removed when the block ends and at interpreter exit."""
    folder = tempfile.mkdtemp(prefix=prefix)
    with _lock:
        _live_folders.add(folder)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        with _lock:
            _live_folders.discard(folder)


def run(
    argv: Sequence[str],
    *,
    env: Mapping[str, str],
    timeout: float,
    stdout_cap: int = 2 * 1024 * 1024,
    stderr_cap: int = 64 * 1024,
    cwd: str | None = None,
) -> RunResult:
    """Run ``argv`` and return what it printed, within ``timeout`` and the caps.

    Raises ``OSError`` only when the program cannot be started at all.
    """
    started = time.monotonic()
    if timeout <= 0:
        return RunResult(None, b"", b"", timed_out=True, overflowed=False, elapsed=0.0)
    marker = f"{_PREFIX}.{next(_runs)}"
    with _lock:
        _state["started"] = True
    process = subprocess.Popen(
        list(argv),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**env, MARKER_VARIABLE: marker},
        cwd=cwd,
        start_new_session=True,
    )
    with _lock:
        _live_groups.add(process.pid)
        late = _state["exiting"]
    if late:  # the exit cleanup ran while Popen was returning: this run ends now
        _kill_group(process.pid)
    buffers = {"stdout": bytearray(), "stderr": bytearray()}
    caps = {"stdout": stdout_cap, "stderr": stderr_cap}
    timed_out = overflowed = False
    exited_at: float | None = None
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ, "stdout")  # type: ignore[arg-type]
        selector.register(process.stderr, selectors.EVENT_READ, "stderr")  # type: ignore[arg-type]
        try:
            while selector.get_map():
                now = time.monotonic()
                if now - started >= timeout:
                    timed_out = True
                    break
                if exited_at is None and process.poll() is not None:
                    exited_at = now
                if exited_at is not None and now - exited_at > _EXIT_GRACE_S:
                    break  # the program is gone; whoever still holds the pipes is killed
                wait = min(0.05, timeout - (now - started))
                for key, _ in selector.select(wait):
                    chunk = os.read(key.fd, _CHUNK)
                    if not chunk:
                        selector.unregister(key.fileobj)
                        continue
                    buffer = buffers[key.data]
                    room = caps[key.data] + 1 - len(buffer)
                    buffer += chunk[: max(room, 0)]
                    if key.data == "stdout" and len(buffer) > stdout_cap:
                        overflowed = True
                        break
                if overflowed:
                    break
        finally:
            _kill_group(process.pid)
            process.wait()
            with _lock:
                _live_groups.discard(process.pid)
            _reap_escaped(marker + "\0")
            for stream in (process.stdout, process.stderr):
                if stream is not None:
                    stream.close()
    return RunResult(
        returncode=None if (timed_out or overflowed) else process.returncode,
        stdout=bytes(buffers["stdout"][:stdout_cap]),
        stderr=bytes(buffers["stderr"][:stderr_cap]),
        timed_out=timed_out,
        overflowed=overflowed,
        elapsed=time.monotonic() - started,
    )


#: git answers locally; a hung one (a lock, a network filesystem) must not hold a request.
_GIT_TIMEOUT_S = 10.0


def git_output(args: list[str], cwd: str) -> str | None:
    """``git ARGS`` in ``cwd`` with a minimal environment: its stdout, or None on failure."""
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "LC_ALL")}
    try:
        result = run(
            ["git", *args], env=env, timeout=_GIT_TIMEOUT_S, cwd=cwd, stdout_cap=1024 * 1024
        )
    except OSError:
        return None
    if not result.ok:
        return None
    return result.stdout.decode("utf-8", "replace")
