# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Command templates the corpus plants and proposes: one route, its spellings, its variants.

Each template turns a slug (``ledger3``) into

* ``base``: the command a case proposes;
* ``respell``: trivially different spellings of ``base`` that Replan's route normalization
  documents as the same route (``docs/replan.md``): what an earlier session ran;
* ``hard``: spellings a reviewer calls the same route but the normalization does not
  know (its documented limits, e.g. ``cargo t`` for ``cargo test``). A repeat planted
  with one is tagged ``hard_spelling``: it is expected to be missed by every arm;
* ``near``: materially different commands on the same program and targets (a new flag,
  another test selector): a ``near_miss`` proposes one of them after ``base`` failed;
* ``failure``: the first output line and exit code of a failing run.

``{root}`` in a command stands for the absolute root of the repository the command ran in;
it is filled in when the corpus is written to disk.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

__all__ = ["ASCII_SLUGS", "NON_ASCII_SLUGS", "ROOT", "TEMPLATES", "Template", "by_name"]

ROOT = "{root}"

Spell = Callable[[str], str]


@attrs.frozen(kw_only=True)
class Template:
    name: str
    base: Spell
    respell: tuple[Spell, ...]
    near: tuple[Spell, ...]
    failure: Callable[[str], tuple[str, int]]
    hard: tuple[Spell, ...] = ()


def _title(slug: str) -> str:
    return slug[:1].upper() + slug[1:]


