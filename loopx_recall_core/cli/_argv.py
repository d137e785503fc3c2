# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The command-line check every command runs first (kept apart: the root group imports
only this and click, so ``--help`` and ``--version`` stay cheap)."""

from __future__ import annotations

from typing import Any

import click

__all__ = ["UndecodableArgument", "check_arguments"]


class UndecodableArgument(click.UsageError):
    """A command-line argument that is not UTF-8: exit status 2, one line, no value."""

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


def _is_undecodable(text: str) -> bool:
    # On POSIX, Python decodes argv with surrogateescape: each byte that is not UTF-8
    # arrives as a lone surrogate U+DC80..U+DCFF. Any lone surrogate is refused.
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _names_option(arg: str) -> bool:
    return arg.startswith("-") and arg != "--" and "=" not in arg and not _is_undecodable(arg)


def check_arguments(args: list[str]) -> None:
    """Refuse a command line with an argument that is not valid UTF-8.

    The one check for every option and argument of every command (run by the root group
    before any parsing): such a value would otherwise fail deep inside (state, private
    store, digests) with a traceback. The message names the option or the argument's
    position, never its value.
    """
    for index, arg in enumerate(args):
        if not _is_undecodable(arg):
            continue
        name, _sep, _value = arg.partition("=")
        if arg.startswith("--") and _sep and not _is_undecodable(name):
            where = name
        elif index > 0 and _names_option(args[index - 1]):
            where = args[index - 1]
        else:
            where = f"argument {index + 1}"
        raise UndecodableArgument(
            f"{where}: not valid UTF-8 (command-line arguments must be UTF-8 text)"
        )
