# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A SECOND held-out set for the route model of issue 38: written blind.

These pairs were written after the route model existed, by someone who had not read its
code, and they were never shown to its author: nothing here was tuned on. They measure
how the model meets forms nobody designed it for. Like :data:`HELD_OUT` of
:mod:`tests.recall.corpus_route_model`, :data:`BLIND` is never tuned on; a miss found here
is fixed by a general rule and then measured on a fresh set, never by adding this pair's
spelling to a table.

Format, labels and tags are those of :mod:`tests.recall.corpus_route_model` (its docstring):
a :class:`Pair` is ``(proposed, prior, exit, label, tag, cwd, prior_cwd)``; ``repeat`` is
the same attempt after a failure, ``near`` the same program and target with a material
change, ``novel`` another target or subcommand; ``bait`` pairs (nearly the prior's words,
another meaning) are never repeats. Tags added here: ``cluster`` (``-ab`` against
``-a -b``), ``pipe`` (the same command piped to a viewer or ``tee``: the command runs
unchanged), ``heredoc`` (standard input from a here-document: its text is the input).

The programs are chosen to differ from the first corpus: most are NOT among the programs
with hand tables today, and most have a spec file in the pinned ``@withfig/autocomplete``
package (``build/<program>.js``). The forms are everyday ones agents type: monorepo and
folder forms (``cd``, ``;`` chains, subshells, ``cd ..``, ``--root``, ``--path=``,
``--project-directory``, ``--terragrunt-working-dir``), wrappers, environment prefixes,
here-documents, inline code, credential-looking arguments, pipes to viewers, option
clusters, ``--opt=v`` and subcommand aliases.

