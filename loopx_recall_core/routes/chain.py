# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A command line as the attempts it makes: one :class:`Segment` per program it runs, each
with the folder it runs in, the environment it gets, the files it reads and what the
earlier steps of its chain changed.

Long because: the walk over a parsed line (:mod:`.grammar`) carries one state through
every kind of step (folder, environment, writes, waits, wrappers, inline scripts), and
each rule it applies is written beside it.

The walk, in the order the shell runs the line:

* **Folder**: it starts at the folder the command is run from (the runtime's ``cwd``,
  repository-relative) and follows ``cd``, ``pushd``, ``popd`` and ``env -C``; an
  option naming the folder to run in (:mod:`.invocation`) moves that one program. A
  subshell ``( ... )`` or ``bash -c`` keeps its changes to itself (POSIX 2.12, "Shell
  Execution Environment"). A folder that cannot be known (``cd``, ``cd -``, ``cd ~``,
  ``cd $X``) is ``?``, never equal to another.
* **Environment**: ``NAME=value`` before a program is its own; alone, or with
  ``export``, it holds for what follows; ``unset NAME`` too; ``source FILE`` / ``. FILE``
  is recorded as such (what the file sets is not known). Variables that only change how
  output is shown (:data:`.toolchains.OUTPUT_ENV`) are left out. A redacted value
  (``PGPASSWORD=[redacted:...]``) is never equal to another: a new password is the usual
  fix.
* **Inputs**: ``< FILE``, here-strings and here-documents (their text).
* **Earlier steps that change state**: a file written by ``>``, ``>>`` or ``tee`` of a
  setup step (``echo X >> config.mk``, ``cat > f <<EOF``), a wait (``sleep 15``), a
  ``set`` that changes what follows. Programs are steps of their own: ``pip install x &&
  pytest`` is two attempts.
* **No-ops**: ``echo``/``printf``/``true``/``:``/``clear`` without a redirection, and
  ``set -e``/``-u``/``-x``/``-o pipefail`` (bash manual, "The Set Builtin": they change how
  the shell reacts to a failure or traces it, not what a program runs); a program after
  a pipe that only shows its input (``| tail -20``, ``| grep x``, ``| tee log``).
* **Wrappers** (:mod:`.wrappers`) are seen through; ``bash -c SCRIPT`` is SCRIPT (its
  ``$1``... arguments stay in the route).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from loopx_recall_core.routes.grammar import Command, ParseError, Redirect, Word, parse
from loopx_recall_core.routes.invocation import canonical_program, normalize_invocation
from loopx_recall_core.routes.paths import (
    is_path_like,
    join_folder,
    multiset_equal,
    norm_path,
    overlap,
    same_arg,
)
from loopx_recall_core.routes.programs import COSMETIC_FLAGS, ORDER_FREE, TARGETS_ONLY
from loopx_recall_core.routes.toolchains import OUTPUT_ENV
from loopx_recall_core.routes.wrappers import (
    ENV_OUTPUT_ONLY,
    ENV_VALUE_FLAGS,
    INLINE_CODE,
    RUNNER_PROGRAMS,
    RUNNER_SUBCOMMANDS,
    RUNNER_VALUE_FLAGS,
    SHELLS,
    WRAPPERS,
    code_tokens,
    skip_options,
)

__all__ = ["PIPE_VIEWERS", "Segment", "command_segments"]

_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_REDACTED = "[redacted:"  # the redactor's mark (loopx_recall_core/redaction.py)
_MAX_DEPTH = 4
_WRITES = frozenset({">", ">>", ">|", "&>", "&>>"})
#: Programs that only show what a pipe gives them: dropped after a pipe.
PIPE_VIEWERS = frozenset(
    {"head", "tail", "tee", "less", "more", "cat", "grep", "rg", "wc", "sort", "uniq", "cut"}
    | {"column", "jq", "ts"}
)
_NO_OPS = frozenset({"echo", "printf", "true", ":", "clear"})
#: ``set`` options that change only how the shell reacts to failures or traces them.
_QUIET_SET = frozenset({"-e", "+e", "-u", "+u", "-x", "+x", "-v", "+v", "-E", "-T"})
#: A login or interactive shell reads the user's profile or rc files first (bash manual,
#: "Bash Startup Files"): another environment, part of the route.
_LOGIN = frozenset({"--login", "-l", "-i", "--rcfile", "--init-file"})
_QUIET_SET_O = frozenset({"pipefail", "errexit", "nounset", "xtrace", "verbose", "errtrace"})
_DURATION = re.compile(r"(\d+(?:\.\d*)?|\.\d+)([smhd]?)\Z")
_UNIT = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


