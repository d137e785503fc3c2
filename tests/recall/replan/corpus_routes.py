# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""HELD OUT (issue 14, item 4): more spellings of one route.

Written and labelled BEFORE the run-in-directory and option-alias rules were added to
:mod:`loopx_recall_core.routes.chain`; never tuned on. Same conventions as
:mod:`tests.recall.replan.corpus` (one proposed step, one item, a fresh complete index, the
repository root ``ROOT`` known), and the same label meanings:

* ``repeat``: a failure of the same route spelled differently: a program's own
  "run in this directory" option pointing at the repository root (``make -C``,
  ``git -C``, ``npm --prefix``/``-C``, ``pnpm --dir``/``-C``, ``yarn --cwd``,
  ``go <cmd> -C``, ``cargo --manifest-path <root>/Cargo.toml``), or a short option and
  the long option the tool documents as the same (``cargo -p``/``--package``, ...);
* ``near``: the same program and subcommand with a material difference: the directory
  option names a subfolder or another repository, another package/workspace/feature/
  requirements file after an alias, an option that only looks like an alias (``pip -C``
  is ``--config-settings``; ``pnpm -w`` is ``--workspace-root``, not npm's
  ``--workspace``; pytest ``--rootdir`` does not change directory), or a success;
* ``novel``: another subcommand or script.

