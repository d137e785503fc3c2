# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The canonical route of one command, by class (issue 18, item E); tables in
:mod:`.toolchains` and :mod:`.programs`, applied here, called from :mod:`.shell`.

* **Program names**: a program's other usual name is its canonical name
  (``py.test`` -> ``pytest``, ``./gradlew`` -> ``gradle``, ``docker-compose up`` ->
  ``docker compose up``); ``python [opts] x.py`` runs ``./x.py`` (as ``bash x.sh`` does).
* **Subcommands**: a documented subcommand alias is the subcommand (``cargo t`` ->
  ``cargo test``); a package script is ``run <script>`` whichever form ran it
  (``npm test``, ``npm t``, ``yarn lint``, ``pnpm lint`` -> ``run test`` / ``run lint``);
  a kubectl resource is its plural name (``po``, ``pod`` -> ``pods``).
* **Default locations**: a run-in-directory option naming the repository root, or a
  build-file option naming the file the tool reads anyway there (``make -f Makefile``,
  ``docker compose -f compose.yaml``, ``mvn -f pom.xml``), is dropped, only when no
  ``cd <subfolder>`` is in effect and the option is given once.
* **Default values**: an option given once with the value the tool uses anyway when it
  is not given (``cargo build --profile dev``, ``make -j1``, ``kubectl apply
  --dry-run=none``, ``terraform plan -lock=true``) is dropped (``DEFAULT_VALUES``, per
  program and subcommand; not when an option that changes the default is present:
  ``kubectl logs -l app=x`` shows 10 lines).
* **Environment**: a leading ``NAME=value`` is material (``RAILS_ENV``, ``PGHOST``,
  ``PYTHONPATH`` change what runs) unless the variable only changes how output is shown
  (``OUTPUT_ENV``: ``CI``, ``NO_COLOR``, ``TERM``, ...), which is dropped.

