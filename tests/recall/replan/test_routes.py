# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Route normalization: trivial differences are the same route, material ones are not."""

from __future__ import annotations

import pytest

from loopx_recall_core.recall.replan.snippets import parse_snippet
from loopx_recall_core.routes import (
    command_route,
    edit_route,
    hypothesis_route,
    near_route,
    same_route,
)
from loopx_recall_core.routes.chain import command_segments

ROOT = "/home/dev/src/alpha"


def relation(a, b) -> str:
    if same_route(a, b):
        return "same"
    return "near" if near_route(a, b) else "new"


# (id, proposed, prior, expected relation)
COMMANDS = [
    ("identical", "pytest tests/a.py", "pytest tests/a.py", "same"),
    ("whitespace", "pytest   tests/a.py\t-x", "pytest tests/a.py -x", "same"),
    ("flag-order", "pytest -x --lf tests/a.py", "pytest --lf tests/a.py -x", "same"),
    ("flag-cluster", "pytest -xs tests/a.py", "pytest -s -x tests/a.py", "same"),
    (
        "positional-order-pytest",
        "pytest tests/a.py tests/b.py",
        "pytest tests/b.py tests/a.py",
        "same",
    ),
    ("env-prefix", "FORCE_COLOR=1 NO_COLOR=x pytest tests/a.py", "pytest tests/a.py", "same"),
    # CI is no output setting: pnpm asks for it to run without a terminal (issue 38)
    ("env-ci-is-material", "CI=true pnpm install", "pnpm install", "near"),
    ("env-wrapper", "env TERM=dumb pytest tests/a.py", "pytest tests/a.py", "same"),
    # env -u NAME removes a variable, as NAME=value sets one: part of the route
    ("env-unset", "env -u HOME TERM=dumb pytest tests/a.py", "pytest tests/a.py", "near"),
    ("timeout-wrapper", "timeout -s KILL 5m pytest tests/a.py", "pytest tests/a.py", "same"),
    (
        "timing-wrapper",
        "/usr/bin/time -f %e -o t.txt pytest tests/a.py",
        "pytest tests/a.py",
        "same",
    ),
    # issue 28 item 6: an assignment that can change what runs is part of the route
    ("env-material", "FOO=1 BAR=x pytest tests/a.py", "pytest tests/a.py", "near"),
    ("time-wrapper", "time pytest tests/a.py", "pytest tests/a.py", "same"),
    ("python-m", "python3 -m pytest tests/a.py", "pytest tests/a.py", "same"),
    ("venv-bin", ".venv/bin/pytest tests/a.py", "pytest tests/a.py", "same"),
    ("uv-run", "uv run pytest tests/a.py", "pytest tests/a.py", "same"),
    ("poetry-run-python-m", "poetry run python -m pytest tests/a.py", "pytest tests/a.py", "same"),
    ("dot-slash", "pytest ./tests/a.py", "pytest tests/a.py", "same"),
    ("double-slash", "pytest tests//a.py", "pytest tests/a.py", "same"),
    ("quoting", "pytest 'tests/a.py' -k \"x and y\"", "pytest tests/a.py -k 'x and y'", "same"),
    ("cosmetic-q-v", "pytest -q tests/a.py", "pytest -vv tests/a.py --color=yes", "same"),
    ("cosmetic-tb", "pytest --tb=short tests/a.py", "pytest tests/a.py -rA", "same"),
    (
        "cd-root-and-pipe",
        f"cd {ROOT} && pytest tests/a.py 2>&1 | tail -20",
        "pytest tests/a.py",
        "same",
    ),
    ("redirect", "pytest tests/a.py > /tmp/log.txt 2>&1", "pytest tests/a.py", "same"),
    # issue 38: a login shell reads the user's profile first (another environment)
    ("bash-lc", "bash -lc 'pytest tests/a.py'", "pytest tests/a.py", "near"),
    ("abs-under-root", f"pytest {ROOT}/tests/a.py", "pytest tests/a.py", "same"),
    ("abs-suffix", "pytest /somewhere/else/alpha/tests/a.py", "pytest tests/a.py", "same"),
    ("newline-separated-cd", f"cd {ROOT}\npytest tests/a.py", "pytest tests/a.py", "same"),
    ("line-continuation", "pytest \\\n  tests/a.py", "pytest tests/a.py", "same"),
    ("npm-dashdash", "npm test -- --silent", "npm test -- --silent", "same"),
    (
        "git-message-flag-order",
        "git commit -a -m 'fix parser'",
        "git commit -m 'fix parser' -a",
        "same",
    ),
    ("go-single-dash", "go test -run TestX ./pkg/...", "go test ./pkg/... -run TestX", "same"),
    ("cargo-quiet", "cargo test -q --all", "cargo test --all", "same"),
    ("make-lint", "make lint", "make  lint", "same"),
    # material differences
    ("other-test-selected", "pytest tests/a.py::test_x", "pytest tests/a.py::test_y", "near"),
    ("other-k", "pytest -k alpha tests/a.py", "pytest -k beta tests/a.py", "near"),
    ("added-flag", "pytest -x tests/a.py", "pytest tests/a.py", "near"),
    ("changed-flag-value", "pytest -n 4 tests/a.py", "pytest -n 2 tests/a.py", "near"),
    ("changed-maxfail", "pytest --maxfail=1 tests/a.py", "pytest --maxfail=5 tests/a.py", "near"),
    ("other-interpreter", "uv run --python 3.12 pytest tests/a.py", "pytest tests/a.py", "near"),
    ("other-cwd", "cd web && npm test", "npm test", "near"),
    ("overlapping-files", "pytest tests/a.py tests/b.py", "pytest tests/b.py", "near"),
    ("cargo-features", "cargo test --features x", "cargo test", "near"),
    ("go-other-run", "go test -run TestA ./pkg", "go test -run TestB ./pkg", "near"),
    ("git-other-message", "git commit -m one", "git commit -m two", "near"),
    ("grep-invert-is-material", "grep -v foo src/a.py", "grep foo src/a.py", "near"),
    ("other-file", "pytest tests/a.py", "pytest tests/b.py", "new"),
    ("other-program", "pytest tests/a.py", "mypy tests/a.py", "new"),
    ("other-npm-script", "npm run build", "npm run lint", "new"),
    ("other-make-target", "make lint", "make test", "new"),
    ("other-git-subcommand", "git status", "git diff", "new"),
    ("whole-suite-vs-file", "pytest", "pytest tests/a.py", "new"),
    ("positional-order-cp", "cp a.txt b.txt", "cp b.txt a.txt", "near"),
    ("abs-not-suffix", "pytest /x/tests/a.py", "pytest sub/tests/a.py", "new"),
]


