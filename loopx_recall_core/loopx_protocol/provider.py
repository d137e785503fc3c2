# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall-loopx-provider``: the process LoopX runs for our two manifests.

``loopx-recall-loopx-provider capability|decision-context`` reads exactly one JSON request
on stdin (at most 1,000,000 bytes, read strictly) and writes exactly one JSON object and a
newline on stdout, nothing else, ever: the protocol's answer, or a
``loopx_recall_provider_error_v0`` with ``"ok": false`` (exit 1) when the request is not one
it can answer. Diagnostics are one line on stderr naming a reason code, never a value, a
path or a traceback. ``--doctor`` (LoopX's readiness probe) reads no stdin, prints one short
line and exits 0 when the provider can run. Anything else on the command line: one usage
line on stderr, exit 2.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
from collections.abc import Callable
from typing import Any, NoReturn

__all__ = ["MAX_REQUEST_BYTES", "PROTOCOLS", "STDIN_TIMEOUT_S", "main"]

MAX_REQUEST_BYTES = 1_000_000
#: How long the request may take to arrive in full (LoopX writes it at once and closes
#: stdin; ``LOOPX_RECALL_PROVIDER_STDIN_S`` changes it, for a test or a slow pipe).
def _stdin_timeout() -> float:
    try:
        value = float(os.environ.get("LOOPX_RECALL_PROVIDER_STDIN_S", "") or 10)
    except ValueError:
        return 10.0
    return min(max(value, 0.1), 600.0) if value == value else 10.0  # NaN: the default


STDIN_TIMEOUT_S = _stdin_timeout()
#: argument -> module answering that protocol
PROTOCOLS = {
    "capability": "loopx_recall_core.loopx_protocol.capability",
    "decision-context": "loopx_recall_core.loopx_protocol.decision_context",
}
_USAGE = "usage: loopx-recall-loopx-provider capability|decision-context [--doctor]"


def _answerer(protocol: str) -> Callable[[Any], dict[str, Any]]:
    import importlib

    return importlib.import_module(PROTOCOLS[protocol]).answer  # type: ignore[no-any-return]


def _doctor(protocol: str) -> int:
    try:
        _answerer(protocol)  # the whole recall path imports: the provider can run
        from loopx_recall_core import __version__
    except Exception as exc:  # noqa: BLE001 - a probe reports, it never raises
        sys.stderr.write(f"loopx-recall-loopx-provider: not ready ({type(exc).__name__})\n")
        return 1
    try:
        sys.stdout.write(f"loopx-recall-loopx-provider {__version__}: {protocol} ready\n")
        sys.stdout.flush()
    except BrokenPipeError:
        return 1
    except OSError as exc:
        import errno

        # what could not be written would be flushed again at exit: it goes nowhere now
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
        _no_stdout(errno.errorcode.get(exc.errno or 0, type(exc).__name__))
    return 0


def _read_request() -> Any:
    from loopx_recall_core import jsonio
    from loopx_recall_core.loopx_protocol.errors import ProtocolError
    from loopx_recall_core.process import StdinTimeout, read_bounded

    try:  # LoopX writes the request and closes stdin: an end that never comes is refused
        raw = read_bounded(MAX_REQUEST_BYTES, STDIN_TIMEOUT_S)
    except StdinTimeout:
        raise ProtocolError(
            "invalid_request", f"stdin did not close within {STDIN_TIMEOUT_S:g} s"
        ) from None
    if len(raw) > MAX_REQUEST_BYTES:
        raise ProtocolError(
            "invalid_request", f"the request is larger than {MAX_REQUEST_BYTES} bytes"
        )
    try:
        return jsonio.loads(raw)
    except jsonio.JsonInputError as exc:
        raise ProtocolError("invalid_request", f"the request is not strict JSON: {exc}") from None


def _serve(protocol: str) -> tuple[dict[str, Any], int]:
    from loopx_recall_core.loopx_protocol.errors import ProtocolError, error_record
    from loopx_recall_core.private_files import StateError

    try:
        return _answerer(protocol)(_read_request()), 0
    except ProtocolError as exc:
        return error_record(exc.reason_code, str(exc)), 1
    except StateError as exc:  # its message names the problem, never the path
        return error_record("state_unusable", str(exc)), 1
    except Exception as exc:  # noqa: BLE001 - one JSON object, never a traceback
        return error_record("internal_error", f"unexpected {type(exc).__name__}"), 1


def _stop(signum: int, _frame: object) -> None:
    # Unwind (finally blocks kill the runtime's process group, remove scratch files).
    from loopx_recall_core.process import Stopped

    raise Stopped(128 + signum)


def _no_stdout(problem: str) -> NoReturn:
    """One line on stderr (when there is one), exit 2: the answer has nowhere to go."""
    with contextlib.suppress(Exception):
        sys.stderr.write(f"loopx-recall-loopx-provider: cannot write to standard output "
                         f"({problem})\n")  # fmt: skip
        sys.stderr.flush()
    raise SystemExit(2)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    try:  # a closed stdout (`>&-`: Python's sys.stdout is None): said, never a traceback
        os.fstat(1)
    except OSError:
        _no_stdout("EBADF")
    if sys.stderr is None:  # a closed stderr takes everything and says nothing
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the process
    doctor = "--doctor" in args
    rest = [arg for arg in args if arg != "--doctor"]
    if doctor and not rest:
        rest = ["capability"]
    if len(rest) != 1 or rest[0] not in PROTOCOLS:
        sys.stderr.write(_USAGE + "\n")
        raise SystemExit(2)
    if doctor:
        raise SystemExit(_doctor(rest[0]))
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, _stop)
    # Only our one object reaches stdout: while the answer is worked out, file descriptor 1
    # is stderr, so whatever a plugin or a child process prints lands there instead.
    sys.stdout.flush()
    answer_fd = os.dup(1)
    os.dup2(2, 1)
    try:
        answer, status = _serve(rest[0])
    finally:
        sys.stdout.flush()
    if status:
        sys.stderr.write(f"loopx-recall-loopx-provider: {answer['reason_code']}\n")
    try:
        with os.fdopen(answer_fd, "w", encoding="utf-8") as out:
            out.write(json.dumps(answer, ensure_ascii=False, separators=(",", ":")) + "\n")
    except BrokenPipeError:
        raise SystemExit(1) from None  # the reader went away: nothing to say to it
    except OSError as exc:  # a full device: one line, exit 2
        import errno

        _no_stdout(errno.errorcode.get(exc.errno or 0, type(exc).__name__))
    raise SystemExit(status)
