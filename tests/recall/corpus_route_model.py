# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Labelled pairs for the route model of issue 38: a development set and a HELD-OUT set.

Both halves were written and labelled before the route model that reads them (the parsed
route: effective folder, environment, inputs, state-changing chain steps, and the
invocation normalised from the ``@withfig/autocomplete`` specs). The held-out half is
never tuned on: rules are developed against :data:`DEV` only.

A :class:`Pair` is ``(proposed, prior, exit, label, tag, cwd, prior_cwd)``. The prior call
ran once, in an earlier session of the same agent in the same repository, from the folder
``prior_cwd`` (repository-relative: the runtime's payload cwd) and ended with status
``exit`` (0: it succeeded). The proposal is about to run from ``cwd``. Labels are a careful
reviewer's, by what the real tools do:

* ``repeat``: the prior call FAILED and the proposal runs the same attempt: the same
  effective folder, environment and inputs, the same invocation once normalised: the long
  and short spelling of one option and ``--opt=v`` against ``--opt v`` as the tool
  documents them, option order where the tool ignores it, a process wrapper (``nice``,
  ``ionice``, ``taskset``, ``chrt``, ``nohup``, ``stdbuf``, ``timeout``, ``time``, ``env``
  without ``-i``/``-u``/``-C``, ``sh -c``/``bash -c``), a comment, the spacing of
  interpreter code, or the folder reached another way (``cd dir && X`` against X run from
  ``dir``, ``make -C dir``, ``env -C dir``, ``--cwd``, ``-chdir=``, a subshell, ``cd ..``);
* ``near``: the same program and target with a material change: another environment value
  (assignment, ``export``, ``unset``, ``source`` of another file), another input file, an
  earlier chain step that changes state (a file written, an install, a wait after a lock
  error), a changed option value or flag, another folder, ``sudo``/``watch``/``env -i``,
  a longer time limit after the prior call was stopped by its limit, or the same command
  after a success (there is no failure to repeat);
* ``novel``: another target or subcommand (another file, URL, bucket, script, task), or a
  look-up such as ``command -v X`` beside ``X``.

Tags: ``spec_alias`` (long/short spelling or a subcommand alias), ``eq_value``
(``--opt=v``/``--opt v``/``-ov``), ``order``, ``folder``, ``env``, ``input``,
``chain_state``, ``wrapper``, ``interp``, ``comment``, ``fix`` (the change the error asked
for), ``value`` (another option value), ``success``, ``novel`` and ``bait``: the words are
nearly those of the prior call but the meaning differs (``grep -R`` is not ``-r``,
``mysql -p secret`` is not ``-psecret``, ``scp -p`` is not ``-P``, an option after the
script goes to the script, ``tar -C`` is not ``cd``): a bait pair is never a repeat.

Sources: every option alias a repeat relies on is in the program's spec file of
``@withfig/autocomplete`` (``build/<program>.js``) AND, where the tool is installed here,
in its own ``--help`` (checked here: curl, wget, tar, jq, grep, psql, pg_dump, diff, mkdir,
env, cmake, sort, gpg, rustc, aws); the comment beside a block names them. Options that
change the folder and that no spec marks as such (``env -C``, ``ninja``/``meson -C``,
``terraform -chdir``, ``swift --package-path``, ``composer --working-dir``, ``pulumi
--cwd``) carry their documentation beside the block. Pairs whose sameness the documentation
leaves unclear were left out (``tar -C`` placed before ``-f``, ``ffmpeg -ss`` before or
after ``-i``, ``cargo --manifest-path`` against ``cd``, ``hugo -s`` against ``cd``).
Every pair uses its own targets (files, hosts, databases, tasks), so all pairs can share
one history: no pair's proposal relates to another pair's prior call
(``tests/recall/test_route_corpus_shape.py`` checks the shape).

``SPEC_PROGRAMS`` names the programs used here that have a spec file in the pinned
dataset and no hand table today; ``HAND_TABLE_PROGRAMS`` those that have one.
"""

from __future__ import annotations

from typing import NamedTuple


class Pair(NamedTuple):
    proposed: str
    prior: str
    exit: int
    label: str
    tag: str
    cwd: str = "."
    prior_cwd: str = "."


def R(proposed: str, prior: str, exit: int, tag: str, cwd: str = ".", prior_cwd: str = ".") -> Pair:
    return Pair(proposed, prior, exit, "repeat", tag, cwd, prior_cwd)


def N(proposed: str, prior: str, exit: int, tag: str, cwd: str = ".", prior_cwd: str = ".") -> Pair:
    return Pair(proposed, prior, exit, "near", tag, cwd, prior_cwd)


def V(proposed: str, prior: str, exit: int, tag: str, cwd: str = ".", prior_cwd: str = ".") -> Pair:
    return Pair(proposed, prior, exit, "novel", tag, cwd, prior_cwd)


# Programs with hand tables today (issue 38): not counted as spec-only programs.
HAND_TABLE_PROGRAMS: tuple[str, ...] = (
    "pytest", "python", "make", "git", "cargo", "go", "npm", "pnpm", "yarn", "pip", "mypy",
    "ruff", "tox", "kubectl", "docker", "gradle", "mvn", "poetry", "uv", "jest", "vitest",
    "helm", "terraform", "alembic", "rails", "manage.py",
)  # fmt: skip

# Programs used here that have a spec file in @withfig/autocomplete (build/<program>.js,
# checked against the unpacked package) and no hand table today.
SPEC_PROGRAMS: tuple[str, ...] = (
    "act", "airflow", "ansible-playbook", "apt", "aws", "bazel", "black", "brew", "bun",
    "bundle", "chmod", "clang", "cmake", "composer", "conda", "curl", "dbt", "deno", "diff",
    "direnv", "dotnet", "elixir", "eslint", "fd", "ffmpeg", "find", "flutter", "fly", "gcc",
    "gcloud", "gh", "gpg", "grep", "helmfile", "hugo", "hyperfine", "jq", "just", "k3d", "kind",
    "knex", "lerna", "ln", "minikube", "mix", "mkdir", "mkdocs", "mongosh", "mysql", "netlify",
    "next", "node", "nx", "pg_dump", "php", "phpunit", "pipenv", "playwright", "podman",
    "pre-commit", "prettier", "prisma", "psql", "pulumi", "rclone", "rg", "rsync", "rubocop",
    "ruby", "rustc", "rustup", "sam", "scp", "sed", "serverless", "sort", "sqlite3", "ssh",
    "ssh-keygen", "stack", "stripe", "swift", "systemctl", "tar", "tsc", "unzip", "vite",
    "wasm-pack", "webpack", "wget", "wrangler", "zip",
)  # fmt: skip

DEV: list[Pair] = [
    # -- issue 38, reproduced: the fix is never a repeat ----------------------------------
    N("export PGPASSWORD='n3w-s3cret' && psql -h db.internal -U billing -d billing_dev "
      "-c 'select 1'",
      "psql -h db.internal -U billing -d billing_dev -c 'select 1'", 2, "fix"),
    N("mysql shop < db/schema_v2.sql", "mysql shop < db/schema.sql", 1, "input"),
    N("pushd backend && pytest tests/test_ledger.py", "pytest tests/test_ledger.py", 1, "folder"),
    N("PYTHONIOENCODING=utf-8 python scripts/export_orders.py",
      "python scripts/export_orders.py", 1, "env"),
    N("CI=true pnpm install", "pnpm install", 1, "fix"),
    N("sleep 15 && apt-get install -y libpq-dev", "apt-get install -y libpq-dev", 100, "fix"),
    N("echo 'CFLAGS += -fPIC' >> config.mk && make libcodec", "make libcodec", 2, "chain_state"),
    N("source .venv-311/bin/activate && pytest tests/test_tokens.py",
      "source .venv/bin/activate && pytest tests/test_tokens.py", 1, "env"),
    # -- issue 38, reproduced: missed repeats, and the failing folder -------------------------
    R("cd frontend && npm run lint", "npm run lint", 1, "folder", ".", "frontend"),
    R("bash -o pipefail -c 'make build'", "make build", 2, "wrapper"),
    R("make build  # once more", "make build", 2, "comment", "firmware", "firmware"),
    N("npm run typecheck", "npm run typecheck", 2, "folder", ".", "frontend"),
    # -- issue 38, unit level ---------------------------------------------------------------
    V("command -v pytest", "pytest", 1, "bait"),
    V("bash -c 'pytest -q \"$1\"' _ tests/test_alpha_feed.py",
      "bash -c 'pytest -q \"$1\"' _ tests/test_beta_feed.py", 1, "bait"),
    N("export PGPASSWORD=rotated-2 && psql -h pg-reports -d reports -f sql/refresh_mv.sql",
      "export PGPASSWORD=old-1 && psql -h pg-reports -d reports -f sql/refresh_mv.sql", 2,
      "env"),

    # -- rsync: -a/--archive, -z/--compress, -n/--dry-run, -e/--rsh, -c/--checksum,
    #    -C/--cvs-exclude (spec rsync.js; rsync(1)) -----------------------------------------
    R("rsync --archive --compress dist/ deploy@web1:/srv/shop/",
      "rsync -az dist/ deploy@web1:/srv/shop/", 23, "spec_alias"),
    R("rsync -az --delete public/ deploy@web2:/srv/blog/",
      "rsync --delete -az public/ deploy@web2:/srv/blog/", 23, "order"),
    R("nice -n 15 rsync -a media/ backup@nas:/vol/media/",
      "rsync -a media/ backup@nas:/vol/media/", 12, "wrapper"),
    R("rsync -a --rsh='ssh -p 2202' exports/ ops@vault:/drop/exports/",
      "rsync -a -e 'ssh -p 2202' exports/ ops@vault:/drop/exports/", 255, "spec_alias"),
    R("rsync -avz site/ deploy@web3:/var/www/site/ # retry",
      "rsync -avz site/ deploy@web3:/var/www/site/", 23, "comment"),
    N("rsync -an reports/ ops@archive:/reports/", "rsync -a reports/ ops@archive:/reports/", 23,
      "bait"),
    N("rsync -aC src/ build@ci1:/work/src/", "rsync -ac src/ build@ci1:/work/src/", 23, "bait"),
    N("rsync -a --timeout=120 logs/ ops@logs1:/ingest/",
      "rsync -a --timeout=10 logs/ ops@logs1:/ingest/",
      30, "value"),
    V("rsync -a fonts/ deploy@cdn1:/srv/fonts/", "rsync -a icons/ deploy@cdn1:/srv/icons/", 23,
      "novel"),

    # -- curl: -f/--fail -s/--silent -S/--show-error -L/--location -o/--output -X/--request
    #    -H/--header -d/--data -k/--insecure (spec curl.js; curl --help). curl long options
    #    take no "=": `--output=FILE` is an unknown option (observed here). --------------------
    R("curl --fail --silent --show-error --data @hook_event.json https://hooks.local/events",
      "curl -fsS -d @hook_event.json https://hooks.local/events", 22, "spec_alias"),
    R("curl --location --output dl/node-v20.tar.xz https://nodejs.local/dist/node-v20.tar.xz",
      "curl -L -o dl/node-v20.tar.xz https://nodejs.local/dist/node-v20.tar.xz", 6,
      "spec_alias"),
    R("curl -X POST -H 'Content-Type: application/json' -d @job.json https://ci.local/api/jobs",
      "curl --request POST --header 'Content-Type: application/json' --data @job.json "
      "https://ci.local/api/jobs", 22, "spec_alias"),
    R("curl -o out/metrics.prom -sSf https://metrics.local/export",
      "curl -sSf https://metrics.local/export -o out/metrics.prom", 22, "order"),
    N("curl --output=out/flags.json https://flags.local/api/flags",
      "curl --output out/flags.json https://flags.local/api/flags", 6, "bait"),
    N("curl -fsS -d @payload_v2.json https://api.local/webhooks/stripe",
      "curl -fsS -d @payload.json https://api.local/webhooks/stripe", 22, "input"),
    N("curl -k https://staging.local/healthz", "curl https://staging.local/healthz", 60, "fix"),
    N("unset HTTPS_PROXY && curl -fsS https://registry.internal/v2/",
      "curl -fsS https://registry.internal/v2/", 7, "env"),
    V("curl -fsS https://api.local/v1/invoices", "curl -fsS https://api.local/v1/customers", 22,
      "novel"),

    # -- wget: -q/--quiet -O/--output-document -c/--continue -P/--directory-prefix
    #    (spec wget.js; wget --help) -----------------------------------------------------------
    R("wget --quiet --output-document=vendor/htmx.min.js https://cdn.local/htmx.min.js",
      "wget -q -O vendor/htmx.min.js https://cdn.local/htmx.min.js", 8, "spec_alias"),
    R("wget --continue --directory-prefix=datasets https://data.local/osm-extract.pbf",
      "wget -c -P datasets https://data.local/osm-extract.pbf", 4, "spec_alias"),
    N("wget --no-check-certificate https://intranet.local/certs/bundle.pem",
      "wget https://intranet.local/certs/bundle.pem", 5, "fix"),

    # -- tar: -x/--extract -c/--create -z/--gzip -J/--xz -f/--file -C/--directory
    #    (spec tar.js; tar --help). -C changes folder for the members, not for the archive
    #    named by -f (GNU tar manual, "Changing the Working Directory"). ----------------------
    R("tar --extract --gzip --file=deps/protobuf.tgz --directory=third_party",
      "tar -xzf deps/protobuf.tgz -C third_party", 2, "spec_alias"),
    R("tar --create --xz --file dist/app-1.2.tar.xz build/app",
      "tar -cJf dist/app-1.2.tar.xz build/app", 2, "spec_alias"),
    R("ionice -c3 tar -czf backups/uploads.tgz uploads/", "tar -czf backups/uploads.tgz uploads/",
      2, "wrapper"),
    N("cd vendor && tar -xzf libyaml.tgz", "tar -xzf libyaml.tgz -C vendor", 2, "bait"),
    N("tar -xJf deps/zstd.tar", "tar -xzf deps/zstd.tar", 2, "bait"),
    V("tar -czf backups/db-2024.tgz db/", "tar -czf backups/assets-2024.tgz assets/", 2, "novel"),

    # -- jq: -r/--raw-output -c/--compact-output -s/--slurp -e/--exit-status; -R is
    #    --raw-input (spec jq.js; jq --help, jq manual) ----------------------------------------
    R("jq --raw-output '.items[].name' out/pods.json", "jq -r '.items[].name' out/pods.json", 5,
      "spec_alias"),
    R("jq --slurp --compact-output 'map(.id)' data/ids.ndjson",
      "jq -c -s 'map(.id)' data/ids.ndjson", 2, "spec_alias"),
    R("jq -e '.services | length > 0' compose.json   # check again",
      "jq -e '.services | length > 0' compose.json", 1, "comment"),
    R("jq --arg env prod -r '.[$env].url' deploy/targets.json",
      "jq -r --arg env prod '.[$env].url' deploy/targets.json", 5, "order"),
    N("jq -R '.version' release/meta.json", "jq -r '.version' release/meta.json", 5, "bait"),
    V("jq '.dependencies' packages/ui/package.json", "jq '.dependencies' packages/api/package.json",
      5, "novel"),

    # -- grep: -r/--recursive -i/--ignore-case -n/--line-number -w/--word-regexp
    #    -E/--extended-regexp -e/--regexp -l/--files-with-matches (spec grep.js; grep --help).
    #    -R is --dereference-recursive (follows every symlink), not -r (grep --help). ------------
    R("grep --recursive --ignore-case --line-number --word-regexp deadline src/scheduler/",
      "grep -rinw deadline src/scheduler/", 1, "spec_alias"),
    R("grep --extended-regexp --regexp='v[0-9]+\\.[0-9]+' CHANGELOG.md",
      "grep -E -e 'v[0-9]+\\.[0-9]+' CHANGELOG.md", 1, "spec_alias"),
    R("grep -i -l 'SECRET_KEY' config/", "grep -l -i 'SECRET_KEY' config/", 1, "order"),
    N("grep -R 'import legacy' src/plugins/", "grep -r 'import legacy' src/plugins/", 1, "bait"),
    N("grep -c TODO#perf src/cache.c", "grep -c TODO src/cache.c", 1, "bait"),

    # -- sed (spec sed.js has no long options: only wrappers and bait here) ------------------
    R("timeout 60 sed -n '/BEGIN CERT/,/END CERT/p' certs/chain.pem",
      "sed -n '/BEGIN CERT/,/END CERT/p' certs/chain.pem", 4, "wrapper"),
    N("sed -e 's/foo/bar/' -e 's/bar/baz/' templates/nginx.conf.in",
      "sed -e 's/bar/baz/' -e 's/foo/bar/' templates/nginx.conf.in", 4, "bait"),

    # -- find: expression order is evaluation order (find(1): -delete acts when reached) ------
    N("find tmp/cache -delete -name '*.lock'", "find tmp/cache -name '*.lock' -delete", 1, "bait"),
    V("find build/ -name '*.o' -newer Makefile", "find build/ -name '*.d' -newer Makefile", 1,
      "novel"),

    # -- ssh / scp: ssh -p port, -i identity, -o option; scp -P is the port and -p keeps
    #    times (spec ssh.js, scp.js; ssh(1), scp(1)); getopt joins -p2202 = -p 2202 ----------
    R("ssh -i ~/.ssh/deploy_ed25519 -p2202 ops@bastion1 'systemctl status billing-api'",
      "ssh -p 2202 -i ~/.ssh/deploy_ed25519 ops@bastion1 'systemctl status billing-api'", 255,
      "eq_value"),
    R("scp -r -P2222 build/www/ ops@edge1:/srv/drop/",
      "scp -P 2222 -r build/www/ ops@edge1:/srv/drop/",
      1, "eq_value"),
    N("scp -p 2223 release.tgz ops@edge2:/srv/rel/", "scp -P 2223 release.tgz ops@edge2:/srv/rel/",
      1, "bait"),
    N("ssh -o StrictHostKeyChecking=accept-new git@git.internal info",
      "ssh git@git.internal info", 255, "fix"),
    V("ssh ops@bastion2 'df -h /var'", "ssh ops@bastion2 'free -m'", 1, "novel"),

    # -- psql: -h/--host -U/--username -d/--dbname -f/--file -c/--command -v/--set
    #    -X/--no-psqlrc -1/--single-transaction (spec psql.js; psql --help) --------------------
    R("psql --host=pg1 --username=etl --dbname=warehouse --set=ON_ERROR_STOP=1 "
      "--file=sql/etl_load.sql",
      "psql -h pg1 -U etl -d warehouse -v ON_ERROR_STOP=1 -f sql/etl_load.sql", 3, "spec_alias"),
    R("psql --no-psqlrc --single-transaction -d inventory -f sql/inv_fix.sql",
      "psql -X -1 -d inventory -f sql/inv_fix.sql", 3, "spec_alias"),
    R("psql -d analytics_ro --file=sql/grants.sql", "psql -d analytics_ro -f sql/grants.sql", 3,
      "eq_value"),
    R("psql --dbname payroll --command 'vacuum analyze payslips'",
      "psql -d payroll -c 'vacuum analyze payslips'", 1, "spec_alias"),
    N("psql -d analytics -f sql/views_v2.sql", "psql -d analytics -f sql/views.sql", 3, "input"),
    N("psql -p 5433 -d timeseries -c 'select 1'", "psql -d timeseries -c 'select 1'", 2, "value"),
    N("PGSSLMODE=disable psql -h pg-local -d notes_dev -c 'select 1'",
      "psql -h pg-local -d notes_dev -c 'select 1'", 2, "env"),

    # -- mysql: -u/--user -h/--host -D/--database -e/--execute (spec mysql.js; mysql manual:
    #    long options with "=", "-p" takes its password only when joined: -p secret prompts
    #    and makes "secret" the database) ----------------------------------------------------
    R("mysql --host=db2 --user=report --execute='CALL refresh_stats()' analytics",
      "mysql -h db2 -u report -e 'CALL refresh_stats()' analytics", 1, "spec_alias"),
    R("mysql -ureport2 -Dsales -e 'SOURCE db/sales_seed.sql'",
      "mysql -u report2 -D sales -e 'SOURCE db/sales_seed.sql'", 1, "eq_value"),
    N("mysql -u root -p hunter2 crm_dev -e 'SHOW TABLES'",
      "mysql -u root -phunter2 crm_dev -e 'SHOW TABLES'", 1, "bait"),
    N("mysql -u app -D crm < dumps/crm_fixed.sql", "mysql -u app -D crm < dumps/crm.sql", 1,
      "input"),
    V("mysql -e 'SHOW PROCESSLIST' shop_ro", "mysql shop_ro < db/shop_ro_views.sql", 1, "novel"),

    # -- pg_dump: -F/--format -f/--file -n/--schema -N/--exclude-schema -t/--table
    #    (spec pg_dump.js; pg_dump --help) -------------------------------------------------------
    R("pg_dump --format=c --schema=billing --file=dumps/billing.dump app",
      "pg_dump -Fc -n billing -f dumps/billing.dump app", 1, "spec_alias"),
    R("timeout 900 pg_dump -Fc -f backups/crm.dump crm", "pg_dump -Fc -f backups/crm.dump crm", 1,
      "wrapper"),
    N("pg_dump -N audit -f dumps/core.sql core", "pg_dump -n audit -f dumps/core.sql core", 1,
      "bait"),
    V("pg_dump -Fc -f dumps/events.dump events", "pg_dump -Fc -f dumps/metrics.dump metrics", 1,
      "novel"),

    # -- sqlite3 (spec sqlite3.js: -bail, -cmd) ------------------------------------------------
    R("sqlite3 data/cache.db <migrations/004_index.sql",
      "sqlite3 data/cache.db < migrations/004_index.sql", 1, "input"),
    N("sqlite3 -bail data/events.db < migrations/007_events.sql",
      "sqlite3 data/events.db < migrations/007_events.sql", 1, "value"),

    # -- cmake: configure -S/-B/-D (-D <var>=<value> with or without a space, cmake(1));
    #    cmake --build: -t/--target -j/--parallel (spec cmake.js; cmake --build --help) -----
    R("cmake --build build-rel --parallel 8 --target codec_server",
      "cmake --build build-rel -j 8 -t codec_server", 2, "spec_alias"),
    R("cmake -B build-asan -S . -D SANITIZE=address", "cmake -S . -B build-asan -DSANITIZE=address",
      1, "order"),
    R("taskset -c 0-3 cmake --build build-bench --target codec_bench",
      "cmake --build build-bench --target codec_bench", 2, "wrapper"),
    R("cmake --build build-debug --target parser_tests", "cmake --build . --target parser_tests", 2,
      "folder", ".", "build-debug"),
    N("cmake --build build-msvc --config Release --target gui",
      "cmake --build build-msvc --config Debug --target gui", 1, "value"),
    N("rm -rf build-cov && cmake -S . -B build-cov -DCOVERAGE=ON",
      "cmake -S . -B build-cov -DCOVERAGE=ON", 1, "chain_state"),
    V("cmake --build build-rel --target docs_html", "cmake --build build-rel --target docs_pdf", 2,
      "novel"),

    # -- ninja / meson (no spec file): -C DIR changes folder first (ninja --help; meson
    #    compile --help) ------------------------------------------------------------------------
    R("ninja -C out/release unit_tests", "cd out/release && ninja unit_tests", 1, "folder"),
    R("meson compile -C builddir", "cd builddir && meson compile", 1, "folder"),

    # -- eslint: -c/--config, --ext, --fix (spec eslint.js) ------------------------------------
    R("eslint --config .eslintrc.strict.json src/api", "eslint -c .eslintrc.strict.json src/api",
      1, "spec_alias"),
    R("eslint --ext .ts,.tsx src/hooks", "eslint src/hooks --ext .ts,.tsx", 1, "order"),
    R("env eslint --max-warnings 0 src/pages", "eslint --max-warnings 0 src/pages", 1, "wrapper"),
    R("echo 'retrying lint' && eslint src/components", "eslint src/components", 1, "chain_state"),
    N("eslint --fix src/forms", "eslint src/forms", 1, "fix"),
    V("eslint src/store", "eslint src/router", 1, "novel"),

    # -- prettier: -c/--check, -w/--write (spec prettier.js) -------------------------------------
    R("prettier --check 'docs/**/*.md'", "prettier -c 'docs/**/*.md'", 1, "spec_alias"),
    R("sh -c 'prettier --check \"src/**/*.css\"'", "prettier --check \"src/**/*.css\"", 1,
      "wrapper"),
    N("prettier --write src/email-templates", "prettier --check src/email-templates", 1, "bait"),

    # -- tsc: --noEmit, --build (spec tsc.js) ----------------------------------------------------
    R("cd web && tsc --noEmit", "tsc --noEmit", 2, "folder", ".", "web"),
    N("tsc --project tsconfig.lib.json", "tsc --noEmit --project tsconfig.lib.json", 2, "bait"),

    # -- bundle / rake / rspec: bundle install --jobs (spec bundle.js; Thor takes
    #    --jobs=4 and --jobs 4) ----------------------------------------------------------------
    R("bundle install --jobs=4 --gemfile=gemfiles/rails7.gemfile",
      "bundle install --jobs 4 --gemfile gemfiles/rails7.gemfile", 5, "eq_value"),
    R("time bundle exec rspec spec/services/tax_spec.rb",
      "bundle exec rspec spec/services/tax_spec.rb",
      1, "wrapper"),
    R("cd .. && bundle exec rspec spec/models/invoice_spec.rb",
      "bundle exec rspec spec/models/invoice_spec.rb", 1, "folder", "api", "."),
    R("env RAILS_ENV=test bundle exec rake db:schema:load",
      "RAILS_ENV=test bundle exec rake db:schema:load", 1, "wrapper"),
    N("DATABASE_URL=postgres://localhost/reports_test bundle exec rspec spec/reports",
      "bundle exec rspec spec/reports", 1, "env"),
    N("bundle install && bundle exec rake assets:precompile", "bundle exec rake assets:precompile",
      1, "chain_state"),
    V("bundle exec rake db:rollback", "bundle exec rake db:migrate:status", 1, "novel"),
    V("rspec spec/lib/slug_spec.rb", "rspec spec/lib/money_spec.rb", 1, "novel"),

    # -- deno: run/test -A/--allow-all; --allow-net takes its hosts only after "=" (spec
    #    deno.js: optional value, separator required); words after the script go to the
    #    script (deno run --help) --------------------------------------------------------------
    R("deno run --allow-all scripts/migrate.ts", "deno run -A scripts/migrate.ts", 1, "spec_alias"),
    R("export DENO_DIR=.deno-cache && deno test -A tests/geo_test.ts",
      "DENO_DIR=.deno-cache deno test -A tests/geo_test.ts", 1, "env"),
    R("nohup deno task build:docs", "deno task build:docs", 1, "wrapper"),
    N("deno run server.ts -A", "deno run -A server.ts", 1, "bait"),
    N("deno run --allow-net api.local fetch_rates.ts",
      "deno run --allow-net=api.local fetch_rates.ts",
      1, "bait"),
    V("deno task lint:md", "deno task fmt:md", 1, "novel"),

    # -- bun: add -d/--dev/-D/--development, subcommand alias a|add (spec bun.js) -------------
    R("bun add --dev @types/bun", "bun add -d @types/bun", 1, "spec_alias"),
    R("bun a zod-to-json-schema", "bun add zod-to-json-schema", 1, "spec_alias"),
    V("bun run db:seed", "bun run db:reset", 1, "novel"),

    # -- node: code of -e compared by tokens; options after the script go to the script
    #    (node --help: "node [options] [script.js] [arguments]") -------------------------------
    R("node -e \"require( './dist/server.js' )\"", "node -e \"require('./dist/server.js')\"", 1,
      "interp"),
    R("/usr/bin/time -v node scripts/build-sitemap.js", "node scripts/build-sitemap.js", 1,
      "wrapper"),
    N("node app/worker.js --inspect", "node --inspect app/worker.js", 1, "bait"),

    # -- python -c / bash -c bodies: spacing of the code does not count; quoted text does ------
    R("python -c \"import yaml,sys; yaml.safe_load(open('deploy/values.yaml'))\"",
      "python -c \"import yaml, sys; yaml.safe_load(open( 'deploy/values.yaml' ))\"", 1, "interp"),
    R("python3 -c 'import tomllib;tomllib.load(open(\"pyproject.toml\",\"rb\"))'",
      "python3 -c 'import tomllib; tomllib.load(open(\"pyproject.toml\", \"rb\"))'", 1, "interp"),
    R("bash -c 'cd ui&&npm run build:ui'", "bash -c 'cd ui && npm run build:ui'", 1, "interp"),
    N("python -c \"import sys; sys.exit(open('state/flag.txt').read() != 'ready ')\"",
      "python -c \"import sys; sys.exit(open('state/flag.txt').read() != 'ready')\"", 1, "bait"),
    N("bash -lc 'make release-notes'", "bash -c 'make release-notes'", 2, "bait"),

    # -- ansible-playbook: -i/--inventory -l/--limit -t/--tags -e/--extra-vars; -C is
    #    --check, -c is --connection (spec ansible-playbook.js; ansible-playbook --help) ------
    R("ansible-playbook --inventory inventory/qa --limit=db -t schema site.yml",
      "ansible-playbook -i inventory/qa -l db --tags schema site.yml", 2, "spec_alias"),
    R("ansible-playbook -i inventory/lab --extra-vars=release=1.8.2 upgrade.yml",
      "ansible-playbook -i inventory/lab -e release=1.8.2 upgrade.yml", 2, "spec_alias"),
    R("stdbuf -oL -eL ansible-playbook -i inventory/lab patch.yml",
      "ansible-playbook -i inventory/lab patch.yml", 2, "wrapper"),
    N("ansible-playbook -c local -i inventory/dev bootstrap.yml",
      "ansible-playbook -C -i inventory/dev bootstrap.yml", 2, "bait"),
    N("ansible-playbook -i inventory/prod deploy-web.yml",
      "ansible-playbook -i inventory/staging deploy-web.yml", 2, "value"),
    V("ansible-playbook -i inventory/ops rollback.yml",
      "ansible-playbook -i inventory/ops rotate-keys.yml",
      2, "novel"),

    # -- black: -l/--line-length, --check (spec black.js) ------------------------------------
    R("black --line-length=100 src/etl", "black -l 100 src/etl", 123, "spec_alias"),
    N("black services/ingest", "black --check services/ingest", 1, "fix"),

    # -- gh: pr create -t/--title -b/--body -B/--base -d/--draft; pr merge -s/--squash
    #    -r/--rebase -d/--delete-branch; issue list -l/--label -s/--state -R/--repo
    #    (spec gh.js; cobra flags take "=" or a space) ----------------------------------------
    R("gh pr create --title 'Add retry budget' --body 'Closes #88' --base develop",
      "gh pr create -t 'Add retry budget' -b 'Closes #88' -B develop", 1, "spec_alias"),
    R("gh pr merge 412 --squash --delete-branch", "gh pr merge 412 -s -d", 1, "spec_alias"),
    R("gh issue list --label flaky --state=open --repo acme/api",
      "gh issue list -l flaky -s open -R acme/api", 1, "spec_alias"),
    N("gh pr merge 377 --rebase", "gh pr merge 377 --squash", 1, "value"),
    N("gh pr create -d -t 'Bump sdk' -B main", "gh pr create -t 'Bump sdk' -B main", 1, "value"),
    V("gh pr view 501", "gh pr checks 501", 1, "novel"),
    V("gh run view 9182 --log-failed", "gh run rerun 9182", 1, "novel"),

    # -- hugo: -D/--buildDrafts -d/--destination -s/--source; server -p/--port (spec hugo.js);
    #    -D and -d are different options ----------------------------------------------------
    R("hugo --buildDrafts --destination public-drafts", "hugo -D -d public-drafts", 255,
      "spec_alias"),
    R("hugo server --port 1414 --source handbook", "hugo server -p 1414 -s handbook", 255,
      "spec_alias"),
    R("cd ./docs/ && hugo --minify", "cd docs && hugo --minify", 255, "folder"),
    R(". ./scripts/env.sh && hugo --environment preview",
      "source ./scripts/env.sh && hugo --environment preview", 255, "env"),
    N("hugo -D --source blog", "hugo -d drafts-out --source blog", 255, "bait"),

    # -- webpack: -c/--config, --mode (spec webpack.js; webpack-cli takes --mode=x) ----------
    R("webpack --config webpack.worker.js --mode=development",
      "webpack -c webpack.worker.js --mode development", 2, "spec_alias"),
    R("nice ionice -c2 -n7 webpack --config webpack.reports.js",
      "webpack --config webpack.reports.js",
      2, "wrapper"),
    N("NODE_OPTIONS=--max-old-space-size=8192 webpack --config webpack.admin.js",
      "webpack --config webpack.admin.js", 134, "env"),

    # -- vite: -m/--mode (spec vite.js) --------------------------------------------------------
    R("vite build --mode staging-eu", "vite build -m staging-eu", 1, "spec_alias"),
    N("rm -rf node_modules/.vite && vite build --mode preview", "vite build --mode preview", 1,
      "chain_state"),
    N("env -u VITE_API_URL vite build --mode kiosk", "vite build --mode kiosk", 1, "bait"),

    # -- fly: deploy -a/--app -c/--config (spec fly.js) ---------------------------------------
    R("fly deploy --app billing-api --config fly.billing.toml",
      "fly deploy -a billing-api -c fly.billing.toml", 1, "spec_alias"),
    V("fly status -a notify-api", "fly deploy -a notify-api", 1, "novel"),

    # -- pulumi up: -s/--stack -y/--yes -C/--cwd ("run pulumi as if it had been started in
    #    another directory") (spec pulumi.js) -------------------------------------------------
    R("pulumi up --stack prod-eu --yes", "pulumi up -s prod-eu -y", 255, "spec_alias"),
    R("pulumi up --cwd infra/network -s net-dev --yes",
      "cd infra/network && pulumi up -s net-dev --yes", 255, "folder"),

    # -- podman build: -t/--tag -f/--file (spec podman.js) ------------------------------------
    R("podman build --tag reports:dev --file Containerfile.reports .",
      "podman build -t reports:dev -f Containerfile.reports .", 125, "spec_alias"),
    V("podman push scheduler:dev",
      "podman build -t scheduler:dev -f Containerfile.scheduler .", 125,
      "novel"),

    # -- flutter run: -d/--device-id (spec flutter.js) ----------------------------------------
    R("flutter run --device-id emulator-5554 --flavor staging",
      "flutter run -d emulator-5554 --flavor staging", 1, "spec_alias"),
    R("env -C mobile flutter test test/cart_test.dart",
      "cd mobile && flutter test test/cart_test.dart", 1, "folder"),
    V("flutter analyze lib/checkout", "flutter test test/checkout_test.dart", 1, "novel"),

    # -- diff: -u/--unified -r/--recursive (spec diff.js; diff --help) ------------------------
    R("diff --recursive --unified fixtures/expected out/actual",
      "diff -ru fixtures/expected out/actual",
      1, "spec_alias"),

    # -- mkdir / ln ----------------------------------------------------------------------------
    R("mkdir --parents /srv/app/releases/42", "mkdir -p /srv/app/releases/42", 1, "spec_alias"),
    N("mkdir -p var/run/sockets", "mkdir var/run/sockets", 1, "fix"),
    N("ln -sf ../shared/.env.local .env.local", "ln -s ../shared/.env.local .env.local", 1, "fix"),

    # -- brew: uninstall|remove|rm (spec brew.js) -----------------------------------------------
    R("brew rm node@18", "brew uninstall node@18", 1, "spec_alias"),
    N("brew install libvips && npm rebuild sharp", "npm rebuild sharp", 1, "chain_state"),

    # -- apt / apt-get: sudo is not neutral (another user, another environment) --------------
    N("sudo apt install -y libssl-dev", "apt install -y libssl-dev", 100, "bait"),

    # -- aws: global --region/--profile anywhere on the line, "=" or a space (aws help;
    #    observed here: `aws s3 ls --profile=x` and `aws --profile x s3 ls` fail alike) -------
    R("aws --region=us-east-1 s3 sync build/ s3://acme-docs-site",
      "aws s3 sync build/ s3://acme-docs-site --region us-east-1", 1, "order"),
    R("AWS_PROFILE=staging AWS_REGION=eu-west-1 aws s3 ls s3://acme-staging-assets",
      "AWS_REGION=eu-west-1 AWS_PROFILE=staging aws s3 ls s3://acme-staging-assets", 1, "env"),
    N("aws s3 sync dist/ s3://acme-app-bundle --delete",
      "aws s3 sync dist/ s3://acme-app-bundle", 1,
      "bait"),
    V("aws s3 ls s3://acme-logs-2023", "aws s3 ls s3://acme-logs-2024", 1, "novel"),

    # -- gcloud (argparse flags: "=" or a space; gcloud help) ---------------------------------
    R("gcloud run deploy ledger --project acme-prod --region europe-west1",
      "gcloud run deploy ledger --region=europe-west1 --project=acme-prod", 1, "eq_value"),

    # -- kind / minikube (cobra flags: "=" or a space) ----------------------------------------
    R("kind create cluster --config=kind-e2e.yaml --name=ci-e2e",
      "kind create cluster --name ci-e2e --config kind-e2e.yaml", 1, "eq_value"),
    V("kind load docker-image uploader:dev --name ci-upl", "kind create cluster --name ci-upl", 1,
      "novel"),

    # -- ffmpeg: option position matters (an option applies to the next -i or the output;
    #    ffmpeg(1): -r before -i overrides the input's frame rate, after it drops or
    #    duplicates frames for the output); -y overwrites -----------------------------------
    R("chrt -i 0 ffmpeg -i media/intro.mov -c:v libx264 media/intro.mp4",
      "ffmpeg -i media/intro.mov -c:v libx264 media/intro.mp4", 1, "wrapper"),
    N("ffmpeg -r 24 -i media/timelapse.mp4 media/timelapse_24.mp4",
      "ffmpeg -i media/timelapse.mp4 -r 24 media/timelapse_24.mp4", 1, "bait"),
    N("ffmpeg -y -i media/promo.wav media/promo.mp3",
      "ffmpeg -i media/promo.wav media/promo.mp3", 1,
      "fix"),

    # -- zip / unzip: a folder change changes the paths stored -----------------------------------
    N("cd public && zip -r ../dist/site.zip .", "zip -r dist/site.zip public", 12, "bait"),
    N("unzip -o fixtures/geo.zip -d fixtures/geo", "unzip -n fixtures/geo.zip -d fixtures/geo", 1,
      "bait"),

    # -- lerna run --scope (spec lerna.js) -------------------------------------------------------
    R("lerna run test --scope=@acme/validators", "lerna run test --scope @acme/validators", 1,
      "eq_value"),

    # -- wasm-pack / rustup ------------------------------------------------------------------
    N("rustup target add wasm32-unknown-unknown && wasm-pack build crates/viewer",
      "wasm-pack build crates/viewer", 1, "chain_state"),
    V("rustup component add clippy", "rustup component add llvm-tools-preview", 1, "novel"),

    # -- php / phpunit / composer: phpunit -c/--configuration (spec phpunit.js) ---------------
    R("phpunit --configuration phpunit.ci.xml tests/Unit/CartTest.php",
      "phpunit -c phpunit.ci.xml tests/Unit/CartTest.php", 1, "spec_alias"),
    R("nice -n 5 php artisan test --filter=InvoiceTotalsTest",
      "php artisan test --filter=InvoiceTotalsTest", 1, "wrapper"),
    R("cd api && composer install", "composer install", 2, "folder", ".", "api"),

    # -- more toolchains behind a wrapper, a comment or another way into the folder ----------
    R("timeout 600 dotnet test tests/Orders.Tests", "dotnet test tests/Orders.Tests", 1, "wrapper"),
    # swift build --package-path: "Specify the package path to operate on (default current
    # directory). This changes the working directory before any other operation" (swift
    # build --help)
    R("swift build --package-path Packages/CoreKit", "cd Packages/CoreKit && swift build", 1,
      "folder"),
    R("timeout 60 mongosh --quiet --eval 'db.orders.countDocuments()' mongodb://localhost/shop",
      "mongosh --quiet --eval 'db.orders.countDocuments()' mongodb://localhost/shop", 1,
      "wrapper"),
    R("nice stack build --fast hledger-lib", "stack build --fast hledger-lib", 1, "wrapper"),
    R("mix test test/billing/proration_test.exs  # again",
      "mix test test/billing/proration_test.exs",
      2, "comment"),
    R("time elixir scripts/backfill_slugs.exs", "elixir scripts/backfill_slugs.exs", 1, "wrapper"),
    R("deno test --allow-all --filter parse_row tests/csv_test.ts",
      "deno test -A --filter parse_row tests/csv_test.ts", 1, "spec_alias"),
    R("time playwright test tests/login.spec.ts", "playwright test tests/login.spec.ts", 1,
      "wrapper"),

    # -- wrappers over programs with hand tables (one rule per class) --------------------------
    R("timeout 300 go test ./internal/quota/...", "go test ./internal/quota/...", 1, "wrapper"),
    R("nohup cargo build -p search-indexer", "cargo build -p search-indexer", 101, "wrapper"),
    R("stdbuf -oL mvn -pl inventory-svc verify", "mvn -pl inventory-svc verify", 1, "wrapper"),
    R("time -p gradle :billing:test", "gradle :billing:test", 1, "wrapper"),
    R("taskset 0x3 pytest tests/test_geo_index.py", "pytest tests/test_geo_index.py", 1, "wrapper"),
    R("env TZ=UTC pytest tests/test_calendar.py", "TZ=UTC pytest tests/test_calendar.py", 1,
      "wrapper"),
    R("sh -c 'yarn workspace @acme/site build'", "yarn workspace @acme/site build", 1, "wrapper"),
    N("timeout 1800 bazel test //search/...", "timeout 300 bazel test //search/...", 124, "bait"),
    N("watch -n 10 kubectl get deploy -n payments", "kubectl get deploy -n payments", 1, "bait"),
    N("env -i PATH=/usr/bin:/bin make check-licenses", "make check-licenses", 2, "bait"),
    N("sudo make install-udev-rules", "make install-udev-rules", 2, "bait"),

    # -- folders, programs with hand tables ----------------------------------------------------
    R("make -C firmware flash-check", "cd firmware && make flash-check", 2, "folder"),
    R("terraform -chdir=infra/dns plan", "cd infra/dns && terraform plan", 1, "folder"),
    R("(cd services/mailer && go test ./...)", "cd services/mailer && go test ./...", 1, "folder"),
    R("npm --prefix web run build:web", "cd web && npm run build:web", 1, "folder"),
    R("cargo clippy -p geo-core", "cd crates/geo-core && cargo clippy -p geo-core", 101, "folder",
      "crates/geo-core"),
    R("git -C vendor/libfoo submodule update --init", "git submodule update --init", 1, "folder",
      ".", "vendor/libfoo"),
    N("cd admin && npm run build:admin", "npm run build:admin", 1, "folder"),
    N("pushd services/auth && go test ./internal/authz/...", "go test ./internal/authz/...", 1,
      "folder"),
    N("make -C docs html-strict", "make html-strict", 2, "folder"),

    # -- environment, programs with hand tables ----------------------------------------------
    R("FOO_MODE=fast BAR_LEVEL=2 make bench-parse", "BAR_LEVEL=2 FOO_MODE=fast make bench-parse", 2,
      "env"),
    R("export GOTOOLCHAIN=local && go vet ./pkg/quota", "GOTOOLCHAIN=local go vet ./pkg/quota", 1,
      "env"),
    N("GOFLAGS=-mod=mod go build ./cmd/relay", "go build ./cmd/relay", 1, "env"),
    N("KUBECONFIG=$HOME/.kube/kind-dev kubectl get pods -n ingest", "kubectl get pods -n ingest", 1,
      "env"),
    N("source .env.staging && pytest tests/test_staging_smoke.py",
      "source .env && pytest tests/test_staging_smoke.py", 1, "env"),
    N("export NODE_ENV=test && npm run test:api", "export NODE_ENV=development && npm run test:api",
      1, "env"),

    # -- chain steps, programs with hand tables ----------------------------------------------
    N("npm ci && npm run test:unit", "npm run test:unit", 1, "chain_state"),
    N("git pull --rebase && cargo build -p gateway", "cargo build -p gateway", 101, "chain_state"),
    N("touch src/generated/.stamp && make codegen", "make codegen", 2, "chain_state"),
    N("cp .env.example .env && python manage.py migrate", "python manage.py migrate", 1,
      "chain_state"),
    N("pip install -r requirements-dev.txt && pytest tests/test_cli_flags.py",
      "pytest tests/test_cli_flags.py", 1, "chain_state"),
    N("sleep 20 && terraform apply tfplan.dns", "terraform apply tfplan.dns", 1, "fix"),
    R("echo start && make test-proto", "make test-proto", 2, "chain_state"),

    # -- comments and spacing ------------------------------------------------------------------
    R("pytest tests/test_webhooks.py   # flaky?", "pytest tests/test_webhooks.py", 1, "comment"),
    R("cargo  test   -p  ledger-core", "cargo test -p ledger-core", 101, "spacing"),
    N("make test-ui \\#quick", "make test-ui", 2, "bait"),

    # -- a success is not a failure to repeat -------------------------------------------------
    N("eslint src/analytics", "eslint src/analytics", 0, "success"),
    N("jq -e '.ok' out/health.json", "jq -e '.ok' out/health.json", 0, "success"),

    # -- other subcommands and targets, programs with hand tables ----------------------------
    V("which eslint", "eslint src/widgets", 1, "bait"),
    V("npm run test:e2e", "npm run test:int", 1, "novel"),
    V("docker compose logs worker-mail", "docker compose up worker-mail", 1, "novel"),
    V("git stash list", "git stash pop", 1, "novel"),
    V("go test ./pkg/billing/...", "go test ./pkg/shipping/...", 1, "novel"),
    V("helm lint charts/ingest", "helm template charts/ingest", 1, "novel"),
    V("terraform fmt -check infra/cdn", "terraform validate infra/cdn", 1, "novel"),
    V("kubectl logs deploy/quota -n quota", "kubectl rollout status deploy/quota -n quota", 1,
      "novel"),
]  # fmt: skip

HELD_OUT: list[Pair] = [
    # -- issue 38, analogues: the fix is never a repeat (other programs, other folders) -----
    N("export MYSQL_PWD='r0tated' && mysql -h db3 -u ops -e 'SELECT 1' ops_audit",
      "mysql -h db3 -u ops -e 'SELECT 1' ops_audit", 1, "fix"),
    N("sqlite3 var/app.db < sql/seed_fixed.sql", "sqlite3 var/app.db < sql/seed.sql", 1, "input"),
    N("pushd services/billing && bundle exec rspec spec/billing_spec.rb",
      "bundle exec rspec spec/billing_spec.rb", 1, "folder"),
    N("LANG=C.UTF-8 ruby scripts/import_titles.rb", "ruby scripts/import_titles.rb", 1, "env"),
    N("DEBIAN_FRONTEND=noninteractive apt-get install -y tzdata", "apt-get install -y tzdata", 100,
      "fix"),
    N("sleep 30 && brew install ffmpeg", "brew install ffmpeg", 1, "fix"),
    N("echo 'set(WITH_TLS OFF)' >> cmake/local.cmake && cmake --build build-tls --target relay",
      "cmake --build build-tls --target relay", 2, "chain_state"),
    N("source envs/docs/bin/activate && mkdocs build --strict",
      "source envs/base/bin/activate && mkdocs build --strict", 1, "env"),
    N("COMPOSER_MEMORY_LIMIT=-1 composer update symfony/console",
      "composer update symfony/console", 1, "fix"),
    # -- issue 38, analogues: repeats found, and the failing folder kept ---------------------
    R("cd api && cargo test -p invoices", "cargo test -p invoices", 101, "folder", ".", "api"),
    R("pytest tests/test_parsers.py", "cd backend && pytest tests/test_parsers.py", 1, "folder",
      "backend", "."),
    R("sh -e -c 'ninja -C out/debug net_unittests'", "ninja -C out/debug net_unittests", 1,
      "wrapper"),
    R("rsync -a dist/ stage@web9:/srv/portal/   # one more time",
      "rsync -a dist/ stage@web9:/srv/portal/", 23, "comment"),
    N("bundle exec rake spec:features", "bundle exec rake spec:features", 1, "folder", ".",
      "engine"),
    N("pytest tests/test_cli_io.py", "pytest tests/test_cli_io.py", 1, "folder", ".", "tools/cli"),
    # -- issue 38, analogues: unit level -----------------------------------------------------
    V("command -v rubocop", "rubocop", 1, "bait"),
    V("sh -c 'jq .name \"$1\"' _ manifests/a.json", "sh -c 'jq .name \"$1\"' _ manifests/b.json", 5,
      "bait"),

    # -- rg: -t/--type -g/--glob -l/--files-with-matches -F/--fixed-strings -w/--word-regexp
    #    -S/--smart-case -L/--follow (spec rg.js; rg --help) --------------------------------
    R("rg --type py --files-with-matches 'import attr' services/",
      "rg -t py -l 'import attr' services/", 1, "spec_alias"),
    R("rg --fixed-strings --word-regexp 'os.Exit' cmd/", "rg -F -w 'os.Exit' cmd/", 1,
      "spec_alias"),
    R("rg -g '*.tf' -S 'region' infra/", "rg --glob '*.tf' --smart-case 'region' infra/", 1,
      "spec_alias"),
    R("nice rg -t go 'context.TODO' internal/", "rg -t go 'context.TODO' internal/", 1, "wrapper"),
    N("rg -L 'apiVersion' deploy/", "rg -l 'apiVersion' deploy/", 1, "bait"),
    N("rg -t rust 'unsafe' crates/codec", "rg -t rust 'unsafe' crates/codec", 0, "success"),
    V("rg 'TODO' docs/", "rg 'TODO' scripts/", 1, "novel"),

    # -- fd: -e/--extension -H/--hidden -t/--type -E/--exclude (spec fd.js) ------------------
    R("fd --extension md --hidden . notes/", "fd -e md -H . notes/", 1, "spec_alias"),
    R("fd -t f -E node_modules lockfile packages/",
      "fd --type f --exclude node_modules lockfile packages/", 1, "spec_alias"),

    # -- just: -f/--justfile -d/--working-directory (needs --justfile) (spec just.js;
    #    just --help) ---------------------------------------------------------------------
    R("just --justfile ci/Justfile lint-sql", "just -f ci/Justfile lint-sql", 1, "spec_alias"),
    R("just --justfile ops/Justfile --working-directory ops seed-dev",
      "just -f ops/Justfile -d ops seed-dev", 1, "spec_alias"),
    R("cd tools && just fmt-check", "just fmt-check", 1, "folder", ".", "tools"),
    V("just release-notes", "just changelog", 1, "novel"),

    # -- act: -j/--job -W/--workflows -e/--eventpath -s/--secret -P/--platform (spec act.js)
    R("act --job unit-tests --workflows .github/workflows/ci.yml",
      "act -j unit-tests -W .github/workflows/ci.yml", 1, "spec_alias"),
    R("act -j e2e -s GITHUB_TOKEN -e events/push.json",
      "act --job e2e --secret GITHUB_TOKEN --eventpath events/push.json", 1, "spec_alias"),
    N("act -j build-docs -P ubuntu-latest=catthehacker/ubuntu:act-22.04", "act -j build-docs", 1,
      "value"),

    # -- pre-commit run: -a/--all-files (spec pre-commit.js) -----------------------------------
    R("pre-commit run --all-files check-yaml", "pre-commit run -a check-yaml", 1, "spec_alias"),
    N("pre-commit run trailing-whitespace", "pre-commit run --all-files trailing-whitespace", 1,
      "value"),
    V("pre-commit run shellcheck -a", "pre-commit run hadolint -a", 1, "novel"),

    # -- mkdocs build: -f/--config-file -d/--site-dir -s/--strict (spec mkdocs.js) -----------
    R("mkdocs build --config-file docs/mkdocs.internal.yml --site-dir build/internal-site --strict",
      "mkdocs build -f docs/mkdocs.internal.yml -d build/internal-site -s", 1, "spec_alias"),
    V("mkdocs gh-deploy -f mkdocs.public.yml", "mkdocs build -f mkdocs.public.yml", 1, "novel"),

    # -- pipenv install -d/--dev; conda create -n/--name -y/--yes -c/--channel ---------------
    R("pipenv install --dev pytest-randomly", "pipenv install -d pytest-randomly", 1, "spec_alias"),
    R("conda create --name geo311 --yes -c conda-forge python=3.11 gdal",
      "conda create -n geo311 -y --channel conda-forge python=3.11 gdal", 1, "spec_alias"),
    N("conda create -n ml312 -y -c conda-forge python=3.12 numpy",
      "conda create -n ml312 -y python=3.12 numpy", 1, "value"),

    # -- dbt run: -s/--select, --full-refresh (spec dbt.js) ----------------------------------
    R("dbt run --select stg_orders+ --target ci", "dbt run -s stg_orders+ --target ci", 1,
      "spec_alias"),
    N("dbt run -s fct_revenue --full-refresh", "dbt run -s fct_revenue", 1, "value"),
    V("dbt test -s dim_customers", "dbt run -s dim_customers", 1, "novel"),

    # -- prisma migrate dev: -n/--name --schema; db push (spec prisma.js) -------------------
    R("prisma migrate dev --name add_invoice_index --schema db/schema.prisma",
      "prisma migrate dev -n add_invoice_index --schema db/schema.prisma", 1, "spec_alias"),
    N("prisma db push --accept-data-loss --schema db/audit.prisma",
      "prisma db push --schema db/audit.prisma", 1, "value"),

    # -- wrangler dev -e/--env -c/--config; sam build -t/--template -u/--use-container;
    #    serverless deploy -s/--stage -r/--region -f/--function (spec files) ---------------
    R("wrangler dev --env staging --config wrangler.edge.toml",
      "wrangler dev -e staging -c wrangler.edge.toml", 1, "spec_alias"),
    R("sam build --template template.payments.yaml --use-container",
      "sam build -t template.payments.yaml -u", 1, "spec_alias"),
    V("sam validate -t template.auth.yaml", "sam build -t template.auth.yaml", 1, "novel"),
    R("serverless deploy --stage qa --region eu-central-1 --function resizeImage",
      "serverless deploy -s qa -r eu-central-1 -f resizeImage", 1, "spec_alias"),
    N("serverless deploy -s prod -f sendDigest", "serverless deploy -s qa -f sendDigest", 1,
      "value"),

    # -- helmfile: -f/--file -e/--environment -l/--selector (spec helmfile.js) ----------------
    R("helmfile --file helmfile.d/obs.yaml --environment staging --selector app=loki sync",
      "helmfile -f helmfile.d/obs.yaml -e staging -l app=loki sync", 1, "spec_alias"),
    V("helmfile -f helmfile.d/net.yaml diff", "helmfile -f helmfile.d/net.yaml apply", 1, "novel"),

    # -- k3d cluster create: -a/--agents -s/--servers (spec k3d.js) -------------------------
    R("k3d cluster create edge --agents 2 --servers 1", "k3d cluster create edge -a 2 -s 1", 1,
      "spec_alias"),
    V("k3d cluster delete sandbox", "k3d cluster create sandbox", 1, "novel"),

    # -- gpg: -a/--armour (--armor, gpg --help) -o/--output (spec gpg.js) ---------------------
    R("gpg --armour --output dist/ops-pub.asc --export ops@acme.test",
      "gpg -a -o dist/ops-pub.asc --export ops@acme.test", 2, "spec_alias"),
    N("gpg --batch --yes -o secrets/app.env --decrypt secrets/app.env.gpg",
      "gpg -o secrets/app.env --decrypt secrets/app.env.gpg", 2, "fix"),

    # -- ssh-keygen (getopt: options in any order) --------------------------------------------
    R("ssh-keygen -t ed25519 -f keys/ci_deploy -N '' -C ci@acme",
      "ssh-keygen -C ci@acme -N '' -t ed25519 -f keys/ci_deploy", 1, "order"),

    # -- rustc: -C/--codegen (spec rustc.js; rustc --help) -----------------------------------
    R("rustc --codegen opt-level=3 -o bin/fib src/fib.rs",
      "rustc -C opt-level=3 -o bin/fib src/fib.rs",
      1, "spec_alias"),
    R("rustc --edition=2021 -Copt-level=2 src/bin/probe.rs",
      "rustc --edition 2021 -C opt-level=2 src/bin/probe.rs", 1, "eq_value"),
    N("rustc -C opt-level=1 src/bin/hash.rs", "rustc src/bin/hash.rs", 1, "value"),

    # -- gcc: -I dir / -Idir, -o file (gcc(1)); the place of -l matters when linking
    #    (gcc(1): "it makes a difference where in the command you write this option") -----
    R("gcc -Iinclude -o build/lexer src/lexer.c", "gcc -I include -o build/lexer src/lexer.c", 1,
      "eq_value"),
    R("gcc -Wall -O2 -c src/ring.c -o build/ring.o", "gcc -c -O2 -Wall -o build/ring.o src/ring.c",
      1, "order"),
    N("gcc -o build/crc src/crc.c -lz", "gcc -lz -o build/crc src/crc.c", 1, "bait"),
    R("nice -n 5 clang -std=c17 -o build/sha src/sha.c", "clang -std=c17 -o build/sha src/sha.c", 1,
      "wrapper"),

    # -- systemctl: options anywhere (systemctl --help); sudo is not neutral ----------------
    R("systemctl --user restart syncthing-dev", "systemctl restart --user syncthing-dev", 1,
      "order"),
    N("sudo systemctl restart nginx-canary", "systemctl restart nginx-canary", 1, "bait"),
    V("systemctl status postgresql-replica", "systemctl restart postgresql-replica", 1, "novel"),

    # -- sort: -u/--unique -n/--numeric-sort -o/--output (spec sort.js; sort --help);
    #    -k 2 runs to the end of the line, -k 2,2 is one field (sort --help) ---------------
    R("sort --unique --numeric-sort --output=reports/ids.txt reports/ids.raw",
      "sort -u -n -o reports/ids.txt reports/ids.raw", 2, "spec_alias"),
    N("sort -t, -k 2,2 -o data/prices.sorted data/prices.csv",
      "sort -t, -k 2 -o data/prices.sorted data/prices.csv", 2, "bait"),

    # -- hyperfine: -w/--warmup -r/--runs -p/--prepare (spec hyperfine.js) -----------------
    R("hyperfine --warmup 3 --runs 20 'target/release/grep-bench'",
      "hyperfine -w 3 -r 20 'target/release/grep-bench'", 1, "spec_alias"),

    # -- netlify deploy: -p/--prod -d/--dir -s/--site; stripe listen -f/--forward-to ------
    R("netlify deploy --prod --dir build/site --site acme-docs",
      "netlify deploy -p -d build/site -s acme-docs", 1, "spec_alias"),
    N("netlify deploy --dir build/preview-site",
      "netlify deploy --prod --dir build/preview-site", 1,
      "bait"),
    R("stripe listen --forward-to localhost:4242/webhooks/stripe",
      "stripe listen -f localhost:4242/webhooks/stripe", 1, "spec_alias"),

    # -- next dev -p/--port (spec next.js) ---------------------------------------------------
    R("next dev apps/storefront -p 3301", "next dev --port 3301 apps/storefront", 1, "spec_alias"),
    N("next build --no-lint apps/marketing", "next build apps/marketing", 1, "value"),

    # -- knex: migrate:list|migrate:status; nx run-many --targets/--projects (spec files) -----
    R("knex migrate:status --knexfile db/knexfile.js",
      "knex migrate:list --knexfile db/knexfile.js",
      1, "spec_alias"),
    V("knex migrate:rollback --knexfile db/knexfile.ts",
      "knex migrate:latest --knexfile db/knexfile.ts",
      1, "novel"),
    R("nx run-many --targets=lint --projects=api,web",
      "nx run-many --targets lint --projects api,web",
      1, "eq_value"),
    V("nx run-many --targets=e2e --projects=shop", "nx run-many --targets=build --projects=shop", 1,
      "novel"),

    # -- direnv exec DIR loads DIR's .envrc but runs in the current folder (direnv help) -------
    N("direnv exec services/api make migrate-check", "cd services/api && make migrate-check", 2,
      "bait"),

    # -- ruby: -I dir / -Idir, -r lib / -rlib (spec ruby.js; ruby -h) -------------------------
    R("ruby -Ilib -rjson scripts/gen_fixtures.rb", "ruby -I lib -r json scripts/gen_fixtures.rb", 1,
      "eq_value"),
    V("ruby scripts/prune_cache.rb", "ruby scripts/warm_cache.rb", 1, "novel"),

    # -- airflow / rclone / doctl-free cloud tools ------------------------------------------
    V("airflow tasks test etl_daily load_orders 2024-06-01",
      "airflow dags test etl_daily 2024-06-01", 1, "novel"),
    R("ionice -c3 rclone sync photos/ b2:acme-photos", "rclone sync photos/ b2:acme-photos", 1,
      "wrapper"),
    V("rclone check photos-raw/ b2:acme-raw", "rclone sync photos-raw/ b2:acme-raw", 1, "novel"),

    # -- rsync, other targets (spec rsync.js) --------------------------------------------------
    R("rsync --archive --dry-run --delete assets/ deploy@cdn2:/srv/assets/",
      "rsync -an --delete assets/ deploy@cdn2:/srv/assets/", 23, "spec_alias"),
    R("rsync -e 'ssh -i ~/.ssh/ci_key' -a build/ ci@runner4:/cache/build/",
      "rsync -a --rsh='ssh -i ~/.ssh/ci_key' build/ ci@runner4:/cache/build/", 255, "spec_alias"),
    R("ionice -c2 -n7 rsync -a --checksum vendor/ dev@box2:/opt/vendor/",
      "rsync -ac vendor/ dev@box2:/opt/vendor/", 23, "wrapper"),
    N("rsync -a --bwlimit=5000 videos/ backup@nas2:/vol/videos/",
      "rsync -a videos/ backup@nas2:/vol/videos/", 30, "value"),
    N("rsync -a photos ops@nas4:/vol/", "rsync -a photos/ ops@nas4:/vol/", 23, "bait"),
    V("rsync -a styles/ deploy@cdn3:/srv/styles/",
      "rsync -a scripts/ deploy@cdn3:/srv/scripts/", 23,
      "novel"),

    # -- curl (spec curl.js; curl --help) -------------------------------------------------------
    R("curl --silent --fail --header 'Accept: application/json' https://api.local/v2/quota",
      "curl -sf -H 'Accept: application/json' https://api.local/v2/quota", 22, "spec_alias"),
    R("curl -u ci:token-1 -O https://artifacts.local/builds/app-7.zip",
      "curl --user ci:token-1 --remote-name https://artifacts.local/builds/app-7.zip", 22,
      "spec_alias"),
    R("time curl -fsSL https://get.local/install-cli.sh -o /tmp/install-cli.sh",
      "curl -fsSL https://get.local/install-cli.sh -o /tmp/install-cli.sh", 22, "wrapper"),
    N("curl -fsS --retry 5 https://mirror.local/index.json",
      "curl -fsS https://mirror.local/index.json",
      7, "value"),
    N("curl -fsS -X PUT -d @quota.json https://api.local/v2/limits",
      "curl -fsS -X POST -d @quota.json https://api.local/v2/limits", 22, "value"),
    N("curl --header=X-Trace:1 https://api.local/v2/trace",
      "curl --header X-Trace:1 https://api.local/v2/trace",
      6, "bait"),
    V("curl -fsS https://status.local/api/incidents",
      "curl -fsS https://status.local/api/components",
      22, "novel"),

    # -- wget (spec wget.js; wget --help) -------------------------------------------------------
    R("wget -qO build/tzdata.tar.gz https://tz.local/tzdata-latest.tar.gz",
      "wget --quiet --output-document=build/tzdata.tar.gz https://tz.local/tzdata-latest.tar.gz", 8,
      "spec_alias"),
    N("wget -c https://data.local/planet.osm.pbf", "wget https://data.local/planet.osm.pbf", 4,
      "value"),

    # -- tar (spec tar.js; tar --help) ----------------------------------------------------------
    R("tar --list --file=backups/site.tar", "tar -tf backups/site.tar", 2, "spec_alias"),
    R("tar --create --gzip --file=release/cli.tgz bin/cli", "tar -czf release/cli.tgz bin/cli", 2,
      "spec_alias"),
    N("tar -xzf deps/openssl.tgz --strip-components=1 -C vendor/openssl",
      "tar -xzf deps/openssl.tgz -C vendor/openssl", 2, "value"),
    N("tar -czf release/web.tgz -C dist .", "tar -czf release/web.tgz dist", 2, "bait"),

    # -- jq (spec jq.js; jq --help) -------------------------------------------------------------
    R("jq --exit-status '.ready' out/status-api.json", "jq -e '.ready' out/status-api.json", 1,
      "spec_alias"),
    R("jq -rc '.[] | .id' out/batch-17.json",
      "jq --raw-output --compact-output '.[] | .id' out/batch-17.json", 5, "spec_alias"),
    N("jq -n '.count' out/agg.json", "jq '.count' out/agg.json", 5, "bait"),

    # -- grep (spec grep.js; grep --help) -------------------------------------------------------
    R("grep --files-with-matches --fixed-strings 'DEPRECATED(' include/",
      "grep -lF 'DEPRECATED(' include/",
      1, "spec_alias"),
    R("grep -v -c '^#' conf/hosts.allow", "grep --invert-match --count '^#' conf/hosts.allow", 1,
      "spec_alias"),
    N("grep -x 'enabled=true' conf/feature.ini", "grep -w 'enabled=true' conf/feature.ini", 1,
      "bait"),
    N("grep -R 'kind: Secret' manifests/", "grep -r 'kind: Secret' manifests/", 1, "bait"),
    N("grep -rn 'panic(' --include='*.go' internal/", "grep -rn 'panic(' internal/", 1, "value"),

    # -- ssh / scp (spec ssh.js, scp.js) --------------------------------------------------------
    R("ssh -o ConnectTimeout=5 -l deploy app4.internal 'sudo systemctl reload app'",
      "ssh -l deploy -o ConnectTimeout=5 app4.internal 'sudo systemctl reload app'", 255, "order"),
    N("ssh -T git@gitlab.internal", "ssh -t git@gitlab.internal", 1, "bait"),
    R("scp -i ~/.ssh/edge_key -P 2200 dist/edge.tar.gz ops@edge5:/srv/",
      "scp -P 2200 -i ~/.ssh/edge_key dist/edge.tar.gz ops@edge5:/srv/", 1, "order"),
    N("scp -O -P 2201 dist/fw.bin ops@router1:/tmp/",
      "scp -P 2201 dist/fw.bin ops@router1:/tmp/", 1,
      "fix"),
    N("scp -p 2204 notes.tgz ops@edge6:/srv/notes/", "scp -P 2204 notes.tgz ops@edge6:/srv/notes/",
      1, "bait"),

    # -- psql / mysql / pg_dump / sqlite3 (spec files; psql --help, pg_dump --help) ----------
    R("psql --variable=ON_ERROR_STOP=1 -d crm_stage -f sql/crm_patch_12.sql",
      "psql -v ON_ERROR_STOP=1 -d crm_stage -f sql/crm_patch_12.sql", 3, "spec_alias"),
    R("nice -n 10 psql -h pg2 -d ledger_ro -f sql/month_close.sql",
      "psql -h pg2 -d ledger_ro -f sql/month_close.sql", 3, "wrapper"),
    R("psql --dbname=reports_dev --file sql/rollup.sql", "psql -d reports_dev -f sql/rollup.sql", 3,
      "spec_alias"),
    N("PGOPTIONS='-c statement_timeout=0' psql -d warehouse_qa -f sql/backfill.sql",
      "psql -d warehouse_qa -f sql/backfill.sql", 3, "env"),
    N("psql -d tenants -f sql/tenants_fix.sql", "psql -d tenants -f sql/tenants.sql", 3, "input"),
    R("mysql --database=blog --execute='SOURCE sql/blog_views.sql'",
      "mysql -D blog -e 'SOURCE sql/blog_views.sql'", 1, "spec_alias"),
    N("mysql -u admin -p s3cr3t -e 'FLUSH PRIVILEGES'",
      "mysql -u admin -ps3cr3t -e 'FLUSH PRIVILEGES'",
      1, "bait"),
    N("mysql -h db4 metrics < sql/metrics_v3.sql", "mysql -h db4 metrics < sql/metrics_v2.sql", 1,
      "input"),
    R("pg_dump --table=public.users --file=dumps/users.sql accounts",
      "pg_dump -t public.users -f dumps/users.sql accounts", 1, "spec_alias"),
    N("pg_dump -Fd -j 4 -f dumps/catalog.dir catalog",
      "pg_dump -Fd -f dumps/catalog.dir catalog", 1,
      "value"),
    R("sqlite3 -bail var/geo.db '.read sql/geo_views.sql'  # again",
      "sqlite3 -bail var/geo.db '.read sql/geo_views.sql'", 1, "comment"),
    N("sqlite3 -cmd 'PRAGMA foreign_keys=ON' var/shop.db < sql/shop_fk.sql",
      "sqlite3 var/shop.db < sql/shop_fk.sql", 1, "value"),

    # -- cmake (spec cmake.js; cmake --build --help) ------------------------------------------
    R("cmake --build out/clang -t fuzz_parser -j 4",
      "cmake --build out/clang --target fuzz_parser --parallel 4", 2, "spec_alias"),
    R("cd out/clang-tidy && cmake --build . --target tidy_all",
      "cmake --build out/clang-tidy --target tidy_all", 2, "folder"),
    N("cmake -S . -B out/rel -DCMAKE_BUILD_TYPE=RelWithDebInfo",
      "cmake -S . -B out/rel -DCMAKE_BUILD_TYPE=Release", 1, "value"),
    N("cmake --build out/ci --target lint_headers", "cmake --build out/ci --target lint_headers", 0,
      "success"),

    # -- eslint / prettier / tsc (spec files) ----------------------------------------------
    R("eslint --config eslint.config.strict.mjs --max-warnings=0 apps/admin",
      "eslint -c eslint.config.strict.mjs --max-warnings 0 apps/admin", 1, "spec_alias"),
    R("cd apps/portal && eslint src", "eslint src", 1, "folder", ".", "apps/portal"),
    R("prettier --write 'apps/docs/**/*.mdx'", "prettier -w 'apps/docs/**/*.mdx'", 2, "spec_alias"),
    N("prettier -w packages/icons", "prettier -c packages/icons", 1, "bait"),
    R("tsc --build packages/schema   # retry", "tsc --build packages/schema", 1, "comment"),
    V("tsc --build packages/cli", "tsc --build packages/sdk-node", 1, "novel"),

    # -- deno / bun / node (spec files) -------------------------------------------------------
    R("deno test --allow-all tests/payments_test.ts", "deno test -A tests/payments_test.ts", 1,
      "spec_alias"),
    N("deno run --allow-read=. scripts/scan.ts",
      "deno run --allow-read scripts/scan.ts", 1, "value"),
    N("deno run tools/gen.ts --allow-write", "deno run --allow-write tools/gen.ts", 1, "bait"),
    R("bun add --development @testing-library/dom", "bun add -D @testing-library/dom", 1,
      "spec_alias"),
    V("bun run typecheck:web", "bun run typecheck:api", 1, "novel"),
    R("node -e \"const p=require('./package.json');process.exit(p.private?0:1)\"",
      "node -e \"const p = require('./package.json'); process.exit(p.private ? 0 : 1)\"", 1,
      "interp"),
    N("node tools/replay.js --inspect-brk", "node --inspect-brk tools/replay.js", 1, "bait"),

    # -- ansible-playbook / black (spec files) ----------------------------------------------
    R("ansible-playbook --check --limit web-canary -i inventory/prod nginx.yml",
      "ansible-playbook -C -l web-canary -i inventory/prod nginx.yml", 2, "spec_alias"),
    R("ansible-playbook -i inventory/dr --tags=backup,verify dr.yml",
      "ansible-playbook --inventory=inventory/dr -t backup,verify dr.yml", 2, "spec_alias"),
    N("ansible-playbook -i inventory/dev --connection=local localdev.yml",
      "ansible-playbook -i inventory/dev localdev.yml", 2, "value"),
    N("ANSIBLE_HOST_KEY_CHECKING=False ansible-playbook -i inventory/lab2 onboard.yml",
      "ansible-playbook -i inventory/lab2 onboard.yml", 4, "fix"),
    R("nice black -l 88 --check libs/geo", "black --line-length 88 --check libs/geo", 1,
      "spec_alias"),
    N("black --diff libs/text", "black libs/text", 123, "bait"),

    # -- gh (spec gh.js) -----------------------------------------------------------------------
    R("gh issue list --state closed --label regression", "gh issue list -s closed -l regression", 1,
      "spec_alias"),
    R("gh pr create --draft --title 'Drop py3.9' --base release-2",
      "gh pr create -d -t 'Drop py3.9' -B release-2", 1, "spec_alias"),
    N("gh pr merge 650 --squash --admin", "gh pr merge 650 --squash", 1, "value"),
    V("gh pr diff 640", "gh pr review 640 --approve", 1, "novel"),

    # -- hugo / webpack / vite (spec files) ----------------------------------------------------
    R("hugo --source microsite --destination build/microsite",
      "hugo -s microsite -d build/microsite",
      255, "spec_alias"),
    R("hugo --minify -s landing", "hugo -s landing --minify", 255, "order"),
    N("hugo -s press --baseURL https://press.acme.test/", "hugo -s press", 255, "value"),
    R("webpack --mode=production --config=webpack.embed.js",
      "webpack -c webpack.embed.js --mode production", 2, "spec_alias"),
    R("vite build --mode qa-us --outDir dist-qa", "vite build -m qa-us --outDir dist-qa", 1,
      "spec_alias"),
    N("vite build --mode qa-eu --base /eu/", "vite build --mode qa-eu", 1, "value"),

    # -- fly / pulumi / podman (spec files) -----------------------------------------------------
    R("fly deploy --config fly.worker.toml --app queue-worker",
      "fly deploy -c fly.worker.toml -a queue-worker", 1, "spec_alias"),
    R("pulumi up -C infra/dns-zone -s dns-prod -y",
      "cd infra/dns-zone && pulumi up --stack dns-prod --yes", 255, "folder"),
    N("pulumi up -C infra/vpc -s vpc-dev -y", "pulumi up -s vpc-dev -y", 255, "folder"),
    R("podman build --file Containerfile.gateway --tag gateway:ci .",
      "podman build -t gateway:ci -f Containerfile.gateway .", 125, "spec_alias"),
    N("podman build -t tiles:ci -f Containerfile.tiles --build-arg GDAL=3.8 .",
      "podman build -t tiles:ci -f Containerfile.tiles .", 125, "value"),

    # -- flutter / dotnet / swift ---------------------------------------------------------------
    R("cd apps/driver && flutter test test/route_test.dart", "flutter test test/route_test.dart", 1,
      "folder", ".", "apps/driver"),
    R("flutter run -d chrome --dart-define=API=qa",
      "flutter run --device-id chrome --dart-define=API=qa",
      1, "spec_alias"),
    R("cd tests/Api.Tests && dotnet test", "dotnet test", 1, "folder", ".", "tests/Api.Tests"),
    N("dotnet test tests/Web.Tests --filter Category=Smoke", "dotnet test tests/Web.Tests", 1,
      "value"),
    R("swift test --package-path Packages/Networking", "cd Packages/Networking && swift test", 1,
      "folder"),

    # -- diff / mkdir / chmod / ln (spec files; the tools' --help) ----------------------------
    R("diff --unified config/defaults.yaml config/local.yaml",
      "diff -u config/defaults.yaml config/local.yaml", 1, "spec_alias"),
    R("mkdir -p build/pkg/deb/DEBIAN", "mkdir --parents build/pkg/deb/DEBIAN", 1, "spec_alias"),
    N("chmod -r 755 scripts/release", "chmod -R 755 scripts/release", 1, "bait"),
    N("ln -sfn releases/42 current", "ln -s releases/42 current", 1, "fix"),

    # -- brew / apt-get / aws / gcloud / minikube ---------------------------------------------
    R("brew remove python@3.10", "brew uninstall python@3.10", 1, "spec_alias"),
    N("HOMEBREW_NO_AUTO_UPDATE=1 brew install tree-sitter", "brew install tree-sitter", 1, "env"),
    N("sudo apt-get install -y build-essential", "apt-get install -y build-essential", 100, "bait"),
    R("aws s3 cp dist/app.js s3://acme-cdn-eu/app.js --profile=cdn",
      "aws --profile cdn s3 cp dist/app.js s3://acme-cdn-eu/app.js", 1, "order"),
    N("aws s3 cp dist/app.css s3://acme-cdn-us/app.css --acl public-read",
      "aws s3 cp dist/app.css s3://acme-cdn-us/app.css", 1, "value"),
    R("gcloud builds submit --config=cloudbuild.api.yaml --project acme-ci",
      "gcloud builds submit --project=acme-ci --config cloudbuild.api.yaml", 1, "eq_value"),
    N("CLOUDSDK_CORE_PROJECT=acme-sandbox gcloud builds submit --config cloudbuild.web.yaml",
      "gcloud builds submit --config cloudbuild.web.yaml", 1, "env"),
    R("minikube start --driver docker --kubernetes-version v1.30.0",
      "minikube start --driver=docker --kubernetes-version=v1.30.0", 1, "eq_value"),

    # -- ffmpeg / zip / unzip ------------------------------------------------------------------
    R("nohup ffmpeg -i media/lecture.mkv -c:a aac media/lecture.m4a",
      "ffmpeg -i media/lecture.mkv -c:a aac media/lecture.m4a", 1, "wrapper"),
    N("ffmpeg -i media/loop.mp4 -r 60 media/loop60.mp4",
      "ffmpeg -r 60 -i media/loop.mp4 media/loop60.mp4",
      1, "bait"),
    N("ffmpeg -i media/cam.mp4 -vf scale=1280:-2 media/cam720.mp4",
      "ffmpeg -i media/cam.mp4 -vf scale=1280:-1 media/cam720.mp4", 1, "fix"),
    R("zip -r dist/plugin.zip plugin/  # again", "zip -r dist/plugin.zip plugin/", 12, "comment"),
    N("unzip fixtures/dem.zip -d fixtures/dem-new", "unzip fixtures/dem.zip -d fixtures/dem", 1,
      "value"),

    # -- php / phpunit / composer / lerna / mongosh / stack / mix / playwright ---------------
    R("phpunit --configuration phpunit.integration.xml tests/Integration/MailerTest.php",
      "phpunit -c phpunit.integration.xml tests/Integration/MailerTest.php", 1, "spec_alias"),
    R("time php artisan test --filter=RefundPolicyTest",
      "php artisan test --filter=RefundPolicyTest",
      1, "wrapper"),
    # composer --working-dir (-d): "If specified, use the given directory as working
    # directory" (composer docs, global options)
    R("composer --working-dir=modules/payments install",
      "cd modules/payments && composer install", 2,
      "folder"),
    R("lerna run build --scope=@acme/charts",
      "lerna run build --scope @acme/charts", 1, "eq_value"),
    R("mongosh mongodb://localhost/crm --eval 'db.leads.createIndex({email: 1})'",
      "mongosh --eval 'db.leads.createIndex({email: 1})' mongodb://localhost/crm", 1, "order"),
    N("stack build --fast --pedantic pandoc-lite", "stack build --fast pandoc-lite", 1, "value"),
    R("MIX_ENV=test mix test test/accounts_test.exs",
      "env MIX_ENV=test mix test test/accounts_test.exs",
      2, "wrapper"),
    V("mix ecto.migrate", "mix ecto.rollback", 1, "novel"),
    R("nice playwright test -g 'refund flow' tests/refunds.spec.ts",
      "playwright test -g 'refund flow' tests/refunds.spec.ts", 1, "wrapper"),
    N("playwright test tests/cart.spec.ts --headed",
      "playwright test tests/cart.spec.ts", 1, "value"),
    R("time elixir scripts/rebuild_search.exs", "elixir scripts/rebuild_search.exs", 1, "wrapper"),

    # -- interpreter code: spacing does not count, quoted text does ----------------------------
    R("python -c \"from app.settings import Settings;Settings()\"",
      "python -c \"from app.settings import Settings; Settings()\"", 1, "interp"),
    R("python -c \"import sys; sys.exit(0 if sys.version_info >= (3,12) else 1)\"",
      "python -c \"import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)\"", 1, "interp"),
    N("python -c \"open('logs/app.log').read().index('ERROR ')\"",
      "python -c \"open('logs/app.log').read().index('ERROR')\"", 1, "bait"),
    R("sh -c 'cd docs&&make html-site'", "sh -c 'cd docs && make html-site'", 2, "interp"),
    R("bash -c 'set -e;  ./scripts/gen_protos.sh'", "bash -c 'set -e; ./scripts/gen_protos.sh'", 1,
      "interp"),
    N("bash -c 'make -k lint-all'", "bash -c 'make lint-all'", 2, "bait"),
    N("bash -lc 'cargo fmt --check'", "bash -c 'cargo fmt --check'", 1, "bait"),

    # -- wrappers over programs with hand tables -----------------------------------------------
    R("timeout 120 npm run test:contracts", "npm run test:contracts", 1, "wrapper"),
    R("nice -n 19 ionice -c3 cargo build --release -p tiles-render",
      "cargo build --release -p tiles-render", 101, "wrapper"),
    R("taskset -c 2,3 go test -run TestQuota ./internal/limits",
      "go test -run TestQuota ./internal/limits", 1, "wrapper"),
    R("chrt -b 0 mvn -pl reporting package", "mvn -pl reporting package", 1, "wrapper"),
    R("stdbuf -o0 pytest tests/test_ws_stream.py", "pytest tests/test_ws_stream.py", 1, "wrapper"),
    R("/usr/bin/time -f %M gradle :search:check", "gradle :search:check", 1, "wrapper"),
    R("env yarn workspace @acme/cms test", "yarn workspace @acme/cms test", 1, "wrapper"),
    R("nohup terraform plan -out=plan.net", "terraform plan -out=plan.net", 1, "wrapper"),
    R("time timeout 600 docker compose build api-gw", "docker compose build api-gw", 1, "wrapper"),
    R("env -C services/tax make test-tax", "cd services/tax && make test-tax", 2, "folder"),
    N("timeout 900 npm run test:soak", "timeout 90 npm run test:soak", 124, "bait"),
    N("env -u AWS_PROFILE terraform plan -out=plan.iam", "terraform plan -out=plan.iam", 1, "bait"),
    N("env -i HOME=$HOME PATH=$PATH pytest tests/test_env_leak.py", "pytest tests/test_env_leak.py",
      1, "bait"),
    N("env -C services/pricing make test-pricing", "make test-pricing", 2, "bait"),
    N("sudo pip install -r requirements-ops.txt", "pip install -r requirements-ops.txt", 1, "bait"),
    N("watch -n 2 helm status ingest-gw -n edge", "helm status ingest-gw -n edge", 1, "bait"),

    # -- folders, programs with hand tables ---------------------------------------------------
    R("make --directory=kernel modules-check", "cd kernel && make modules-check", 2, "folder"),
    R("yarn --cwd apps/studio build", "cd apps/studio && yarn build", 1, "folder"),
    R("pnpm -C packages/ui-kit test", "cd packages/ui-kit && pnpm test", 1, "folder"),
    R("git -C tools/forks/libgit2 fetch origin", "cd tools/forks/libgit2 && git fetch origin", 1,
      "folder"),
    R("npm run build:tokens", "npm --prefix design run build:tokens", 1, "folder", "design", "."),
    R("cd ../.. && go build ./cmd/gateway", "go build ./cmd/gateway", 1, "folder", "services/gw",
      "."),
    R("terraform -chdir=envs/stage apply stage.tfplan",
      "cd envs/stage && terraform apply stage.tfplan",
      1, "folder"),
    R("(cd infra/k8s && kubectl apply -f namespace-ops.yaml)",
      "kubectl apply -f namespace-ops.yaml",
      1, "folder", ".", "infra/k8s"),
    R("cd docs/ && make linkcheck", "cd docs && make linkcheck", 2, "folder"),
    N("cd apps/shop && npm run build:shop", "npm run build:shop", 1, "folder"),
    N("make -C tools/codegen proto-gen", "make proto-gen", 2, "folder"),
    N("pushd deploy && kubectl apply -k overlays/dev",
      "kubectl apply -k overlays/dev", 1, "folder"),

    # -- environment, programs with hand tables ----------------------------------------------
    R("RUST_LOG=debug RUST_BACKTRACE=1 cargo run -p seeder",
      "RUST_BACKTRACE=1 RUST_LOG=debug cargo run -p seeder", 101, "env"),
    R("export AWS_REGION=us-west-2 && terraform plan -out=plan.s3",
      "AWS_REGION=us-west-2 terraform plan -out=plan.s3", 1, "env"),
    R("env NODE_OPTIONS=--enable-source-maps npm run test:ssr",
      "NODE_OPTIONS=--enable-source-maps npm run test:ssr", 1, "wrapper"),
    N("NODE_OPTIONS=--max-old-space-size=6144 npm run build:ssr", "npm run build:ssr", 134, "env"),
    N("export KUBECONFIG=~/.kube/prod-eu && kubectl get nodes -l pool=gpu",
      "export KUBECONFIG=~/.kube/prod-us && kubectl get nodes -l pool=gpu", 1, "env"),
    N("DJANGO_SETTINGS_MODULE=app.settings.ci python manage.py check --deploy",
      "python manage.py check --deploy", 1, "env"),
    N(". venvs/py312/bin/activate && pytest tests/test_typing_compat.py",
      ". venvs/py310/bin/activate && pytest tests/test_typing_compat.py", 1, "env"),
    N("unset GOPATH && go mod tidy", "go mod tidy", 1, "env"),
    N("source .env.e2e && npm run test:e2e-smoke", "npm run test:e2e-smoke", 1, "env"),

    # -- chain steps, programs with hand tables ----------------------------------------------
    N("npm install && npm run build:widgets", "npm run build:widgets", 1, "chain_state"),
    N("cargo clean -p tiles-proto && cargo build -p tiles-proto", "cargo build -p tiles-proto", 101,
      "chain_state"),
    N("git stash && git rebase origin/main", "git rebase origin/main", 1, "chain_state"),
    N("printf 'PORT=8081\\n' > .env && docker compose up -d web-admin",
      "docker compose up -d web-admin",
      1, "chain_state"),
    N("touch migrations/__init__.py && alembic upgrade head", "alembic upgrade head", 1,
      "chain_state"),
    N("pip install -e . && pytest tests/test_entrypoints.py", "pytest tests/test_entrypoints.py", 1,
      "chain_state"),
    N("go generate ./... && go test ./internal/mocks/...", "go test ./internal/mocks/...", 1,
      "chain_state"),
    N("mkdir -p .cache/helm && helm dependency build charts/platform",
      "helm dependency build charts/platform", 1, "chain_state"),
    N("sleep 30 && terraform apply tfplan.cdn", "terraform apply tfplan.cdn", 1, "fix"),
    R("echo '== retry ==' && cargo test -p pricing", "cargo test -p pricing", 101, "chain_state"),

    # -- comments and spacing ------------------------------------------------------------------
    R("go test ./pkg/geo/...  # flaky on CI", "go test ./pkg/geo/...", 1, "comment"),
    R("npm   run   test:schemas", "npm run test:schemas", 1, "spacing"),
    R("kubectl rollout status deploy/search -n search   #  wait for it",
      "kubectl rollout status deploy/search -n search", 1, "comment"),

    # -- other subcommands and targets, programs with hand tables ----------------------------
    V("npm run lint:css", "npm run lint:js", 1, "novel"),
    V("cargo test -p pricing-rules", "cargo test -p pricing-api", 101, "novel"),
    V("git fetch upstream", "git pull upstream main", 1, "novel"),
    V("kubectl describe pod ingest-7f9 -n ingest-b", "kubectl logs ingest-7f9 -n ingest-b", 1,
      "novel"),
    V("terraform output -json", "terraform refresh", 1, "novel"),
    V("pytest tests/test_exporter_csv.py", "pytest tests/test_exporter_xlsx.py", 1, "novel"),
    V("poetry show --tree", "poetry lock --no-update", 1, "novel"),
    V("docker compose ps", "docker compose down", 1, "novel"),
    V("helm history ingest-gw -n edge", "helm rollback ingest-gw -n edge", 1, "novel"),
    V("make clean-cache", "make warm-cache", 2, "novel"),

    # -- other targets, spec-dataset programs --------------------------------------------------
    V("gh release view v2.3.0", "gh release create v2.3.0 --generate-notes", 1, "novel"),
    V("psql -d metrics_ro -f sql/top_queries.sql", "psql -d metrics_ro -f sql/slow_queries.sql", 3,
      "novel"),
    V("jq '.scripts' apps/admin/package.json", "jq '.scripts' apps/site/package.json", 5, "novel"),
    V("ffmpeg -i media/podcast.wav media/podcast.ogg",
      "ffmpeg -i media/jingle.wav media/jingle.ogg",
      1, "novel"),
    V("ansible-playbook -i inventory/edge certs.yml",
      "ansible-playbook -i inventory/edge firewall.yml",
      2, "novel"),
    V("hugo new content posts/launch.md", "hugo new content posts/roadmap.md", 255, "novel"),
    V("fly logs -a ledger-worker", "fly scale count 2 -a ledger-worker", 1, "novel"),
    V("deno task seed:demo", "deno task seed:prod", 1, "novel"),
]  # fmt: skip