Run ``python -m tests.recall.replan.corpus_routes`` from the repository root for the table.
"""

from __future__ import annotations

from typing import Any

from tests.recall.replan.corpus import ROOT, evaluate, fail, ok, render

OTHER = "/home/dev/src/beta"  # a sibling repository, not the root

# (proposed step, (evidence_type, snippet), label)
ROUTES: list[tuple[dict[str, Any], tuple[str, str], str]] = []


def held(step: str, item: tuple[str, str], label: str) -> None:
    ROUTES.append(({"kind": "command", "command": step}, item, label))


# -- repeats: run-in-directory options pointing at the repository root ---------------------
held("make migrate", fail(f"make -C {ROOT} migrate", code=2), "repeat")
held(f"make -C {ROOT} migrate", fail("make migrate", code=2), "repeat")
held(f"make -C {ROOT}/ migrate", fail("make migrate", code=2), "repeat")
held(f"make --directory={ROOT} test", fail("make test", code=2), "repeat")
held("make -C . lint", fail("make lint", code=2), "repeat")
held(f"cd {ROOT} && make -C {ROOT} migrate", fail("make migrate", code=2), "repeat")
held(f"git -C {ROOT} push origin main", fail("git push origin main", code=128), "repeat")
held("git -C . rebase main", fail("git rebase main"), "repeat")
held(f"npm --prefix {ROOT} run build", fail("npm run build", code=2), "repeat")
held("npm run build", fail(f"npm -C {ROOT} run build", code=2), "repeat")
held(f"pnpm --dir {ROOT} test", fail("pnpm test"), "repeat")
held("pnpm -C . build", fail("pnpm build"), "repeat")
held(f"yarn --cwd {ROOT} test", fail("yarn test"), "repeat")
held(f"cargo test --manifest-path {ROOT}/Cargo.toml", fail("cargo test", code=101), "repeat")
held("cargo build --manifest-path Cargo.toml", fail("cargo build", code=101), "repeat")
held(f"go test -C {ROOT} ./...", fail("go test ./..."), "repeat")

# -- repeats: documented short/long spellings of one option --------------------------------
held("cargo test --package core", fail("cargo test -p core", code=101), "repeat")
held("cargo build -F serde", fail("cargo build --features serde", code=101), "repeat")
held(
    "cargo test --features=serde,tokio -p core",
    fail("cargo test -p core -F serde,tokio", code=101),
    "repeat",
)
held("cargo run --release --bin server", fail("cargo run -r --bin server", code=101), "repeat")
held("cargo test --workspace", fail("cargo test --all", code=101), "repeat")
held(
    "cargo clippy -p core -- -D warnings",
    fail("cargo clippy --package core -- -D warnings", code=101),
    "repeat",
)
held(
    "cargo test -p core -- --nocapture",
    fail("cargo test --package=core -- --nocapture", code=101),
    "repeat",
)
held("npm run build -w web", fail("npm run build --workspace=web", code=2), "repeat")
held("npm test --workspace web", fail("npm test -w web"), "repeat")
held("npm install -D eslint", fail("npm install --save-dev eslint"), "repeat")
held("npm --prefix . -w web test", fail("npm test --workspace web"), "repeat")
held(
    "pip install -r requirements.txt", fail("pip install --requirement requirements.txt"), "repeat"
)
held(
    "pip install --requirement=requirements-dev.txt",
    fail("python -m pip install -r requirements-dev.txt"),
    "repeat",
)
held("pip install -e .", fail("pip install --editable ."), "repeat")
held("pip install -U pip", fail("pip install --upgrade pip"), "repeat")
held(
    "pip install -c constraints.txt -r requirements.txt",
    fail("pip install --constraint constraints.txt --requirement requirements.txt"),
    "repeat",
)
held("make -f build.mk all", fail("make --file=build.mk all", code=2), "repeat")
held("make --makefile build.mk all", fail("make -f build.mk all", code=2), "repeat")
held("make -k test", fail("make --keep-going test", code=2), "repeat")
held(f"make -C {ROOT} -k test", fail("make --keep-going test", code=2), "repeat")
held("pnpm --filter web build", fail("pnpm -F web build"), "repeat")
held("pnpm -r test", fail("pnpm --recursive test"), "repeat")
held("pytest --capture no tests/test_io.py", fail("pytest -s tests/test_io.py"), "repeat")
held("pytest --stepwise tests", fail("pytest --sw tests"), "repeat")
held("pytest -c ci.ini tests", fail("pytest --config-file=ci.ini tests"), "repeat")
held("pytest -n 4 tests", fail("pytest --numprocesses 4 tests"), "repeat")
held("mypy -p alpha", fail("mypy --package alpha"), "repeat")

# -- near misses ----------------------------------------------------------------------------
held("make -C docs migrate", fail("make migrate", code=2), "near")
held("make migrate", fail(f"make -C {OTHER} migrate", code=2), "near")
held("make -C docs html", fail(f"make -C {ROOT} html", code=2), "near")
held(f"make -C {ROOT} migrate", ok("make migrate"), "near")
held(f"make -C {ROOT} migrate", fail("cd db && make migrate", code=2), "near")
held("git -C vendor/lib pull", fail("git pull"), "near")
held(f"git -C {ROOT}/vendor/lib pull", fail("git pull"), "near")
held(f"git -C {ROOT}-old push origin main", fail("git push origin main", code=128), "near")
held(f"git -C {ROOT} -C vendor/lib pull", fail("git pull"), "near")
held("git -C . push origin main", fail("git push --force origin main", code=128), "near")
held("npm --prefix web run build", fail("npm run build", code=2), "near")
held(f"npm --prefix {ROOT} run build", fail("npm run build --workspace web", code=2), "near")
held("pnpm --dir packages/web test", fail("pnpm test"), "near")
held("yarn --cwd packages/web test", fail("yarn test"), "near")
held("go test -C sub ./...", fail("go test ./..."), "near")
held("cargo test --manifest-path crates/core/Cargo.toml", fail("cargo test", code=101), "near")
held(
    f"cargo test --manifest-path {OTHER}/Cargo.toml",
    fail("cargo test --manifest-path Cargo.toml", code=101),
    "near",
)
held("cargo test -p core", fail("cargo test --package cli", code=101), "near")
held("cargo test --package core", ok("cargo test -p core"), "near")
held("cargo test -p core", fail("cargo test -p core -F serde", code=101), "near")
held("cargo build -F serde", fail("cargo build --features tokio", code=101), "near")
held("cargo run -r --bin server", fail("cargo run --bin server", code=101), "near")
held("cargo test --workspace", fail("cargo test -p core", code=101), "near")
held("npm run build -w web", fail("npm run build --workspace=api", code=2), "near")
held("npm install -D eslint", fail("npm install eslint"), "near")
held(
    "pip install -r requirements.txt",
    fail("pip install --requirement requirements-dev.txt"),
    "near",
)
held("pip install -e .", fail("pip install --editable ./plugins/x"), "near")
held("pip install -C editable_mode=compat -e .", fail("pip install -e ."), "near")
held("make -f build.mk all", fail("make --file=other.mk all", code=2), "near")
held("make -j4 test", fail("make --jobs=8 test", code=2), "near")
held("make -n deploy", fail("make deploy", code=2), "near")
held("pnpm -F web build", fail("pnpm --filter api build"), "near")
held("pnpm add -w lodash", fail("pnpm add --workspace lodash"), "near")
held("pytest -s tests/a.py", fail("pytest --capture=fd tests/a.py"), "near")
held("pytest --rootdir=tests tests/a.py", fail("pytest tests/a.py"), "near")

# -- novel ----------------------------------------------------------------------------------
held(f"make -C {ROOT} migrate", fail("make test", code=2), "novel")
held("make -C docs html", fail("make -C site html", code=2), "novel")
held("make -f build.mk all", fail("make -f build.mk clean", code=2), "novel")
held("cargo test -p core", fail("cargo build --package core", code=101), "novel")
held("cargo build --manifest-path Cargo.toml", fail("cargo doc", code=101), "novel")
held("npm --prefix . run build", fail("npm run lint"), "novel")
held("pip install -r requirements.txt", fail("pip uninstall -r requirements.txt"), "novel")
held(f"git -C {ROOT} status", fail("git diff"), "novel")
held("pnpm --filter web build", fail("pnpm --filter web lint"), "novel")
held(f"yarn --cwd {ROOT} test", fail("yarn build"), "novel")
held(f"go test -C {ROOT} ./pkg/a/...", fail("go test ./pkg/b/..."), "novel")
held("mypy --package alpha", fail("ruff check alpha"), "novel")
held("pip install -e .", fail("pytest tests/a.py"), "novel")


if __name__ == "__main__":
    print("held-out set, issue 14 item 4 (route spellings)\n" + render(evaluate(ROUTES)))
