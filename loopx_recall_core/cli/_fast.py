# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The click-free fast path for the commands a runtime or an owner runs most often.

``main()`` asks :func:`run` first. It answers only command lines it understands in full:

- ``loopx-recall``, ``--help``, ``-h``: the root help (no arguments: on stderr, exit 2, as
  click does), printed from :data:`ROOT_HELP`, click's own rendering of it at the default
  width (tests/cli/test_cli_fast.py fails when the two drift apart);
- ``--version``;
- ``capability status agent-turn-recall`` with its options (``--provider``,
  ``--project-id``, ``--agent-id``, ``--format``, ``--show-private``; ``--opt value`` or
  ``--opt=value``, in any order, the last of a repeated option winning).

Anything else returns None and goes to click unchanged: an unknown or malformed option, a
missing value, a bad choice, a value that starts with ``-``, ``--``, another command, a
sub-command's ``--help``, an argument that is not UTF-8, a terminal narrower than 80
columns, a shell-completion request, standard streams that are not UTF-8 text files. So
every usage error is click's, word for word, and click stays the authority for the
command line: a test runs each command line both ways and compares stdout, stderr and
the exit status.

Importing this module imports nothing beyond the interpreter's own start-up modules.
"""

from __future__ import annotations

import io
import os
import sys

from loopx_recall_core.cli._groups import GROUP_HELP

__all__ = ["ROOT_HELP", "run"]


def _short_help(text: str, limit: int) -> str:
    """click's short help of ``text`` at ``limit`` characters (``make_default_short_help``):
    the first sentence when it fits, else as many words as fit and "..."."""
    words = text.split("\n\n")[0].split()
    length = 0
    for i, word in enumerate(words):
        length += len(word) + (i > 0)
        if length > limit:
            break
        if word.endswith("."):
            return " ".join(words[: i + 1])
        if length == limit and i != len(words) - 1:
            break
    else:
        return " ".join(words)
    length += len("...")
    while i > 0:
        length -= len(words[i]) + (i > 0)
        if length <= limit:
            break
        i -= 1
    return " ".join(words[:i]) + "..."


def _commands(width: int = 78) -> str:
    """The root help's Commands listing at click's default width, from the one group table
    (:data:`loopx_recall_core.cli.GROUPS`)."""
    widest = max(map(len, GROUP_HELP))
    return "\n".join(
        f"  {name:<{widest}}  {_short_help(GROUP_HELP[name], width - 6 - widest)}"
        for name in sorted(GROUP_HELP)
    )


#: click's ``--help`` of the root group at the default width (78 columns of text); ``{prog}``
#: is the program name.
ROOT_HELP = """\
Usage: {prog} [OPTIONS] COMMAND [ARGS]...

  LoopX recall core: agent-turn-recall and external-evidence-research.

  Exit status: 0 ok, 1 rejected input or refused operation, 2 usage or
  environment problem (including a command-line argument that is not UTF-8).

Options:
  --version   Show the version and exit.
  -h, --help  Show this message and exit.

