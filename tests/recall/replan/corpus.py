# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A hand-labelled corpus for the route comparator: repeat vs near miss vs novel.

Each case is a proposed step and ONE historical item in a fresh, complete index. Labels
are what a careful reviewer would say, not what the comparator does; known misses are
kept on purpose (marked ``# miss``) so the numbers stay honest:

* ``repeat``: the item is a failure of the materially same route (the issue's trivial
  differences: whitespace, order, env prefixes, wrappers, quoting, absolute paths);
* ``near``: same program and targets with a material difference, the same route that
  succeeded, the same files edited, or a decision/summary naming the route;
* ``novel``: nothing in the item bears on the proposed route.

Run ``python -m tests.recall.replan.corpus`` from the repository root for the table.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from loopx_recall_core.contracts import structure
from loopx_recall_core.contracts.replan import ReplanSituationV0
from loopx_recall_core.recall.replan.comparison import compare
from loopx_recall_core.recall.replan.situation_admission import build_request
from tests.recall.replan import helpers

ROOT = "/home/dev/src/alpha"
LABELS = ("repeat", "near", "novel")
_PREDICTED = {
    "repeats_prior_failure": "repeat",
    "similar_to_prior_attempt": "near",
    "no_prior_match": "novel",
}


def fail(command: str, tool: str = "Bash", code: int = 1) -> tuple[str, str]:
    return ("prior_failure", f"{tool}: {command}\noutcome: failed (exit {code})\nExit code {code}")


def ok(command: str, tool: str = "Bash") -> tuple[str, str]:
    return ("tool_outcome", f"{tool}: {command}\noutcome: ok\n31 passed")


def edit(path: str, tool: str = "Edit") -> tuple[str, str]:
    return ("file_history", f"{tool}: {path}")


def text(kind: str, body: str) -> tuple[str, str]:
    return (kind, body)


# (proposed step, (evidence_type, snippet), label)
CASES: list[tuple[dict[str, Any], tuple[str, str], str]] = []


def case(step: str | dict[str, Any], item: tuple[str, str], label: str) -> None:
    if isinstance(step, str):
        step = {"kind": "command", "command": step}
    CASES.append((step, item, label))


# -- repeats: trivial differences ---------------------------------------------------------
case("pytest tests/test_parser.py -x", fail("pytest tests/test_parser.py -x"), "repeat")
case("pytest tests/test_parser.py -x", fail("pytest  -x   tests/test_parser.py"), "repeat")
case("pytest tests/test_parser.py -x", fail("python -m pytest -x tests/test_parser.py"), "repeat")
case("pytest tests/test_parser.py -x", fail("uv run pytest tests/test_parser.py -x -q"), "repeat")
case("pytest tests/test_parser.py -x", fail("NO_COLOR=1 pytest tests/test_parser.py -x"), "repeat")
case("pytest tests/test_parser.py -x", fail(f"pytest -x {ROOT}/tests/test_parser.py"), "repeat")
case(
    "pytest tests/test_parser.py -x", fail(f"cd {ROOT} && pytest -x tests/test_parser.py"), "repeat"
)
case(
    "pytest tests/test_parser.py -x",
    fail("pytest tests/test_parser.py -x 2>&1 | tail -40"),
    "repeat",
)
case(
    "pytest tests/test_parser.py -x",
    fail("bash -lc 'pytest tests/test_parser.py -x'", tool="shell"),
    "repeat",
)
case(
    "pytest tests/test_parser.py -x",
    fail('.venv/bin/python -m pytest "tests/test_parser.py" -x --color=yes'),
    "repeat",
)
case("pytest tests/test_parser.py -x", fail("pytest ./tests/test_parser.py -xvv"), "repeat")
case("pytest tests/test_parser.py -x", fail("pytest tests/test_parser.py -x; echo $?"), "repeat")
case("pytest tests/test_parser.py -x", fail("pytest tests/test_parser.py --exitfirst"), "repeat")
# issue 28 item 6: an assignment that can change what runs is part of the route
case("PYTHONPATH=src pytest tests/test_parser.py", fail("pytest tests/test_parser.py"), "near")
case("npm run build", fail("npm run build", code=2), "repeat")
case("npm run build", fail("cd /home/dev/src/alpha && npm run build", code=2), "repeat")
case("npm test -- --silent", fail("npm test -- --silent"), "repeat")
case("cargo test --all", fail("cargo test --all -q", code=101), "repeat")
case("make lint", fail("make lint 2>&1 | head -50", code=2), "repeat")
case("python -m mypy src", fail("mypy src"), "repeat")
case("mypy src", fail("python3 -m mypy src --pretty"), "repeat")
case(
    "go test -run TestParse ./pkg/parser", fail("go test ./pkg/parser -run TestParse -v"), "repeat"
)
case("git push origin main", fail("git push origin main", code=128), "repeat")
case("pytest tests/a.py tests/b.py", fail("pytest tests/b.py tests/a.py"), "repeat")
case("pytest -k 'not slow' tests/a.py", fail('pytest tests/a.py -k "not slow"'), "repeat")
case("pytest tests/a.py::TestX::test_y", fail("pytest 'tests/a.py::TestX::test_y'"), "repeat")
case("ruff check src tests", fail("uv run ruff check tests src"), "repeat")
case("tox -e py311", fail("tox -e py311 -q"), "repeat")
case("pytest tests/a.py", fail("pytest tests/a.py || true"), "repeat")
case("pytest tests/a.py", fail("time env FOO=1 pytest tests/a.py"), "near")  # issue 28 item 6
case("pytest tests/a.py", fail("time env NO_COLOR=1 pytest tests/a.py"), "repeat")
case(
    "pytest tests/a.py",
    fail('sh -c "cd /w/alpha && pytest tests/a.py"', tool="exec_command"),
    "repeat",
)
case("./scripts/test.sh", fail("bash scripts/test.sh"), "repeat")
case("sh ci.sh --fast", fail("./ci.sh --fast"), "repeat")
case(
    "pytest tests/a.py", text("prior_failure", "Exit code 1: pytest tests/a.py failed"), "repeat"
)  # miss: no header, so never a repeat by design
case(
    "curl localhost:8000/health", fail("curl -v localhost:8000/health", code=7), "repeat"
)  # miss: -v is cosmetic for curl but not in the cosmetic table

# -- near misses ----------------------------------------------------------------------------
case("pytest tests/test_parser.py -x", fail("pytest tests/test_parser.py"), "near")
case(
    "pytest tests/test_parser.py -x", fail("pytest tests/test_parser.py::test_roundtrip -x"), "near"
)
case("pytest tests/test_parser.py -x", fail("pytest tests/test_parser.py -x -k roundtrip"), "near")
case("pytest tests/test_parser.py -x", fail("pytest tests/test_parser.py -x -n 4"), "near")
case("pytest tests/test_parser.py -x", ok("pytest tests/test_parser.py -x"), "near")
case(
    "pytest tests/test_parser.py -x", fail("pytest tests/test_parser.py -x -p no:randomly"), "near"
)
case("pytest tests/test_parser.py -x", fail("pytest tests/test_parser.py -x --cov=src"), "near")
case(
    "pytest tests/test_parser.py -x",
    fail("uv run --python 3.13 pytest tests/test_parser.py -x"),
    "near",
)
# a time limit changes how long a command may run, not what it runs (GNU timeout --help);
# only a call the limit stopped (exit 124) makes another limit another try
case("pytest tests/test_parser.py -x", fail("timeout 60 pytest tests/test_parser.py -x"), "repeat")
case(
    "timeout 600 pytest tests/test_parser.py -x",
    fail("timeout 60 pytest tests/test_parser.py -x", code=124),
    "near",
)
case("pytest tests/test_parser.py -x", fail("cd sub && pytest tests/test_parser.py -x"), "near")
case("pytest tests/test_parser.py -x", fail("make build && pytest tests/test_parser.py -x"), "near")
case("pytest tests/a.py tests/b.py", fail("pytest tests/b.py"), "near")
case("pytest -k test_x tests/a.py", fail("pytest tests/a.py::test_x"), "near")
case("pytest tests/", fail("pytest tests/test_parser.py"), "near")
case("pytest tests/unit", fail(f"pytest {ROOT}/tests/unit/test_x.py"), "near")
case("bash -x scripts/test.sh", fail("./scripts/test.sh"), "near")
case("npm run build", fail("npm run build -- --watch"), "near")
case("cargo test --all", fail("cargo test --all --release", code=101), "near")
case("cargo test", fail("cargo test --features tokio/full", code=101), "near")
case("tox -e py311", fail("tox -e py312"), "near")
case("go test -run TestA ./pkg", fail("go test -run TestB ./pkg"), "near")
case("go test ./...", fail("go test ./pkg/..."), "near")
case("git push origin main", fail("git push --force origin main"), "near")
case("ruff check src", fail("ruff check src --fix"), "near")
case("make test", fail("make -j4 test", code=2), "near")
case("docker build -t app .", fail("docker build -t app:v2 ."), "near")
case("node scripts/build.js", fail("node scripts/build.js --prod"), "near")
case("pip install -e .", fail("pip install -e '.[dev]'"), "near")  # miss: extras spelling
case("npx jest src/a.test.ts", fail("npm test -- src/a.test.ts"), "near")  # miss: via npm
case(
    "make lint", text("decision", "Decided to stop running make lint before E501 is fixed."), "near"
)
case(
    "pytest tests/a.py",
    text("summary", "Fixed the fixture in tests/a.py; pytest passes now."),
    "near",
)
case("pytest tests/a.py", fail("pytest tests/a.py…"), "near")  # cut header
case({"kind": "edit", "file_paths": ["src/cache.py"]}, edit(f"{ROOT}/src/cache.py"), "near")
case(
    {"kind": "edit", "file_paths": ["src/cache.py", "src/parser.py"]},
    edit("src/parser.py", tool="apply_patch"),
    "near",
)
case(
    {"kind": "edit", "file_paths": ["src/cache.py"]},
    ("prior_failure", "Edit: src/cache.py\noutcome: failed\nold_string not found"),
    "near",
)
case(
    {"kind": "hypothesis", "hypothesis": "The JSON cache races with the file watcher"},
    text(
        "decision",
        "I'll switch to a SQLite cache because rewriting the JSON cache on every "
        "run races with the watcher.",
    ),
    "near",
)
case(
    {"kind": "hypothesis", "hypothesis": "tokio 1.39 changed the runtime shutdown order"},
    text("summary", "Pinned tokio 1.38: the newer runtime changed the shutdown order."),
    "near",
)

# -- novel ----------------------------------------------------------------------------------
case("pytest tests/test_parser.py -x", fail("pytest tests/test_cli.py -x"), "novel")
case("pytest tests/test_parser.py -x", fail("pytest tests/test_parser2.py -x"), "novel")
case("pytest tests/test_parser.py -x", fail("mypy tests/test_parser.py"), "novel")
case("pytest tests/test_parser.py -x", fail("npm run build", code=2), "novel")
case("pytest tests/test_parser.py -x", ok("git status --short"), "novel")
case("pytest tests/test_parser.py -x", edit("tests/test_parser.py"), "novel")
case("pytest tests/test_parser.py -x", text("summary", "Ran pytest; 48 passed in 2.31s."), "novel")
case(
    "pytest tests/test_parser.py -x",
    text("decision", "I'll use an iterative parser: recursion overflows."),
    "novel",
)
case("npm run build", fail("npm run lint"), "novel")
case("make lint", fail("make test", code=2), "novel")
case("git status", ok("git diff"), "novel")
case("ruff check src", fail("ruff check tests"), "novel")
case("pytest", fail("pytest tests/a.py"), "novel")
case("pytest tests/a.py", fail("pytest /x/other/xtests/a.py"), "novel")
case("pytest tests/unit", fail("pytest tests/integration/test_x.py"), "novel")
case("pytest tests/unit", fail("pytest tests/unit_old/test_x.py"), "novel")
case("pytest src/a", fail("pytest lib/src/a/test_x.py"), "novel")
case("go test ./pkg/a/...", fail("go test ./pkg/b/..."), "novel")
case("./scripts/test.sh", fail("./scripts/lint.sh"), "novel")
case("bash scripts/test.sh", fail("bash scripts/deploy.sh"), "novel")
case("cargo build", fail("cargo test --all", code=101), "novel")
case("make test", text("decision", "We run make lint before every commit."), "novel")
case({"kind": "edit", "file_paths": ["src/cache.py"]}, edit("src/cache_test.py"), "novel")
case({"kind": "edit", "file_paths": ["src/cache.py"]}, fail("pytest tests/test_cache.py"), "novel")
case(
    {"kind": "hypothesis", "hypothesis": "The JSON cache races with the file watcher"},
    text("decision", "Use uv for dependency locking: pip's resolver takes minutes on CI."),
    "novel",
)
case(
    {"kind": "hypothesis", "hypothesis": "structured logging hides the request id"},
    text("summary", "Pinned tokio 1.38 because of the shutdown order."),
    "novel",
)


# -- held out: written and labelled after the comparator was frozen; never tuned on ------
HOLDOUT: list[tuple[dict[str, Any], tuple[str, str], str]] = []


def held(step: str | dict[str, Any], item: tuple[str, str], label: str) -> None:
    if isinstance(step, str):
        step = {"kind": "command", "command": step}
    HOLDOUT.append((step, item, label))


held("pnpm test", fail("pnpm  test"), "repeat")
held("pnpm exec vitest run src/x.test.ts", fail("vitest run src/x.test.ts"), "repeat")
held("yarn jest src/a.test.ts", fail("yarn jest ./src/a.test.ts"), "repeat")
held("cargo clippy -- -D warnings", fail("cargo clippy -- -D warnings", code=101), "repeat")
held("cargo test -p core", fail("cargo test --package core", code=101), "repeat")
held("python manage.py test app.tests", fail("python3 manage.py test app.tests"), "repeat")
held("python -m unittest tests.test_io", fail("python3 -m unittest tests.test_io"), "repeat")
held("black --check src", fail("black src --check"), "repeat")
held("npx tsc --noEmit", fail("tsc --noEmit", code=2), "repeat")
held("go vet ./...", fail(f"cd {ROOT} && go vet ./..."), "repeat")
held('pytest -m "not slow" tests', fail("pytest tests -m 'not slow' --no-header"), "repeat")
held("make -C docs html", fail("make html -C docs", code=2), "repeat")
held("docker compose up -d db", fail("docker compose up db -d"), "repeat")
held("pytest tests/test_io.py", fail("bash -lc 'pytest tests/test_io.py'", tool="shell"), "repeat")
held("alembic upgrade head", fail("uv run alembic upgrade head"), "repeat")
held("pytest tests/test_io.py -x", fail("pytest tests/test_io.py -x --tb=line -q"), "repeat")
held("pytest tests/test_io.py", fail("py.test tests/test_io.py"), "repeat")
held("./gradlew test", fail("./gradlew test"), "repeat")
held("cargo run --bin server", fail("cargo run --bin=server", code=101), "repeat")
held("pnpm test", ok("pnpm test"), "near")
held("cargo clippy -- -D warnings", fail("cargo clippy", code=101), "near")
held("python manage.py test app.tests", fail("python manage.py test app.tests.test_models"), "near")
held("npm ci", fail("npm ci --no-audit"), "near")
held("pytest tests/test_io.py -x", fail("pytest tests/test_io.py -x --runxfail"), "near")
held("go test ./pkg/io", fail("go test -race ./pkg/io"), "near")
held("black --check src", fail("black src"), "near")
held("docker compose up -d db", fail("docker compose up -d db cache"), "near")
held(
    "pytest tests/test_io.py",
    text("decision", "Decided to mark tests/test_io.py xfail: pytest on it is flaky."),
    "near",
)
held({"kind": "edit", "file_paths": ["src/io.py"]}, edit(f"{ROOT}/src/io.py", tool="Write"), "near")
held("pytest tests/test_io.py::test_read", fail("pytest tests/test_io.py::test_write"), "near")
held("cargo test -p core", fail("cargo test -p core --release", code=101), "near")
held("tsc --noEmit", fail("tsc --noEmit -p tsconfig.build.json", code=2), "near")
held("alembic upgrade head", fail("alembic upgrade +1"), "near")
held(
    {"kind": "hypothesis", "hypothesis": "the connection pool exhausts under parallel tests"},
    text("summary", "Parallel tests exhaust the connection pool; set pool size to 20."),
    "near",
)
held("make -C docs html", fail("make -C docs latexpdf", code=2), "novel")
held("pnpm test", fail("pnpm lint"), "novel")
held("cargo test -p core", fail("cargo test -p cli", code=101), "novel")
held("go test ./pkg/io", fail("go test ./pkg/net"), "novel")
held("black --check src", fail("isort --check src"), "novel")
held({"kind": "edit", "file_paths": ["src/io.py"]}, edit("src/iox.py"), "novel")
held(
    "pytest tests/test_io.py",
    text("summary", "Refactored the CLI parser; all tests pass."),
    "novel",
)
held(
    {"kind": "hypothesis", "hypothesis": "the connection pool exhausts under parallel tests"},
    text("decision", "Switch the logger to JSON output for easier grepping."),
    "novel",
)
held("python manage.py migrate", fail("python manage.py test"), "novel")
held("docker compose up -d db", fail("docker compose down"), "novel")
held("npx tsc --noEmit", fail("npx eslint ."), "novel")
held("./gradlew test", fail("./gradlew build"), "novel")
held("pytest tests/test_io.py", fail("pytest tests/test_io_extra.py"), "novel")


def predict(step: dict[str, Any], item: tuple[str, str]) -> str:
    """The comparator's class for one case (fresh, complete index, one item)."""
    data = helpers.situation(
        trigger="operator_requested_history",
        signals={"operator_requested": True},
        proposed_step=step,
    )
    situation = structure(data, ReplanSituationV0)  # asks for every evidence type
    request = build_request(situation, ("term",))
    evidence_type, snippet = item
    entry = {"session_ref": "s", "message_ref": "m", "evidence_type": evidence_type}
    outcome = helpers.FakeRecall([{**entry, "snippet": snippet}])(request)
    comparison = compare(situation.proposed_step, outcome, request=request, repository_root=ROOT)
    return _PREDICTED[comparison.verdict]


def evaluate(cases: list[tuple[dict[str, Any], tuple[str, str], str]] = CASES) -> dict[str, Any]:
    confusion: Counter[tuple[str, str]] = Counter()
    for step, item, label in cases:
        confusion[(label, predict(step, item))] += 1
    metrics = {}
    for label in LABELS:
        tp = confusion[(label, label)]
        predicted = sum(confusion[(other, label)] for other in LABELS)
        actual = sum(confusion[(label, other)] for other in LABELS)
        metrics[label] = {
            "precision": tp / predicted if predicted else 1.0,
            "recall": tp / actual if actual else 1.0,
            "support": actual,
        }
    accuracy = sum(confusion[(label, label)] for label in LABELS) / len(cases)
    return {"confusion": confusion, "metrics": metrics, "accuracy": accuracy, "n": len(cases)}


def render(report: dict[str, Any]) -> str:
    lines = [f"{report['n']} labelled cases, accuracy {report['accuracy']:.3f}", ""]
    lines.append("label    precision  recall  support")
    for label, m in report["metrics"].items():
        lines.append(f"{label:<8} {m['precision']:>9.3f}  {m['recall']:>6.3f}  {m['support']:>7}")
    lines += ["", "confusion (rows: label, columns: predicted)"]
    lines.append("         " + "  ".join(f"{p:>6}" for p in LABELS))
    for label in LABELS:
        row = "  ".join(f"{report['confusion'][(label, p)]:>6}" for p in LABELS)
        lines.append(f"{label:<8} {row}")
    return "\n".join(lines)


if __name__ == "__main__":
    from tests.recall.replan.corpus_routes import ROUTES

    print("development set\n" + render(evaluate(CASES)))
    print("\nheld-out set\n" + render(evaluate(HOLDOUT)))
    print("\nheld-out set, route spellings (issue 14)\n" + render(evaluate(ROUTES)))
    print("\nall\n" + render(evaluate(CASES + HOLDOUT)))
