# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Which shell parser reads a route (issue 38): the route model's own grammar
(``loopx_recall_core/routes/grammar.py``) against ``bashlex`` and ``tree-sitter-bash`` from
PyPI, on every command line of the labelled corpus (``tests/recall/corpus_route_model.py``)
and the forms agents type. For each: the import cost in a fresh interpreter (paired with
``python -c pass``), the cost per line, and how many lines it reads without an error.

The two PyPI parsers are not dependencies: install them into the interpreter that runs
this (``pip install bashlex tree-sitter tree-sitter-bash``); a missing one is reported so.

Run: python benchmarks/shell_parsers.py [--runs N]  (not a test)
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from loopx_recall_core.routes.grammar import ParseError, parse  # noqa: E402
from tests.recall import corpus_route_model as corpus  # noqa: E402

EXTRA = [
    "cat <<EOF > f.txt\nline $X\nEOF\nmake",
    "psql -h db app <<'SQL'\nselect 1;\nSQL",
    "(cd web && npm test) 2>&1 | tail -20",
    "{ make; make test; } > log 2>&1",
    "for f in a b; do echo $f; done",
    "make build  # once more",
    "echo $'a\\tb' \"$(date +%s)\" ${A:-b}",
]


def _ours(line: str) -> bool:
    try:
        parse(line)
    except ParseError:
        return False
    return True


def _loaders():
    found = {"ours (grammar.py)": ("import loopx_recall_core.routes.grammar", _ours)}
    try:
        import bashlex

        def _bashlex(line: str) -> bool:
            try:
                bashlex.parse(line)
            except Exception:  # noqa: BLE001  (bashlex raises its own errors and others)
                return False
            return True

        found["bashlex"] = ("import bashlex", _bashlex)
    except ImportError:
        print("bashlex: not installed")
    try:
        import tree_sitter
        import tree_sitter_bash

        ts_parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))

        def _tree_sitter(line: str) -> bool:
            return not ts_parser.parse(line.encode()).root_node.has_error

        found["tree-sitter-bash"] = (
            "import tree_sitter, tree_sitter_bash; tree_sitter.Parser("
            "tree_sitter.Language(tree_sitter_bash.language()))",
            _tree_sitter,
        )
    except ImportError:
        print("tree-sitter-bash: not installed")
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    pairs = [*corpus.DEV, *corpus.HELD_OUT]
    lines = [line for pair in pairs for line in (pair.proposed, pair.prior)] + EXTRA
    bare = []
    loaders = _loaders()
    imports: dict[str, list[float]] = {name: [] for name in loaders}
    for _ in range(args.runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        bare.append((time.perf_counter() - started) * 1000)
        for name, (code, _) in loaders.items():
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
            imports[name].append((time.perf_counter() - started) * 1000)
    print(f"{len(lines)} lines; python -c pass {statistics.median(bare):.1f} ms")
    for name, (_, read) in loaders.items():
        ok = sum(read(line) for line in lines)
        started = time.perf_counter()
        for _ in range(args.runs):
            for line in lines:
                read(line)
        per_line = (time.perf_counter() - started) / (args.runs * len(lines)) * 1e6
        extra = statistics.median(imports[name]) - statistics.median(bare)
        print(f"{name:18} import +{extra:6.1f} ms  {per_line:7.1f} us/line  "
              f"read {ok}/{len(lines)}")  # fmt: skip


if __name__ == "__main__":
    main()
