# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""HELD OUT (issue 18, item E): repeated routes over the common toolchains, with retrieval.

Written and labelled BEFORE the item-E changes to the route normalizer and the query
terms, and never tuned on (the development cases are in
:mod:`tests.recall.replan.corpus_toolchains`). Each case is scored by
:mod:`tests.recall.replan.retrieval`:
the labelled item must be found among :data:`~tests.recall.replan.retrieval.BACKGROUND` by the
proposed step's query terms, then related by the comparator. Labels:

* ``repeat``: a failure of the same route under another spelling. The tags name the
  issue's miss classes: ``alias`` (another usual name of the program or subcommand:
  ``py.test``, ``docker-compose``, ``./gradlew``, ``npm t``, ``cargo t``), ``runner``
  (the same script or tool through a runner: ``npm run test``, ``yarn run x``,
  ``bundle exec``, ``poetry run``), ``option`` (a documented long/short spelling of one
  option), ``output`` (an option that changes only output or interactivity: quiet,
  verbose, colour, progress, "do not prompt"), ``default`` (an option naming the folder
  or build file the tool uses anyway from the repository root);
* ``near``: the same program with a material difference: another target, package, file,
  environment or option that changes what runs;
* ``novel``: another subcommand, script or program;
* tag ``bait``: the same or nearly the same words with another meaning (``docker compose
  down -v`` removes volumes; ``-y``/``-auto-approve`` consent to an action a
  non-interactive shell would otherwise not take; ``bun test`` is not ``bun run test``).
  A bait case must never be a repeat.