class Segment(NamedTuple):
    """One attempt of a command line: a program run with its arguments, in a folder, with
    an environment, inputs and the state the earlier steps left.

    A named tuple rather than an attrs class: it is the guard's hot path, which leaves
    attrs unimported (``benchmarks/guard_hotpath.py``)."""

    program: str
    context: tuple[str, ...] = ()
    flags: tuple[tuple[str, str], ...] = ()
    positionals: tuple[str, ...] = ()
    #: ``timeout``'s DURATION in seconds ("" without one): not part of :meth:`same`; a
    #: prior call stopped by its limit is told apart in ``recall/replan/relation.py``
    limit: str = ""
    folder: str = "."
    env: tuple[str, ...] = ()
    inputs: tuple[str, ...] = ()
    before: tuple[str, ...] = ()
    opaque: bool = False  # not modelled: compared word for word

    @property
    def subcommand(self) -> str | None:
        if not self.positionals or self.program in TARGETS_ONLY or self.opaque:
            return None
        first = self.positionals[0]
        return None if is_path_like(first) else first

    @property
    def targets(self) -> tuple[str, ...]:
        return self.positionals[1:] if self.subcommand is not None else self.positionals

    def differences(self, other: Segment) -> tuple[str, ...]:
        """What makes ``other`` another attempt: the parts that differ, by name."""
        if self.program != other.program:
            return ("program",)
        parts = []
        if self.opaque or other.opaque:
            if self[:-1] != other[:-1] or self.opaque != other.opaque:
                parts.append("unmodelled")
            return tuple(parts)
        if self.folder != other.folder or "?" in (self.folder, other.folder):
            parts.append("folder")
        if not _equal_values(self.env, other.env):
            parts.append("environment")
        if self.inputs != other.inputs or any("?" in i for i in self.inputs):
            parts.append("inputs")
        if self.before != other.before:
            parts.append("earlier steps")
        if not _equal_values(self.context, other.context):
            parts.append("wrapper options")
        if len(self.flags) != len(other.flags) or not all(
            _same_flag(a, b) for a, b in zip(self.flags, other.flags, strict=True)
        ):
            parts.append("options")  # sorted by name; one option's values keep their order
        if not _same_positionals(self, other):
            parts.append("arguments")
        return tuple(parts)

    def same(self, other: Segment) -> bool:
        return not self.differences(other)

    def near(self, other: Segment) -> bool:
        if self.program != other.program or self.subcommand != other.subcommand:
            return False
        mine, theirs = self.targets, other.targets
        if not mine and not theirs:
            return True
        return any(overlap(a, b) for a, b in ((a, b) for a in mine for b in theirs))


