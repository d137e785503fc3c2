# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Standard streams that cannot take the output: one line on stderr and exit 2.

A full disk or device (``OSError``, ``ENOSPC`` on ``/dev/full``), an I/O error, or an
encoding that cannot represent a character of the output (``PYTHONIOENCODING=latin-1``
and a value the user typed in another script: ``UnicodeEncodeError``) is the owner's
environment, not a bug. ``main()`` wraps the real ``sys.stdout`` and ``sys.stderr`` in
:class:`_Guarded` before anything is printed, so every write, click's and the fast
path's alike, turns such a failure into :class:`OutputFailed`, which ``main()`` reports
with :func:`report`. Telling it apart at the stream is what keeps any other ``OSError``
from being mistaken for it.

A reader that went away (``BrokenPipeError``) is left as it is: click and the fast path
exit 1 without a word, as ``| head`` expects.

Importing this module imports nothing beyond the interpreter's own start-up modules.
"""

from __future__ import annotations

import errno
import io
import os
import sys

__all__ = ["OutputFailed", "closed_streams", "guard", "report"]


class OutputFailed(Exception):
    """A standard stream could not take a write; the message is safe to print (an errno
    name or an encoding, never the text)."""

    def __init__(self, stream: str, message: str) -> None:
        super().__init__(message)
        self.stream = stream


def _message(stream: str, exc: OSError | UnicodeEncodeError) -> str:
    if isinstance(exc, UnicodeEncodeError):
        return (
            f"standard {stream}'s encoding ({exc.encoding}) cannot represent the output "
            "(set PYTHONIOENCODING=utf-8 or use a UTF-8 locale)"
        )
    code = errno.errorcode.get(exc.errno or 0, type(exc).__name__)
    return f"cannot write to standard {stream} ({code})"


def _failed(name: str, exc: OSError | UnicodeEncodeError) -> OutputFailed:
    return OutputFailed(name, _message(name, exc))


class _GuardedBuffer(io.BufferedWriter):
    """The bytes layer: every byte written to the stream's file descriptor passes here,
    also when click writes to ``.buffer`` itself (it does for a stream it finds
    misconfigured, such as an ASCII one)."""

    stream_name = "output"

    def write(self, data: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        try:
            return super().write(data)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise self._gave_up(exc) from None

    def flush(self) -> None:
        try:
            super().flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise self._gave_up(exc) from None

    def _gave_up(self, exc: OSError) -> OutputFailed:
        # What could not be written stays in the buffer, and Python flushes it again at
        # exit ("Exception ignored ... OSError"), also when the caller went on (a runtime
        # hook never fails): from now on the descriptor leads to /dev/null.
        _silence(self.raw.fileno())
        return _failed(self.stream_name, exc)


class _Guarded(io.TextIOWrapper):
    """The text layer, over a :class:`_GuardedBuffer`: a character the encoding cannot
    represent is :class:`OutputFailed` too."""

    stream_name = "output"

    def write(self, text: str) -> int:
        try:
            return super().write(text)
        except UnicodeEncodeError as exc:
            raise _failed(self.stream_name, exc) from None


def _guarded(stream: io.TextIOWrapper, name: str) -> io.TextIOWrapper:
    """A stream like ``stream`` on the same file descriptor, guarded; ``stream`` itself
    when it has no file descriptor."""
    try:
        fd = stream.fileno()
        stream.flush()  # nothing is written yet; anything that was goes out first
    except (OSError, ValueError):
        return stream
    # a raw file of its own (closefd=False: the descriptor stays the interpreter's), so
    # that the original stream, closed at exit, never closes the one written through
    raw = io.FileIO(fd, "w", closefd=False)
    buffer = _GuardedBuffer(raw)
    buffer.stream_name = name
    guarded = _Guarded(
        buffer,
        encoding=stream.encoding,
        errors=stream.errors,
        line_buffering=stream.line_buffering,
        write_through=stream.write_through,
    )
    guarded.stream_name = name
    return guarded


class _ClosedInput(io.TextIOBase):
    """Standard input that was closed when the command started: never a terminal, and
    every read is ``OSError(EBADF)`` (a reader of ``-`` says so in one line)."""

    encoding = "utf-8"

    def isatty(self) -> bool:
        return False

    def readable(self) -> bool:
        return True

    def fileno(self) -> int:
        raise OSError(errno.EBADF, "standard input is closed")

    def read(self, size: int | None = -1) -> str:
        raise OSError(errno.EBADF, "standard input is closed")

    readline = read  # type: ignore[assignment]

    @property
    def buffer(self) -> _ClosedInput:
        return self


class _ClosedOutput(io.TextIOBase):
    """Standard output that was closed when the command started: the first write is
    :class:`OutputFailed` (one line on stderr, exit 2), never a silent exit 0."""

    encoding = "utf-8"

    def isatty(self) -> bool:
        return False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    def write(self, text: str) -> int:
        if not text:
            return 0
        raise _failed("output", OSError(errno.EBADF, "closed"))

    @property
    def buffer(self) -> _ClosedOutput:
        return self

    def flush(self) -> None:
        pass


def closed_streams() -> None:
    """Descriptors 0, 1 and 2 that were closed when the command started lead to
    ``/dev/null`` (so no file the command opens later lands on one of them, and no child
    inherits it there); ``sys.stdin`` and ``sys.stdout`` (which Python sets to None for
    them) say they are closed: reading ``-`` and printing the answer are one line and an
    exit code. A closed stderr takes everything and says nothing (the exit status does)."""
    missing = []
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            missing.append(fd)
    for fd in missing:
        try:
            null = os.open(os.devnull, os.O_RDWR)
        except OSError:
            break
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
    if sys.stdin is None or 0 in missing:
        sys.stdin = _ClosedInput()
    if sys.stdout is None or 1 in missing:
        sys.stdout = _ClosedOutput()
    if sys.stderr is None or 2 in missing:
        try:
            sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8")
        except (OSError, ValueError):
            sys.stderr = _ClosedOutput()


def guard() -> None:
    """Wrap the interpreter's own ``sys.stdout`` and ``sys.stderr`` (a stream replaced by
    a test runner or an embedder is left alone)."""
    if type(sys.stdout) is io.TextIOWrapper:
        sys.stdout = _guarded(sys.stdout, "output")
    if type(sys.stderr) is io.TextIOWrapper:
        sys.stderr = _guarded(sys.stderr, "error")


def _silence(fd: int) -> None:
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except OSError:
        pass


def report(failed: OutputFailed) -> int:
    """Say what failed in one line on stderr (when stderr can take it); the exit status."""
    if failed.stream == "output":
        try:
            sys.stderr.write(f"error: {failed}\n")
            sys.stderr.flush()
        except (OutputFailed, OSError, ValueError):
            pass  # stderr cannot take it either: the exit status still says it
    return 2