@pytest.mark.parametrize(
    ("proposed", "prior", "expected"), [pytest.param(*c[1:], id=c[0]) for c in COMMANDS]
)
def test_command_relations(proposed, prior, expected):
    a, b = command_route(proposed, ROOT), command_route(prior)
    assert relation(a, b) == expected
    assert relation(b, a) == expected  # symmetric


# (id, proposed, prior, root given to both, expected relation)
SPELLINGS = [
    ("make-C-root", f"make -C {ROOT} migrate", "make migrate", ROOT, "same"),
    ("make-C-root-unknown", f"make -C {ROOT} migrate", "make migrate", None, "near"),
    ("make-C-dot-root-unknown", "make --directory=./ migrate", "make migrate", None, "same"),
    ("make-C-sub", "make -C db migrate", "make migrate", ROOT, "near"),
    # issue 38: an option naming the folder to run in is that folder
    ("make-C-sub-is-cd-sub", "make -C db migrate", "cd db && make migrate", ROOT, "same"),
    ("cd-sub-then-C-root", f"cd db && make -C {ROOT} x", "cd db && make x", ROOT, "near"),
    ("cd-sub-then-C-dot-kept", "cd db && make -C . x", "make x", ROOT, "near"),
    ("git-C-root-then-sub", f"git -C {ROOT} -C sub pull", "git pull", ROOT, "near"),
    ("git-C-root-twice", f"git -C {ROOT} -C . pull", "git pull", ROOT, "same"),
    ("npm-prefix-root", f"npm --prefix {ROOT} test", "npm test", ROOT, "same"),
    ("npm-global-prefix", f"npm i -g --prefix {ROOT} x", "npm i -g x", ROOT, "near"),
    ("cargo-manifest-root", "cargo test --manifest-path ./Cargo.toml", "cargo test", None, "same"),
    ("cargo-manifest-sub", "cargo test --manifest-path a/Cargo.toml", "cargo test", ROOT, "near"),
    ("cargo-p-cluster", "cargo test -pcore", "cargo test --package=core", ROOT, "same"),
    ("cargo-F-cluster", "cargo build -Fserde", "cargo build --features serde", ROOT, "same"),
    (
        "pytest-cluster-aliases",
        "pytest -xs a.py",
        "pytest --exitfirst --capture=no a.py",
        ROOT,
        "same",
    ),
    ("pytest-s-not-fd", "pytest -s a.py", "pytest --capture fd a.py", ROOT, "near"),
    ("pytest-no-keyword-option", "pytest --keyword x a.py", "pytest -k x a.py", ROOT, "near"),
    ("alias-not-after-dashdash", "cargo test -- -p", "cargo test -- --package", ROOT, "new"),
    ("alias-per-program", "pnpm add -w x", "pnpm add --workspace x", ROOT, "near"),
    ("npm-w-is-workspace", "npm test -w web", "npm test --workspace=web", ROOT, "same"),
    ("pip-C-is-not-a-dir", "pip install -C . x", "pip install x", ROOT, "near"),
]