Commands:
""" + _commands()

#: Program names whose usage line fits ROOT_HELP's (a longer one may wrap in click).
_PROGRAMS = ("loopx-recall",)

#: ``capability status`` options that take a value, and the flag.
_STATUS_OPTIONS = {
    "--provider": "provider_id",
    "--project-id": "project_id",
    "--agent-id": "agent_id",
    "--format": "output_format",
}
_STATUS_FLAG = "--show-private"
_CAPABILITY = "agent-turn-recall"
_FORMATS = ("json", "text")


def _plain(stream: object) -> bool:
    # A UTF-8 text file: click.echo writes to it as it is (no re-wrapping). main()'s
    # guarded streams (cli/_output.py) are text files of this kind.
    encoding = getattr(stream, "encoding", None) or ""
    return isinstance(stream, io.TextIOWrapper) and encoding.lower().replace("_", "-") in (
        "utf-8",
        "utf8",
    )


def _terminal_columns() -> int:
    # shutil.get_terminal_size().columns (what click's help formatter reads), without
    # importing shutil: $COLUMNS, else the terminal of sys.__stdout__, else 80.
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def _echo(text: str, *, err: bool = False) -> None:
    """``click.echo(text, err=err)`` for the plain UTF-8 streams :func:`run` accepts:
    ANSI escapes are dropped unless the stream is a terminal, then a newline, a flush."""
    stream = sys.stderr if err else sys.stdout
    try:
        terminal = stream.isatty()
    except Exception:  # noqa: BLE001 - as click.utils.isatty
        terminal = False
    if not terminal and "\033" in text:
        import re

        text = re.sub(r"\033\[[0-?]*[ -/]*[@-~]", "", text)  # click's _ansi_re
    stream.write(text + "\n")
    stream.flush()


def _status_options(args: list[str]) -> dict[str, object] | None:
    """The options of ``capability status ARGS``, or None unless they are all valid."""
    options: dict[str, object] = {
        "provider_id": None,
        "project_id": None,
        "agent_id": None,
        "output_format": "text",
        "show_private": False,
    }
    capability = None
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg.startswith("--"):
            name, equals, value = arg.partition("=")
            if name == _STATUS_FLAG and not equals:
                options["show_private"] = True
                continue
            if name not in _STATUS_OPTIONS:
                return None  # unknown option, `--`, `--show-private=x`: click's message
            if not equals:
                if not rest:
                    return None
                value = rest.pop(0)
            if value.startswith("-"):
                return None  # click's reading of such a value is left to click
            options[_STATUS_OPTIONS[name]] = value
        elif arg.startswith("-") or capability is not None:
            return None  # -h, another short option, a second argument
        else:
            capability = arg
    if capability != _CAPABILITY or options["provider_id"] is None:
        return None
    if options["output_format"] not in _FORMATS:
        return None
    return options


def _status(options: dict[str, object]) -> int:
    from loopx_recall_core.capability_status import status_record
    from loopx_recall_core.cli._render import status_output
    from loopx_recall_core.state import StateError

    try:
        record = status_record(
            provider_id=str(options["provider_id"]),
            project_id=options["project_id"],  # type: ignore[arg-type]
            agent_id=options["agent_id"],  # type: ignore[arg-type]
            show_private=bool(options["show_private"]),
        )
    except StateError as exc:
        _echo(f"error: {exc}", err=True)  # as cli/_common.Command: one line, exit 2
        return 2
    _echo(status_output(record, str(options["output_format"])))
    return 0


def _root_help(prog_name: str) -> str | None:
    if prog_name not in _PROGRAMS or _terminal_columns() < 80:
        return None  # another width: click wraps the text its own way
    return ROOT_HELP.format(prog=prog_name)


def _dispatch(args: list[str], prog_name: str) -> int | None:
    if args in ([], ["--help"], ["-h"]):
        text = _root_help(prog_name)
        if text is None:
            return None
        _echo(text, err=not args)  # bare: click's NoArgsIsHelpError, on stderr, exit 2
        return 2 if not args else 0
    if args == ["--version"]:
        from loopx_recall_core import __version__

        _echo(f"loopx-recall, version {__version__}")
        return 0
    if args[:2] == ["capability", "status"]:
        options = _status_options(args[2:])
        return None if options is None else _status(options)
    return None


class _Pacified:
    """click's ``_PacifyFlushWrapper``: a flush on a closed pipe is not an error."""

    def __init__(self, wrapped: object) -> None:
        self.wrapped = wrapped

    def flush(self) -> None:
        import contextlib

        with contextlib.suppress(BrokenPipeError):
            self.wrapped.flush()  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> object:
        return getattr(self.wrapped, name)


def run(args: list[str], prog_name: str) -> int | None:
    """The exit status of ``args`` when this path answers them, else None (click's turn)."""
    complete = "_" + prog_name.replace("-", "_").replace(".", "_").upper() + "_COMPLETE"
    if complete in os.environ or not (_plain(sys.stdout) and _plain(sys.stderr)):
        return None
    for arg in args:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            return None  # click's one-line refusal (cli/_argv.py)
    try:
        return _dispatch(args, prog_name)
    except BrokenPipeError:
        # as click's main(): the reader went away; exit 1 without a traceback at exit
        sys.stdout = _Pacified(sys.stdout)  # type: ignore[assignment]
        sys.stderr = _Pacified(sys.stderr)  # type: ignore[assignment]
        return 1
