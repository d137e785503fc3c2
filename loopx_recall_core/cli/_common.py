# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Shared CLI plumbing: output formats, input files, and failures without tracebacks."""

from __future__ import annotations

import math
import os
import stat
import sys
from collections.abc import Callable
from typing import IO, Any

import click

from loopx_recall_core import jsonio
from loopx_recall_core.cli._render import dumps, terminal_text
from loopx_recall_core.private_files import StateError

MAX_INPUT_BYTES = 1_000_000


def session_id_help() -> str:
    """How a session id may be given: the runtime's own, or the index's name of it (the
    runtime records' prefixes)."""
    from loopx_recall_core.runtimes import RECORDS

    named = ", ".join(f"{r.index_prefix}<id>" for r in RECORDS.values() if r.index_prefix)
    return f"the runtime's own session id, or the index's name of it ({named})"


def format_option(
    default: str = "text", help: str = "Output format."
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--format json|text`` (the output format of a command whose output is data)."""
    return click.option(
        "--format",
        "output_format",
        type=click.Choice(["json", "text"]),
        default=default,
        show_default=True,
        help=help,
    )


Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def stacked(*decorators: Decorator) -> Decorator:
    """One decorator applying ``decorators`` in the order written (top one outermost)."""

    def apply(function: Callable[..., Any]) -> Callable[..., Any]:
        for decorator in reversed(decorators):
            function = decorator(function)
        return function

    return apply


def timeout_option(default: float, help: str) -> Decorator:
    """``--timeout SECONDS`` (0.1 to 300, finite), with its default shown."""
    return click.option(
        "--timeout",
        type=FiniteFloatRange(0.1, 300),
        default=default,
        show_default=True,
        help=help,
    )


#: The request limits' bounds as an enablement's ceilings take them.
CEILING_RANGES = {
    "max_sessions": (1, 50),
    "max_items": (1, 64),
    "max_snippet_chars": (1, 2000),
    "max_total_chars": (1, 32000),
}


def limit_options(defaults: dict[str, int], *, bounded: bool = False) -> Decorator:
    """``--max-sessions``, ``--max-items``, ``--max-snippet-chars``, ``--max-total-chars``
    with ``defaults``; ``bounded``: within :data:`CEILING_RANGES` (an enablement's
    ceilings), else any integer (a request's limits: admission clamps them)."""
    return stacked(
        *(
            click.option(
                "--" + name.replace("_", "-"),
                type=click.IntRange(*CEILING_RANGES[name]) if bounded else int,
                default=defaults[name],
            )
            for name in CEILING_RANGES
        )
    )


def json_file_option(name: str, help: str, *, required: bool = True) -> Decorator:
    """``--NAME-json PATH``: a JSON object read by :func:`read_json_object`."""
    return click.option(f"--{name}-json", required=required, metavar="PATH", help=help)


class FiniteFloatRange(click.FloatRange):
    """The type of every float option: ``click.FloatRange`` that also refuses ``nan``,
    ``inf`` and ``-inf`` (a usage error, exit 2, like any other bad option value).

    ``FloatRange`` lets ``nan`` through whatever its bounds (it compares false with both),
    and an unbounded ``click.FLOAT`` takes all three; none of them is a sensible count of
    seconds or anything else. ``tests/core/test_non_finite_numbers_refused.py`` fails when a
    float option of any command uses another type.
    """

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            # the value itself is not repeated, as for every other refusal of ours
            self.fail("not a finite number", param, ctx)
        return super().convert(number, param, ctx)


class Failure(click.ClickException):
    """A command's failure: one line on stderr, never a traceback. The message is safe to
    print: it never holds a value the user gave, a path or a snippet."""

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


class Rejected(Failure):
    """Bad input or a refused operation: exit status 1."""

    exit_code = 1


class EnvironmentProblem(Failure):
    """The environment cannot do what was asked (pip missing, an unusable state folder,
    ...): exit status 2."""

    exit_code = 2


class EvidenceError(Rejected):
    """An external-evidence command's rejection: exit status 1 and the contract's error
    record (``loopx_external_evidence_error_v0``) on stdout instead of the line."""

    def show(self, file: IO[Any] | None = None) -> None:
        from loopx_recall_core.external_evidence import error_record

        click.echo(dumps(error_record(self.format_message())))


class Command(click.Command):
    """A command whose library calls may meet an unusable state folder: that is the
    owner's environment (exit 2, one line), whichever library call met it first."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except StateError as exc:
            raise EnvironmentProblem(str(exc)) from None


class Group(click.Group):
    """A command group whose commands are :class:`Command` s. Its listing shows each
    command's first sentence whole, wrapped (click's default cuts it at the terminal's
    width mid-sentence: "Guarded calls, matches, warned-then-avoided,...")."""

    command_class = Command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is None or command.hidden:
                continue
            rows.append((name, first_sentence(command.short_help or command.help or "")))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def first_sentence(text: str) -> str:
    """The first sentence of a help text's first paragraph (all of it without a full stop)."""
    words = text.split("\n\n")[0].split()
    for index, word in enumerate(words):
        if word.endswith("."):
            return " ".join(words[: index + 1])
    return " ".join(words)


def emit(data: Any, output_format: str, render_text: Callable[[Any], str]) -> None:
    """Print ``data`` as JSON, or as ``render_text`` renders it, made safe for a terminal
    (:func:`~loopx_recall_core.cli._render.terminal_text`: records carry transcript text)."""
    click.echo(dumps(data) if output_format == "json" else terminal_text(render_text(data)))


def read_input(path: str, what: str) -> bytes:
    """The bytes of ``path`` (``-``: standard input), at most 1,000,000, or Rejected.

    Only a regular file is read (a FIFO, device or folder is refused without blocking).
    Messages name the option, never the file's content or path.
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
        if path == "-":
            import errno

            code = errno.errorcode.get(exc.errno or 0, type(exc).__name__)
            raise Rejected(f"{what} -: cannot read standard input ({code})") from None
        raise Rejected(f"{what}: cannot read the file ({type(exc).__name__})") from None
    if len(raw) > MAX_INPUT_BYTES:
        raise Rejected(f"{what}: file is larger than {MAX_INPUT_BYTES} bytes")
    return raw


def read_text_input(path: str, what: str) -> str:
    """The UTF-8 text of ``path`` (``-``: standard input), as :func:`read_input` reads it.
    For what must stay off the command line, where every local user can read it (``ps``)."""
    try:
        return read_input(path, what).decode("utf-8")
    except UnicodeDecodeError:
        raise Rejected(f"{what}: not UTF-8 text") from None


def read_json_object(path: str, what: str) -> dict[str, Any]:
    """Read one JSON object from ``path`` (as :func:`read_input` reads it) or raise Rejected.

    Parsed by the strict :func:`loopx_recall_core.jsonio.loads` (duplicate keys, huge
    integers, NaN and deep nesting are rejected).
    """
    raw = read_input(path, what)
    try:
        value = jsonio.loads(raw)
    except jsonio.JsonInputError as exc:
        # duplicate keys, integers over 20 digits, NaN, deep nesting, bad UTF-8: one line
        raise Rejected(f"{what}: {exc}") from None
    if not isinstance(value, dict):
        raise Rejected(f"{what}: must hold a JSON object")
    return value


def confirm(question: str, refusal: str) -> None:
    """Ask ``question`` on a terminal ("n": click's Aborted!, exit 1); without one, refuse
    in one line that says how to go on: ``refusal`` + ``: pass --yes to go ahead``."""
    import sys

    if not sys.stdin.isatty():
        raise Rejected(f"{refusal}: pass --yes to go ahead (no terminal to ask)")
    click.confirm(question, abort=True, err=True)
