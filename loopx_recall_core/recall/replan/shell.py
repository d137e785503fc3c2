# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Shell command lines normalized to :class:`Segment` objects, one per material command.

Long because: tokenizing, segmenting, unwrapping and reading options are one pass over one
command line, and the rules that pass applies are listed here, in one place, for replan and
the guard alike.

A command is split with :mod:`shlex` into shell segments (``&&``, ``||``, ``;``, ``|``,
``&``, newline); redirections (``2>&1``, ``> log``) and parentheses are dropped; a
backslash-newline is a blank. Then trivially different spellings of one command
normalize to one segment:

* leading ``NAME=value`` assignments stay material, as ``context`` (but those of a
  variable that only changes how output is shown: :mod:`.canonical`); the process
  wrappers (``PROCESS_WRAPPERS``: ``time``, ``/usr/bin/time -v``, ``timeout``, ``nice``,
  ``ionice``, ``stdbuf``, ``nohup``, ``command``, ``exec``, ``builtin``) are dropped with
  their options: they change when, how long, at what priority or with what buffering a
  command runs, not what it runs. ``timeout``'s DURATION is kept apart as the segment's
  ``limit``, which :mod:`.relation` reads only when the prior call was stopped by its limit
  (exit 124 or 137). ``env`` is dropped, but its options that change what runs (``-i``,
  ``-u NAME``, ``-C DIR``, ``-S``, the signal options) stay material, as ``context``;
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
  flag in ``VALUE_FLAGS`` takes the next argument (``-k expr``); ``FLAG_ALIASES`` map each
  documented alias to its canonical long spelling, per program (``cargo -p`` is
  ``--package``, pytest ``-s`` is ``--capture=no``), or per subcommand where the tool's
  short options differ by subcommand (``SUBCOMMAND_OPTION_ALIASES``: ``git commit -m`` is
  ``--message``); ``COSMETIC_FLAGS`` (options that change only what is shown) are dropped;
  an option set to the value the tool uses anyway is dropped (``DEFAULT_VALUES``); a
  ``RUN_IN_DIR`` option naming the repository root (``make -C <root>``, ``git -C .``,
  ``cargo --manifest-path <root>/Cargo.toml``) is dropped; every other flag added,
  removed or changed is material. After ``--`` everything is a positional argument;
* positionals keep their order, except for ``ORDER_FREE`` programs (``pytest b.py a.py``
  is ``pytest a.py b.py``).

