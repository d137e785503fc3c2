# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The one subprocess runner of this plugin (obelisk and git both go through it).

argv only, never a shell; its own process group, killed whole on timeout, on oversize
output and after exit (a grandchild cannot linger); stdout capped WHILE reading; stderr
read and capped, for classification only. Output is returned as bytes to the caller and
never logged or put into an exception message.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence

import attrs

__all__ = ["RunResult", "run"]

_CHUNK = 65536
_EXIT_GRACE_S = 0.25


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


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


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
    process = subprocess.Popen(
        list(argv),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(env),
        cwd=cwd,
        start_new_session=True,
    )
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
            _kill_group(process)
            process.wait()
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
