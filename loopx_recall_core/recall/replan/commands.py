# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Shell command lines normalized to :class:`Segment` objects, one per material command.

A command is split with :mod:`shlex` into shell segments (``&&``, ``||``, ``;``, ``|``,
``&``, newline); redirections (``2>&1``, ``> log``) and parentheses are dropped; a
backslash-newline is a blank. Then trivially different spellings of one command
normalize to one segment:

* leading ``NAME=value`` assignments and the wrappers ``env``, ``time``, ``nohup``,
  ``command``, ``exec``, ``builtin``, ``nice`` are dropped; ``timeout DURATION`` is
  dropped but its duration stays material, as ``context``;
* ``bash|sh|zsh|dash -c SCRIPT`` (also ``-lc``) is replaced by the segments of SCRIPT;
  ``bash [opts] x.sh`` is ``./x.sh`` (its options stay material, as ``context``);
* runners ``uv run``, ``poetry run``, ``pipenv run``, ``pdm run``, ``rye run``,
  ``hatch run``, ``npx``, ``bunx``, ``pnpm exec``, ``npm exec`` are dropped; options given
  to the runner (``uv run --python 3.12``) stay material, as ``context``;
* ``python[3[.N]] -m MOD`` is ``MOD`` (python options before ``-m`` are ``context``);
  ``python3`` is ``python``; ``py.test`` is ``pytest``; a program in a ``bin/`` or
  ``Scripts/`` folder is its basename (``.venv/bin/pytest`` is ``pytest``);
* setup segments (``cd``, ``export``, ``source``, ``echo``, ``true``, ...) and, after a
  pipe, viewers (``tail``, ``head``, ``grep``, ``tee``, ...) are dropped. ``cd`` to a
  repository-relative folder stays material for the segments after it, as ``context``;
  ``cd`` to the repository root or to an absolute path outside the known root is assumed
  to be the root and dropped;
* arguments are normalized as paths (:mod:`.paths`) when they look like paths;
* flags: order never matters; ``-xvs`` is ``-x -v -s``; ``--opt=v`` is ``--opt v``; a
  flag in ``VALUE_FLAGS`` takes the next argument (``-k expr``); ``FLAG_ALIASES`` map long
  spellings to short ones (``--exitfirst`` is ``-x``); ``COSMETIC_FLAGS`` are dropped;
  every other flag added, removed or changed is material. After ``--`` everything is a
  positional argument;
* positionals keep their order, except for ``ORDER_FREE`` programs (``pytest b.py a.py``
  is ``pytest a.py b.py``).
