# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""DEVELOPMENT cases (issue 18, item E): repeated routes over the common toolchains.

Written with :mod:`tests.recall.replan.corpus_heldout`, before the item-E code, with the same
labels and tags (see there) and the same retrieval model (:mod:`tests.recall.replan.retrieval`).
These are the cases the rules were developed against; the held-out set is the measure.

Run ``python -m tests.recall.replan.corpus_toolchains`` from the repository root for the tables.
"""

from __future__ import annotations

from typing import Any

from tests.recall.replan.retrieval import Entry, evaluate, fail, ok, render

DEV: list[tuple[dict[str, Any], Entry, str, str]] = []


def case(step: str, item: Entry, label: str, tag: str) -> None:
    DEV.append(({"kind": "command", "command": step}, item, label, tag))


# -- python / pip / uv / poetry
case("py.test tests/test_parser.py -x", fail("pytest -x tests/test_parser.py"), "repeat", "alias")
case("pip3 install requests==2.32.0", fail("pip install requests==2.32.0"), "repeat", "alias")
case(
    "poetry run pytest tests/test_parser.py",
    fail("pytest tests/test_parser.py"),
    "repeat",
    "runner",
)
case("pytest tests/test_parser.py", fail("uv run pytest tests/test_parser.py"), "repeat", "runner")
case("pytest --collect-only tests", fail("pytest --co tests"), "repeat", "option")
case("pip install --upgrade pip", fail("pip install -U pip -q"), "repeat", "output")
case(
    "pip install -r requirements.txt --no-input",
    fail("pip install -r requirements.txt"),
    "repeat",
    "output",
)
case("poetry lock --no-interaction", fail("poetry lock"), "repeat", "output")
case("pytest tests/test_parser.py", fail("pytest tests/test_lexer.py"), "novel", "near")
case("pytest -x tests/test_parser.py", fail("pytest -n 4 -x tests/test_parser.py"), "near", "near")
case("pip install -e .", fail("pip install -e '.[dev]'"), "near", "near")
case("pytest --ff tests", fail("pytest --lf tests"), "near", "bait")
case("pip install -y requests", fail("pip install requests"), "near", "bait")
# -- node
case("npm t", fail("npm test"), "repeat", "alias")
case("npm run test", fail("npm test"), "repeat", "runner")
case("yarn run lint:css", fail("yarn lint:css"), "repeat", "runner")
case("pnpm run e2e", fail("pnpm e2e"), "repeat", "runner")
case("pnpm tst", fail("pnpm run test"), "repeat", "alias")
case("npm run check --silent", fail("npm run check"), "repeat", "output")
case("npm ci --no-fund", fail("npm ci"), "repeat", "output")
case("npm run format", fail("npm run format -- --fix"), "near", "near")
case("yarn test", fail("yarn test:e2e"), "novel", "near")
case("npm ci", fail("npm ci --no-audit"), "near", "near")
case("npx --yes prisma migrate deploy", fail("npx prisma migrate dev"), "near", "bait")
# -- cargo
case("cargo c --workspace", fail("cargo check --workspace"), "repeat", "alias")
case("cargo r --bin server", fail("cargo run --bin server"), "repeat", "alias")
case("cargo test --quiet -p api", fail("cargo test --package api"), "repeat", "output")
case(
    "cargo build --manifest-path Cargo.toml -F serde",
    fail("cargo build --features serde"),
    "repeat",
    "default",
)
case("cargo test -p api", fail("cargo test -p api --doc"), "near", "near")
case("cargo build -r", fail("cargo build"), "near", "bait")
# -- go
case("go test --count=1 ./internal/db", fail("go test -count 1 ./internal/db"), "repeat", "option")
case("go test -v ./internal/db", fail("go test ./internal/db"), "repeat", "output")
case("go test -C . ./internal/db", fail("go test ./internal/db"), "repeat", "default")
case("go test ./internal/db", fail("go test -short ./internal/db"), "near", "near")
case(
    "go test -cover ./internal/db",
    fail("go test -coverprofile=c.out ./internal/db"),
    "near",
    "bait",
)
# -- make
case("make --makefile=Makefile install", fail("make install"), "repeat", "default")
case("make -s install", fail("make --silent install"), "repeat", "output")
case("make -w install", fail("make install"), "repeat", "output")
case("make install", fail("make install PREFIX=/opt"), "near", "near")
case("make -i install", fail("make install"), "near", "bait")
# -- docker / compose
case("docker-compose logs api", fail("docker compose logs api"), "repeat", "alias")
case("docker compose -f compose.yml logs api", fail("docker-compose logs api"), "repeat", "default")
case("docker build --progress=plain -t api .", fail("docker build -t api ."), "repeat", "output")
case("docker compose up -d api", fail("docker compose up api"), "near", "near")
case("docker compose rm -f api", fail("docker compose rm api"), "near", "bait")
# -- git
case("git --no-pager log main..HEAD", fail("git log main..HEAD"), "repeat", "output")
case("git fetch -q upstream", fail("git fetch upstream"), "repeat", "output")
case("git pull --rebase origin main", fail("git pull origin main"), "near", "near")
case("git clean -n", fail("git clean -f"), "near", "bait")
# -- kubectl
case(
    "kubectl get pod api-0 -n dev",
    fail("kubectl get pods api-0 --namespace dev"),
    "repeat",
    "alias",
)
case("kubectl get ns", fail("kubectl get namespaces"), "repeat", "alias")
case(
    "kubectl get pods -l app=api -n dev -o wide",
    fail("kubectl get pods --selector app=api -n dev"),
    "repeat",
    "option",
)
case(
    "kubectl rollout restart deploy/api -n dev",
    fail("kubectl rollout restart deploy/api -n prod"),
    "near",
    "near",
)
case("kubectl delete pod api-0 -n dev", fail("kubectl get pod api-0 -n dev"), "novel", "bait")
# -- terraform
case("terraform -chdir=. validate", fail("terraform validate"), "repeat", "default")
case("terraform init -input=false -no-color", fail("terraform init"), "repeat", "output")
case("terraform init -upgrade", fail("terraform init"), "near", "near")
case("terraform destroy", fail("terraform apply"), "novel", "bait")
# -- gradle / maven
case("gradle build", fail("./gradlew build"), "repeat", "alias")
case("./gradlew check --console=plain", fail("./gradlew check"), "repeat", "output")
case("./mvnw -q verify", fail("mvn verify"), "repeat", "alias")
case("mvn --batch-mode package", fail("mvn package"), "repeat", "output")
case("mvn -pl api test", fail("mvn -pl api -am test"), "near", "near")
case("./gradlew test --offline", fail("./gradlew test"), "near", "bait")
# -- django / rails / alembic
case("./manage.py migrate", fail("python manage.py migrate"), "repeat", "alias")
case(
    "python manage.py check --deploy -v 0",
    fail("python manage.py check --deploy"),
    "repeat",
    "output",
)
case(
    "bundle exec rspec spec/models/user_spec.rb",
    fail("rspec spec/models/user_spec.rb"),
    "repeat",
    "runner",
)
case("bin/rails test", fail("bundle exec rails test"), "repeat", "runner")
case("rails g model User", fail("rails generate model User"), "repeat", "alias")
case("python -m alembic upgrade head", fail("alembic upgrade head"), "repeat", "alias")
case("alembic upgrade head", fail("alembic upgrade head --sql"), "near", "near")
case(
    "RAILS_ENV=test bin/rails db:setup",
    fail("RAILS_ENV=development bin/rails db:setup"),
    "near",
    "bait",
)
case("python manage.py test", ok("python manage.py test"), "near", "near")


if __name__ == "__main__":
    from tests.recall.replan.corpus_heldout import HELDOUT

    print(render("development", evaluate(DEV)))
    print()
    print(render("held out", evaluate(HELDOUT)))
