# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A retrieval model for labelled cases: the prior attempt must be FOUND, then related.

:mod:`tests.recall.replan.corpus` hands the comparator the one labelled item whatever the query
terms are, so it measures the comparator only. Issue 18 item E measured ``recall replan``
against the real provider, where most misses were retrieval misses: the proposed step's
words did not find the prior attempt's spelling among the other calls of the history.

This module models the Obelisk provider's query (``session_evidence.v7.js`` and
``provider.py`` of ``plugins/obelisk-session-evidence``), not the comparator:

* a row matches when any query term is a case-insensitive substring of its text: a
  tool call's ``input_json`` (``{"command": ...}``), plus the output for
  ``prior_failure``; a file edit's path; an assistant message or summary text;
* one row per call: a failed call is a ``prior_failure`` row (never also a
  ``tool_outcome`` one, the template's "one item per tool call"); a call that succeeded a
  ``tool_outcome`` row;
* rows are ranked by how many distinct terms they hold, then newest first; the first
  ``max_items`` (16) are items, the rest are counted as omitted (a truncated result).

The history is :data:`BACKGROUND` (ordinary calls of a working session over every
toolchain, all NEWER than the labelled item: the worst case for the prior attempt, which
wins a tie on matched terms only by being alone) plus the case's labelled item. The
background was written with the held-out cases, before the code changes of item E, and
is not tuned: every background call is a different route from every proposed step.

A case is predicted ``repeat`` when the labelled item is retrieved and is a failure of
the same route, ``near`` when it is retrieved and related otherwise, else ``novel``.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from loopx_recall_core.contracts import structure
from loopx_recall_core.contracts.replan import ReplanSituationV0
from loopx_recall_core.recall.replan.relation import relate
from loopx_recall_core.recall.replan.situation_admission import build_request
from loopx_recall_core.recall.replan.terms import query_terms
from loopx_recall_core.routes import step_route
from tests.recall.replan import helpers

ROOT = "/home/dev/src/alpha"
MAX_ITEMS = 16
LABELS = ("repeat", "near", "novel")
OUTPUT = {True: "Exit code 1\nerror: see above", False: "ok"}

# A history entry: (kind, text, failed). kind "call": text is a shell command; "edit": a
# path; "decision" / "summary": free text. ``failed`` may be the call's exit status (an int,
# 0: it succeeded) where the status matters (a time limit's 124).
Entry = tuple[str, str, bool | int]


def fail(command: str) -> Entry:
    return ("call", command, True)


def ok(command: str) -> Entry:
    return ("call", command, False)


def edit(path: str) -> Entry:
    return ("edit", path, False)


def note(kind: str, body: str) -> Entry:
    return (kind, body, False)


# Ordinary calls of a few weeks of sessions in one repository, over every toolchain.
_BG_CALLS = """\
pytest tests/test_models.py
pytest tests/test_views.py -k login
python -m pytest tests/integration
uv run pytest tests/test_cli.py
pip install -r requirements-dev.txt
pip list
uv sync
poetry install
poetry run mypy src
ruff check src
npm install
npm run lint
npm run build
npm run test:e2e
npm test -- src/utils.test.ts
npx eslint src
pnpm install
pnpm run build
pnpm --filter web lint
yarn install
yarn lint
yarn build
cargo build
cargo test -p cli
cargo clippy --all-targets
cargo fmt --check
go build ./...
go test ./internal/store/...
go vet ./...
go mod tidy
make lint
make build
make -C docs html
docker compose ps
docker compose logs web
docker build -t app:dev .
docker ps
git status
git diff --stat
git log --oneline -5
git fetch origin
kubectl get pods -n staging
kubectl describe deployment web -n staging
kubectl logs deploy/web -n staging
terraform fmt -check
terraform validate
terraform init
./gradlew assemble
./gradlew :app:lint
mvn -q compile
mvn -pl api verify
python manage.py makemigrations
python manage.py check
bin/rails routes
bundle install
alembic current
alembic history
"""
_BG_FAILED = {
    "pytest tests/test_views.py -k login",
    "npm run lint",
    "npm run test:e2e",
    "cargo test -p cli",
    "go test ./internal/store/...",
    "make lint",
    "kubectl logs deploy/web -n staging",
    "terraform validate",
    "mvn -pl api verify",
    "python manage.py check",
}
BACKGROUND: list[Entry] = [
    ("call", line, line in _BG_FAILED) for line in _BG_CALLS.splitlines() if line
] + [
    edit("src/app/models.py"),
    edit("web/src/utils.ts"),
    edit("Cargo.toml"),
    edit("infra/main.tf"),
    note("decision", "I'll pin the node version in .nvmrc before touching the build."),
    note("summary", "Migrated the settings module; lint and type checks pass."),
]


def _rows(entry: Entry, age: int, terms: tuple[str, ...]) -> list[tuple[int, int, str, str]]:
    """(matched, recency, evidence type, snippet) of the rows one entry gives."""
    kind, body, failed = entry

    def matched(text: str) -> int:
        low = text.lower()
        return sum(1 for term in terms if term.lower() in low)

    recency = -age
    if kind == "edit":
        n = matched(body)
        return [(n, recency, "file_history", f"Edit: {body}")] if n else []
    if kind in ("decision", "summary"):
        n = matched(body)
        return [(n, recency, kind, body)] if n else []
    source = json.dumps({"command": body})
    code = failed if type(failed) is int else int(failed)  # an int: the exit status
    failed = code != 0
    output = f"Exit code {code}\nerror: see above" if failed else OUTPUT[False]
    status = f"outcome: failed (exit {code})" if failed else "outcome: ok"
    snippet = f"Bash: {body}\n{status}\n{output}"
    rows = []
    if failed and (n := matched(source + " " + output)):
        rows.append((n, recency, "prior_failure", snippet))
    if not failed and (n := matched(source)):
        rows.append((n, recency, "tool_outcome", snippet))
    return rows


def situation(step: dict[str, Any]) -> ReplanSituationV0:
    data = helpers.situation(
        trigger="operator_requested_history",
        signals={"operator_requested": True},
        proposed_step=step,
    )
    return structure(data, ReplanSituationV0)


def retrieve(step: dict[str, Any], item: Entry) -> tuple[list[tuple[str, str, bool]], bool]:
    """The items returned, as (evidence type, snippet, is the labelled item), truncated."""
    terms = query_terms(situation(step))
    rows = [(*row, True) for row in _rows(item, len(BACKGROUND) + 1, terms)]
    for age, entry in enumerate(BACKGROUND):
        rows.extend((*row, False) for row in _rows(entry, age, terms))
    rows.sort(key=lambda row: (row[0], row[1]), reverse=True)
    kept = rows[:MAX_ITEMS]
    return [(kind, snippet, mine) for _, _, kind, snippet, mine in kept], len(rows) > MAX_ITEMS


def predict(step: dict[str, Any], item: Entry) -> str:
    proposed = situation(step)
    build_request(proposed, ("term",))  # the step is admissible
    route = step_route(proposed.proposed_step, ROOT)
    items, _ = retrieve(step, item)
    relations = set()
    for kind, snippet, mine in items:
        if mine:
            relations.add(relate(route, snippet, kind, ROOT))
    if "same_route_failed" in relations:
        return "repeat"
    return "near" if relations - {None} else "novel"


def background_repeats(step: dict[str, Any]) -> bool:
    """Whether a background call alone makes the step a repeat (a false repeat)."""
    proposed = situation(step)
    route = step_route(proposed.proposed_step, ROOT)
    for kind, body, failed in BACKGROUND:
        if kind == "call" and failed:
            snippet = f"Bash: {body}\noutcome: failed (exit 1)\n{OUTPUT[True]}"
            if relate(route, snippet, "prior_failure", ROOT) == "same_route_failed":
                return True
    return False


def evaluate(cases: list[tuple[dict[str, Any], Entry, str, str]]) -> dict[str, Any]:
    """Confusion, repeat recall/precision, near-miss false-match rate and bait repeats."""
    confusion: Counter[tuple[str, str]] = Counter()
    misses: list[tuple[str, Any, Any]] = []
    bait = spurious = 0
    for step, item, label, tag in cases:
        predicted = predict(step, item)
        confusion[(label, predicted)] += 1
        if predicted != label:
            misses.append((f"{label}->{predicted} [{tag}]", step.get("command", step), item[1]))
        if tag == "bait" and predicted == "repeat":
            bait += 1
        if label != "repeat" and background_repeats(step):
            spurious += 1
    said_repeat = sum(confusion[(label, "repeat")] for label in LABELS)
    repeats = sum(confusion[("repeat", p)] for p in LABELS)
    nears = sum(confusion[("near", p)] for p in LABELS)
    return {
        "n": len(cases),
        "confusion": confusion,
        "recall": confusion[("repeat", "repeat")] / repeats if repeats else 1.0,
        "precision": confusion[("repeat", "repeat")] / said_repeat if said_repeat else 1.0,
        "near_false_match": confusion[("near", "repeat")] / nears if nears else 0.0,
        "bait": bait,
        "spurious": spurious,
        "misses": misses,
    }


def render(name: str, report: dict[str, Any]) -> str:
    c = report["confusion"]
    lines = [
        f"{name}: {report['n']} cases; repeat recall {report['recall']:.3f}, precision "
        f"{report['precision']:.3f}, near-miss false match {report['near_false_match']:.3f}, "
        f"bait repeats {report['bait']}, background repeats {report['spurious']}",
        "         " + "  ".join(f"{p:>6}" for p in LABELS),
    ]
    for label in LABELS:
        lines.append(f"{label:<8} " + "  ".join(f"{c[(label, p)]:>6}" for p in LABELS))
    lines += [f"  {why}: {step!r} / {item!r}" for why, step, item in report["misses"]]
    return "\n".join(lines)