Sources: every option or subcommand alias a repeat relies on was read in the program's
spec file (the comment beside each block names it) AND, for the programs installed on the
machine where this set was written, in the tool's own ``--help`` or command list (head,
uniq, cut, du, split, truncate, base64, iconv, tail, wc, ls, cp, tmux, pyenv, g++,
ssh-keygen, env, nice, timeout, stdbuf). For tools not installed there the block says
"spec only", and the tool's documented behaviour is named beside it. Left out because the
documentation leaves sameness unclear: ``pgcli -u`` against ``-U`` (two entries in the
spec), ``java --classpath`` (the spec's spelling; java documents ``--class-path``),
``locust -u`` (the spec gives it no value), ``fnm exec --using=`` (optional value),
``turbo --opt v`` (the spec requires ``=``), ``pm2 --cwd`` against ``cd`` (script path
resolution), ``k6 run`` flags after the script, ``julia --project`` without a value.

Every pair uses its own targets (files, hosts, sessions, stacks, packages), so the pairs
can share one history with each other; ``tests/recall/test_route_corpus_shape.py`` checks
the shape.
"""

from __future__ import annotations

from tests.recall.corpus_route_model import Pair

# Programs used here that have a spec file in @withfig/autocomplete (build/<program>.js in
# the unpacked package, and the generated loopx_recall_core/routes/specs/<program>.json)
# and no hand table today; 49 of the 55 are not in the first corpus's SPEC_PROGRAMS.
BLIND_SPEC_PROGRAMS: tuple[str, ...] = (
    "ansible", "astro", "babel", "base64", "bun", "cdk", "checkov", "cp", "cut", "deno", "doctl",
    "dotenv", "du", "esbuild", "expo", "firebase", "g++", "gem", "head", "http", "iconv",
    "julia", "k6", "ls", "mamba", "node", "op", "pgcli", "pipx", "pm2", "pod", "pyenv", "rake",
    "rollup", "ruby", "sam", "sequelize", "split", "ssh-keygen", "swc", "tail", "terragrunt",
    "tmux", "trivy", "truncate", "ts-node", "tsx", "turbo", "typeorm", "uniq", "volta", "wc",
    "wp", "wrk", "xcodebuild",
)  # fmt: skip


def R(proposed: str, prior: str, exit: int, tag: str, cwd: str = ".", prior_cwd: str = ".") -> Pair:
    return Pair(proposed, prior, exit, "repeat", tag, cwd, prior_cwd)


def N(proposed: str, prior: str, exit: int, tag: str, cwd: str = ".", prior_cwd: str = ".") -> Pair:
    return Pair(proposed, prior, exit, "near", tag, cwd, prior_cwd)


def V(proposed: str, prior: str, exit: int, tag: str, cwd: str = ".", prior_cwd: str = ".") -> Pair:
    return Pair(proposed, prior, exit, "novel", tag, cwd, prior_cwd)


BLIND: list[Pair] = [
    # -- head / tail: head -n/--lines -c/--bytes (spec head.js; head --help); tail -f
    #    follows the descriptor, -F is --follow=name --retry (tail --help) ------------------
    R("head --lines=40 logs/worker-7.log", "head -n 40 logs/worker-7.log", 1, "spec_alias"),
    R("head -n40 reports/q3-margins.csv", "head -n 40 reports/q3-margins.csv", 1, "eq_value"),
    N("head -c 200 dumps/frame-0192.bin", "head -n 200 dumps/frame-0192.bin", 1, "bait"),
    R("tail -n 80 var/log/ingest.err | less", "tail -n 80 var/log/ingest.err", 1, "pipe"),
    N("tail -F var/log/queue-consumer.log", "tail -f var/log/queue-consumer.log", 1, "bait"),
    V("tail -n 50 var/log/mailer.err", "tail -n 50 var/log/scheduler.err", 1, "novel"),

    # -- uniq: -c/--count -i/--ignore-case -d/--repeated; -D prints every duplicate
    #    (spec uniq.js; uniq --help) ----------------------------------------------------------
    R("uniq --count --ignore-case data/tags-2024.txt", "uniq -c -i data/tags-2024.txt", 1,
      "spec_alias"),
    R("uniq -ci data/hostnames.txt", "uniq -c -i data/hostnames.txt", 1, "cluster"),
    N("uniq -D data/signup-emails.txt", "uniq -d data/signup-emails.txt", 1, "bait"),

    # -- cut: -d DELIM -f LIST take values, joined or not (spec cut.js; cut --help, which
    #    requires DELIM where the spec marks it optional); -c selects characters ------------
    R("cut -d, -f3 exports/users-eu.csv", "cut -d ',' -f 3 exports/users-eu.csv", 1, "eq_value"),
    N("cut -c2 exports/vendors.tsv", "cut -f2 exports/vendors.tsv", 1, "bait"),

    # -- du: -s -h flags, -d DEPTH takes a value; -H follows links, not -h (spec du.js;
    #    du --help) ---------------------------------------------------------------------------
    R("du -s -h vendor/bundle-cache", "du -sh vendor/bundle-cache", 1, "cluster"),
    R("du -d1 var/spool/exports", "du -d 1 var/spool/exports", 1, "eq_value"),
    N("du -sH build/ccache", "du -sh build/ccache", 1, "bait"),

    # -- ls / wc / cp bait: ls -R recursive, -r reverse; wc -L longest line, -l lines; cp -P
    #    keeps links, -p keeps mode and times (spec ls.js, wc.js, cp.js; --help) ---------------
    N("ls -R build/test-reports", "ls -r build/test-reports", 2, "bait"),
    N("wc -L src/lexer/scan.c", "wc -l src/lexer/scan.c", 1, "bait"),
    N("cp -P config/app.prod.yml deploy/app.yml", "cp -p config/app.prod.yml deploy/app.yml", 1,
      "bait"),
    R("cp -Rv assets/icons dist/icons", "cp -R -v assets/icons dist/icons", 1, "cluster"),

    # -- split: -l LINES, -b BYTES (spec split.js; split --help) -------------------------------
    R("split -l5000 data/events-may.ndjson chunks/ev_",
      "split -l 5000 data/events-may.ndjson chunks/ev_", 1, "eq_value"),
    N("split -b 5000 data/calls-may.ndjson chunks/calls_",
      "split -l 5000 data/calls-may.ndjson chunks/calls_", 1, "bait"),

    # -- truncate: -s/--size -c/--no-create; base64: -d/--decode; iconv: -f/--from-code
    #    -t/--to-code (spec truncate.js, base64.js, iconv.js; each tool's --help) ------------
    R("truncate --size 0 --no-create var/log/app-3.log", "truncate -s 0 -c var/log/app-3.log", 1,
      "spec_alias"),
    R("base64 --decode secrets/ci-token.b64", "base64 -d secrets/ci-token.b64", 1, "spec_alias"),
    R("iconv --from-code latin1 --to-code utf-8 legacy/names.txt",
      "iconv -f latin1 -t utf-8 legacy/names.txt", 1, "spec_alias"),
    N("iconv -f cp1252 -t utf-8 legacy/cities.txt", "iconv -f latin1 -t utf-8 legacy/cities.txt",
      1, "value"),

    # -- tmux: new = new-session, -d -s SESSION (spec tmux.js subcommand names; tmux
    #    list-commands); the shell command is compared as written ----------------------------
    R("tmux new -d -s seeder './bin/seed --loop'",
      "tmux new-session -d -s seeder './bin/seed --loop'", 1, "spec_alias"),
    R("tmux new-session -ds tailer 'tail -F log/dev.log'",
      "tmux new-session -d -s tailer 'tail -F log/dev.log'", 1, "cluster"),
    V("tmux new-session -d -s docs-preview 'mkdocs serve'",
      "tmux new-session -d -s api-preview 'mkdocs serve'", 1, "novel"),

    # -- pyenv install: -s/--skip-existing, -f/--force (spec pyenv.js; pyenv install --help)
    R("pyenv install --skip-existing 3.11.9", "pyenv install -s 3.11.9", 1, "spec_alias"),
    N("pyenv install -f 3.10.14", "pyenv install 3.10.14", 1, "value"),
    N("PYTHON_CONFIGURE_OPTS=--enable-shared pyenv install 3.9.19", "pyenv install 3.9.19", 1,
      "fix"),
    V("pyenv install 3.12.4", "pyenv install 3.12.3", 1, "novel"),

    # -- g++: -o FILE (spec g++.js; g++ --help), -I DIR attached or not (spec g++.js; gcc
    #    manual "Options for Directory Search"), option order (gcc manual "Invoking GCC":
    #    order matters for libraries and for options of one kind given twice) -------------
    R("g++ -Wall -O2 -o bin/solver src/solver.cpp", "g++ -O2 -Wall -o bin/solver src/solver.cpp",
      1, "order"),
    R("g++ -Iinclude -c src/codec.cpp -o build/codec.o",
      "g++ -I include -c src/codec.cpp -o build/codec.o", 1, "eq_value"),
    N("g++ -std=c++20 -c src/ranges.cpp -o build/ranges.o",
      "g++ -std=c++17 -c src/ranges.cpp -o build/ranges.o", 1, "value"),
    N("g++ -O bin/parse src/parse.cpp", "g++ -o bin/parse src/parse.cpp", 1, "bait"),

    # -- ssh-keygen: -l flag, -f FILE; getopt joins -lf FILE (spec ssh-keygen.js;
    #    ssh-keygen usage) ----------------------------------------------------------------------
    R("ssh-keygen -lf keys/id_bastion.pub", "ssh-keygen -l -f keys/id_bastion.pub", 255,
      "cluster"),

    # -- rollup: -c/--config -i/--input -f/--format -o/--file (spec rollup.js; spec only,
    #    rollup CLI docs "Command line flags") -------------------------------------------------
    R("rollup --config rollup.lib.config.mjs --environment BUILD:production",
      "rollup -c rollup.lib.config.mjs --environment BUILD:production", 1, "spec_alias"),
    R("rollup -i src/widget.ts -f esm -o dist/widget.mjs",
      "rollup --input src/widget.ts --format esm --file dist/widget.mjs", 1, "spec_alias"),
    N("rollup -i src/embed.ts -f iife -o dist/embed.js",
      "rollup -i src/embed.ts -f cjs -o dist/embed.js", 1, "value"),
    R("cd packages/charts && rollup -c", "rollup -c", 1, "folder", ".", "packages/charts"),
    R("cd .. && rollup -c rollup.maps.mjs", "rollup -c rollup.maps.mjs", 1, "folder",
      "packages/maps/src", "packages/maps"),
    N("rollup -c rollup.sdk.mjs", "rollup -c rollup.sdk.mjs", 1, "folder", "packages/sdk-web",
      "packages/sdk-node"),
    V("rollup -c rollup.worker.config.mjs", "rollup -c rollup.main.config.mjs", 1, "novel"),

    # -- babel: -d/--out-dir -x/--extensions -D/--copy-files; -o is --out-file, one file
    #    (spec babel.js; spec only, @babel/cli docs) ------------------------------------------
    R("babel src --out-dir lib --extensions .ts,.tsx --copy-files",
      "babel src -d lib -x .ts,.tsx -D", 1, "spec_alias"),
    R("babel --config-file=./babel.legacy.json legacy -d legacy-dist",
      "babel --config-file ./babel.legacy.json legacy -d legacy-dist", 1, "eq_value"),
    N("babel client -o dist/client.js", "babel client -d dist/client.js", 2, "bait"),
    N("BABEL_ENV=modern babel app -d out/modern", "babel app -d out/modern", 1, "env"),

    # -- swc: --out-dir/-d --copy-files/-D, -C/--config KEY=VALUE (spec swc.js; spec only,
    #    @swc/cli docs) ---------------------------------------------------------------------------
    R("swc ./server -d build/server --copy-files", "swc ./server --out-dir build/server -D", 1,
      "spec_alias"),

    # -- ts-node: -T/--transpile-only -P/--project -r/--require -e/--eval; words after the
    #    script go to the script (spec ts-node.js; spec only, ts-node docs) --------------------
    R("ts-node --transpile-only --project tsconfig.scripts.json scripts/backfill.ts",
      "ts-node -T -P tsconfig.scripts.json scripts/backfill.ts", 1, "spec_alias"),
    R("ts-node -r tsconfig-paths/register tools/gen-routes.ts",
      "ts-node --require tsconfig-paths/register tools/gen-routes.ts", 1, "spec_alias"),
    N("ts-node scripts/reindex.ts -T", "ts-node -T scripts/reindex.ts", 1, "bait"),
    R("ts-node -e \"import('./src/config').then(c=>c.validate())\"",
      "ts-node -e \"import('./src/config').then( c => c.validate() )\"", 1, "interp"),

    # -- tsx (spec tsx.js: --tsconfig FILE; spec only) ---------------------------------------------
    R("tsx --tsconfig tsconfig.dev.json src/seed-dev.ts   # again",
      "tsx --tsconfig tsconfig.dev.json src/seed-dev.ts", 1, "comment"),
    N("NODE_OPTIONS=--max-old-space-size=4096 tsx scripts/build-index.ts",
      "tsx scripts/build-index.ts", 134, "fix"),
    N("volta run --node 20 tsx scripts/migrate-blobs.ts", "tsx scripts/migrate-blobs.ts", 1,
      "env"),
    V("tsx scripts/prune-users.ts", "tsx scripts/prune-orgs.ts", 1, "novel"),
    R("(cd apps/api && tsx src/check-env.ts)", "tsx src/check-env.ts", 1, "folder", ".",
      "apps/api"),

    # -- pm2 start: -n/--name -i/--instances (spec pm2.js; spec only, pm2 docs) --------------
    R("pm2 start dist/worker.js --name mailer-q -i 2",
      "pm2 start dist/worker.js -n mailer-q --instances 2", 1, "spec_alias"),
    N("pm2 start dist/indexer.js -n indexer -i 4", "pm2 start dist/indexer.js -n indexer -i 2", 1,
      "value"),
    V("pm2 start dist/cron.js -n cron", "pm2 start dist/queue.js -n queue", 1, "novel"),

    # -- expo: add = install (spec expo.js subcommand names; @expo/cli maps both names to
    #    one command in its command table) ---------------------------------------------------
    R("expo add expo-camera", "expo install expo-camera", 1, "spec_alias"),
    V("expo install expo-location", "expo install expo-sensors", 1, "novel"),

    # -- k6 run: -u/--vus -d/--duration -e/--env (spec k6.js; spec only, k6 docs "Options")
    R("k6 run --vus 20 --duration 2m load/checkout.js", "k6 run -u 20 -d 2m load/checkout.js", 99,
      "spec_alias"),
    R("k6 run -e BASE_URL=https://staging.shop.test load/search.js",
      "k6 run --env BASE_URL=https://staging.shop.test load/search.js", 99, "spec_alias"),
    N("k6 run -e BASE_URL=https://staging2.shop.test load/cart.js",
      "k6 run -e BASE_URL=https://staging.shop.test load/cart.js", 99, "value"),
    R("(cd services/geo && k6 run load/geo.js)", "k6 run load/geo.js", 99, "folder", ".",
      "services/geo"),
    V("k6 run load/profile.js", "k6 run load/orders.js", 99, "novel"),

    # -- wrk: -t THREADS -c CONNS -d DURATION, getopt joins -t4 (spec wrk.js; spec only,
    #    wrk usage) -------------------------------------------------------------------------------
    R("wrk -t4 -c64 -d30s http://127.0.0.1:8081/api/ping",
      "wrk -t 4 -c 64 -d 30s http://127.0.0.1:8081/api/ping", 1, "eq_value"),

    # -- pgcli: -h/--host -p/--port -U/--username; -W forces a password prompt, -w never
    #    prompts (spec pgcli.js; spec only, pgcli --help in its docs) --------------------------
    R("pgcli --host pg-analytics --port 6432 --username etl -d warehouse",
      "pgcli -h pg-analytics -p 6432 -U etl -d warehouse", 2, "spec_alias"),
    N("PGPASSWORD='Zx9!new' pgcli -h pg-ledger -U ledger -d ledger",
      "PGPASSWORD='Zx9!old' pgcli -h pg-ledger -U ledger -d ledger", 2, "env"),
    N("pgcli postgres://app:S3cond@pg-crm:5432/crm",
      "pgcli postgres://app:F1rst@pg-crm:5432/crm", 2, "fix"),
    N("pgcli -W -h pg-geo -d geo", "pgcli -w -h pg-geo -d geo", 2, "bait"),

    # -- trivy: i = image, fs = filesystem (spec trivy.js subcommand names; spec only) -------
    R("trivy i --severity CRITICAL registry.local/api:1.8.2",
      "trivy image --severity CRITICAL registry.local/api:1.8.2", 1, "spec_alias"),
    R("trivy filesystem --exit-code 1 services/pay", "trivy fs --exit-code 1 services/pay", 1,
      "spec_alias"),
    V("trivy image registry.local/worker:3.1.0", "trivy image registry.local/worker:3.0.9", 1,
      "novel"),

    # -- checkov: -d/--directory -f/--file -c/--check (spec checkov.js; spec only) -----------
    R("checkov --directory infra/aws --framework terraform",
      "checkov -d infra/aws --framework terraform", 1, "spec_alias"),
    R("checkov -f deploy/Dockerfile.api --check CKV_DOCKER_2",
      "checkov --file deploy/Dockerfile.api -c CKV_DOCKER_2", 1, "spec_alias"),
    N("checkov -d infra/azure --skip-check CKV_AZURE_35", "checkov -d infra/azure", 1, "value"),
    N("checkov -d infra/gcp", "checkov -d infra/gcp", 0, "success"),

    # -- ansible: -i/--inventory -m/--module-name -a/--args -b/--become; -k asks the login
    #    password, -K the become password (spec ansible.js; spec only, ansible --help) --------
    R("ansible web --inventory inv/staging.ini --module-name ping",
      "ansible web -i inv/staging.ini -m ping", 4, "spec_alias"),
    R("ansible db -i inv/prod.ini -b -m service -a 'name=postgresql state=restarted'",
      "ansible db -i inv/prod.ini --become -m service --args 'name=postgresql state=restarted'",
      2, "spec_alias"),
    N("ansible cache -i inv/prod.ini -m ping -u deploy",
      "ansible cache -i inv/prod.ini -m ping -u ubuntu", 4, "value"),
    N("ansible workers -i inv/lab.ini -K -m apt -a 'name=htop'",
      "ansible workers -i inv/lab.ini -k -m apt -a 'name=htop'", 2, "bait"),

    # -- http (HTTPie): -F/--follow -a/--auth -d/--download -o/--output; -f is --form
    #    (spec http.js; spec only, HTTPie docs) ------------------------------------------------
    R("http --follow --auth ops:hunter2x GET https://status.internal.test/api/v2/health",
      "http -F -a ops:hunter2x GET https://status.internal.test/api/v2/health", 1, "spec_alias"),
    R("http --download --output tmp/report-88.pdf https://files.internal.test/r/88.pdf",
      "http -d -o tmp/report-88.pdf https://files.internal.test/r/88.pdf", 1, "spec_alias"),
    N("http -a ops:n3wpass GET https://status.internal.test/api/v2/jobs",
      "http -a ops:0ldpass GET https://status.internal.test/api/v2/jobs", 1, "fix"),
    N("http -f POST https://hooks.internal.test/ingest id=7",
      "http -F POST https://hooks.internal.test/ingest id=7", 1, "bait"),
    V("http GET https://status.internal.test/api/v2/queues",
      "http GET https://status.internal.test/api/v2/workers", 1, "novel"),

    # -- pipx install: -e/--editable -i/--index-url (spec pipx.js; spec only) ---------------
    R("pipx install --editable ./tools/releasebot", "pipx install -e ./tools/releasebot", 1,
      "spec_alias"),
    R("pipx install -i https://__token__:pypi-AgEIcHlwaQ@pypi.corp.test/simple corp-lint",
      "pipx install --index-url https://__token__:pypi-AgEIcHlwaQ@pypi.corp.test/simple corp-lint",
      1, "spec_alias"),
    N("pipx install --python python3.11 httpie-plugins", "pipx install httpie-plugins", 1, "value"),
    V("pipx install sqlfluff", "pipx install yamllint", 1, "novel"),

    # -- mamba install: -n/--name -c/--channel -y/--yes; -C is --use-index-cache (spec
    #    mamba.js; spec only) -------------------------------------------------------------------
    R("mamba install --name geo --channel conda-forge --yes gdal",
      "mamba install -n geo -c conda-forge -y gdal", 1, "spec_alias"),
    R("mamba install -yn imaging -c conda-forge opencv",
      "mamba install -y -n imaging -c conda-forge opencv", 1, "cluster"),
    N("mamba install -n ml -c conda-forge 'pytorch=2.3'",
      "mamba install -n ml -c conda-forge 'pytorch=2.2'", 1, "value"),
    N("mamba install -n etl -C conda-forge duckdb", "mamba install -n etl -c conda-forge duckdb", 1,
      "bait"),

    # -- julia: -t/--threads -e/--eval; -p is --procs (worker processes), not threads (spec
    #    julia.js; spec only, julia --help in the manual) --------------------------------------
    R("julia --project=. --threads 4 test/runtests.jl",
      "julia --project=. -t 4 test/runtests.jl", 1, "spec_alias"),
    R("julia --eval 'using Pkg; Pkg.instantiate()'", "julia -e 'using Pkg; Pkg.instantiate()'", 1,
      "spec_alias"),
    R("julia --project=docs docs/make.jl  # retry", "julia --project=docs docs/make.jl", 1,
      "comment"),
    N("JULIA_NUM_THREADS=8 julia --project=. bench/run.jl", "julia --project=. bench/run.jl", 1,
      "env"),
    N("julia -p 4 --project=. sim/run.jl", "julia -t 4 --project=. sim/run.jl", 1, "bait"),

    # -- typeorm / sequelize: migration:run -f/--config; migration:create =
    #    migration:generate (spec typeorm.js, sequelize.js; spec only) -----------------------
    R("typeorm migration:run --config ormconfig.ci.json",
      "typeorm migration:run -f ormconfig.ci.json", 1, "spec_alias"),
    V("typeorm migration:revert -f ormconfig.qa.json", "typeorm migration:run -f ormconfig.qa.json",
      1, "novel"),
    R("sequelize migration:create --name add-index-orders",
      "sequelize migration:generate --name add-index-orders", 1, "spec_alias"),
    N("sequelize db:migrate --env staging", "sequelize db:migrate --env test", 1, "value"),
    R("NODE_ENV=test sequelize db:migrate --to 20240611-add-sku.js",
      "env NODE_ENV=test sequelize db:migrate --to 20240611-add-sku.js", 1, "wrapper"),
    V("sequelize db:seed:all --env qa", "sequelize db:migrate --env qa", 1, "novel"),

    # -- turbo run: --scope=, --concurrency= (spec turbo.js, values joined by "="); words
    #    after "--" go to the package scripts (turbo docs) ------------------------------------
    R("cd apps/docs && turbo run build", "turbo run build", 1, "folder", ".", "apps/docs"),
    N("turbo run lint --concurrency=1", "turbo run lint --concurrency=4", 1, "value"),
    R("turbo run test --scope=@acme/ui   # flaky?", "turbo run test --scope=@acme/ui", 1,
      "comment"),
    V("turbo run typecheck --scope=@acme/api", "turbo run test --scope=@acme/api", 1, "novel"),
    N("turbo run gen -- --force", "turbo run gen --force", 1, "bait"),

    # -- firebase deploy: -m/--message --except (spec firebase.js; spec only) -----------------
    R("firebase deploy --except functions -m 'hosting only'",
      "firebase deploy --except functions --message 'hosting only'", 2, "spec_alias"),
    N("GOOGLE_APPLICATION_CREDENTIALS=keys/ci-sa.json firebase deploy --except firestore",
      "firebase deploy --except firestore", 1, "env"),
    V("firebase emulators:start --only auth", "firebase emulators:start --only firestore", 1,
      "novel"),

    # -- doctl: -o/--output (spec doctl.js; spec only); cdk: synth = synthesize, ls = list
    #    (spec cdk.js subcommand names; spec only) --------------------------------------------
    R("doctl -o json compute droplet get web-41", "doctl --output json compute droplet get web-41",
      1, "spec_alias"),
    N("doctl -t dop_v1_n3wt0ken registry login", "doctl -t dop_v1_0ldt0ken registry login", 1,
      "fix"),
    R("cdk synthesize PipelineStack", "cdk synth PipelineStack", 1, "spec_alias"),
    R("cdk list --long", "cdk ls --long", 1, "spec_alias"),
    N("CDK_DEFAULT_REGION=eu-west-1 cdk synth NetworkStack", "cdk synth NetworkStack", 1, "env"),
    V("cdk synth StorageStack", "cdk synth QueueStack", 1, "novel"),

    # -- sam build: -t/--template-file -u/--use-container -b/--build-dir; sam local invoke:
    #    -e/--event (spec sam.js; spec only, sam CLI reference) -------------------------------
    R("sam build --template-file infra/sam.yaml --use-container",
      "sam build -t infra/sam.yaml -u", 1, "spec_alias"),
    R("sam local invoke ResizeFn --event events/s3-put.json",
      "sam local invoke ResizeFn -e events/s3-put.json", 1, "spec_alias"),
    N("sam local invoke ThumbFn -e events/s3-put-large.json",
      "sam local invoke ThumbFn -e events/s3-put-small.json", 1, "input"),

    # -- folder options documented as "the folder to run in" (spec marks none as such):
    #    terragrunt --terragrunt-working-dir (terragrunt docs: default the current folder),
    #    pod install --project-directory (CocoaPods: the root of the project), astro --root
    #    (astro docs: default the current folder), wp --path= (WP-CLI: path to the
    #    WordPress files, otherwise found from the current folder) -------------------------------
    R("terragrunt plan --terragrunt-working-dir live/prod/vpc",
      "cd live/prod/vpc && terragrunt plan", 1, "folder"),
    N("terragrunt plan", "terragrunt plan", 1, "folder", "live/prod/rds", "live/prod/dns"),
    R("pod install --project-directory=ios", "cd ios && pod install", 1, "folder"),
    N("pod install --repo-update", "pod install", 1, "fix", "mobile/ios", "mobile/ios"),
    R("astro build --root sites/marketing", "cd sites/marketing && astro build", 1, "folder"),
    R("cd sites/blog; astro build", "astro build", 1, "folder", ".", "sites/blog"),
    V("astro check", "astro build", 1, "novel", "sites/shop", "sites/shop"),
    R("wp plugin update woocommerce --path=web/wp", "cd web/wp && wp plugin update woocommerce", 1,
      "folder"),
    N("wp plugin update akismet --path=sites/b/wp", "wp plugin update akismet --path=sites/a/wp", 1,
      "folder"),
    V("wp plugin update jetpack --path=site2/wp", "wp plugin update yoast --path=site2/wp", 1,
      "novel"),

    # -- esbuild: options need "=" (spec esbuild.js marks them; esbuild docs): with a space
    #    the value is read as an entry point. Option order does not matter --------------------
    R("esbuild src/edge.ts --bundle --platform=node --outfile=dist/edge.js",
      "esbuild --bundle src/edge.ts --outfile=dist/edge.js --platform=node", 1, "order"),
    N("esbuild src/app.tsx --bundle --target=es2017 --outfile=out/app.js",
      "esbuild src/app.tsx --bundle --target=es2020 --outfile=out/app.js", 1, "value"),
    N("esbuild src/lib.ts --bundle --outfile dist/lib.js",
      "esbuild src/lib.ts --bundle --outfile=dist/lib.js", 1, "bait"),

    # -- xcodebuild: single-dash options in any order (spec xcodebuild.js; spec only,
    #    xcodebuild(1)) -------------------------------------------------------------------------
    R("xcodebuild -scheme Shop -workspace Shop.xcworkspace -configuration Debug build",
      "xcodebuild -workspace Shop.xcworkspace -scheme Shop -configuration Debug build", 65,
      "order"),

    # -- rake / gem: gem i = install (spec gem.js subcommand names; RubyGems' command
    #    manager lists "i" => "install" among its alias commands); rake tasks as written -----
    R("timeout 600 rake db:seed:replant", "rake db:seed:replant", 1, "wrapper"),
    N("RAILS_ENV=test rake db:schema:load", "RAILS_ENV=development rake db:schema:load", 1, "env"),
    V("rake stats:export", "rake stats:import", 1, "novel"),
    R("gem i nokogiri --platform ruby", "gem install nokogiri --platform ruby", 1, "spec_alias"),
    N("gem install pg -- --with-pg-config=/usr/pgsql-16/bin/pg_config", "gem install pg", 1, "fix"),
    V("gem install mysql2", "gem install trilogy", 1, "novel"),

    # -- process wrappers over new programs: nice, ionice, taskset, chrt, nohup, stdbuf,
    #    time, env, sh -c (each tool's --help or man page: the tail command runs unchanged);
    #    sudo changes the user, watch repeats the command, env -i empties the environment ---
    R("nice -n 10 checkov -d infra/k8s-base", "checkov -d infra/k8s-base", 1, "wrapper"),
    R("ionice -c3 rollup -c rollup.icons.mjs", "rollup -c rollup.icons.mjs", 1, "wrapper"),
    R("taskset -c 0-1 k6 run load/burst.js", "k6 run load/burst.js", 99, "wrapper"),
    R("nohup tsx scripts/rebuild-search.ts", "tsx scripts/rebuild-search.ts", 1, "wrapper"),
    R("stdbuf -oL julia --project=. scripts/fit.jl", "julia --project=. scripts/fit.jl", 1,
      "wrapper"),
    R("/usr/bin/time -v g++ -c src/huge_table.cpp -o build/huge_table.o",
      "g++ -c src/huge_table.cpp -o build/huge_table.o", 1, "wrapper"),
    R("chrt -i 0 esbuild src/cli.ts --bundle --outfile=dist/cli.js",
      "esbuild src/cli.ts --bundle --outfile=dist/cli.js", 1, "wrapper"),
    R("sh -c 'sam build -t infra/api.yaml'", "sam build -t infra/api.yaml", 1, "wrapper"),
    R("bash -c 'pyenv install 3.8.19'", "pyenv install 3.8.19", 1, "wrapper"),
    N("sudo pod install", "pod install", 1, "wrapper", "apps/ios", "apps/ios"),
    N("watch -n 5 trivy fs services/chat", "trivy fs services/chat", 1, "wrapper"),
    N("env -i PATH=/usr/bin:/bin tsx scripts/sync-stripe.ts", "tsx scripts/sync-stripe.ts", 1,
      "wrapper"),
    N("timeout 1800 k6 run load/soak.js", "timeout 600 k6 run load/soak.js", 124, "value"),
    V("command -v checkov", "checkov", 2, "bait"),
    V("type -a tsx", "tsx", 1, "bait"),

    # -- pipes to viewers and tee: the command runs unchanged (tag pipe) ----------------------
    R("checkov -d infra/edge 2>&1 | less -R", "checkov -d infra/edge", 1, "pipe"),
    R("rollup -c rollup.cdn.mjs 2>&1 | tee logs/rollup-cdn.log", "rollup -c rollup.cdn.mjs", 1,
      "pipe"),
    R("ansible all -i inv/edge.ini -m ping | head -n 40", "ansible all -i inv/edge.ini -m ping", 4,
      "pipe"),
    R("k6 run load/spike.js |& tail -n 30", "k6 run load/spike.js", 99, "pipe"),

    # -- interpreter code: spacing does not count, text inside quotes does (node -e, ruby -e,
    #    deno eval, julia -e: spec node.js, ruby.js, deno.js, julia.js) ----------------------------
    R("node -e \"require('./dist/health').check({timeout:500})\"",
      "node -e \"require('./dist/health').check({ timeout: 500 })\"", 1, "interp"),
    N("node -e \"console.log(require('./lib/slug')('Hello  World'))\"",
      "node -e \"console.log(require('./lib/slug')('Hello World'))\"", 1, "bait"),
    R("ruby -e 'require \"./lib/importer\"; Importer.run(\"feeds/a.xml\")'",
      "ruby -e 'require \"./lib/importer\";Importer.run( \"feeds/a.xml\" )'", 1, "interp"),
    N("ruby -e 'puts File.read(\"VERSION\").strip == \"2.4.0\"'",
      "ruby -e 'puts File.read(\"VERSION\").strip == \"2.4.1\"'", 1, "bait"),
    R("deno eval \"import { run } from './tools/lint-i18n.ts'; await run('locales/de')\"",
      "deno eval \"import {run} from './tools/lint-i18n.ts';await run( 'locales/de' )\"", 1,
      "interp"),
    R("julia -e 'using Fitter; Fitter.run(\"cfg/a.toml\")'",
      "julia -e 'using Fitter;  Fitter.run( \"cfg/a.toml\" )'", 1, "interp"),

    # -- here-documents: the text is the input; the quoting of the delimiter does not
    #    change text with no $, ` or \ in it (bash manual, "Here Documents") ---------------
    R("duckdb var/analytics.duckdb <<SQL\nSELECT count(*) FROM page_views;\nSQL",
      "duckdb var/analytics.duckdb <<'SQL'\nSELECT count(*) FROM page_views;\nSQL", 1, "heredoc"),
    N("duckdb var/events.duckdb <<'SQL'\nSELECT count(*) FROM clicks_v2;\nSQL",
      "duckdb var/events.duckdb <<'SQL'\nSELECT count(*) FROM clicks;\nSQL", 1, "heredoc"),
    N("cat > .env.local <<'EOF'\nAPI_URL=http://localhost:8090\nEOF\ntsx src/smoke.ts",
      "tsx src/smoke.ts", 1, "chain_state"),

    # -- environment and state changes before a retry (the fix is never a repeat) ----------
    N("export AWS_PROFILE=sandbox-admin && sam build -t infra/queue.yaml",
      "sam build -t infra/queue.yaml", 1, "fix"),
    N("unset NODE_OPTIONS; tsx scripts/gc-uploads.ts", "tsx scripts/gc-uploads.ts", 1, "env"),
    N("source .env.ci && k6 run load/auth.js", "source .env.dev && k6 run load/auth.js", 99, "env"),
    N("dotenv -e .env.staging -- tsx scripts/notify.ts",
      "dotenv -e .env.production -- tsx scripts/notify.ts", 1, "env"),
    N("op run --env-file=ops/prod.env -- checkov -d infra/prod-net",
      "op run --env-file=ops/stage.env -- checkov -d infra/prod-net", 1, "env"),
    N("sleep 20 && terragrunt apply -auto-approve", "terragrunt apply -auto-approve", 1, "fix",
      "live/dev/sqs", "live/dev/sqs"),
    N("truncate -s 0 var/k6/summary.json && k6 run load/summary.js", "k6 run load/summary.js", 99,
      "chain_state"),
    N("ulimit -n 65535; wrk -t8 -c2000 -d20s http://127.0.0.1:8083/",
      "wrk -t8 -c2000 -d20s http://127.0.0.1:8083/", 1, "fix"),
    N("mkdir -p build/obj && g++ -c src/net.cpp -o build/obj/net.o",
      "g++ -c src/net.cpp -o build/obj/net.o", 1, "chain_state"),

    # -- more folder forms, "=" values and clusters over the programs above (same sources:
    #    env --help for -C/--chdir; rollup, babel, k6, trivy, julia and pgcli take
    #    "--opt=v" and, for short options, a joined value, per their argument parsers) ------
    R("cd infra && checkov -d aws-iam", "checkov -d aws-iam", 1, "folder", ".", "infra"),
    R("pushd apps/mobile && expo install expo-av", "expo install expo-av", 1, "folder", ".",
      "apps/mobile"),
    R("env -C services/tiles k6 run load/tiles.js", "k6 run load/tiles.js", 99, "folder", ".",
      "services/tiles"),
    R("julia --project=. -t4 bench/alloc.jl", "julia --project=. -t 4 bench/alloc.jl", 1,
      "eq_value"),
    R("babel --out-dir=lib/esm src/esm", "babel --out-dir lib/esm src/esm", 1, "eq_value"),
    R("rollup --config=rollup.theme.mjs", "rollup --config rollup.theme.mjs", 1, "eq_value"),
    R("k6 run --duration=45s load/webhooks.js", "k6 run --duration 45s load/webhooks.js", 99,
      "eq_value"),
    R("trivy image --severity=HIGH registry.local/admin:0.9.0",
      "trivy image --severity HIGH registry.local/admin:0.9.0", 1, "eq_value"),
    R("pgcli -h pg-mart -p5433 -d mart", "pgcli -h pg-mart -p 5433 -d mart", 2, "eq_value"),
    R("nice -n 5 http -d -o tmp/assets-b.tgz https://files.internal.test/assets-b.tgz",
      "http --download --output tmp/assets-b.tgz https://files.internal.test/assets-b.tgz", 1,
      "wrapper"),
    R("ansible web -i inv/qa.ini -m setup -a 'filter=ansible_distribution*'   # facts",
      "ansible web -i inv/qa.ini -m setup -a 'filter=ansible_distribution*'", 2, "comment"),
    # bun: a = add (spec bun.js subcommand names; spec only)
    R("bun a zod@3.23.8", "bun add zod@3.23.8", 1, "spec_alias"),

    # -- other subcommands and look-ups beside the command that failed ----------------------
    V("which wrk", "wrk", 1, "bait"),
    V("julia -e 'using Pkg; Pkg.status()'", "julia -e 'using Pkg; Pkg.update()'", 1, "bait"),
    V("cdk diff ApiStack", "cdk deploy ApiStack", 1, "bait"),
    V("trivy config infra/helm-charts", "trivy fs infra/helm-charts", 1, "bait"),
    V("pm2 restart billing-api", "pm2 reload billing-api", 1, "bait"),
    V("http HEAD https://cdn.internal.test/app-7.js", "http GET https://cdn.internal.test/app-7.js",
      1, "bait"),
    V("tmux kill-session -t build-watch", "tmux new-session -d -s build-watch", 1, "novel"),
    V("sam local start-api -t infra/web.yaml", "sam build -t infra/web.yaml", 1, "novel"),
    N("expo start --web", "expo start --ios", 1, "value", "apps/kiosk", "apps/kiosk"),

    # -- same command after a success: there is no failure to repeat ----------------------
    N("cdk synth BillingStack", "cdk synth BillingStack", 0, "success"),
    N("wrk -t2 -c10 -d5s http://127.0.0.1:8084/healthz",
      "wrk -t2 -c10 -d5s http://127.0.0.1:8084/healthz", 0, "success"),
]  # fmt: skip