:func:`spellings` gives the other usual spellings of a canonical word, for retrieval:
the prior attempt may have used any of them.
"""

from __future__ import annotations

import re

from loopx_recall_core.recall.replan.paths import is_path_like
from loopx_recall_core.recall.replan.programs import RUN_IN_DIR, VALUE_FLAGS
from loopx_recall_core.recall.replan.toolchains import (
    DEFAULT_FILES,
    DEFAULT_VALUES,
    KUBE_RESOURCES,
    OUTPUT_ENV,
    PROGRAM_ALIASES,
    SCRIPT_RUNNERS,
    SUBCOMMAND_ALIASES,
)

__all__ = [
    "canonical_head",
    "canonical_positionals",
    "drop_defaults",
    "env_material",
    "python_module",
    "python_script",
    "spellings",
    "vocabulary",
]

_PIP = re.compile(r"pip\d+(?:\.\d+)?\Z")


def canonical_head(program: str, args: list[str]) -> tuple[str, list[str]]:
    """The canonical program of a normalized program name, and its arguments."""
    words = PROGRAM_ALIASES.get(program) or (("pip",) if _PIP.match(program) else None)
    if words is None:
        return program, args
    return words[0], [*words[1:], *args]


def env_material(token: str) -> bool:
    """A ``NAME=value`` assignment that can change what the command does: every one but
    those of a variable that only changes how output is shown."""
    return token.partition("=")[0] not in OUTPUT_ENV


def canonical_positionals(program: str, positionals: tuple[str, ...]) -> tuple[str, ...]:
    if not positionals:
        return positionals
    first = SUBCOMMAND_ALIASES.get(program, {}).get(positionals[0], positionals[0])
    rest = positionals[1:]
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


def drop_defaults(
    program: str, flags: list[tuple[str, str]], *, at_root: bool, subcommand: str | None = None
) -> list[tuple[str, str]]:
    """Without the options that name the default location, when they provably do, and
    those set to the value the tool uses anyway (``DEFAULT_VALUES``).

    ``make -C <root> migrate`` run from anywhere is ``make migrate`` run from the root,
    which is where a command is assumed to run. Only a value that provably names the root
    counts: ``.``, or the situation's ``repository_root`` (an absolute path elsewhere may
    be another checkout, so it stays material, unlike a leading ``cd``). Every occurrence
    must name the root (``git -C <root> -C sub`` runs in ``sub``); ``npm --prefix`` with
    ``--global`` is an install location, not a folder to run in. After ``cd <subfolder>``
    nothing is dropped: ``-C <root>`` would undo that ``cd``, ``-C .`` would not, and both
    normalize to ``.``. A build-file option is dropped only when given once (two
    ``-f`` merge two files) and naming the tool's default file.
    """
    flags = _drop_default_values(program, flags, subcommand)
    if not at_root:
        return flags
    option = RUN_IN_DIR.get(program)
    if option is not None:
        name, root_value = option
        values = [value for flag, value in flags if flag == name]
        global_install = program == "npm" and any(flag == "--global" for flag, _ in flags)
        if values and all(value == root_value for value in values) and not global_install:
            flags = [flag for flag in flags if flag[0] != name]
    default = DEFAULT_FILES.get(program)
    if default is not None:
        name, files = default
        values = [value for flag, value in flags if flag == name]
        if len(values) == 1 and values[0] in files:
            flags = [flag for flag in flags if flag[0] != name]
    return flags


def _drop_default_values(
    program: str, flags: list[tuple[str, str]], subcommand: str | None
) -> list[tuple[str, str]]:
    entries = DEFAULT_VALUES.get(program)
    if not entries:
        return flags
    if subcommand is not None:
        subcommand = SUBCOMMAND_ALIASES.get(program, {}).get(subcommand, subcommand)
    names = {flag for flag, _ in flags}
    for subcommands, name, defaults, unless in entries:
        if subcommands is not None and subcommand not in subcommands:
            continue
        values = [value for flag, value in flags if flag == name]
        if len(values) == 1 and values[0] in defaults and unless not in names:
            flags = [flag for flag in flags if flag[0] != name]
    return flags


def python_module(tokens: list[str]) -> tuple[list[str], list[str]] | None:
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


def python_script(tokens: list[str]) -> tuple[list[str], list[str]] | None:
    """``[opts] x.py args`` -> (opts, ``./x.py args``): the script run by its interpreter,
    as ``bash x.sh`` is ``./x.sh``; None when no ``.py`` file is run."""
    options: list[str] = []
    index = 0
    while index < len(tokens) and tokens[index].startswith("-") and tokens[index] != "-":
        options.append(tokens[index])
        if tokens[index] in VALUE_FLAGS["python"] and index + 1 < len(tokens):
            options.append(tokens[index + 1])
            index += 1
        index += 1
    if index >= len(tokens) or not tokens[index].endswith(".py"):
        return None
    script = tokens[index]
    return options, [script if "/" in script else "./" + script, *tokens[index + 1 :]]


def _spelling_table() -> dict[str, dict[str, set[str]]]:
    """program ("" for program names) -> canonical word -> its other spellings."""
    table: dict[str, dict[str, set[str]]] = {"": {}, "kubectl": {}}
    for alias, words in PROGRAM_ALIASES.items():
        table[""].setdefault(words[-1], set()).add(alias)
    for program, aliases in SUBCOMMAND_ALIASES.items():
        for alias, canonical in aliases.items():
            table.setdefault(program, {}).setdefault(canonical, set()).add(alias)
    for alias, canonical in KUBE_RESOURCES.items():
        table["kubectl"].setdefault(canonical, set()).add(alias)
    return table


_SPELLINGS = _spelling_table()
_MIN_SPELLING = 3  # a shorter alias (``t``, ``po``) alone would match almost any text


def spellings(program: str, word: str) -> tuple[str, ...]:
    """``word`` (a program name when ``program`` is empty, else one of its arguments) and
    its other usual spellings, shortest first, none containing another: a term matches
    any text containing it, so ``deploy`` finds ``deployments`` too. An alias too short
    to search alone is searched with its program (``npm t``)."""
    others = _SPELLINGS.get(program, {}).get(word, set())
    chosen: list[str] = []
    for spelling in sorted({word} | others, key=lambda s: (len(s), s)):
        if spelling != word and len(spelling) < _MIN_SPELLING:
            spelling = f"{program} {spelling}"
        if not any(kept.casefold() in spelling.casefold() for kept in chosen):
            chosen.append(spelling)
    return tuple(chosen)


def vocabulary() -> frozenset[str]:
    """Every word and spelling of the public tables: a term may be one of them even when
    the step spelled it otherwise (they hold no text of the situation)."""
    words: set[str] = set()
    for program, table in _SPELLINGS.items():
        for word, others in table.items():
            words |= set(spellings(program, word)) | {word} | others
    return frozenset(words)
