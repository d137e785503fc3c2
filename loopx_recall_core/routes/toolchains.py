# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Per-toolchain facts for the route normalizer (issue 18, item E), one table per class.

Long because: it is data, one table per class of spelling, and every fact sits beside the
line of the tool's help or manual it comes from; split by tool, the rule for one class
would be read from a dozen files.

Each table holds only what the tool's own documentation states; the source is named at
the table (or the row). The rules that apply them are in :mod:`.invocation`:

* ``PROGRAM_ALIASES``: another usual name of the same program (a launcher or distro name
  that runs the same tool): ``py.test``, ``pip3``, ``gmake``, ``./gradlew``, ``./mvnw``,
  ``docker-compose``;
* ``SUBCOMMAND_ALIASES``: a subcommand's documented short names (``cargo t``, ``npm i``);
* ``SCRIPT_RUNNERS``: package managers whose ``run X`` runs the package script ``X``,
  with the commands that are the same as ``run X`` and the built-in commands that are not
  scripts (``yarn lint`` is ``yarn run lint``; ``yarn add`` is not);
* ``OUTPUT_ONLY``: options that change only what is shown or whether the tool may prompt
  (quiet, verbose, colour, progress, pager, "never prompt"), per program, canonical
  spelling. Options that GRANT consent (``-y``, ``--yes``, ``-auto-approve``,
  ``--force``) are not here: a non-interactive shell would otherwise not take the action;
* ``DEFAULT_FILES``: options naming the build file a tool reads anyway from the
  repository root;
* ``DEFAULT_VALUES``: options set to the value the tool uses anyway when they are not
  given (``cargo build --profile dev``, ``make -j1``, ``terraform plan -lock=true``), per
  program and subcommand, as each tool's ``--help`` or manual states the default;
* ``SUBCOMMAND_OPTION_ALIASES``: short and long spellings of one option that hold only
  for one subcommand (git: ``-m`` is ``--message`` for commit, ``--merge`` for checkout);
* ``OUTPUT_ENV``: environment variables that only change how output is shown (colour,
  terminal, buffering and encoding of output, paging, backtraces and log verbosity, and
  ``CI``); a leading ``NAME=value`` of one of them is dropped, every other assignment is
  part of the route (it can change what the command does: ``PGHOST``, ``PYTHONPATH``,
  ``PGPASSWORD``; issue 28 item 6).