"""

from __future__ import annotations

from typing import Any

from tests.recall.replan.retrieval import Entry, fail, ok

HELDOUT: list[tuple[dict[str, Any], Entry, str, str]] = []


def case(step: str, item: Entry, label: str, tag: str) -> None:
    HELDOUT.append(({"kind": "command", "command": step}, item, label, tag))


# -- python / pip / uv / poetry -----------------------------------------------------------
case("py.test tests/test_io.py", fail("pytest tests/test_io.py"), "repeat", "alias")
case("python3 -m pytest tests/test_io.py -x", fail("pytest -x tests/test_io.py"), "repeat", "alias")
case("pip3 install -r requirements.txt", fail("pip install -r requirements.txt"), "repeat", "alias")
case("python -m pip install -e .", fail("pip3 install -e ."), "repeat", "alias")
case("poetry run pytest tests/test_api.py", fail("pytest tests/test_api.py"), "repeat", "runner")
case("uv run -- pytest tests/test_api.py", fail("pytest tests/test_api.py"), "repeat", "runner")
case(
    "pytest tests/test_api.py",
    fail("pipenv run python -m pytest tests/test_api.py"),
    "repeat",
    "runner",
)
case("pytest --exitfirst tests/test_io.py", fail("pytest -x tests/test_io.py"), "repeat", "option")
case("pytest --last-failed tests", fail("pytest --lf tests"), "repeat", "option")
case("poetry install --no-interaction", fail("poetry install -n"), "repeat", "option")
case("pytest tests/test_io.py --verbose", fail("pytest tests/test_io.py -q"), "repeat", "output")
case(
    "pip install --quiet -r requirements.txt",
    fail("pip install -r requirements.txt"),
    "repeat",
    "output",
)
case(
    "pip install --no-input -r requirements.txt",
    fail("pip install -r requirements.txt"),
    "repeat",
    "output",
)
case("poetry install -n", fail("poetry install"), "repeat", "output")
case("uv sync --locked -q", fail("uv sync --locked"), "repeat", "output")
case("pytest tests/test_io.py", fail("pytest tests/test_io.py -x"), "near", "near")
case(
    "poetry run pytest tests/test_api.py",
    fail("poetry run pytest tests/test_db.py"),
    "novel",
    "near",
)
case(
    "pip install -r requirements.txt", fail("pip install -r requirements-test.txt"), "near", "near"
)
case(
    "uv run --python 3.11 pytest tests/test_api.py",
    fail("uv run pytest tests/test_api.py"),
    "near",
    "near",
)
case("tox -e py312 -q", fail("tox -e py311"), "near", "near")
case("pytest -s tests/test_io.py", fail("pytest tests/test_io.py"), "near", "bait")
case(
    "pytest -k test_read tests/test_io.py",
    fail("pytest -m test_read tests/test_io.py"),
    "near",
    "bait",
)
case("python -m venv .venv", fail("python -m virtualenv .venv"), "novel", "bait")
case("pip install -e .", fail("pip install -U ."), "near", "bait")
case("pip uninstall -y requests", fail("pip uninstall requests"), "near", "bait")

# -- node / npm / pnpm / yarn -------------------------------------------------------------
case("npm test", fail("npm run test"), "repeat", "runner")
case("npm run test", fail("npm t"), "repeat", "alias")
case("npm run-script build", fail("npm run build"), "repeat", "alias")
case("yarn test", fail("yarn run test"), "repeat", "runner")
case("yarn run typecheck", fail("yarn typecheck"), "repeat", "runner")
case("pnpm run test", fail("pnpm test"), "repeat", "runner")
case("pnpm typecheck", fail("pnpm run typecheck"), "repeat", "runner")
case("npx vitest run src/a.test.ts", fail("pnpm exec vitest run src/a.test.ts"), "repeat", "runner")
case("npm install --save-dev eslint", fail("npm i -D eslint"), "repeat", "option")
case("npm ci --loglevel=error", fail("npm ci"), "repeat", "output")
case("npm run build --silent", fail("npm run build"), "repeat", "output")
case("npm test --no-color", fail("npm test"), "repeat", "output")
case("yarn --cwd . test", fail("yarn run test"), "repeat", "default")
case("npm test", fail("npm run test:unit"), "novel", "near")
case("pnpm test -- --coverage", fail("pnpm test"), "near", "near")
case("bun test", fail("bun run test"), "novel", "bait")
case("npm start", fail("npm run start"), "near", "bait")
case("npm install", fail("npm ci"), "novel", "bait")
case("npx jest --ci", fail("npx jest"), "near", "bait")

# -- cargo --------------------------------------------------------------------------------
case("cargo t -p core", fail("cargo test --package core"), "repeat", "alias")
case("cargo b --release", fail("cargo build -r"), "repeat", "alias")
case(
    "cargo test --package=core --features=serde",
    fail("cargo test -p core -F serde"),
    "repeat",
    "option",
)
case("cargo build --quiet", fail("cargo build -v"), "repeat", "output")
case("cargo test -p core --color never", fail("cargo test -p core"), "repeat", "output")
case("cargo check --manifest-path ./Cargo.toml", fail("cargo check"), "repeat", "default")
case("cargo clippy -q -- -D warnings", fail("cargo clippy -- -D warnings"), "repeat", "output")
case("cargo test -p core", fail("cargo test -p core --lib"), "near", "near")
case("cargo t -p core", fail("cargo test -p storage"), "near", "near")
case("cargo run --release", fail("cargo run -- --release"), "near", "bait")

# -- go -----------------------------------------------------------------------------------
case(
    "go test --run=TestParse ./pkg/parser",
    fail("go test -run TestParse ./pkg/parser"),
    "repeat",
    "option",
)
case(
    "go test -run=TestParse -count 1 ./pkg/parser",
    fail("go test -count=1 -run TestParse ./pkg/parser"),
    "repeat",
    "option",
)
case("go test -json ./pkg/parser", fail("go test ./pkg/parser"), "repeat", "output")
case(
    "go test -v -run TestParse ./pkg/parser",
    fail("go test --run TestParse ./pkg/parser"),
    "repeat",
    "output",
)
case("go build -C . ./cmd/server", fail("go build ./cmd/server"), "repeat", "default")
case("go vet ./pkg/...", fail("go vet -v ./pkg/..."), "repeat", "output")
case("go test -count=1 ./pkg/parser", fail("go test ./pkg/parser"), "near", "near")
case("go test -race ./pkg/parser", fail("go test --race ./pkg/io"), "novel", "near")
case(
    "go test -run TestParse ./pkg/parser",
    fail("go test -bench TestParse ./pkg/parser"),
    "near",
    "bait",
)
case("go run ./cmd/server", fail("go build ./cmd/server"), "novel", "bait")

# -- make ---------------------------------------------------------------------------------
case("gmake test", fail("make test"), "repeat", "alias")
case("make -f Makefile test", fail("make test"), "repeat", "default")
case("make --file=./Makefile check", fail("make -C . check"), "repeat", "default")
case("make --no-print-directory test", fail("make test"), "repeat", "output")
case("make --always-make build", fail("make -B build"), "repeat", "option")
case("make test --quiet", fail("make -s test"), "repeat", "output")
case("make -f build.mk test", fail("make test"), "near", "near")
case("make -C docs test", fail("make test"), "near", "near")
case("make test", fail("make test TEST=unit"), "near", "near")
case("make -n deploy", fail("make deploy"), "near", "bait")
case("make check", fail("make test"), "novel", "near")

# -- docker / compose ---------------------------------------------------------------------
case("docker-compose up -d db", fail("docker compose up -d db"), "repeat", "alias")
case("docker compose build web", fail("docker-compose build web"), "repeat", "alias")
case(
    "docker compose -f docker-compose.yml up -d db",
    fail("docker compose up -d db"),
    "repeat",
    "default",
)
case(
    "docker compose --file compose.yaml run web pytest",
    fail("docker compose run web pytest"),
    "repeat",
    "default",
)
case("docker build -q -t app:ci .", fail("docker build -t app:ci ."), "repeat", "output")
case(
    "docker compose --progress plain build web",
    fail("docker compose build web"),
    "repeat",
    "output",
)
case("docker compose up --detach db", fail("docker compose up -d db"), "repeat", "option")
case(
    "docker compose -f docker-compose.prod.yml up -d db",
    fail("docker compose up -d db"),
    "near",
    "near",
)
case("docker compose up -d db", fail("docker compose up -d web"), "near", "near")
case("docker compose run web pytest", fail("docker compose exec web pytest"), "near", "bait")
case("docker compose down -v", fail("docker compose down"), "near", "bait")

# -- git ----------------------------------------------------------------------------------
case("git --no-pager diff main --stat", fail("git diff main --stat"), "repeat", "output")
case("git -P show HEAD~1", fail("git --no-pager show HEAD~1"), "repeat", "option")
case("git -C . pull --rebase", fail("git pull --rebase"), "repeat", "default")
case("git push --quiet origin feature/x", fail("git push origin feature/x"), "repeat", "output")
case("git push origin main", fail("git push origin feature/x"), "near", "near")
case("git rebase main", fail("git rebase -i main"), "near", "near")
case("git checkout -b fix", fail("git checkout fix"), "near", "bait")

# -- kubectl ------------------------------------------------------------------------------
case(
    "kubectl apply --filename k8s/web.yaml --namespace staging",
    fail("kubectl apply -f k8s/web.yaml -n staging"),
    "repeat",
    "option",
)
case("kubectl get pods --namespace=prod", fail("kubectl get po -n prod"), "repeat", "alias")
case(
    "kubectl get deployment web -n prod -o yaml",
    fail("kubectl get deploy web -n prod"),
    "repeat",
    "output",
)
case(
    "kubectl apply -f k8s/web.yaml -v=6", fail("kubectl apply -f k8s/web.yaml"), "repeat", "output"
)
case("kubectl get svc -n prod", fail("kubectl get services -n prod"), "repeat", "alias")
case("kubectl apply -f k8s/web.yaml", fail("kubectl apply -f k8s/worker.yaml"), "near", "near")
case("kubectl get pods -n prod", fail("kubectl get pods -n staging"), "near", "near")
case(
    "kubectl apply -f k8s/web.yaml --context prod",
    fail("kubectl apply -f k8s/web.yaml --context staging"),
    "near",
    "near",
)
case("kubectl delete -f k8s/web.yaml", fail("kubectl apply -f k8s/web.yaml"), "novel", "bait")
case("kubectl logs web -c app", fail("kubectl logs web -c sidecar"), "near", "near")

# -- terraform ----------------------------------------------------------------------------
case("terraform -chdir=. plan", fail("terraform plan"), "repeat", "default")
case("terraform plan -no-color", fail("terraform plan"), "repeat", "output")
case("terraform plan -input=false", fail("terraform plan"), "repeat", "output")
case(
    "terraform plan --var-file=prod.tfvars",
    fail("terraform plan -var-file=prod.tfvars"),
    "repeat",
    "option",
)
case(
    "terraform apply -auto-approve -no-color",
    fail("terraform apply -auto-approve"),
    "repeat",
    "output",
)
case("terraform apply", fail("terraform plan"), "novel", "bait")
case(
    "terraform plan -var-file=prod.tfvars",
    fail("terraform plan -var-file=staging.tfvars"),
    "near",
    "near",
)
case("terraform -chdir=infra/prod plan", fail("terraform plan"), "near", "near")
case("terraform apply -auto-approve", fail("terraform apply"), "near", "bait")
case(
    "terraform workspace select prod",
    fail("terraform workspace select staging"),
    "near",
    "near",
)

# -- gradle / maven -----------------------------------------------------------------------
case("gradle test", fail("./gradlew test"), "repeat", "alias")
case(
    "./gradlew test --tests com.acme.ParserTest",
    fail("gradlew test --tests com.acme.ParserTest"),
    "repeat",
    "alias",
)
case("./gradlew test -q", fail("./gradlew test --console=plain"), "repeat", "output")
case("./gradlew build --info", fail("./gradlew build --stacktrace"), "repeat", "output")
case("./gradlew -p . check", fail("./gradlew check"), "repeat", "default")
case("mvn test", fail("./mvnw test"), "repeat", "alias")
case("mvn -B -q test -pl core", fail("mvn test --projects core"), "repeat", "output")
case("mvn -f pom.xml verify", fail("mvn verify"), "repeat", "default")
case(
    "mvn --also-make -pl core install", fail("mvn -am --projects core install"), "repeat", "option"
)
case("mvn -ntp package", fail("mvn package"), "repeat", "output")
case("./gradlew test", fail("./gradlew :app:test"), "near", "near")
case("mvn -pl core test", fail("mvn -pl api test"), "near", "near")
case(
    "./gradlew test --tests com.acme.ParserTest",
    fail("./gradlew test --tests com.acme.LexerTest"),
    "near",
    "near",
)
case("./gradlew build -x test", fail("./gradlew build"), "near", "bait")
case("mvn -o test", fail("mvn test"), "near", "bait")
case("mvn -DskipTests install", fail("mvn install"), "near", "bait")

# -- django / rails / alembic -------------------------------------------------------------
case("./manage.py test app.tests", fail("python manage.py test app.tests"), "repeat", "alias")
case("python3 manage.py migrate --noinput", fail("python manage.py migrate"), "repeat", "output")
case(
    "python manage.py test app.tests -v 2",
    fail("python manage.py test app.tests"),
    "repeat",
    "output",
)
case(
    "python manage.py migrate --no-input",
    fail("./manage.py migrate --noinput"),
    "repeat",
    "option",
)
case(
    "bundle exec rails test test/models/user_test.rb",
    fail("bin/rails test test/models/user_test.rb"),
    "repeat",
    "runner",
)
case(
    "rails t test/models/user_test.rb",
    fail("rails test test/models/user_test.rb"),
    "repeat",
    "alias",
)
case("bundle exec rake db:migrate", fail("bin/rake db:migrate"), "repeat", "runner")
case("alembic -c alembic.ini upgrade head", fail("alembic upgrade head"), "repeat", "default")
case("poetry run alembic upgrade head", fail("python -m alembic upgrade head"), "repeat", "runner")
case(
    "python manage.py test app.tests",
    fail("python manage.py test app.tests --settings=app.settings.ci"),
    "near",
    "near",
)
case(
    "RAILS_ENV=test bin/rails db:migrate",
    fail("RAILS_ENV=production bin/rails db:migrate"),
    "near",
    "bait",
)
case("alembic upgrade head", fail("alembic downgrade -1"), "novel", "near")
case("alembic -c alembic.test.ini upgrade head", fail("alembic upgrade head"), "near", "near")
case("python manage.py migrate", fail("python manage.py makemigrations"), "novel", "bait")
case("bin/rails db:migrate", fail("bin/rails db:rollback"), "novel", "bait")
case(
    "DJANGO_SETTINGS_MODULE=app.settings.prod python manage.py migrate",
    fail("DJANGO_SETTINGS_MODULE=app.settings.dev python manage.py migrate"),
    "near",
    "bait",
)
case("pytest tests/test_io.py", ok("pytest tests/test_io.py"), "near", "near")
