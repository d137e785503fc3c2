# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""One program invocation normalized: its canonical name, its options as (canonical name,
value) pairs in any order, its positional arguments in order, and the folder it runs in.

Where the spellings come from:

* **The program's spec** (:mod:`.specs`, from ``@withfig/autocomplete``): every spelling
  of an option is its longest spelling (``-C`` and ``--directory`` are one option),
  whether it takes a value (``-k expr``, ``--opt=v`` and ``--opt v``, ``-j4``), whether
  single-dash words are clusters (``-xvs``) or one option (``-chdir``), the subcommands
  and their aliases (``npm i`` is ``npm install``), and persistent options.
* **Hand rules** (:mod:`.programs`, :mod:`.toolchains`), each with its source, only for
  what a spec cannot say: options that change only what is shown (dropped), options set
  to the value the tool uses anyway (dropped), options naming the folder to run in or the
  default build file, package scripts (``npm test`` is ``npm run test``), Kubernetes
  resource names, programs whose targets are a set, and the spellings a spec lacks or
  gets wrong (``FLAG_ALIASES``, ``VALUE_FLAGS``: each row cites the tool's own help).

An option that neither knows is kept as written, and the words after it are compared word
for word: an unknown program or option is never made equal to anything else.

Long because: one reading of a program's words (:func:`walk_words`) serves the route and
the secrets by position (:mod:`loopx_recall_core.command_secrets`), and the spellings a
spec cannot give are applied in it, each where it takes effect.
"""

from __future__ import annotations

import posixpath
import re
from typing import NamedTuple

from loopx_recall_core.routes.paths import is_path_like, join_folder, norm_path, normalize_arg
from loopx_recall_core.routes.programs import (
    COSMETIC_FLAGS,
    FLAG_ALIASES,
    FOLDER_FILE_OPTIONS,
    FOLDER_MODES,
    FOLDER_OPTIONS,
    LINK_ORDER,
    NO_EQUALS,
    OPTIONS_END,
    ORDERED_OPTIONS,
    SINGLE_DASH_LONG,
    SPEC_CORRECTIONS,
    TRAILING_SLASH,
    VALUE_FLAGS,
)
from loopx_recall_core.routes.specs import FOLDER, SECRET, SEPARATOR, Node, Option, program_spec
from loopx_recall_core.routes.toolchains import (
    DEFAULT_FILES,
    DEFAULT_VALUES,
    GLOBAL_ALIASES,
    GO_FLAGS,
    KUBE_RESOURCES,
    PROGRAM_ALIASES,
    SCRIPT_RUNNERS,
    SUBCOMMAND_ALIASES,
    SUBCOMMAND_OPTION_ALIASES,
)

__all__ = [
    "Invocation",
    "Walked",
    "canonical_program",
    "normalize_invocation",
    "spellings",
    "walk_words",
]

_PIP = re.compile(r"pip\d+(?:\.\d+)?\Z")
_PYTHON = re.compile(r"python(?:\d+(?:\.\d+)?)?\Z")
_WHEN = re.compile(r"(?:always|never|auto|yes|no|true|false|on|off|force|tty|none|\d)\Z")
_NUMBER = re.compile(r"-\d+(?:\.\d+)?\Z")


class Invocation(NamedTuple):
    program: str
    flags: tuple[tuple[str, str], ...]
    positionals: tuple[str, ...]
    folder: str


class _Parsed(NamedTuple):
    name: str  # canonical
    spellings: frozenset[str]
    value: str
    folder: bool  # the option names a folder to run in


def canonical_program(word: str, root: str | None) -> tuple[str, tuple[str, ...]]:
    """A program's canonical name from the word that ran it, and the words it stands for
    (``docker-compose`` is ``docker compose``; ``.venv/bin/pytest`` is ``pytest``)."""
    if "/" in word:
        parts = word.rstrip("/").split("/")
        if len(parts) >= 2 and parts[-2] in ("bin", "Scripts"):
            word = parts[-1]
        else:
            word = norm_path(word, root)
            if "/" in word:
                return word, ()
    if _PYTHON.match(word):
        return "python", ()
    words = PROGRAM_ALIASES.get(word) or (("pip",) if _PIP.match(word) else None)
    if words is None:
        return word, ()
    return words[0], words[1:]


class _Reader:
    """Reads one program's words with its spec and the hand rules."""

    def __init__(self, program: str, root: str | None) -> None:
        self.program = program
        self.root = root
        self.node: Node | None = program_spec(program)
        self.nodes: list[Node] = [] if self.node is None else [self.node]
        self.path: list[str] = []  # the subcommands read so far
        aliases = FLAG_ALIASES.get(program, {})
        self.aliases = aliases
        self.values = VALUE_FLAGS.get(program, frozenset())
        self.corrections = SPEC_CORRECTIONS.get(program, {})

    def option(self, spelled: str) -> Option | None:
        """The option ``spelled`` names here or, as real CLIs accept their global options
        after a subcommand (``aws s3 sync ... --region x``), in a command above."""
        option = None
        for node in reversed(self.nodes):
            option = node.options.get(spelled)
            if option is not None:
                break
        corrected = self.corrections.get(spelled)
        if corrected is not None:
            arity, bits, name = corrected
            if name:
                return Option(name, (spelled,), arity, bits)
            if option is not None:
                return option._replace(arity=arity, bits=bits)
        return option

    def split(self, arg: str) -> list[tuple[str, str | None]]:
        """The (spelling, value) pairs of one option word; value None: maybe the next."""
        if self.program in GO_FLAGS and arg.startswith("--") and len(arg) > 2:
            arg = arg[1:]  # Go's flag package: "-flag" and "--flag" are the same
        name, eq, value = arg.partition("=")
        if self.program in NO_EQUALS:
            name, eq, value = arg, "", ""
        if arg.startswith("--") or len(arg) == 2 or self._whole(name):
            return [(name, value if eq else None)]
        pairs: list[tuple[str, str | None]] = []
        for at in range(1, len(arg)):  # a cluster: -xvs, -kexpr, -pSECRET
            spelled = "-" + arg[at]
            if self.arity(spelled):
                pairs.append((spelled, arg[at + 1 :] or None))
                break
            pairs.append((spelled, ""))
        return pairs

    def _whole(self, name: str) -> bool:
        if self.program in SINGLE_DASH_LONG or name in self.aliases or name in self.values:
            return True
        if self.option(name) is not None:
            return True
        if self.node is None:
            return False
        # Fig's flagsArePosixNoncompliant: "-abc" is one option, unless its first letter is
        # a short option of its own (tar's bundled "-xzf")
        first = "-" + name[1:2]
        known = first in self.aliases or first in self.values or self.option(first) is not None
        return self.node.posix_noncompliant and not known

    def arity(self, spelled: str) -> int:
        alias = self._alias(spelled)
        if spelled in self.values or alias.partition("=")[0] in self.values:
            return 1
        if spelled in FOLDER_OPTIONS.get(self.program, ()):
            return 1
        if "=" in alias:
            return 0
        option = self.option(spelled) or self.option(alias)
        if option is None:
            return 0
        if option.bits & SEPARATOR and spelled.startswith("--"):
            return 2  # Fig's requiresSeparator: the long form takes its value after "="
        return option.arity

    def secret(self, spelled: str) -> bool:
        """Whether the value of option ``spelled`` is a secret (the spec's SECRET bit, or a
        hand fact in ``SPEC_CORRECTIONS``)."""
        option = self.option(spelled) or self.option(self._alias(spelled).partition("=")[0])
        return option is not None and bool(option.bits & SECRET)

    def _alias(self, spelled: str) -> str:
        if not self.path:
            spelled = GLOBAL_ALIASES.get(self.program, {}).get(spelled, spelled)
        else:
            by_sub = SUBCOMMAND_OPTION_ALIASES.get(self.program, {}).get(self.path[0], {})
            spelled = by_sub.get(spelled, spelled)
        return self.aliases.get(spelled, spelled)

    def canonical(self, spelled: str) -> tuple[str, frozenset[str], str | None, bool]:
        """(canonical name, every spelling, the value it implies, names a folder)."""
        alias = self._alias(spelled)
        # a hand alias may imply a value ("-s" is "--capture=no"); a spelling itself never
        name, eq, implied = alias.partition("=") if alias != spelled else (alias, "", "")
        option = self.option(name) or self.option(spelled)
        spellings = {spelled, name}
        folder = False
        if option is not None:
            spellings |= set(option.spellings)
            name = option.canonical
            folder = bool(option.bits & FOLDER)
        return name, frozenset(spellings), implied if eq else None, folder

    def descend(self, word: str) -> str | None:
        """``word`` as a subcommand: its canonical name (the node moves below it)."""
        if self.node is None or not self.node.has_subcommands:
            alias = SUBCOMMAND_ALIASES.get(self.program, {}).get(word) if not self.path else None
            if alias is not None:
                self.path.append(alias)
                return alias
            return None
        found = self.node.subcommand(word)
        if found is None:
            alias = SUBCOMMAND_ALIASES.get(self.program, {}).get(word) if not self.path else None
            found = None if alias is None else self.node.subcommand(alias)
            if found is None:
                return None
        name, self.node = found
        self.nodes.append(self.node)
        name = SUBCOMMAND_ALIASES.get(self.program, {}).get(name, name) if not self.path else name
        self.path.append(name)
        return name


class Walked(NamedTuple):
    """What one reading of a program's words found, with where each part was written:
    ``secrets`` holds (word index, offset in the word, option) for every option value the
    spec or a hand fact (``SPEC_CORRECTIONS``) says is a password, token, key or
    credential; ``positional_at`` the word index of each positional (subcommands too)."""

    parsed: list[_Parsed]
    positionals: list[str]
    positional_at: list[int]
    path: list[str]
    options: list[tuple[str, str, int, int]]  # (canonical name, value, word index, offset)
    secrets: list[tuple[int, int, str]]


def walk_words(program: str, args: list[str], root: str | None) -> Walked:
    """Reads ``args`` of ``program`` once: the one option parser, for the route
    (:func:`normalize_invocation`) and for secrets by position
    (:mod:`loopx_recall_core.command_secrets`)."""
    reader = _Reader(program, root)
    cosmetic = COSMETIC_FLAGS["*"] | COSMETIC_FLAGS.get(program, frozenset())
    parsed: list[_Parsed] = []
    positionals: list[str] = []
    positional_at: list[int] = []
    options: list[tuple[str, str, int, int]] = []
    secrets: list[tuple[int, int, str]] = []
    plain = 0  # positionals that are not subcommands
    index = 0
    options_done = False
    ordered = program in ORDERED_OPTIONS
    while index < len(args):
        arg = args[index]
        index += 1
        linked = program in LINK_ORDER and arg.startswith(("-l", "-Wl,"))
        if options_done or not arg.startswith("-") or arg == "-" or ordered or linked:
            if not options_done and plain == 0 and (sub := reader.descend(arg)) is not None:
                positionals.append(sub)
                positional_at.append(index - 1)
                continue
            plain += 1
            normalized = normalize_arg(arg, root)
            if program in TRAILING_SLASH and arg.endswith("/") and not normalized.endswith("/"):
                normalized += "/"  # the contents of the folder, not the folder
            positionals.append(normalized)
            positional_at.append(index - 1)
            if _command_follows(program, reader, plain):
                options_done = True  # what follows a script or command is its own
            continue
        if arg == "--":
            options_done = True
            continue
        word = index - 1
        for spelled, given in reader.split(arg):
            name, spellings, implied, names_folder = reader.canonical(spelled)
            value = given
            at = (word, len(arg) - len(given)) if given else None
            if implied is not None:
                value = implied
                at = None
            elif value is None and spellings & COSMETIC_FLAGS["*"] and not (
                index < len(args) and _WHEN.match(args[index])
            ):
                # --color, --verbose: the next word is their value only when it is one
                # (cargo --color always; never grep --color PATTERN, whatever a spec says)
                value = ""
            elif value is None:
                # A value is the next word unless that word is an option (argparse, clap
                # and cobra alike refuse a value that starts with "-" by default): a spec
                # that wrongly gives an option a value cannot take the next option.
                following = args[index] if index < len(args) else None
                if reader.arity(spelled) == 1 and following is not None and (
                    not following.startswith("-") or following == "-" or _NUMBER.match(following)
                ):
                    value = following
                    at = (index, 0)
                    index += 1
                else:
                    value = ""
            if at is not None:
                options.append((name, value, *at))
                if reader.secret(spelled):
                    secrets.append((*at, name))
            if spellings & cosmetic or name in cosmetic:
                continue
            names_folder = names_folder or bool(spellings & FOLDER_OPTIONS.get(program, set()))
            parsed.append(_Parsed(name, spellings, value, names_folder))
    return Walked(parsed, positionals, positional_at, reader.path, options, secrets)


def normalize_invocation(
    program: str, args: list[str], root: str | None, folder: str = "."
) -> Invocation:
    """The invocation of ``program`` with ``args`` run from ``folder``."""
    if program_spec(program) is None and not _hand_facts(program):
        # an unknown program: its words as written, in order (only paths normalized)
        words = tuple(normalize_arg(arg, root) for arg in args)
        return Invocation(program=program, flags=(), positionals=words, folder=folder)
    walked = walk_words(program, args, root)
    parsed, positionals = walked.parsed, walked.positionals
    folder, parsed = _folders(program, parsed, folder, root)
    subcommand = walked.path[0] if walked.path else (positionals[0] if positionals else None)
    flags = _drop_defaults(program, parsed, subcommand, folder)
    # Options in any order, but the values of one option given twice keep their order
    # (sed -e a -e b, docker compose -f a -f b): sorted by name only (a stable sort).
    return Invocation(
        program=program,
        flags=tuple(
            sorted(((p.name, normalize_arg(p.value, root)) for p in flags), key=_name)
        ),
        positionals=_canonical_positionals(program, tuple(positionals)),
        folder=folder,
    )


def _hand_facts(program: str) -> bool:
    tables = (FLAG_ALIASES, VALUE_FLAGS, COSMETIC_FLAGS, FOLDER_OPTIONS, SCRIPT_RUNNERS)
    return (
        any(program in table for table in tables)
        or program in SUBCOMMAND_ALIASES
        or program in DEFAULT_VALUES
        or program in DEFAULT_FILES
        or program in SPEC_CORRECTIONS
    )


def _command_follows(program: str, reader: _Reader, plain: int) -> bool:
    """After ``plain`` arguments, do the words that follow belong to a command or script?"""
    if OPTIONS_END.get(" ".join([program, *reader.path])) == plain:
        return True
    node = reader.node
    if node is None:
        return False
    letters = node.arguments
    if node.options_first and plain >= 1:
        return True
    return "c" in letters and letters.index("c") <= plain


def _name(flag: tuple[str, str]) -> str:
    return flag[0]


def _folders(
    program: str, parsed: list[_Parsed], folder: str, root: str | None
) -> tuple[str, list[_Parsed]]:
    """Options that run the program in another folder, applied in order (``git -C a -C b``
    runs in ``a/b``: git(1) "each subsequent non-absolute -C <path> is interpreted relative
    to the preceding -C <path>"); an option naming a file whose folder the tool runs in
    (``cargo --manifest-path sub/Cargo.toml``) moves to that folder, and the file's name
    stays only when it is not the tool's default (:data:`FOLDER_FILE_OPTIONS`)."""
    if program == "npm" and any("--global" in p.spellings for p in parsed):
        return folder, parsed  # npm config "prefix": with --global an install location
    kept: list[_Parsed] = []
    files = FOLDER_FILE_OPTIONS.get(program)
    modes = FOLDER_MODES.get(program, set())
    for item in parsed:
        if item.folder:
            folder = join_folder(folder, item.value, root, outside_is_root=False)
            continue
        if item.spellings & modes:
            folder = join_folder(folder, item.value, root, outside_is_root=False)
            kept.append(item._replace(value="."))
            continue
        if files is not None and item.spellings & files[0]:
            head, base = posixpath.split(item.value)
            if head:
                folder = join_folder(folder, head, root, outside_is_root=False)
            if base not in files[1]:
                kept.append(item._replace(value=base))
            continue
        kept.append(item)
    return folder, kept


def _drop_defaults(
    program: str, parsed: list[_Parsed], subcommand: str | None, folder: str
) -> list[_Parsed]:
    """Without the build-file option naming the tool's default file, given once, and the
    options set once to the value the tool uses anyway (``DEFAULT_VALUES``)."""
    default = DEFAULT_FILES.get(program)
    if default is not None:
        name, files = default
        given = [p for p in parsed if name in p.spellings]
        if len(given) == 1 and norm_path(given[0].value, None) in files:
            parsed = [p for p in parsed if p is not given[0]]
    entries = DEFAULT_VALUES.get(program, ())
    present = set().union(*(p.spellings | {p.name} for p in parsed)) if parsed else set()
    for subcommands, name, defaults, unless in entries:
        if subcommands is not None and subcommand not in subcommands:
            continue
        given = [p for p in parsed if name in p.spellings or p.name == name]
        if len(given) == 1 and given[0].value in defaults and unless not in present:
            parsed = [p for p in parsed if p is not given[0]]
    return parsed


def _canonical_positionals(program: str, positionals: tuple[str, ...]) -> tuple[str, ...]:
    if not positionals:
        return positionals
    first, rest = positionals[0], positionals[1:]
    runner = SCRIPT_RUNNERS.get(program)
    if runner is not None:
        same_as_run, builtins = runner
        if first in same_as_run or (builtins is not None and _script_name(first, builtins)):
            return ("run", first, *rest)
    if program == "kubectl":
        rest = tuple(_kube_resource(arg) for arg in rest)
    return (first, *rest)


def _script_name(word: str, builtins: frozenset[str]) -> bool:
    return word not in builtins and not word.startswith("-") and not is_path_like(word)


def _kube_resource(arg: str) -> str:
    kind, slash, name = arg.partition("/")
    canonical = KUBE_RESOURCES.get(kind)
    return arg if canonical is None else canonical + slash + name


def spellings(program: str, word: str) -> tuple[str, ...]:
    """``word`` and the other spellings of the same subcommand (or, with ``program``
    empty, of the same program), for retrieval: the prior attempt may have used any."""
    others: set[str] = set()
    if not program:
        others = {alias for alias, words in PROGRAM_ALIASES.items() if words[-1] == word}
    else:
        others = {a for a, c in SUBCOMMAND_ALIASES.get(program, {}).items() if c == word}
        node = program_spec(program)
        found = None if node is None else node.subcommand(word)
        if found is not None:
            raw = node._raw.get("s", {})  # type: ignore[union-attr]
            others |= {alias for alias, target in raw.items() if target == found[0]}
            if found[0] != word:
                others.add(found[0])
        if program == "kubectl":
            canonical = KUBE_RESOURCES.get(word, word)
            others |= {a for a, c in KUBE_RESOURCES.items() if c == canonical}
    chosen: list[str] = []
    for spelling in sorted({word} | others, key=lambda s: (len(s), s)):
        if spelling != word and len(spelling) < 3:
            spelling = f"{program} {spelling}"  # too short to search alone (npm t)
        if not any(kept.casefold() in spelling.casefold() for kept in chosen):
            chosen.append(spelling)
    return tuple(chosen)


def vocabulary() -> frozenset[str]:
    """Every program and subcommand spelling of the hand tables (public words, no text of
    any situation); spellings read from a spec are public too (:func:`spellings`)."""
    words: set[str] = set()
    for alias, canonical_words in PROGRAM_ALIASES.items():
        words |= {alias, *canonical_words}
    for program, aliases in SUBCOMMAND_ALIASES.items():
        for alias, canonical in aliases.items():
            words |= {alias, canonical, *spellings(program, canonical)}
    for alias, canonical in KUBE_RESOURCES.items():
        words |= {alias, canonical, *spellings("kubectl", canonical)}
    return frozenset(words)