The tables named here (wrappers, runners, setup and viewer commands, option spellings) are
in :mod:`.programs`; this module tokenizes, segments and applies them. The per-toolchain
classes of issue 18 item E (program aliases, package scripts, default build files,
environment selectors) are applied by :mod:`.canonical_command`.
"""

from __future__ import annotations

import re
import shlex
from typing import NamedTuple

from loopx_recall_core.recall.replan.canonical_command import (
    canonical_head,
    canonical_positionals,
    drop_defaults,
    env_material,
    python_module,
    python_script,
)
from loopx_recall_core.recall.replan.paths import (
    is_path_like,
    multiset_equal,
    norm_path,
    normalize_arg,
    overlap,
    same_arg,
)
from loopx_recall_core.recall.replan.programs import (
    COSMETIC_FLAGS,
    ENV_OUTPUT_ONLY,
    ENV_VALUE_FLAGS,
    FLAG_ALIASES,
    NOT_A_WRAPPER,
    ORDER_FREE,
    PIPE_VIEWERS,
    PROCESS_WRAPPERS,
    RUN_IN_DIR,
    RUNNER_PROGRAMS,
    RUNNER_SUBCOMMANDS,
    RUNNER_VALUE_FLAGS,
    SETUP,
    SHELLS,
    TARGETS_ONLY,
    VALUE_FLAGS,
    canonical_option,
    option_pairs,
    takes_value,
)
from loopx_recall_core.recall.replan.toolchains import (
    GLOBAL_ALIASES,
    SUBCOMMAND_OPTION_ALIASES,
)

__all__ = [
    "COSMETIC_FLAGS",
    "FLAG_ALIASES",
    "ORDER_FREE",
    "RUN_IN_DIR",
    "TARGETS_ONLY",
    "VALUE_FLAGS",
    "Segment",
    "command_segments",
]

_ENV_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_PYTHON = re.compile(r"python(?:\d+(?:\.\d+)?)?\Z")
_PUNCTUATION = frozenset("();<>|&\n")
_MAX_SHELL_DEPTH = 4
_REDACTED = "[redacted:"  # the redactor's marker (loopx_recall_core/redaction.py)


class Segment(NamedTuple):
    """One normalized command of a shell line.

    Segment, Route and ParsedSnippet are named tuples rather than attrs classes: they are
    the guard's hot path (a PreToolUse hook answered within 100 ms), and leaving attrs
    unimported there saves about 15 ms a call (``benchmarks/guard_hotpath.py``)."""

    program: str
    context: tuple[str, ...] = ()
    flags: tuple[tuple[str, str], ...] = ()
    positionals: tuple[str, ...] = ()
    #: ``timeout``'s DURATION in seconds ("" without one): not part of :meth:`same`; a
    #: prior call stopped by its limit is told apart in :mod:`.relation`
    limit: str = ""

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
        if any(_REDACTED in item for item in (*self.context, *other.context)):
            # a redacted assignment (PGPASSWORD=...) cannot be compared, and a corrected
            # credential is the usual reason to run the same command again
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


def _drop_assignments(tokens: list[str], context: list[str]) -> list[str]:
    index = 0
    while index < len(tokens) and _ENV_ASSIGNMENT.match(tokens[index]):
        if env_material(tokens[index]):  # PGHOST=db2: another database, material
            context.append(tokens[index])
        index += 1
    return tokens[index:]


_DURATION = re.compile(r"(\d+(?:\.\d*)?|\.\d+)([smhd]?)\Z")
_UNIT = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def _seconds(duration: str) -> str:
    """A ``timeout`` DURATION in seconds (GNU ``timeout --help``: "a floating point number
    with an optional suffix: 's' for seconds (the default), 'm' for minutes, 'h' for hours
    or 'd' for days"), as text; anything else as written."""
    match = _DURATION.match(duration)
    if match is None:
        return duration
    return f"{float(match.group(1)) * _UNIT[match.group(2)]:g}"


class _Unwrapped(NamedTuple):
    inline: list[Segment] | None  # the segments of an inline shell script
    context: tuple[str, ...]
    rest: list[str]
    limit: str = ""


def _unwrap(tokens: list[str], root: str | None, depth: int) -> _Unwrapped:
    """Strip wrappers: the segments of an inline shell script, context, remaining tokens
    and a ``timeout`` limit."""
    context: list[str] = []
    limit = ""
    while True:
        tokens = _drop_assignments(tokens, context)
        if not tokens:
            return _Unwrapped(None, tuple(context), tokens, limit)
        head = _program_name(tokens[0], root)
        if head == "env":
            options, tokens = _skip_options(tokens[1:], ENV_VALUE_FLAGS)
            if tokens[:1] == ["-"]:  # env --help: "A mere - implies -i."
                options, tokens = [*options, "-i"], tokens[1:]
            material = [o for o in options if o.partition("=")[0] not in ENV_OUTPUT_ONLY]
            context.extend(["env", *material] if material else [])
        elif head in PROCESS_WRAPPERS:
            options, rest = _skip_options(tokens[1:], PROCESS_WRAPPERS[head])
            if not rest or (head == "ionice" and NOT_A_WRAPPER & set(options)):
                return _Unwrapped(None, tuple(context), tokens, limit)
            if head == "timeout":
                if len(rest) < 2:  # "timeout 5" alone runs nothing
                    return _Unwrapped(None, tuple(context), tokens, limit)
                limit, rest = _seconds(rest[0]), rest[1:]
            tokens = rest
        elif head in RUNNER_PROGRAMS or (head, [*tokens, ""][1]) in RUNNER_SUBCOMMANDS:
            skip = 1 if head in RUNNER_PROGRAMS else 2
            options, tokens = _skip_options(tokens[skip:], RUNNER_VALUE_FLAGS)
            # "uv run -- x" is "uv run x"; a runner's own quiet/colour options are cosmetic.
            cosmetic = COSMETIC_FLAGS["*"] | COSMETIC_FLAGS.get(head, frozenset())
            context.extend(o for o in options if o != "--" and o.split("=")[0] not in cosmetic)
        elif head in SHELLS and depth < _MAX_SHELL_DEPTH:
            script = _inline_script(tokens[1:])
            if script is not None:
                return _Unwrapped(_segments(script, root, depth + 1), tuple(context), [], limit)
            options, rest = _skip_options(tokens[1:], frozenset({"-o", "+o"}))
            if not rest or not is_path_like(rest[0]):
                return _Unwrapped(None, tuple(context), tokens, limit)
            # "bash [opts] scripts/x.sh" runs the script: options (-x, -e) stay material.
            context.extend([head, *options] if options else [])
            tokens = [rest[0] if "/" in rest[0] else "./" + rest[0], *rest[1:]]
        elif head == "python" and (module := python_module(tokens[1:])) is not None:
            options, tokens = module
            context.extend(options)
        elif head == "python" and (script := python_script(tokens[1:])) is not None:
            # "python x.py" runs ./x.py, as "bash x.sh" does: its options stay material.
            options, tokens = script
            context.extend([head, *options] if options else [])
        else:
            return _Unwrapped(None, tuple(context), tokens, limit)


def _inline_script(tokens: list[str]) -> str | None:
    for index, arg in enumerate(tokens):
        if not arg.startswith("-") or arg.startswith("--"):
            return None
        if "c" in arg[1:]:
            return tokens[index + 1] if index + 1 < len(tokens) else None
    return None


def _parse_args(
    program: str, tokens: list[str], root: str | None, *, at_root: bool = True
) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """Sorted canonical (flag, value) pairs and ordered positionals; ``at_root``: no
    ``cd <subfolder>`` is in effect."""
    cosmetic = COSMETIC_FLAGS["*"] | COSMETIC_FLAGS.get(program, frozenset())
    global_aliases = GLOBAL_ALIASES.get(program, {})
    by_subcommand = SUBCOMMAND_OPTION_ALIASES.get(program, {})
    flags: list[tuple[str, str]] = []
    positionals: list[str] = []
    index = 0
    options_done = False
    while index < len(tokens):
        arg = tokens[index]
        index += 1
        if options_done or not arg.startswith("-") or arg == "-":
            positionals.append(normalize_arg(arg, root))
            continue
        if arg == "--":
            options_done = True
            continue
        for spelled, value in option_pairs(program, arg):
            if not positionals:  # before the subcommand: the program's global options
                spelled = global_aliases.get(spelled, spelled)
            else:  # after it: the subcommand's own spellings (git commit -m: --message)
                spelled = by_subcommand.get(positionals[0], {}).get(spelled, spelled)
            name, implied = canonical_option(program, spelled)
            if implied is not None:
                value = implied
            elif value is None:
                if takes_value(program, spelled) and index < len(tokens):
                    value = tokens[index]
                    index += 1
                else:
                    value = ""
            if spelled not in cosmetic and name not in cosmetic:
                flags.append((name, normalize_arg(value, root)))
    flags = drop_defaults(
        program, flags, at_root=at_root, subcommand=positionals[0] if positionals else None
    )
    return tuple(sorted(flags)), canonical_positionals(program, tuple(positionals))


def _segments(command: str, root: str | None, depth: int = 0) -> list[Segment]:
    result: list[Segment] = []
    cwd: str | None = None  # a relative "cd" target: later segments run there
    for tokens, after_pipe in _split_segments(_tokens(command)):
        inline, context, rest, limit = _unwrap(tokens, root, depth)
        if inline is not None:
            result.extend(s._replace(limit=limit) if limit else s for s in inline)
            continue
        if not rest:
            continue
        program, args = canonical_head(_program_name(rest[0], root), rest[1:])
        flags, positionals = _parse_args(program, args, root, at_root=cwd is None)
        if program == "cd":
            cwd = _cd_target(positionals, root)
        elif cwd is not None:
            context = (*context, "cd:" + cwd)
        segment = Segment(
            program=program,
            context=tuple(sorted(context)),
            flags=flags,
            positionals=positionals,
            limit=limit,
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
    if segment.program in PIPE_VIEWERS:
        return segment._replace(program="|" + segment.program)
    return segment


def command_segments(command: str, root: str | None = None) -> tuple[Segment, ...]:
    """The material segments of a shell command line (setup and viewers dropped)."""
    segments = _segments(command, root)
    material = [s for s in segments if s.program not in SETUP and not s.program.startswith("|")]
    return tuple(material or [s for s in segments if not s.program.startswith("|")] or segments)
