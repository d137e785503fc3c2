# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Commands that run another command, by class, and interpreter code compared by tokens.

**Process wrappers** run their tail command unchanged: they change when it runs, for how
long, at what priority, on which CPUs, with what buffering, or time it, never what it
runs. They are dropped with their options (:data:`WRAPPERS`: which options take a value,
how many words come before the command, and the options with which the wrapper runs no
command at all). One class each, with its source (each tool's ``--help``, run here:
GNU coreutils 9.1, util-linux 2.38, GNU time 1.9, bash 5.2):

* scheduling: ``nice`` ("Run COMMAND with an adjusted niceness, which affects process
  scheduling"), ``ionice`` ("Show or change the I/O-scheduling class and priority of a
  process"), ``taskset`` ("Show or change the CPU affinity of a process"; usage
  ``taskset [options] [mask | cpu-list] [pid|cmd [args...]]``), ``chrt`` ("Show or change
  the real-time scheduling attributes of a process"; ``chrt [options] <priority>
  <command> [<arg>...]``);
* time and signals: ``time`` (bash keyword, and ``/usr/bin/time``: "Run COMMAND, then
  print system resource usage"), ``timeout`` ("Start COMMAND, and kill it if still running
  after DURATION": the DURATION is kept apart as the route's ``limit``), ``nohup`` ("Run
  COMMAND, ignoring hangup signals"), ``setsid`` ("Run a program in a new session");
* buffering: ``stdbuf`` ("Run COMMAND, with modified buffering operations for its
  standard streams");
* the shell's own: ``command`` ("Run command with args suppressing the normal shell
  function lookup"; not with ``-v``/``-V``, which only say what a name is), ``exec``,
  ``builtin``.

``env`` runs its command with the assignments it is given (read as the route's
environment); with ``-i``, ``-u``, ``-C``, ``-S`` or ``-`` it changes what runs, and those
stay in the route. **Project runners** (``uv run``, ``poetry run``, ``npx``, ``bundle
exec``, ...) run the tail in the project's environment; their options stay in the route.

**Not neutral**: ``sudo`` runs the command as another user, with that user's rights and,
by default, a reset environment (sudoers(5), ``env_reset``): it is the usual fix for a
permission error, never the same attempt. ``watch`` ("execute a program periodically,
showing output fullscreen") runs it again and again; ``xargs`` takes its arguments from
standard input. They are programs like any other.

**Interpreter code** (``python -c``, ``node -e``/``--eval``/``-p``, ``ruby -e``, ``perl
-e``/``-E``, ``php -r``, ``ts-node``/``tsx``/``bun -e``, ``julia -e``, ``lua -e``,
``Rscript -e``, ``deno eval``) is compared by its tokens: Python's by the standard library's
:mod:`tokenize` (spacing dropped, indentation kept as INDENT/DEDENT), the
others by one tokenizer of strings, numbers, names and single operator characters. Shell code
(``bash -c``) is parsed as a command line.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = [
    "ENV_OUTPUT_ONLY",
    "ENV_VALUE_FLAGS",
    "INLINE_CODE",
    "RUNNER_PROGRAMS",
    "RUNNER_SUBCOMMANDS",
    "RUNNER_VALUE_FLAGS",
    "SHELLS",
    "TIMED_OUT",
    "WRAPPERS",
    "Wrapper",
    "code_tokens",
    "skip_options",
]


class Wrapper(NamedTuple):
    values: frozenset[str] = frozenset()  # options that take a value
    leading: int = 0  # words before the command (a mask, a priority, a DURATION)
    runs_nothing: frozenset[str] = frozenset()  # with one of these it runs no command
    limit: bool = False  # the leading word is a time limit


WRAPPERS: dict[str, Wrapper] = {
    "nice": Wrapper(frozenset({"-n", "--adjustment"})),
    "ionice": Wrapper(
        frozenset({"-c", "--class", "-n", "--classdata"}),
        runs_nothing=frozenset({"-p", "--pid", "-P", "--pgid", "-u", "--uid"}),
    ),
    "taskset": Wrapper(leading=1, runs_nothing=frozenset({"-p", "--pid"})),
    "chrt": Wrapper(
        frozenset({"-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline"}),
        leading=1,
        runs_nothing=frozenset({"-p", "--pid", "-m", "--max"}),
    ),
    "time": Wrapper(frozenset({"-f", "--format", "-o", "--output"})),
    "timeout": Wrapper(frozenset({"-k", "--kill-after", "-s", "--signal"}), 1, limit=True),
    "nohup": Wrapper(),
    "setsid": Wrapper(),
    "stdbuf": Wrapper(frozenset({"-i", "--input", "-o", "--output", "-e", "--error"})),
    "command": Wrapper(runs_nothing=frozenset({"-v", "-V"})),
    "exec": Wrapper(frozenset({"-a"})),
    "builtin": Wrapper(),
}

#: Shells whose ``-c SCRIPT`` is read as a command line.
SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh"})
#: ``env`` options (``env --help``) that take a value: "-u, --unset=NAME", "-C,
#: --chdir=DIR", "-S, --split-string=S"; and the one that changes output alone: "-v,
#: --debug".
ENV_VALUE_FLAGS = frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"})
ENV_OUTPUT_ONLY = frozenset({"-v", "--debug"})
#: ``timeout --help``, "EXIT status": "124 if COMMAND times out", "137 if COMMAND (or
#: timeout itself) is sent the KILL (9) signal (128+9)": stopped by its time limit.
TIMED_OUT = frozenset({124, 137})
#: ``program subcommand`` pairs that run the rest of the line (their options kept).
RUNNER_SUBCOMMANDS = frozenset(
    {
        ("uv", "run"),
        ("poetry", "run"),
        ("pipenv", "run"),
        ("pdm", "run"),
        ("rye", "run"),
        ("hatch", "run"),
        ("pnpm", "exec"),
        ("npm", "exec"),
        ("npm", "x"),  # npm docs, npm-exec: "aliases: x"
        ("bundle", "exec"),  # Bundler docs: "Execute a command in the context of the bundle"
    }
)
#: Programs that run the rest of the line.
RUNNER_PROGRAMS = frozenset({"npx", "bunx"})
#: Runner options that take the next argument as their value.
RUNNER_VALUE_FLAGS = frozenset(
    {"--with", "--python", "-p", "--extra", "--group", "--package", "--directory", "--project"}
    | {"--env-file", "--from", "--index", "--with-requirements", "-e", "--env"}
)
#: Interpreter -> (its options that take inline code, its language).
INLINE_CODE: dict[str, tuple[frozenset[str], str]] = {
    "python": (frozenset({"-c"}), "python"),
    "node": (frozenset({"-e", "--eval", "-p", "--print"}), "other"),
    "ruby": (frozenset({"-e"}), "other"),
    "perl": (frozenset({"-e", "-E"}), "other"),
    "php": (frozenset({"-r"}), "other"),
    # ts-node --help: "-e, --eval [code]", "-p, --print [code]"; Bun docs: "bun -e, --eval";
    # julia --help: "-e, --eval <expr>", "-E, --print <expr>"; lua(1): "-e stat"; Rscript
    # --help: "-e EXPR"; deno docs: "deno eval <code>" (read in ``chain``).
    "ts-node": (frozenset({"-e", "--eval", "-p", "--print"}), "other"),
    "tsx": (frozenset({"-e", "--eval", "-p", "--print"}), "other"),
    "bun": (frozenset({"-e", "--eval", "-p", "--print"}), "other"),
    "julia": (frozenset({"-e", "--eval", "-E", "--print"}), "other"),
    "lua": (frozenset({"-e"}), "other"),
    "Rscript": (frozenset({"-e"}), "other"),
}

_OTHER_TOKEN = re.compile(
    r"""'(?:\\.|[^'\\])*+'|"(?:\\.|[^"\\])*+"|`(?:\\.|[^`\\])*+`|\d[\w.]*|[A-Za-z_$][\w$]*"""
    r"""|[^\sA-Za-z0-9_$'"`]"""
)


def code_tokens(code: str, language: str) -> str:
    """Inline code as its tokens joined by one space: spacing and (Python) comments gone."""
    if language == "python":
        import io
        import tokenize

        try:
            kept = []
            for token in tokenize.generate_tokens(io.StringIO(code).readline):
                if token.type in (tokenize.NL, tokenize.ENDMARKER):
                    continue
                if token.type == tokenize.COMMENT:
                    # kept (spacing folded): on a line put on one line a comment holds the
                    # code after it, which must still count
                    kept.append(" ".join(token.string.split()))
                    continue
                if token.type == tokenize.NEWLINE:
                    kept.append(";")
                elif token.type == tokenize.INDENT:
                    kept.append("<indent>")
                elif token.type == tokenize.DEDENT:
                    kept.append("<dedent>")
                else:
                    kept.append(token.string)
            while kept and kept[-1] in (";", "<dedent>"):
                kept.pop()
            return " ".join(kept)
        except (tokenize.TokenError, SyntaxError, ValueError):
            pass  # not Python a tokenizer can read: the generic tokens below
    return " ".join(_OTHER_TOKEN.findall(code)).rstrip(" ;")


def skip_options(
    tokens: list[str], values: frozenset[str]
) -> tuple[list[str], list[str]]:
    """A wrapper's leading options (kept apart) and the words after them; a value option
    takes the next word unless its value is attached (``-n10``, ``--adjustment=5``,
    ``-oL``); ``-N`` (``nice -10``) is an option."""
    options: list[str] = []
    index = 0
    while index < len(tokens) and tokens[index].startswith("-") and tokens[index] != "-":
        arg = tokens[index]
        index += 1
        if arg == "--":
            break
        options.append(arg)
        if arg in values and index < len(tokens):
            options.append(tokens[index])
            index += 1
    return options, tokens[index:]