@pytest.mark.parametrize(
    ("proposed", "prior", "root", "expected"),
    [pytest.param(*c[1:], id=c[0]) for c in SPELLINGS],
)
def test_spellings_of_one_route(proposed, prior, root, expected):
    a, b = command_route(proposed, root), command_route(prior, root)
    assert relation(a, b) == expected
    assert relation(b, a) == expected


def test_pipe_viewer_dropped_but_pipe_producer_kept():
    (segment,) = command_segments("cat data.json | python tools/check.py")[1:]
    assert segment.program == "tools/check.py"  # "python x.py" runs ./x.py (issue 18 E)
    assert [s.program for s in command_segments("pytest | tee out.txt")] == ["pytest"]


def test_setup_only_command_keeps_its_segments():
    assert [s.program for s in command_segments("cd src")] == ["cd"]


def test_unbalanced_quotes_do_not_raise():
    assert command_segments("pytest 'tests/a b.py")[0].program == "pytest"


def test_nested_shells_are_bounded():
    deep = "bash -c " + "'bash -c " * 10 + "pytest"
    segments = command_segments(deep)  # terminates: the unwrapping depth is bounded
    assert 1 <= len(segments) <= 11
    assert {s.program for s in segments} <= {"bash", "pytest"}


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (["src/a.py"], ["./src/a.py"], "same"),
        (["src/a.py", "src/b.py"], ["src/b.py", "src/a.py"], "same"),
        (["src/a.py"], [f"{ROOT}/src/a.py"], "same"),
        (["src/a.py", "src/b.py"], ["src/a.py"], "near"),
        (["src/a.py"], ["src/b.py"], "new"),
        (["a.py"], ["lib/xa.py"], "new"),
    ],
)
def test_edit_relations(a, b, expected):
    assert relation(edit_route(a, ROOT), edit_route(b)) == expected


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("The cache races with the watcher", "the  cache races with the WATCHER", "same"),
        (
            "The JSON cache races with the file watcher",
            "file watcher races JSON cache writes",
            "near",
        ),
        ("The JSON cache races with the watcher", "tokio shutdown order changed", "new"),
    ],
)
def test_hypothesis_relations(a, b, expected):
    assert relation(hypothesis_route(a), hypothesis_route(b)) == expected


def test_kinds_never_match_across():
    assert relation(command_route("pytest a.py"), edit_route(["a.py"])) == "new"


# -- the snippet convention -----------------------------------------------------------------


def test_snippet_header_and_outcome():
    parsed = parse_snippet("Bash: pytest tests/a.py -x\noutcome: failed (exit 1)\nExit code 1")
    assert parsed.tool == "Bash"
    assert parsed.failed is True
    assert parsed.route is not None
    assert parsed.route.kind == "command"
    assert same_route(parsed.route, command_route("pytest -x tests/a.py"))


@pytest.mark.parametrize(
    ("line", "failed"),
    [
        ("outcome: ok", False),
        ("outcome: failed", True),
        ("outcome: failed (exit 127)", True),
        ("Exit code 1", None),
        ("outcome: maybe", None),
    ],
)
def test_snippet_outcome_line(line, failed):
    assert parse_snippet(f"shell: make\n{line}").failed is failed


def test_snippet_file_tool_paths():
    parsed = parse_snippet(f"apply_patch: src/a.py '{ROOT}/src/b c.py'", ROOT)
    assert parsed.route is not None
    assert parsed.route.kind == "edit"
    assert parsed.route.paths == ("src/a.py", "src/b c.py")


@pytest.mark.parametrize(
    "snippet",
    [
        "I'll switch to uv because pip is slow",
        "Bash:pytest tests/a.py",  # no blank after the colon
        "",
        "summary: " + "x" * 0,  # header with an empty input is still a header
    ],
)
def test_snippet_without_usable_header(snippet):
    parsed = parse_snippet(snippet)
    if parsed.route is not None:
        assert not parsed.route.paths
        assert not parsed.route.segments


def test_cut_header_is_incomplete():
    parsed = parse_snippet("Bash: pytest tests/a.py…")
    assert parsed.route is not None
    assert not parsed.route.complete
    assert not same_route(parsed.route, command_route("pytest tests/a.py"))
    assert near_route(command_route("pytest tests/a.py"), parsed.route)
