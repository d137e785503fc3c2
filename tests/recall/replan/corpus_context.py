# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""What a command runs with, besides its words: secrets, environment assignments and the
working folder (issue 28 items 5 and 6). Labelled before the code, dev and held-out.

The classes (a careful reviewer's reading, not the comparator's):

* **secrets**: a command that carries a secret is compared as redacted text on both sides
  (the recall service keeps only redacted snippets): the same command with the same
  secret is a repeat (``curl -H 'Authorization: Bearer ...'``). A secret in an
  environment assignment in front of the command (``PGPASSWORD=... psql``) is how a
  credential is corrected: its value cannot be compared once redacted, so the same
  command with such an assignment is never called a repeat (a near miss at most).
* **environment assignments**: a leading ``NAME=value`` is part of the route (it can
  change what the command does: ``PGHOST``, ``PYTHONPATH``, ``DATABASE_URL``, ``FOO``)
  unless the variable only changes how output is shown: colour (``NO_COLOR``,
  ``FORCE_COLOR``, ``CLICOLOR``, ``PY_COLORS``), the terminal (``TERM``, ``COLUMNS``),
  buffering and encoding of output (``PYTHONUNBUFFERED``, ``PYTHONIOENCODING``), paging
  (``PAGER``, ``GIT_PAGER``), backtraces and log verbosity (``RUST_BACKTRACE``,
  ``RUST_LOG``), and ``CI`` (the issue's own list).
* **working folder**: a ``cd <folder>`` in effect is part of the route (already in
  :mod:`tests.recall.replan.corpus`); the guard adds the hook payload's ``cwd`` the same way
  (tests/guard/test_guard_context.py).

Snippets are written as the recall service stores them: through the one redactor.
"""

from __future__ import annotations

from typing import Any

from loopx_recall_core.redaction import redact
from tests.recall.replan.corpus import fail, ok

Case = tuple[dict[str, Any], tuple[str, str], str]

TOKEN = "sk-live-9f8a7b6c5d4e3f2a1b0c9d8e"
OTHER_TOKEN = "sk-live-1a2b3c4d5e6f7a8b9c0d1e2f"
GH = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
AWS = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"


def _stored(item: tuple[str, str]) -> tuple[str, str]:
    return item[0], redact(item[1])


def _cases(rows: list[tuple[str, tuple[str, str], str]]) -> list[Case]:
    return [({"kind": "command", "command": c}, _stored(i), label) for c, i, label in rows]


DEV: list[Case] = _cases([
    # secrets: the same secret is the same route
    (f"curl -H 'Authorization: Bearer {TOKEN}' https://api.example.com/v1/items",
     fail(f'curl -H "Authorization: Bearer {TOKEN}" https://api.example.com/v1/items', code=22),
     "repeat"),
    ("psql postgres://app:s3cr3tPassw0rd@db:5432/app -c 'select 1'",
     fail("psql postgres://app:s3cr3tPassw0rd@db:5432/app -c 'select 1'", code=2), "repeat"),
    (f"AWS_SECRET_ACCESS_KEY={AWS} aws s3 ls s3://bucket",
     fail(f"AWS_SECRET_ACCESS_KEY={AWS} aws s3 ls s3://bucket", code=255), "near"),
    (f"curl -H 'Authorization: Bearer {TOKEN}' https://api.example.com/v1/items",
     fail(f"curl -H 'Authorization: Bearer {TOKEN}' https://api.example.com/v1/users", code=22),
     "novel"),  # another URL: another target
    # environment assignments that change what runs
    ("PGPASSWORD=correct-horse psql -h db -U app -c 'select 1'",
     fail("PGPASSWORD=wrong-horse psql -h db -U app -c 'select 1'", code=2), "near"),
    ("PGHOST=db2 psql -U app -c 'select 1'",
     fail("PGHOST=db1 psql -U app -c 'select 1'", code=2), "near"),
    ("PYTHONPATH=src pytest tests/test_parser.py",
     fail("pytest tests/test_parser.py"), "near"),
    ("FOO=1 pytest tests/a.py", fail("FOO=2 pytest tests/a.py"), "near"),
    ("FOO=1 pytest tests/a.py", fail("FOO=1 pytest tests/a.py"), "repeat"),
    ("DATABASE_URL=sqlite:///t.db pytest tests/a.py",
     fail("DATABASE_URL=sqlite:///t.db pytest tests/a.py"), "repeat"),
    # output-only variables
    ("pytest tests/a.py", fail("NO_COLOR=1 pytest tests/a.py"), "repeat"),
    ("NO_COLOR=1 pytest tests/a.py", fail("pytest tests/a.py"), "repeat"),
    ("FORCE_COLOR=0 npm test", fail("npm test"), "repeat"),
    ("PYTHONUNBUFFERED=1 python -m app.worker", fail("python -m app.worker"), "repeat"),
    ("TERM=dumb make lint", fail("make lint", code=2), "repeat"),
    ("pytest tests/a.py", fail("time env FOO=1 pytest tests/a.py"), "near"),
    ("pytest tests/a.py", ok("CI=true pytest tests/a.py"), "near"),
])

HELD_OUT: list[Case] = _cases([
    (f"gh api -H 'Authorization: token {GH}' repos/o/r",
     fail(f"gh api -H 'Authorization: token {GH}' repos/o/r", code=1), "repeat"),
    (f"curl -u admin:{TOKEN} https://ci.example.com/job/build",
     fail(f"curl -u admin:{TOKEN} https://ci.example.com/job/build", code=22), "repeat"),
    (f"curl -H 'Authorization: Bearer {OTHER_TOKEN}' https://api.example.com/v1/items",
     fail(f"curl -H 'Authorization: Bearer {TOKEN}' https://api.example.com/v1/orders", code=22),
     "novel"),  # another URL: another target
    (f"GITHUB_TOKEN={GH} gh release create v1.2.0",
     fail(f"GITHUB_TOKEN={GH} gh release create v1.2.0"), "near"),
    ("MYSQL_PWD=n3w-pass mysql -h db -e 'show tables'",
     fail("MYSQL_PWD=old-pass mysql -h db -e 'show tables'"), "near"),
    ("NODE_OPTIONS=--max-old-space-size=4096 npm run build",
     fail("npm run build", code=134), "near"),
    ("RUST_BACKTRACE=1 cargo test -p core", fail("cargo test -p core", code=101), "repeat"),
    ("COLUMNS=200 pytest tests/b.py", fail("pytest tests/b.py"), "repeat"),
    ("PY_COLORS=1 NO_COLOR=1 pytest tests/b.py", fail("pytest tests/b.py"), "repeat"),
    ("GIT_PAGER=cat git log -5", fail("git log -5", code=128), "repeat"),
    # Relabelled by issue 38: PYTHONIOENCODING changes the encoding Python writes with (the
    # fix for a UnicodeEncodeError), so it is part of the route.
    ("PAGER=cat PYTHONIOENCODING=utf-8 python manage.py check",
     fail("python manage.py check"), "near"),
    ("CLICOLOR=0 RUST_LOG=debug cargo run --bin server", fail("cargo run --bin server", code=101),
     "repeat"),
    ("PORT=8081 npm start", fail("PORT=8080 npm start"), "near"),
    ("GOFLAGS=-mod=vendor go build ./...", fail("go build ./...", code=1), "near"),
    ("DEBUG=1 PORT=8080 npm start", fail("PORT=8080 npm start"), "near"),
])
