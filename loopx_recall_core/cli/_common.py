# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Shared CLI plumbing: output formats, input files, and failures without tracebacks."""

from __future__ import annotations

import functools
import os
import stat
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from loopx_recall_core import jsonio
from loopx_recall_core.cli._render import dumps
from loopx_recall_core.private_files import StateError

F = TypeVar("F", bound=Callable[..., Any])

MAX_INPUT_BYTES = 1_000_000

format_option = click.option(
    "--format",
    "output_format",
    type=click.Choice(["json", "text"]),
    default="text",
    show_default=True,
    help="Output format.",
)


class Rejected(Exception):
    """Bad input or a refused operation: exit status 1, message safe to print."""


class EnvironmentProblem(Exception):
    """The environment cannot do what was asked (pip missing, ...): exit status 2."""


def emit(data: Any, output_format: str, render_text: Callable[[Any], str]) -> None:
    click.echo(dumps(data) if output_format == "json" else render_text(data))


def read_json_object(path: str, what: str) -> dict[str, Any]:
    """Read one JSON object from ``path`` (``-``: standard input; at most 1,000,000
    bytes) or raise Rejected.

    Only a regular file is read (a FIFO, device or folder is refused without blocking).
    Parsed by the strict :func:`loopx_recall_core.jsonio.loads` (duplicate keys, huge
    integers, NaN and deep nesting are rejected). Messages name the option, never the
    file's content or path.
    """
    try:
        if path == "-":
            raw = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        else:
            descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            with os.fdopen(descriptor, "rb") as handle:
                if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                    raise Rejected(f"{what}: not a regular file (use - for standard input)")
                raw = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise Rejected(f"{what}: cannot read the file ({type(exc).__name__})") from None
    if len(raw) > MAX_INPUT_BYTES:
        raise Rejected(f"{what}: file is larger than {MAX_INPUT_BYTES} bytes")
    try:
        value = jsonio.loads(raw)
    except jsonio.JsonInputError as exc:
        # duplicate keys, integers over 20 digits, NaN, deep nesting, bad UTF-8: one line
        raise Rejected(f"{what}: {exc}") from None
    if not isinstance(value, dict):
        raise Rejected(f"{what}: must hold a JSON object")
    return value


def handle_failures(render_error: Callable[[str], Any] | None = None) -> Callable[[F], F]:
    """Turn Rejected/EnvironmentProblem/StateError into exit 1/2/2 with a one-line message,
    no traceback.

    ``render_error`` makes the JSON record printed on stdout for a rejection (the
    external-evidence commands print their contract's error record).
    """

    def decorate(command: F) -> F:
        @functools.wraps(command)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return command(*args, **kwargs)
            except Rejected as exc:
                if render_error is not None:
                    click.echo(dumps(render_error(str(exc))))
                else:
                    click.echo(f"error: {exc}", err=True)
                raise SystemExit(1) from None
            except (EnvironmentProblem, StateError) as exc:
                # StateError: the owner's state folder or files are unusable (exit 2 from
                # every command, whichever library call met it first)
                click.echo(f"error: {exc}", err=True)
                raise SystemExit(2) from None

        return wrapper  # type: ignore[return-value]

    return decorate