"""

from __future__ import annotations

__all__ = [
    "DEFAULT_FILES",
    "DEFAULT_VALUES",
    "GLOBAL_ALIASES",
    "GO_FLAGS",
    "KUBE_RESOURCES",
    "OUTPUT_ENV",
    "OUTPUT_ONLY",
    "PROGRAM_ALIASES",
    "SCRIPT_RUNNERS",
    "SUBCOMMAND_ALIASES",
    "SUBCOMMAND_OPTION_ALIASES",
    "TOOL_ALIASES",
    "TOOL_VALUE_FLAGS",
]

#: Program name (basename, as normalized) -> canonical words. Sources: pytest docs
#: ("py.test" is the old entry point), pip docs (pip3 / pip3.N), GNU make manual ("gmake"
#: where make is BSD make), Gradle and Maven Wrapper docs (the wrapper runs the build with
#: the declared version, as ``python3`` is ``python``), Docker docs (Compose V2 replaces
#: ``docker-compose`` with ``docker compose``), Debian package names (nodejs, yarnpkg).
PROGRAM_ALIASES: dict[str, tuple[str, ...]] = {
    "py.test": ("pytest",),
    "pip3": ("pip",),
    "gmake": ("make",),
    "gradlew": ("gradle",),
    "gradlew.bat": ("gradle",),
    "mvnw": ("mvn",),
    "mvnw.cmd": ("mvn",),
    "docker-compose": ("docker", "compose"),
    "nodejs": ("node",),
    "yarnpkg": ("yarn",),
}

#: Subcommand alias -> canonical, per program. Sources: ``cargo --list`` / The Cargo Book
#: ("build, b", "check, c", "doc, d", "run, r", "test, t", "remove, rm"); npm docs, each
#: command's "Aliases" line; pnpm docs, idem; ``rails --help`` ("generate (g)",
#: "console (c)", "server (s)", "test (t)", "dbconsole (db)", "destroy (d)").
SUBCOMMAND_ALIASES: dict[str, dict[str, str]] = {
    "cargo": {"b": "build", "c": "check", "d": "doc", "r": "run", "t": "test", "rm": "remove"},
    "npm": {
        "run-script": "run",
        "rum": "run",
        "urn": "run",
        "t": "test",
        "tst": "test",
        "i": "install",
        "in": "install",
        "ins": "install",
        "inst": "install",
        "insta": "install",
        "instal": "install",
        "isnt": "install",
        "isnta": "install",
        "isntal": "install",
        "isntall": "install",
        "add": "install",
        "clean-install": "ci",
        "ic": "ci",
        "install-clean": "ci",
        "isntall-clean": "ci",
        "un": "uninstall",
        "unlink": "uninstall",
        "remove": "uninstall",
        "rm": "uninstall",
        "r": "uninstall",
        "up": "update",
        "upgrade": "update",
        "udpate": "update",
        "it": "install-test",
        "cit": "install-ci-test",
        "x": "exec",
    },
    "pnpm": {
        "run-script": "run",
        "t": "test",
        "tst": "test",
        "i": "install",
        "rm": "remove",
        "un": "remove",
        "uninstall": "remove",
        "up": "update",
        "upgrade": "update",
        "ls": "list",
        "rb": "rebuild",
        "it": "install-test",
        "ln": "link",
    },
    "rails": {
        "g": "generate",
        "c": "console",
        "s": "server",
        "t": "test",
        "db": "dbconsole",
        "d": "destroy",
    },
}

#: Script runners: (commands that are ``run <same name>``, built-in commands). npm docs:
#: "npm test / npm stop: runs the script of that name" (``npm start`` and ``npm restart``
#: are not listed: with no such script they run ``node server.js`` / stop+start). Yarn
#: classic docs: "yarn <script>: runs a script if it is not a yarn command". pnpm docs,
#: "pnpm run": "you may use pnpm <script> if it does not collide with a built-in command"
#: (``pnpm start`` again falls back to ``node server.js``).
_YARN_BUILTINS = (
    "add audit autoclean bin cache check config create dedupe dlx exec generate-lock-entry "
    "global help import info init install licenses link list login logout node npm outdated "
    "owner pack patch plugin policies publish rebuild remove run search set stage tag team "
    "unlink unplug up upgrade upgrade-interactive version versions why workspace workspaces"
)
_PNPM_BUILTINS = (
    "add install update remove link unlink import rebuild prune fetch install-test patch "
    "patch-commit patch-remove audit list outdated why licenses run exec dlx create start "
    "publish pack recursive server store root bin setup init deploy doctor config env "
    "self-update cat-file cat-index find-hash ci clean dedupe docs help approve-builds"
)
SCRIPT_RUNNERS: dict[str, tuple[frozenset[str], frozenset[str] | None]] = {
    "npm": (frozenset({"test", "stop"}), None),  # None: only the listed ones are scripts
    "yarn": (frozenset({"test"}), frozenset(_YARN_BUILTINS.split())),
    "pnpm": (frozenset({"test"}), frozenset(_PNPM_BUILTINS.split())),
}

#: ``kubectl api-resources`` (NAME and SHORTNAMES columns; a kind's singular also works):
#: every spelling -> the plural name.
_KUBE = {
    "pods": "po pod",
    "services": "svc service",
    "deployments": "deploy deployment",
    "replicasets": "rs replicaset",
    "statefulsets": "sts statefulset",
    "daemonsets": "ds daemonset",
    "namespaces": "ns namespace",
    "nodes": "no node",
    "configmaps": "cm configmap",
    "secrets": "secret",
    "ingresses": "ing ingress",
    "jobs": "job",
    "cronjobs": "cj cronjob",
    "persistentvolumeclaims": "pvc persistentvolumeclaim",
    "persistentvolumes": "pv persistentvolume",
    "serviceaccounts": "sa serviceaccount",
    "events": "ev event",
    "endpoints": "ep",
    "horizontalpodautoscalers": "hpa horizontalpodautoscaler",
}
KUBE_RESOURCES: dict[str, str] = {
    alias: name for name, aliases in _KUBE.items() for alias in (name, *aliases.split())
}

#: Programs parsing options with Go's ``flag`` package: "One or two dashes may be used;
#: they are equivalent" (pkg.go.dev/flag). Terraform's commands use it too.
GO_FLAGS = frozenset({"go", "terraform"})

#: More documented option spellings (alias -> canonical), merged into ``FLAG_ALIASES``.
TOOL_ALIASES: dict[str, dict[str, str]] = {
    # kubectl options / ``kubectl <cmd> --help``.
    "kubectl": {
        "-n": "--namespace",
        "-f": "--filename",
        "-l": "--selector",
        "-o": "--output",
        "-A": "--all-namespaces",
        "-c": "--container",
        "-R": "--recursive",
        "-v": "--v",
        "-k": "--kustomize",
    },
    # ``docker compose --help`` / ``docker build --help``: "-f, --file", "-d, --detach",
    # "-q, --quiet", "-t, --tag".
    "docker": {"-f": "--file", "-d": "--detach", "-q": "--quiet", "-t": "--tag"},
    # Gradle docs, Command-Line Interface reference.
    "gradle": {
        "-q": "--quiet",
        "-i": "--info",
        "-d": "--debug",
        "-w": "--warn",
        "-s": "--stacktrace",
        "-S": "--full-stacktrace",
        "-x": "--exclude-task",
        "-p": "--project-dir",
        "-P": "--project-prop",
        "-D": "--system-prop",
        "-m": "--dry-run",
        "-t": "--continuous",
    },
    # ``mvn --help``.
    "mvn": {
        "-pl": "--projects",
        "-am": "--also-make",
        "-amd": "--also-make-dependents",
        "-B": "--batch-mode",
        "-q": "--quiet",
        "-X": "--debug",
        "-e": "--errors",
        "-o": "--offline",
        "-U": "--update-snapshots",
        "-f": "--file",
        "-P": "--activate-profiles",
        "-T": "--threads",
        "-ntp": "--no-transfer-progress",
        "-rf": "--resume-from",
        "-fae": "--fail-at-end",
        "-ff": "--fail-fast",
        "-s": "--settings",
    },
    # ``poetry --help``: "-n, --no-interaction", "-q, --quiet", "-v, --verbose",
    # "-C, --directory".
    "poetry": {"-n": "--no-interaction", "-q": "--quiet", "-v": "--verbose", "-C": "--directory"},
    # ``uv --help``: "-q, --quiet", "-v, --verbose".
    "uv": {"-q": "--quiet", "-v": "--verbose"},
    # Django docs, django-admin: "--noinput, --no-input", "-v, --verbosity".
    "manage.py": {"--no-input": "--noinput", "-v": "--verbosity"},
    # ``alembic --help``: "-c CONFIG, --config CONFIG", "-n NAME, --name NAME".
    "alembic": {"-c": "--config", "-n": "--name"},
    # GNU make manual: "-s, --silent, --quiet", "-w, --print-directory".
    "make": {"--quiet": "--silent", "-w": "--print-directory"},
    # pip docs, general options: "-q, --quiet", "-v, --verbose".
    "pip": {"-q": "--quiet", "-v": "--verbose"},
    # npm config docs: "-q, --quiet: --loglevel warn", "-d: --loglevel info".
    "npm": {"-q": "--loglevel=warn", "-d": "--loglevel=info"},
    # ``jest --help`` (jest 29.7, npm-installed here): "-b, --bail", "-c, --config",
    # "-e, --expand", "-i, --runInBand", "-o, --onlyChanged", "-t, --testNamePattern",
    # "-u, --updateSnapshot", "-w, --maxWorkers", "--colors  Alias for `--color`".
    "jest": {
        "-b": "--bail",
        "-c": "--config",
        "-e": "--expand",
        "-i": "--runInBand",
        "-o": "--onlyChanged",
        "-t": "--testNamePattern",
        "-u": "--updateSnapshot",
        "-w": "--maxWorkers",
        "--colors": "--color",
    },
    # ``vitest --help`` (vitest 4, npm-installed here): "-r, --root <path>", "-c, --config
    # <path>", "-u, --update", "-w, --watch", "-t, --testNamePattern <pattern>".
    "vitest": {
        "-r": "--root",
        "-c": "--config",
        "-u": "--update",
        "-w": "--watch",
        "-t": "--testNamePattern",
    },
    # Helm docs (helm.sh/docs/helm/helm, helm_install, helm_upgrade): global "-n,
    # --namespace string  namespace scope for this request"; install/upgrade "-f, --values
    # strings  specify values in a YAML file or a URL"; upgrade "-i, --install".
    "helm": {"-n": "--namespace", "-f": "--values", "-i": "--install"},
}

#: Option spellings that hold for one subcommand only, program -> subcommand -> alias ->
#: canonical. git 2.39 ``git <subcommand> -h``, run here: commit "-m, --message",
#: "-a, --all", "-F, --file", "-s, --signoff", "-n, --no-verify", "-e, --edit",
#: "-C, --reuse-message", "-c, --reedit-message", "-t, --template", "-i, --include",
#: "-o, --only", "-p, --patch", "-q, --quiet", "-v, --verbose"; push "-u, --set-upstream",
#: "-f, --force", "-n, --dry-run", "-d, --delete", "-o, --push-option", "-q, --quiet",
#: "-v, --verbose"; stash push "-m, --message", "-u, --include-untracked", "-a, --all",
#: "-k, --keep-index", "-S, --staged", "-p, --patch", "-q, --quiet"; branch "-d, --delete",
#: "-m, --move", "-c, --copy", "-f, --force", "-a, --all", "-r, --remotes", "-l, --list",
#: "-u, --set-upstream-to", "-q, --quiet" (``-D`` is not ``-d``: "delete branch (even if
#: not merged)"); fetch "-p, --prune", "-t, --tags", "-f, --force", "-a, --append",
#: "-P, --prune-tags", "-q, --quiet", "-v, --verbose".
SUBCOMMAND_OPTION_ALIASES: dict[str, dict[str, dict[str, str]]] = {
    "git": {
        "commit": {
            "-m": "--message",
            "-a": "--all",
            "-F": "--file",
            "-s": "--signoff",
            "-n": "--no-verify",
            "-e": "--edit",
            "-C": "--reuse-message",
            "-c": "--reedit-message",
            "-t": "--template",
            "-i": "--include",
            "-o": "--only",
            "-p": "--patch",
            "-q": "--quiet",
            "-v": "--verbose",
        },
        "push": {
            "-u": "--set-upstream",
            "-f": "--force",
            "-n": "--dry-run",
            "-d": "--delete",
            "-o": "--push-option",
            "-q": "--quiet",
            "-v": "--verbose",
        },
        "stash": {
            "-m": "--message",
            "-u": "--include-untracked",
            "-a": "--all",
            "-k": "--keep-index",
            "-S": "--staged",
            "-p": "--patch",
            "-q": "--quiet",
        },
        "branch": {
            "-d": "--delete",
            "-m": "--move",
            "-c": "--copy",
            "-f": "--force",
            "-a": "--all",
            "-r": "--remotes",
            "-l": "--list",
            "-u": "--set-upstream-to",
            "-q": "--quiet",
        },
        "fetch": {
            "-p": "--prune",
            "-t": "--tags",
            "-f": "--force",
            "-a": "--append",
            "-P": "--prune-tags",
            "-q": "--quiet",
            "-v": "--verbose",
        },
    },
}

#: Option spellings valid only BEFORE the subcommand (git(1): "-P, --no-pager"; after
#: the subcommand ``-P`` is ``--perl-regexp`` for grep and log).
GLOBAL_ALIASES: dict[str, dict[str, str]] = {"git": {"-P": "--no-pager"}}

#: Options taking the next word as their value (canonical or alias spelling).
TOOL_VALUE_FLAGS: dict[str, frozenset[str]] = {
    "kubectl": frozenset(
        {"--namespace", "--filename", "--selector", "--output", "--container", "--context"}
        | {"--kubeconfig", "--cluster", "--user", "--v", "--kustomize", "--tail"}
    ),
    "cargo": frozenset({"--color", "--message-format"}),  # The Cargo Book: "--color when"
    "docker": frozenset(
        {"--file", "--tag", "--progress", "--project-directory", "--env-file", "--ansi"}
    ),
    "gradle": frozenset(
        {"--exclude-task", "--project-dir", "--project-prop", "--system-prop", "--tests"}
        | {"--console", "--warning-mode"}
    ),
    "mvn": frozenset(
        {"--projects", "--file", "--activate-profiles", "--threads", "--resume-from"}
        | {"--settings"}
    ),
    "terraform": frozenset(
        {"-var", "-var-file", "-target", "-chdir", "-out", "-parallelism", "-replace"}
        | {"-backend-config", "-lock-timeout", "-state"}
    ),
    "poetry": frozenset({"--directory", "--project", "--with", "--without", "--only"}),
    "manage.py": frozenset({"--verbosity", "--settings", "--pythonpath", "--database"}),
    "alembic": frozenset({"--config", "--name", "-x"}),
    # the spellings above and each tool's help: jest "--testPathPattern", "--reporters",
    # "--outputFile", "--testTimeout", "--shard", "--seed", "--selectProjects"; vitest
    # "--reporter <name>", "--outputFile", "--project"; helm "--set", "--set-string",
    # "--set-file", "--set-json", "--version", "--kube-context", "--kubeconfig",
    # "--timeout", "--repo", "-o, --output"; pytest "--report-chars", "--show-capture",
    # "--code-highlight", "--durations-min", "--color=color"; cargo "--message-format
    # <FMT>"; kubectl logs "--tail"; pip install "--upgrade-strategy <upgrade_strategy>";
    # git commit "-F, --file <file>", "-t, --template <file>", "-C, --reuse-message
    # <commit>", "-c, --reedit-message <commit>", push "-o, --push-option", branch "-u,
    # --set-upstream-to <upstream>".
    "jest": frozenset(
        {"--config", "--testNamePattern", "--maxWorkers", "--testPathPattern", "--reporters"}
        | {"--outputFile", "--testTimeout", "--shard", "--seed", "--selectProjects"}
    ),
    "vitest": frozenset(
        {"--root", "--config", "--testNamePattern", "--reporter", "--outputFile", "--project"}
    ),
    "helm": frozenset(
        {"--namespace", "--values", "--set", "--set-string", "--set-file", "--set-json"}
        | {"--version", "--kube-context", "--kubeconfig", "--timeout", "--repo", "--output"}
    ),
    "pytest": frozenset(
        {"--report-chars", "--show-capture", "--code-highlight", "--durations-min", "--color"}
    ),
    "pip": frozenset({"--upgrade-strategy"}),
    "git": frozenset(
        {"--file", "--template", "--reuse-message", "--reedit-message", "--push-option"}
        | {"--set-upstream-to"}
    ),
}

#: Options that change only output or prompting (canonical spelling), per program:
#: from each tool's option reference. ``*`` (in ``COSMETIC_FLAGS``) already has colour,
#: ``--verbose`` and ``--quiet``.
OUTPUT_ONLY: dict[str, frozenset[str]] = {
    "pip": frozenset(
        {"--no-input", "--progress-bar", "--disable-pip-version-check"}
        | {"--no-python-version-warning", "--root-user-action"}
    ),
    "poetry": frozenset({"--no-interaction", "--ansi", "--no-ansi"}),
    "uv": frozenset({"--no-progress"}),
    "npm": frozenset(
        {"--no-fund", "--fund", "--no-progress", "--progress", "--no-update-notifier"}
    ),
    "make": frozenset({"--silent", "--print-directory", "--no-print-directory"}),
    "go": frozenset({"-json"}),  # go help test: "-json: Convert test output to JSON"
    "docker": frozenset({"--progress", "--ansi"}),
    "git": frozenset({"--no-pager"}),
    "kubectl": frozenset({"--output", "--v", "--no-headers", "--show-managed-fields"}),
    # terraform docs: "-no-color", "-input=false: Disables all of Terraform's interactive
    # prompts", "-compact-warnings".
    "terraform": frozenset({"-no-color", "-input", "-compact-warnings"}),
    "gradle": frozenset(
        {"--quiet", "--info", "--debug", "--warn", "--stacktrace", "--full-stacktrace"}
        | {"--console", "--warning-mode"}
    ),
    # mvn --help: "-B, --batch-mode: Run in non-interactive (batch) mode (disables output
    # color)", "-e, --errors: Produce execution error messages", "-X, --debug".
    "mvn": frozenset({"--quiet", "--debug", "--errors", "--batch-mode", "--no-transfer-progress"}),
    # Django docs: "--verbosity", "--noinput: Suppresses all user prompts", "--traceback",
    # "--no-color", "--force-color".
    "manage.py": frozenset({"--verbosity", "--noinput", "--traceback", "--force-color"}),
    # ``pytest --help`` (pytest 9.2), reporting: "-r chars, --report-chars=chars  Show
    # extra test summary info", "--full-trace  Don't cut any tracebacks",
    # "--show-capture=...", "--code-highlight={yes,no}", "--durations-min=N".
    "pytest": frozenset(
        {"--report-chars", "--full-trace", "--show-capture", "--code-highlight"}
        | {"--durations-min"}
    ),
    # ``jest --help``: "--silent  Prevent tests from printing messages through the
    # console", "--json  Prints the test results in JSON", "--noStackTrace  Disables stack
    # trace in test results output", "--useStderr  Divert all output to stderr", "-e,
    # --expand  Use this flag to show full diffs instead of a patch". (``--ci`` is not here:
    # "It will prevent snapshots from being written"; nor ``-u``, ``-o``, ``--coverage``.)
    "jest": frozenset({"--silent", "--json", "--noStackTrace", "--useStderr", "--expand"}),
    # ``vitest --help``: "--reporter <name>  Specify reporters", "--silent [value]  Silent
    # console output from tests".
    "vitest": frozenset({"--reporter", "--silent"}),
    # The Cargo Book and ``cargo build --help``: "--message-format <FMT>  Error format".
    "cargo": frozenset({"--message-format"}),
    # Helm docs, global flags: "--debug  enable verbose output".
    "helm": frozenset({"--debug"}),
}

#: Option -> the values naming the file the tool reads anyway from the repository root.
#: GNU make: "make looks for GNUmakefile, makefile and Makefile" (``Makefile`` is the
#: recommended one, taken as the default); Docker Compose docs: "The default path for a
#: Compose file is compose.yaml (preferred) or compose.yml ... also docker-compose.yaml
#: and docker-compose.yml"; Maven: "-f: Force the use of an alternate POM file" (default
#: pom.xml); Alembic: "-c: Alternate config file; defaults to value of ALEMBIC_CONFIG
#: environment variable, or 'alembic.ini'". Cargo's ``--manifest-path`` is in
#: ``programs.FOLDER_FILE_OPTIONS``.
DEFAULT_FILES: dict[str, tuple[str, frozenset[str]]] = {
    "make": ("--file", frozenset({"Makefile"})),
    "docker": (
        "--file",
        frozenset({"compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml"}),
    ),
    "mvn": ("--file", frozenset({"pom.xml"})),
    "alembic": ("--config", frozenset({"alembic.ini"})),
}

#: Options set to the value the tool uses anyway: program -> (subcommands, or None for any;
#: the option, canonical spelling; the default values; an option whose presence changes
#: the default, or None). A given option naming a default is dropped when given once.
#: Sources, run here unless named: the Cargo Reference, "Profile selection" (build, check,
#: run and rustc use ``dev``, test ``test``, bench ``bench``, install ``release``) with
#: ``cargo build --help`` "--profile <PROFILE-NAME>"; GNU make manual, "Parallel
#: Execution": "By default, make will execute only one recipe at a time"; ``kubectl logs
#: --help`` (v1.32) "--tail=-1: Lines of recent log file to display. Defaults to -1 with no
#: selector, showing all log lines otherwise 10, if a selector is provided"; ``kubectl
#: apply --help`` "--dry-run='none'"; ``terraform plan -help`` / ``apply -help`` (1.11)
#: "-refresh=false  Skip checking for external changes", "-lock=false  Don't hold a state
#: lock", "-parallelism=n  ... Defaults to 10" (a bare ``-lock`` is ``-lock=true``: Go's
#: flag package); ``pytest --help`` "--import-mode={prepend,append,importlib} ... Default:
#: prepend", and pytest's parsed options (``config.option.capture`` is ``fd`` when no
#: ``--capture`` is given, read here with a conftest); npm config docs "save  Default: true
#: unless when using npm update" (``npm config get save``: true); ``pip install --help``
#: "--upgrade-strategy ... [default: only-if-needed]".
_TRUE = frozenset({"true", ""})
DEFAULT_VALUES: dict[str, tuple[tuple[frozenset[str] | None, str, frozenset[str], str | None], ...]]
DEFAULT_VALUES = {
    "cargo": (
        (frozenset({"build", "check", "run", "rustc"}), "--profile", frozenset({"dev"}), None),
        (frozenset({"test"}), "--profile", frozenset({"test"}), None),
        (frozenset({"bench"}), "--profile", frozenset({"bench"}), None),
        (frozenset({"install"}), "--profile", frozenset({"release"}), None),
    ),
    "make": ((None, "--jobs", frozenset({"1"}), None),),
    "kubectl": (
        (frozenset({"logs"}), "--tail", frozenset({"-1"}), "--selector"),
        (frozenset({"apply"}), "--dry-run", frozenset({"none"}), None),
    ),
    "terraform": (
        (frozenset({"plan", "apply"}), "-refresh", _TRUE, None),
        (frozenset({"plan", "apply"}), "-lock", _TRUE, None),
        (frozenset({"plan", "apply"}), "-parallelism", frozenset({"10"}), None),
    ),
    "pytest": (
        (None, "--import-mode", frozenset({"prepend"}), None),
        (None, "--capture", frozenset({"fd"}), None),
    ),
    "npm": ((frozenset({"install", "uninstall"}), "--save", _TRUE, None),),
    "pip": ((frozenset({"install"}), "--upgrade-strategy", frozenset({"only-if-needed"}), None),),
}

#: Variables that only change how output is shown (the others, such as RAILS_ENV,
#: NODE_ENV, PGHOST, PYTHONPATH, change what runs and stay in the route). Sources:
#: no-color.org (NO_COLOR), force-color.org (FORCE_COLOR), bixense.com/clicolors (CLICOLOR,
#: CLICOLOR_FORCE), pytest docs "PY_COLORS", POSIX XBD 8.3 (TERM, COLUMNS, LINES), Python
#: docs "Command line and environment" (PYTHONUNBUFFERED: "Force the stdout and stderr
#: streams to be unbuffered"), git docs (GIT_PAGER, PAGER, LESS), Rust std docs
#: (RUST_BACKTRACE), env_logger docs (RUST_LOG), npm docs (NPM_CONFIG_COLOR,
#: NPM_CONFIG_PROGRESS). Not ``CI``: pnpm reads it to decide whether it may remove
#: node_modules without a terminal (ERR_PNPM_ABORTED_REMOVE_MODULES_DIR_NO_TTY: "If you are
#: running pnpm in CI, set the CI environment variable to true"), and Jest and Vitest turn
#: snapshot writing off under it: setting it is a fix. Not ``PYTHONIOENCODING``: it
#: changes the encoding Python writes with, the fix for a UnicodeEncodeError.
OUTPUT_ENV = frozenset(
    {"NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "PY_COLORS", "TERM"}
    | {"COLUMNS", "LINES", "PYTHONUNBUFFERED", "PAGER", "GIT_PAGER", "LESS"}
    | {"RUST_BACKTRACE", "RUST_LOG", "NPM_CONFIG_COLOR", "NPM_CONFIG_PROGRESS"}
)