def _equal_values(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    if any(_REDACTED in item for item in (*a, *b)):
        return False  # a redacted value cannot be compared; a new secret is a new try
    return multiset_equal(a, b, same_arg)


def _same_flag(a: tuple[str, str], b: tuple[str, str]) -> bool:
    # A redacted option value or argument compares as its redaction mark: the recall
    # service keeps only redacted snippets, so a command that carries a token (``curl -H
    # 'Authorization: Bearer ...'``) matches its stored prior; only a redacted variable
    # (``PGPASSWORD=...``) is never equal (:func:`_equal_values`).
    return a[0] == b[0] and same_arg(a[1], b[1])


def _same_positionals(a: Segment, b: Segment) -> bool:
    if a.program in ORDER_FREE:
        return multiset_equal(a.positionals, b.positionals, same_arg)
    return len(a.positionals) == len(b.positionals) and all(
        same_arg(x, y) for x, y in zip(a.positionals, b.positionals, strict=True)
    )


class _State:
    __slots__ = ("before", "env", "folder", "stack")

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.stack: list[str] = []
        self.env: dict[str, str] = {}
        self.before: list[str] = []

    def child(self) -> _State:
        """A subshell's state: its folder and environment changes stay inside; the files it
        writes do not."""
        state = _State(self.folder)
        state.stack = list(self.stack)
        state.env = dict(self.env)
        state.before = self.before
        return state


def _seconds(duration: str) -> str:
    """A DURATION in seconds (``timeout --help``: "a floating point number with an
    optional suffix: 's' for seconds (the default), 'm' for minutes, 'h' for hours or 'd'
    for days"); anything else as written."""
    match = _DURATION.match(duration)
    if match is None:
        return duration
    return f"{float(match.group(1)) * _UNIT[match.group(2)]:g}"


class _Walk:
    def __init__(self, root: str | None) -> None:
        self.root = root
        self.material: list[Segment] = []
        self.setup: list[Segment] = []
        #: what an ``echo``/``printf`` writes into the pipe to the next command: its input
        self.piped: str | None = None

    def commands(self, commands: tuple[Command, ...], state: _State, depth: int) -> None:
        for command in commands:
            if not command.after_pipe:
                self.piped = None
            if command.kind == "?":
                words = tuple(w.raw for w in command.words)
                self._add(Segment(program=words[0] if words else "?", positionals=words,
                                  folder=state.folder, opaque=True), state)  # fmt: skip
            elif command.kind == "(":
                self.commands(command.body, state.child(), depth)
            elif command.kind == "{":
                self.commands(command.body, state, depth)
            else:
                self.simple(command, state, depth)

    def _add(self, segment: Segment, state: _State) -> None:
        env = tuple(sorted(f"{k}={v}" for k, v in state.env.items() if k not in OUTPUT_ENV))
        self.material.append(segment._replace(env=env, before=tuple(state.before)))

    def simple(self, command: Command, state: _State, depth: int) -> None:
        words = list(command.words)
        own: dict[str, str] = {}
        while words and _ASSIGNMENT.match(words[0].raw):
            name, _, value = words.pop(0).value.partition("=")
            own[name] = value
        writes = [r for r in command.redirects if r.operator in _WRITES and r.fd in ("", "1")]
        if not words:  # assignments alone set shell variables; "> f" alone empties f
            state.env.update(own)
            state.before.extend(f"write:{self._path(r.target, state)}" for r in writes)
            return
        local = state.child() if own else state
        local.env.update(own)
        self._run(words, command, local, state, depth, context=[], limit="")

    def _run(
        self,
        words: list[Word],
        command: Command,
        local: _State,
        state: _State,
        depth: int,
        *,
        context: list[str],
        limit: str,
    ) -> None:
        """Run ``words`` (a program and its arguments) with ``local``; a step that changes
        the shell itself (``cd``, ``export``) changes ``state``."""
        values = [w.value for w in words]
        while True:
            program, implied = canonical_program(values[0], self.root)
            args = [*implied, *values[1:]]
            wrapper = WRAPPERS.get(program)
            if wrapper is not None:
                options, rest = skip_options(args, wrapper.values)
                if rest and not set(options) & wrapper.runs_nothing and len(rest) > wrapper.leading:
                    if wrapper.limit:
                        limit = _seconds(rest[0])
                    values = rest[wrapper.leading :]
                    continue
            elif program == "env":
                options, rest = skip_options(args, ENV_VALUE_FLAGS)
                while rest and _ASSIGNMENT.match(rest[0]):
                    name, _, value = rest.pop(0).partition("=")
                    local = local.child() if local is state else local
                    local.env[name] = value
                if rest:
                    local = self._env_options(options, local, state, context)
                    values = rest
                    continue
            elif program in RUNNER_PROGRAMS or (program, (args or [""])[0]) in RUNNER_SUBCOMMANDS:
                skip = 0 if program in RUNNER_PROGRAMS else 1
                options, rest = skip_options(args[skip:], RUNNER_VALUE_FLAGS)
                if rest:
                    cosmetic = COSMETIC_FLAGS["*"] | COSMETIC_FLAGS.get(program, frozenset())
                    context.extend(o for o in options if o.split("=")[0] not in cosmetic)
                    values = rest
                    continue
            elif self._inline_script(program, args, command, local, depth, context, limit):
                return
            break
        self._program(program, args, command, local, state, context, limit)

    def _inline_script(
        self,
        program: str,
        args: list[str],
        command: Command,
        local: _State,
        depth: int,
        context: list[str],
        limit: str,
    ) -> bool:
        if program in SHELLS and depth < _MAX_DEPTH:
            return self._shell(args, command, local, depth, context)
        return program == "python" and self._python(args, command, local, context, limit)

    def _env_options(
        self, options: list[str], local: _State, state: _State, context: list[str]
    ) -> _State:
        index = 0
        material: list[str] = []
        while index < len(options):
            option = options[index]
            value = options[index + 1] if index + 1 < len(options) else ""
            if option in ("-C", "--chdir") or option.startswith("--chdir="):
                local = local.child() if local is state else local
                target = option.partition("=")[2] if "=" in option else value
                local.folder = self._join(local.folder, target)
                index += 1 if "=" in option else 2
                continue
            if option.partition("=")[0] not in ENV_OUTPUT_ONLY:
                material.append(option)
            index += 1
        if material:
            context.extend(["env", *material])
        return local

    def _shell(
        self, args: list[str], command: Command, state: _State, depth: int, context: list[str]
    ) -> bool:
        """``bash [options] -c SCRIPT [NAME [ARGS...]]``: SCRIPT's steps, in a child shell;
        ``bash [options] x.sh args`` runs ``./x.sh`` (its options stay in the route)."""
        login = False
        for index, arg in enumerate(args):
            if arg in ("-o", "+o"):
                continue
            if index and args[index - 1] in ("-o", "+o"):
                continue
            if arg in _LOGIN or (arg.startswith("-") and not arg.startswith("--") and (
                set(arg[1:]) & {"l", "i"})):  # fmt: skip
                login = True
            if not arg.startswith(("-", "+")) or arg.startswith("--"):
                if arg.startswith("--") or not is_path_like(arg):
                    return False
                script, _ = canonical_program(arg if "/" in arg else "./" + arg, self.root)
                options = ["bash", *args[:index]] if index else []
                self._program(script, args[index + 1 :], command, state, state,
                              [*context, *options], "")  # fmt: skip
                return True
            if "c" in arg[1:]:
                if index + 1 >= len(args):
                    return False
                script, positional = args[index + 1], args[index + 3 :]
                try:
                    commands = parse(script)
                except ParseError:
                    return False
                child = state.child()
                starts = len(self.material), len(self.setup)
                self.commands(commands, child, depth + 1)
                # "$1"...: what the script is given is part of the route; so is a login shell
                given = (["argv:" + " ".join(positional)] if positional else []) + (
                    ["login-shell"] if login else []
                )
                for found, start in zip((self.material, self.setup), starts, strict=True):
                    for at in range(start, len(found)):
                        segment = found[at]
                        found[at] = segment._replace(context=(*segment.context, *given))
                return True
        return False

    def _python(
        self, args: list[str], command: Command, state: _State, context: list[str], limit: str
    ) -> bool:
        """``python [options] -m MODULE args`` runs MODULE; ``python [options] x.py`` runs
        ``./x.py`` (as ``bash x.sh`` does); their options stay in the route."""
        index = 0
        options: list[str] = []
        while index < len(args) and args[index].startswith("-") and args[index] != "-":
            arg = args[index]
            if arg == "-m" and index + 1 < len(args):
                program, _ = canonical_program(args[index + 1], self.root)
                self._program(program, args[index + 2 :], command, state, state,
                              [*context, *options], limit)  # fmt: skip
                return True
            if arg in ("-c", "-m"):
                return False
            options.append(arg)
            index += 1
            if arg in ("-W", "-X") and index < len(args):
                options.append(args[index])
                index += 1
        if index < len(args) and args[index].endswith(".py"):
            script, _ = canonical_program(args[index], self.root)
            extra = ["python", *options] if options else []
            self._program(script, args[index + 1 :], command, state, state,
                          [*context, *extra], limit)  # fmt: skip
            return True
        return False

    def _program(
        self,
        program: str,
        args: list[str],
        command: Command,
        local: _State,
        state: _State,
        context: list[str],
        limit: str,
    ) -> None:
        if self._setup(program, args, command, local, state):
            return
        if command.after_pipe and program in PIPE_VIEWERS:
            if program == "tee":  # "| tee -a config.mk": a file written for what follows
                files = [a for a in args if not a.startswith("-")]
                local.before.extend(f"write:{self._path(f, local)}|" for f in files)
            return
        code = INLINE_CODE.get(program)
        if code is not None:
            args = _inline(args, *code)
        elif program == "deno" and len(args) > 1 and args[0] == "eval":
            args = ["eval", *_inline(["-e", *args[1:]], frozenset({"-e"}), "other")[1:]]
        invocation = normalize_invocation(program, args, self.root, local.folder)
        inputs = tuple(self._input(r, program, local) for r in command.redirects)
        if command.after_pipe and self.piped is not None:
            inputs = (*inputs, "|" + self.piped)
        segment = Segment(
            program=invocation.program,
            context=tuple(sorted(context)),
            flags=invocation.flags,
            positionals=invocation.positionals,
            limit=limit,
            folder=invocation.folder,
            inputs=tuple(i for i in inputs if i),
        )
        self._add(segment, local)

    def _setup(
        self, program: str, args: list[str], command: Command, local: _State, state: _State
    ) -> bool:
        """A step that changes the shell (folder, environment), waits, writes a file by a
        redirection or does nothing: recorded in ``state``; False for anything else."""
        writes = [r for r in command.redirects if r.operator in _WRITES and r.fd in ("", "1")]
        fallback = Segment(program=program, positionals=tuple(args), folder=local.folder)
        if program in ("cd", "pushd", "popd"):
            targets = [a for a in args if a not in ("-L", "-P", "-e", "-@")]
            if program == "popd":
                state.folder = state.stack.pop() if state.stack and not targets else "?"
            else:
                if program == "pushd":
                    state.stack.append(state.folder)
                target = targets[0] if len(targets) == 1 else ""
                state.folder = self._join(state.folder, target) if target != "-" else "?"
        elif program in ("export", "declare", "typeset") and not (
            program != "export" and "-x" not in args
        ):
            for arg in args:
                if arg.startswith("-") and arg not in ("-x",):
                    state.before.append(f"{program}:{arg}")
                elif "=" in arg:
                    name, _, value = arg.partition("=")
                    state.env[name] = value
        elif program == "unset":
            for name in args:
                if not name.startswith("-"):
                    state.env[name] = "<unset>"
        elif program in ("source", ".") and args:
            path = self._path(args[0], local)
            state.env["source:" + path] = " ".join(args[1:])
        elif program == "set":
            quiet = all(a in _QUIET_SET or a in _QUIET_SET_O or a in ("-o", "+o") for a in args)
            if not quiet:
                state.before.append("set:" + " ".join(args))
        elif program in ("sleep", "wait"):
            state.before.append("wait:" + " ".join(_seconds(a) for a in args))
        elif program in _NO_OPS or (program == "cat" and not args and command.redirects):
            if not writes:
                if program not in _NO_OPS:
                    return False
                self.setup.append(fallback)
                self.piped = " ".join(args)  # read by a command after a pipe, if any
                return True
            text = " ".join(args)
            for redirect in command.redirects:
                if redirect.operator in ("<<", "<<-", "<<<"):
                    text += "\n" + redirect.target
            for redirect in writes:
                where = self._path(redirect.target, local)
                state.before.append(f"write:{where}{redirect.operator}{text}")
            return True
        else:
            return False
        self.setup.append(fallback)
        return True

    def _input(self, redirect: Redirect, program: str, state: _State) -> str:
        if redirect.operator in ("<", "<>"):
            return "<" + ("?" if redirect.dynamic else self._path(redirect.target, state))
        if redirect.operator in ("<<", "<<-", "<<<"):
            if redirect.dynamic:
                return "<<?"
            text = "\n".join(line.rstrip() for line in redirect.target.strip("\n").split("\n"))
            code = INLINE_CODE.get(program)
            return "<<" + (code_tokens(text, code[1]) if code is not None else text)
        return ""

    def _join(self, folder: str, target: str) -> str:
        return join_folder(folder, target, self.root, outside_is_root=True)

    def _path(self, path: str, state: _State) -> str:
        if path.startswith("/"):
            return norm_path(path, self.root)
        return self._join(state.folder, path) if path not in ("/dev/null",) else path


def _inline(args: list[str], options: frozenset[str], language: str) -> list[str]:
    """The interpreter's inline code as its tokens (``code:...``)."""
    out = list(args)
    for index, arg in enumerate(out):
        if arg in options and index + 1 < len(out):
            out[index + 1] = "code:" + code_tokens(out[index + 1], language)
            break
        if not arg.startswith("-"):
            break
    return out


#: Longer command lines are compared as written: a stored header is cut far sooner (the
#: snippet limit: 800 characters by default, 2,000 at most by the v0 contract), and a cut
#: header is never the same route, so reading them would cost time and find nothing.
MAX_PARSED = 4_096


def command_segments(command: str, root: str | None = None, cwd: str = ".") -> tuple[Segment, ...]:
    """The attempts of a shell command line run from ``cwd`` (repository-relative)."""
    walk = _Walk(root)
    try:
        if len(command) > MAX_PARSED:
            raise ParseError("too long to read")
        commands = parse(command)
    except ParseError:
        words = tuple(command.split())
        return (Segment(program=words[0] if words else "?", positionals=words, folder=cwd,
                        opaque=True),)  # fmt: skip
    walk.commands(commands, _State(cwd), 0)
    return tuple(walk.material or walk.setup)