TEMPLATES: tuple[Template, ...] = (
    Template(
        name="pytest",
        base=lambda s: f"pytest tests/test_{s}.py -x",
        respell=(
            lambda s: f"python -m pytest -x tests/test_{s}.py",
            lambda s: f"uv run pytest tests/test_{s}.py -x -q",
            lambda s: f"pytest {ROOT}/tests/test_{s}.py --exitfirst",
            lambda s: f"cd {ROOT} && pytest -x ./tests/test_{s}.py 2>&1 | tail -40",
        ),
        near=(
            lambda s: f"pytest tests/test_{s}.py -x -k roundtrip",
            lambda s: f"pytest tests/test_{s}.py::test_parse -x",
            lambda s: f"pytest tests/test_{s}.py -x --cov=src",
        ),
        failure=lambda s: (
            f"FAILED tests/test_{s}.py::test_parse - AssertionError: assert 3 == 2",
            1,
        ),
    ),
    Template(
        name="npm",
        base=lambda s: f"npm run build:{s}",
        respell=(
            lambda s: f"cd {ROOT} && npm run build:{s}",
            lambda s: f"npm run build:{s} 2>&1 | tail -20",
            lambda s: f"NO_COLOR=1 npm run build:{s}",
            # npm's "run-script" alias of "run": known since issue 18 item E.
            lambda s: f"npm run-script build:{s}",
        ),
        near=(
            lambda s: f"npm run build:{s} -- --watch",
            lambda s: f"npm run build:{s} --workspace packages/{s}",
        ),
        failure=lambda s: (
            f"src/{s}.ts(14,7): error TS2345: Argument of type 'string' is not assignable.",
            2,
        ),
    ),
    Template(
        name="cargo",
        base=lambda s: f"cargo test -p {s}",
        respell=(
            lambda s: f"cargo test -p {s} -q",
            lambda s: f"cd {ROOT} && cargo test -p {s}",
            lambda s: f"RUST_BACKTRACE=1 cargo test -p {s}",
            # Cargo's built-in subcommand alias ("t" is "test"), known since issue 18 item E
            # ("--package" for "-p" since issue 14): no longer a hard spelling.
            lambda s: f"cargo t -p {s}",
        ),
        near=(
            lambda s: f"cargo test -p {s} --release",
            lambda s: f"cargo test -p {s} --features full",
        ),
        failure=lambda s: (f"error[E0433]: failed to resolve: use of undeclared crate `{s}`", 101),
    ),
    Template(
        name="go",
        base=lambda s: f"go test -run Test{_title(s)} ./pkg/{s}/...",
        respell=(
            lambda s: f"go test ./pkg/{s}/... -run Test{_title(s)} -v",
            lambda s: f"cd {ROOT} && go test -run Test{_title(s)} ./pkg/{s}/...",
        ),
        near=(
            lambda s: f"go test -run Test{_title(s)} -count=1 ./pkg/{s}/...",
            lambda s: f"go test -run Test{_title(s)}Edge ./pkg/{s}/...",
        ),
        failure=lambda s: (f"--- FAIL: Test{_title(s)} (0.00s)", 1),
    ),
    Template(
        name="make",
        base=lambda s: f"make test-{s}",
        respell=(
            lambda s: f"make -s test-{s}",
            lambda s: f"make test-{s} 2>&1 | head -50",
            lambda s: f"cd {ROOT} && make test-{s}",
        ),
        near=(
            lambda s: f"make -j4 test-{s}",
            lambda s: f"make -C sub test-{s}",
        ),
        failure=lambda s: (f"make: *** [Makefile:42: test-{s}] Error 2", 2),
    ),
    Template(
        name="mypy",
        base=lambda s: f"mypy src/{s}",
        respell=(
            lambda s: f"python -m mypy src/{s}",
            lambda s: f"uv run mypy src/{s} --pretty",
            lambda s: f"mypy {ROOT}/src/{s}",
        ),
        near=(
            lambda s: f"mypy src/{s} --strict",
            lambda s: f"mypy src/{s}/core.py",
        ),
        failure=lambda s: (
            f'src/{s}/core.py:41: error: Incompatible return value type (got "str", '
            'expected "int")',
            1,
        ),
    ),
    Template(
        name="script",
        base=lambda s: f"./scripts/check-{s}.sh",
        respell=(
            lambda s: f"bash scripts/check-{s}.sh",
            lambda s: f"cd {ROOT} && ./scripts/check-{s}.sh",
        ),
        near=(
            lambda s: f"bash -x scripts/check-{s}.sh",
            lambda s: f"./scripts/check-{s}.sh --fast",
        ),
        failure=lambda s: (f"check-{s}: 3 problems found", 1),
    ),
    Template(
        name="node",
        base=lambda s: f"node scripts/gen-{s}.js",
        respell=(
            lambda s: f"node ./scripts/gen-{s}.js",
            lambda s: f"cd {ROOT} && node scripts/gen-{s}.js",
        ),
        near=(
            lambda s: f"node scripts/gen-{s}.js --prod",
            lambda s: f"node --inspect scripts/gen-{s}.js",
        ),
        failure=lambda s: (f"Error: Cannot find module './{s}-config'", 1),
    ),
    Template(
        name="ruff",
        base=lambda s: f"ruff check src/{s}",
        respell=(
            lambda s: f"uv run ruff check src/{s}",
            lambda s: f"ruff check {ROOT}/src/{s} -q",
        ),
        near=(
            lambda s: f"ruff check src/{s} --fix",
            lambda s: f"ruff check src/{s} --select E501",
        ),
        failure=lambda s: (f"src/{s}/api.py:88:101: E501 Line too long (112 > 100)", 1),
    ),
)

#: Words for slugs; a family appends a number so no slug collides with the generator's
#: background commands (``tests/test_parser.py``, ``npm run build``, ...).
ASCII_SLUGS = (
    "ledger",
    "billing",
    "search",
    "ingest",
    "export",
    "render",
    "queue",
    "notify",
    "geo",
    "media",
    "report",
    "sync",
    "audit",
    "config",
    "metrics",
    "router",
)
NON_ASCII_SLUGS = ("café", "東京", "naïve", "straße", "日志", "señal", "résumé", "ærø")


def by_name(name: str) -> Template:
    for template in TEMPLATES:
        if template.name == name:
            return template
    raise KeyError(name)
