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
in its own ``--help`` (checked: curl, wget, tar, jq, grep, psql, pg_dump, diff, mkdir,
env, cmake, aws, gcloud); the comment beside a block names them. Pairs whose sameness the
documentation leaves unclear were left out. Every pair uses its own targets (files,
hosts, databases, tasks), so all pairs can share one history: no pair's proposal relates to
another pair's prior call (``tests/recall/test_route_corpus_shape.py`` checks the shape).

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
    "ansible-playbook", "apt", "aws", "bazel", "black", "brew", "bun", "bundle", "cmake",
    "composer", "curl", "deno", "diff", "dotnet", "elixir", "eslint", "ffmpeg", "find",
    "flutter", "fly", "gcloud", "gh", "grep", "hugo", "jq", "kind", "lerna", "ln", "mix",
    "mkdir", "mongosh", "mysql", "node", "pg_dump", "php", "phpunit", "playwright", "podman",
    "prettier", "psql", "pulumi", "rsync", "rustup", "scp", "sed", "sqlite3", "ssh", "stack",
    "swift", "tar", "tsc", "unzip", "vite", "wasm-pack", "webpack", "wget", "zip",
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