"""

from __future__ import annotations

import re
import shlex

import attrs

from loopx_recall_core.recall.replan.paths import (
    is_path_like,
    multiset_equal,
    norm_path,
    normalize_arg,
    overlap,
    same_arg,
)

__all__ = [
    "COSMETIC_FLAGS",
    "FLAG_ALIASES",
    "ORDER_FREE",
    "TARGETS_ONLY",
    "VALUE_FLAGS",
    "Segment",
    "command_segments",
]

_ENV_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_PYTHON = re.compile(r"python(?:\d+(?:\.\d+)?)?\Z")
_SHELLS = frozenset({"bash", "sh", "zsh", "dash"})
_PLAIN_WRAPPERS = frozenset({"time", "nohup", "command", "exec", "builtin"})
_RUNNERS_2 = frozenset(
    {
        ("uv", "run"),
        ("poetry", "run"),
        ("pipenv", "run"),
        ("pdm", "run"),
        ("rye", "run"),
        ("hatch", "run"),
        ("pnpm", "exec"),
        ("npm", "exec"),
    }
)
_RUNNERS_1 = frozenset({"npx", "bunx"})
_RUNNER_VALUE_FLAGS = frozenset(
    {"--with", "--python", "-p", "--extra", "--group", "--package", "--directory", "--project"}
    | {"--env-file", "--from", "--index", "--with-requirements", "-e", "--env"}
)
_SETUP = frozenset(
    {"cd", "pushd", "popd", "source", ".", "export", "set", "unset", "true", ":", "echo"}
    | {"printf", "clear", "sleep"}
)
_PIPE_VIEWERS = frozenset(
    {"head", "tail", "tee", "less", "more", "cat", "grep", "rg", "wc", "sort", "uniq", "cut"}
    | {"column", "jq"}
)
_PUNCTUATION = frozenset("();<>|&\n")
_MAX_SHELL_DEPTH = 4

#: Flags that take the next argument as their value, per program.
VALUE_FLAGS: dict[str, frozenset[str]] = {
    "pytest": frozenset(
        {"-k", "-m", "-p", "-c", "-o", "-n", "-W", "-r", "--deselect", "--ignore"}
        | {"--ignore-glob", "--maxfail", "--tb", "--rootdir", "--durations", "--cov"}
        | {"--cov-report", "--junitxml", "--log-level", "--timeout", "--basetemp"}
        | {"--confcutdir", "--import-mode", "--dist", "--numprocesses"}
    ),
    "python": frozenset({"-c", "-W", "-X"}),
    "git": frozenset({"-m", "-C", "-c", "-b", "-B", "--message", "--author", "--format"}),
    "cargo": frozenset(
        {"-p", "--package", "--features", "--bin", "--test", "--target", "-j"}
        | {"--manifest-path", "--profile", "--example"}
    ),
    "go": frozenset({"-run", "-count", "-tags", "-timeout", "-p", "-bench", "-coverprofile"}),
    "npm": frozenset({"--prefix", "-w", "--workspace"}),
    "make": frozenset({"-C", "-f", "-j"}),
    "mypy": frozenset({"--config-file", "-p", "--package", "-m", "--module"}),
    "ruff": frozenset({"--config", "--select", "--ignore", "--extend-select", "--target-version"}),
    "tox": frozenset({"-e", "-c"}),
}

#: Flags dropped before comparison: they change what is shown, not what runs.
COSMETIC_FLAGS: dict[str, frozenset[str]] = {
    "*": frozenset({"--color", "--colour", "--no-color", "--no-colour", "--verbose", "--quiet"}),
    "pytest": frozenset(
        {"-q", "-v", "-r", "-l", "--tb", "--durations", "--no-header", "--no-summary"}
        | {"--showlocals", "--disable-warnings", "--verbosity"}
    ),
    "cargo": frozenset({"-q", "-v"}),
    "go": frozenset({"-v"}),
    "npm": frozenset({"-s", "--silent", "--loglevel"}),
    "make": frozenset({"-s", "--silent"}),
    "mypy": frozenset({"--pretty", "--no-error-summary"}),
    "ruff": frozenset({"-q", "-v"}),
    "tox": frozenset({"-q", "-v"}),
}

#: Long spellings of short flags, per program: compared as the short flag.
FLAG_ALIASES: dict[str, dict[str, str]] = {
    "pytest": {
        "--exitfirst": "-x",
        "--keyword": "-k",
        "--last-failed": "--lf",
        "--failed-first": "--ff",
        "--capture=no": "-s",
    },
}

#: Programs whose positional arguments are a set of independent targets.
ORDER_FREE = frozenset(
    {"pytest", "mypy", "ruff", "black", "isort", "flake8", "pylint", "pyright", "eslint"}
    | {"prettier", "jest", "vitest", "tsc", "rm", "mkdir", "touch", "ls", "wc"}
)

#: Programs without subcommands: every positional is a target (``pytest tests`` names a
#: folder even though ``tests`` does not look like a path).
TARGETS_ONLY = (ORDER_FREE - {"ruff"}) | {"python", "node", "cat"}

#: Programs with single-dash long options (``-run``, ``-name``): never split clusters.
_SINGLE_DASH_LONG = frozenset({"go", "find", "java", "javac"})


@attrs.frozen(kw_only=True)
class Segment:
    """One normalized command of a shell line."""

    program: str
    context: tuple[str, ...] = ()
    flags: tuple[tuple[str, str], ...] = ()
    positionals: tuple[str, ...] = ()

    @property
    def subcommand(self) -> str | None:
        if not self.positionals or self.program in TARGETS_ONLY:
            return None
        first = self.positionals[0]
        return None if is_path_like(first) else first

    @property
    def targets(self) -> tuple[str, ...]:
        return self.positionals[1:] if self.subcommand is not None else self.positionals

    def same(self, other: Segment) -> bool:
        if self.program != other.program:
            return False
        if not multiset_equal(self.context, other.context, same_arg):
            return False
        if not multiset_equal(self.flags, other.flags, _same_flag):
            return False
        if self.program in ORDER_FREE:
            return multiset_equal(self.positionals, other.positionals, same_arg)
        return len(self.positionals) == len(other.positionals) and all(
            same_arg(a, b) for a, b in zip(self.positionals, other.positionals, strict=True)
        )

    def near(self, other: Segment) -> bool:
        if self.program != other.program or self.subcommand != other.subcommand:
            return False
        mine, theirs = self.targets, other.targets
        if not mine and not theirs:
            return True
        return any(overlap(a, b) for a in mine for b in theirs)


def _same_flag(a: tuple[str, str], b: tuple[str, str]) -> bool:
    return a[0] == b[0] and same_arg(a[1], b[1])


def _tokens(command: str) -> list[str]:
    command = command.replace("\\\n", " ")  # a line continuation is a blank
    # Newlines separate commands: make them punctuation instead of whitespace.
    lexer = shlex.shlex(command, posix=True, punctuation_chars="();<>|&\n")
    lexer.whitespace_split = True
    lexer.whitespace = " \t\r"
    lexer.commenters = ""
    try:
        return list(lexer)
    except ValueError:  # unbalanced quotes (e.g. a cut snippet): split on blanks instead
        return re.findall(r"&&|\|\||[;|&()<>\n]+|[^\s;|&()<>]+", command)


def _split_segments(tokens: list[str]) -> list[tuple[list[str], bool]]:
    """Shell segments as (tokens, follows a pipe), redirections and parentheses removed."""
    segments: list[tuple[list[str], bool]] = []
    current: list[str] = []
    after_pipe = False
    skip_next = False
    for index, arg in enumerate(tokens):
        if skip_next:
            skip_next = False
            continue
        if not arg or not set(arg) <= _PUNCTUATION:
            current.append(arg)
            continue
        operator = arg.replace("(", "").replace(")", "")
        if "<" in operator or ">" in operator:
            previous = tokens[index - 1] if index else ""
            if current and current[-1] == previous and previous.isdigit():
                current.pop()  # the fd number of "2>&1"
            skip_next = True  # the redirection target
        elif operator:
            if current:
                segments.append((current, after_pipe))
            current, after_pipe = [], operator.strip("\n") in ("|", "|&")
    if current:
        segments.append((current, after_pipe))
    return segments


def _program_name(arg: str, root: str | None) -> str:
    if "/" in arg:
        parts = arg.rstrip("/").split("/")
        if len(parts) >= 2 and parts[-2] in ("bin", "Scripts"):
            arg = parts[-1]
        else:
            return norm_path(arg, root)
    if _PYTHON.match(arg):
        return "python"
    return "pytest" if arg == "py.test" else arg


def _skip_options(tokens: list[str], value_flags: frozenset[str]) -> tuple[list[str], list[str]]:
    """Leading options of a wrapper (kept as context) and the rest."""
    options: list[str] = []
    index = 0
    while index < len(tokens) and tokens[index].startswith("-") and tokens[index] != "-":
        arg = tokens[index]
        options.append(arg)
        index += 1
        if arg in value_flags and "=" not in arg and index < len(tokens):
            options.append(tokens[index])
            index += 1
    return options, tokens[index:]


def _drop_assignments(tokens: list[str]) -> list[str]:
    index = 0
    while index < len(tokens) and _ENV_ASSIGNMENT.match(tokens[index]):
        index += 1
    return tokens[index:]


def _unwrap(
    tokens: list[str], root: str | None, depth: int
) -> tuple[list[Segment] | None, tuple[str, ...], list[str]]:
    """Strip wrappers: (segments of an inline shell script, context, remaining tokens)."""
    context: list[str] = []
    while True:
        tokens = _drop_assignments(tokens)
        if not tokens:
            return None, tuple(context), tokens
        head = _program_name(tokens[0], root)
        if head == "env":
            _, tokens = _skip_options(tokens[1:], frozenset({"-u", "--unset", "-C"}))
        elif head in _PLAIN_WRAPPERS:
            _, tokens = _skip_options(tokens[1:], frozenset())
        elif head == "nice":
            _, tokens = _skip_options(tokens[1:], frozenset({"-n"}))
        elif head == "timeout" and len(tokens) > 2:
            # A time limit can turn a hang into a failure: material, kept as context.
            options, rest = _skip_options(tokens[1:], frozenset({"-s", "--signal", "-k"}))
            context.extend(["timeout", *options, rest[0]] if rest else ["timeout", *options])
            tokens = rest[1:]
        elif head in _RUNNERS_1 or (head, tokens[1] if len(tokens) > 1 else "") in _RUNNERS_2:
            skip = 1 if head in _RUNNERS_1 else 2
            options, tokens = _skip_options(tokens[skip:], _RUNNER_VALUE_FLAGS)
            context.extend(options)
        elif head in _SHELLS and depth < _MAX_SHELL_DEPTH:
            script = _inline_script(tokens[1:])
            if script is not None:
                return _segments(script, root, depth + 1), tuple(context), []
            options, rest = _skip_options(tokens[1:], frozenset({"-o", "+o"}))
            if not rest or not is_path_like(rest[0]):
                return None, tuple(context), tokens
            # "bash [opts] scripts/x.sh" runs the script: options (-x, -e) stay material.
            context.extend([head, *options] if options else [])
            tokens = [rest[0] if "/" in rest[0] else "./" + rest[0], *rest[1:]]
        elif head == "python" and (module := _python_module(tokens[1:])) is not None:
            options, tokens = module
            context.extend(options)
        else:
            return None, tuple(context), tokens


def _python_module(tokens: list[str]) -> tuple[list[str], list[str]] | None:
    """``[opts] -m MOD args`` -> (opts, ``MOD args``); None when no module is run."""
    options: list[str] = []
    index = 0
    while index < len(tokens) and tokens[index].startswith("-"):
        arg = tokens[index]
        if arg == "-m":
            return (options, tokens[index + 1 :]) if index + 1 < len(tokens) else None
        if arg == "-c":
            return None
        options.append(arg)
        index += 1
        if arg in VALUE_FLAGS["python"] and index < len(tokens):
            options.append(tokens[index])
            index += 1
    return None


def _inline_script(tokens: list[str]) -> str | None:
    for index, arg in enumerate(tokens):
        if not arg.startswith("-") or arg.startswith("--"):
            return None
        if "c" in arg[1:]:
            return tokens[index + 1] if index + 1 < len(tokens) else None
    return None


def _parse_args(
    program: str, tokens: list[str], root: str | None
) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    value_flags = VALUE_FLAGS.get(program, frozenset())
    cosmetic = COSMETIC_FLAGS["*"] | COSMETIC_FLAGS.get(program, frozenset())
    aliases = FLAG_ALIASES.get(program, {})
    flags: list[tuple[str, str]] = []
    positionals: list[str] = []
    index = 0
    options_done = False
    while index < len(tokens):
        arg = tokens[index]
        index += 1
        arg = aliases.get(arg, arg)
        if options_done or not arg.startswith("-") or arg == "-":
            positionals.append(normalize_arg(arg, root))
            continue
        if arg == "--":
            options_done = True
            continue
        pairs: list[tuple[str, str | None]] = []
        if arg.startswith("--") or program in _SINGLE_DASH_LONG or len(arg) == 2:
            name, eq, value = arg.partition("=")
            name = aliases.get(name, name)
            pairs.append((name, value if eq else None))
        else:  # a cluster: -xvs, -kexpr
            for at in range(1, len(arg)):
                name = "-" + arg[at]
                if name in value_flags:
                    pairs.append((name, arg[at + 1 :] or None))
                    break
                pairs.append((name, ""))
        for name, value in pairs:
            if value is None:
                if name in value_flags and index < len(tokens):
                    value = tokens[index]
                    index += 1
                else:
                    value = ""
            if name not in cosmetic:
                flags.append((name, normalize_arg(value, root)))
    return tuple(sorted(flags)), tuple(positionals)


def _segments(command: str, root: str | None, depth: int = 0) -> list[Segment]:
    result: list[Segment] = []
    cwd: str | None = None  # a relative "cd" target: later segments run there
    for tokens, after_pipe in _split_segments(_tokens(command)):
        inline, context, rest = _unwrap(tokens, root, depth)
        if inline is not None:
            result.extend(inline)
            continue
        if not rest:
            continue
        program = _program_name(rest[0], root)
        flags, positionals = _parse_args(program, rest[1:], root)
        if program == "cd":
            cwd = _cd_target(positionals, root)
        elif cwd is not None:
            context = (*context, "cd:" + cwd)
        segment = Segment(
            program=program, context=tuple(sorted(context)), flags=flags, positionals=positionals
        )
        result.append(_mark_viewer(segment) if after_pipe else segment)
    return result


def _cd_target(positionals: tuple[str, ...], root: str | None) -> str | None:
    # An absolute target that is not under the known root is assumed to be the repository
    # root (agents often start with "cd /abs/repo &&"); "cd -" and "cd ~" are unknowable.
    if len(positionals) != 1 or positionals[0] in ("-", "~") or positionals[0].startswith("~"):
        return None
    target = norm_path(positionals[0], root)
    return None if target == "." or target.startswith("/") else target


def _mark_viewer(segment: Segment) -> Segment:
    # A program after a pipe that only views output is marked so it can be dropped.
    if segment.program in _PIPE_VIEWERS:
        return attrs.evolve(segment, program="|" + segment.program)
    return segment


def command_segments(command: str, root: str | None = None) -> tuple[Segment, ...]:
    """The material segments of a shell command line (setup and viewers dropped)."""
    segments = _segments(command, root)
    material = [s for s in segments if s.program not in _SETUP and not s.program.startswith("|")]
    return tuple(material or [s for s in segments if not s.program.startswith("|")] or segments)
