# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""What the shell normalizer (:mod:`.shell`) knows about programs: wrappers, runners, setup
and viewer commands, and the per-program option tables.

The rules that apply these tables are in :mod:`.shell`, which documents them; here are
only the lookups that read one option word of a program with them (:func:`option_pairs`,
:func:`canonical_option`, :func:`takes_value`).
``VALUE_FLAGS``, ``COSMETIC_FLAGS``, ``FLAG_ALIASES``, ``RUN_IN_DIR``, ``ORDER_FREE`` and
``TARGETS_ONLY`` are keyed by program name (as normalized: ``python3`` is ``python``).
"""

from __future__ import annotations

from loopx_recall_core.recall.replan.toolchains import (
    GO_FLAGS,
    OUTPUT_ONLY,
    TOOL_ALIASES,
    TOOL_VALUE_FLAGS,
)

__all__ = [
    "COSMETIC_FLAGS",
    "ENV_OUTPUT_ONLY",
    "ENV_VALUE_FLAGS",
    "FLAG_ALIASES",
    "NOT_A_WRAPPER",
    "ORDER_FREE",
    "PIPE_VIEWERS",
    "PROCESS_WRAPPERS",
    "RUNNER_PROGRAMS",
    "RUNNER_SUBCOMMANDS",
    "RUNNER_VALUE_FLAGS",
    "RUN_IN_DIR",
    "SETUP",
    "SHELLS",
    "SINGLE_DASH_LONG",
    "TARGETS_ONLY",
    "TIMED_OUT",
    "VALUE_FLAGS",
    "canonical_option",
    "option_pairs",
    "takes_value",
]

#: Shells whose ``-c SCRIPT`` is replaced by the segments of SCRIPT.
SHELLS = frozenset({"bash", "sh", "zsh", "dash"})
#: Process wrappers: they change when, for how long, at what priority or with what
#: buffering a command runs, or time it, never what it runs, so they are dropped with
#: their options (program -> its options that take a value). ``timeout``'s DURATION is
#: kept apart as the segment's ``limit`` (:mod:`.shell`); ``env`` is read in :mod:`.shell`
#: (its assignments and ``-i``/``-u``/``-C``/``-S`` change what runs). Sources, each
#: tool's ``--help`` run here: GNU coreutils 9.1 ``timeout`` ("Start COMMAND, and kill it if
#: still running after DURATION"; "-k, --kill-after=DURATION", "-s, --signal=SIGNAL",
#: "--preserve-status", "--foreground", "-v, --verbose"), ``nice`` ("Run COMMAND with an
#: adjusted niceness, which affects process scheduling"; "-n, --adjustment=N"),
#: ``stdbuf`` ("Run COMMAND, with modified buffering operations for its standard
#: streams"; "-i, --input=MODE", "-o, --output=MODE", "-e, --error=MODE"), ``nohup``
#: ("Run COMMAND, ignoring hangup signals"); GNU time 1.9 ``/usr/bin/time`` ("Run COMMAND,
#: then print system resource usage"; "-f, --format=FORMAT", "-o, --output=FILE", "-a",
#: "-p", "-q", "-v"), bash's ``time [-p]`` keyword; util-linux ``ionice`` ("Show or change
#: the I/O-scheduling class and priority of a process"; "-c, --class <class>",
#: "-n, --classdata <num>", "-t, --ignore"); bash builtins ``command``, ``exec``,
#: ``builtin`` (run the named command).
PROCESS_WRAPPERS: dict[str, frozenset[str]] = {
    "time": frozenset({"-f", "--format", "-o", "--output"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "ionice": frozenset({"-c", "--class", "-n", "--classdata"}),
    "stdbuf": frozenset({"-i", "--input", "-o", "--output", "-e", "--error"}),
    "timeout": frozenset({"-k", "--kill-after", "-s", "--signal"}),
    "nohup": frozenset(),
    "command": frozenset(),
    "exec": frozenset(),
    "builtin": frozenset(),
}
#: ``ionice`` options that act on running processes instead of running a command.
NOT_A_WRAPPER = frozenset({"-p", "--pid", "-P", "--pgid", "-u", "--uid"})
#: ``env`` options (GNU coreutils 9.1 ``env --help``) that take a value: "-u, --unset=NAME",
#: "-C, --chdir=DIR", "-S, --split-string=S"; and the only one that changes output alone:
#: "-v, --debug  print verbose information for each processing step". Every other option
#: (``-i``/``-``: "start with an empty environment", ``-u``, ``-C``, the signal options)
#: changes what runs and stays in the route.
ENV_VALUE_FLAGS = frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"})
ENV_OUTPUT_ONLY = frozenset({"-v", "--debug"})
#: GNU ``timeout --help``, "EXIT status": "124 if COMMAND times out, and --preserve-status
#: is not specified", "137 if COMMAND (or timeout itself) is sent the KILL (9) signal
#: (128+9)": a prior call that ended so was stopped by its time limit.
TIMED_OUT = frozenset({124, 137})
#: ``program subcommand`` pairs that run the rest of the line (dropped; options kept).
RUNNER_SUBCOMMANDS = frozenset(
    {
        ("uv", "run"),
        ("poetry", "run"),
        ("pipenv", "run"),
        ("pdm", "run"),
        ("rye", "run"),
        ("hatch", "run"),
        ("pnpm", "exec"),
        ("npm", "exec"),
        ("npm", "x"),  # npm docs, npm-exec: "aliases: x"
        ("bundle", "exec"),  # Bundler docs: "bundle exec: Execute a command in the
        # context of the bundle" (``bin/rails`` and ``rails`` are the same program)
    }
)
#: Programs that run the rest of the line.
RUNNER_PROGRAMS = frozenset({"npx", "bunx"})
#: Runner options that take the next argument as their value.
RUNNER_VALUE_FLAGS = frozenset(
    {"--with", "--python", "-p", "--extra", "--group", "--package", "--directory", "--project"}
    | {"--env-file", "--from", "--index", "--with-requirements", "-e", "--env"}
)
#: Setup segments: dropped (``cd`` to a repository folder is kept as context).
SETUP = frozenset(
    {"cd", "pushd", "popd", "source", ".", "export", "set", "unset", "true", ":", "echo"}
    | {"printf", "clear", "sleep"}
)
#: Programs that only show what a pipe gives them: dropped after a pipe.
PIPE_VIEWERS = frozenset(
    {"head", "tail", "tee", "less", "more", "cat", "grep", "rg", "wc", "sort", "uniq", "cut"}
    | {"column", "jq"}
)

#: Flags that take the next argument as their value, per program (either spelling of an
#: aliased option may be listed: a flag takes a value if its own or its canonical
#: spelling is here).
VALUE_FLAGS: dict[str, frozenset[str]] = {
    "pytest": frozenset(
        {"-k", "-m", "-p", "-c", "-o", "-n", "-W", "-r", "--deselect", "--ignore"}
        | {"--ignore-glob", "--maxfail", "--tb", "--rootdir", "--durations", "--cov"}
        | {"--cov-report", "--junitxml", "--log-level", "--timeout", "--basetemp"}
        | {"--confcutdir", "--import-mode", "--dist", "--numprocesses", "--capture"}
        | {"--config-file", "--override-ini", "--pythonwarnings"}
    ),
    "python": frozenset({"-c", "-W", "-X"}),
    "git": frozenset({"-m", "-C", "-c", "-b", "-B", "--message", "--author", "--format"}),
    "cargo": frozenset(
        {"-p", "--package", "--features", "--bin", "--test", "--target", "-j", "--jobs"}
        | {"--manifest-path", "--profile", "--example"}
    ),
    "go": frozenset({"-C", "-run", "-count", "-tags", "-timeout", "-p", "-bench", "-coverprofile"}),
    "npm": frozenset({"--prefix", "--workspace"}),
    "pnpm": frozenset({"--dir", "--filter"}),
    "yarn": frozenset({"--cwd"}),
    "pip": frozenset(
        {"--requirement", "--editable", "--constraint", "--target", "--index-url"}
        | {"--extra-index-url", "--config-settings"}
    ),
    # Not --jobs: GNU make reads its optional count only as "--jobs=N" (or "-jN"/"-j N").
    "make": frozenset({"--directory", "--file", "-j", "--include-dir"}),
    "mypy": frozenset({"--config-file", "--package", "--module", "--command"}),
    "ruff": frozenset({"--config", "--select", "--ignore", "--extend-select", "--target-version"}),
    "tox": frozenset({"-e", "-c"}),
}

#: Flags dropped before comparison: they change what is shown, not what runs.
COSMETIC_FLAGS: dict[str, frozenset[str]] = {
    "*": frozenset({"--color", "--colour", "--no-color", "--no-colour", "--verbose", "--quiet"}),
    "pytest": frozenset(
        {"-q", "-v", "-r", "-l", "--tb", "--durations", "--no-header", "--no-summary"}
        | {"--showlocals", "--disable-warnings", "--verbosity"}
    ),
    "cargo": frozenset({"-q", "-v"}),
    "go": frozenset({"-v"}),
    "npm": frozenset({"-s", "--silent", "--loglevel"}),
    "make": frozenset({"-s", "--silent"}),
    "mypy": frozenset({"--pretty", "--no-error-summary"}),
    "ruff": frozenset({"-q", "-v"}),
    "tox": frozenset({"-q", "-v"}),
}

#: Spellings of one option, per program: alias -> canonical (long) spelling. Only options
#: the tool's own documentation gives as one option (cited per program); a canonical
#: ``--name=value`` means the alias is a shortcut for that value. Applied to option names
#: only, never after ``--``. Programs whose short options change meaning with the
#: subcommand (git: ``-a`` is ``--all`` for commit, ``--annotate`` for tag) get no entry.
FLAG_ALIASES: dict[str, dict[str, str]] = {
    # ``pytest --help``: "-x, --exitfirst", "-s  Shortcut for --capture=no",
    # "--lf, --last-failed", "--ff, --failed-first", "--nf, --new-first",
    # "--sw, --stepwise", "--co, --collect-only", "-c FILE, --config-file=FILE",
    # "-o ..., --override-ini=...", "-W ..., --pythonwarnings=...", "-l, --showlocals",
    # "-r chars, --report-chars=chars", "--disable-warnings, --disable-pytest-warnings";
    # pytest-xdist: "-n numprocesses, --numprocesses=numprocesses". (-k and -m have no
    # long form.)
    "pytest": {
        "-x": "--exitfirst",
        "-s": "--capture=no",
        "--lf": "--last-failed",
        "--ff": "--failed-first",
        "--nf": "--new-first",
        "--sw": "--stepwise",
        "--co": "--collect-only",
        "-c": "--config-file",
        "-o": "--override-ini",
        "-W": "--pythonwarnings",
        "-l": "--showlocals",
        "-n": "--numprocesses",
        "-r": "--report-chars",
        "--disable-pytest-warnings": "--disable-warnings",
    },
    # The Cargo Book, cargo-build/-test/-run/-check/...: "-p spec, --package spec",
    # "-F features, --features features", "-r, --release", "-j N, --jobs N",
    # "--all  Deprecated alias for --workspace"; "--release  Build optimized artifacts with
    # the release profile. See also the --profile option for choosing a specific profile by
    # name": ``--release`` is ``--profile release``.
    "cargo": {
        "-p": "--package",
        "-F": "--features",
        "-r": "--profile=release",
        "--release": "--profile=release",
        "-j": "--jobs",
        "--all": "--workspace",
    },
    # npm docs, config, "Shorthands and Other CLI Niceties" (npm parses them for every
    # command): -w --workspace, --ws --workspaces, -C --prefix, -D --save-dev, ...
    "npm": {
        "-w": "--workspace",
        "--ws": "--workspaces",
        "-C": "--prefix",
        "-D": "--save-dev",
        "-P": "--save-prod",
        "-O": "--save-optional",
        "-E": "--save-exact",
        "-B": "--save-bundle",
        "-S": "--save",
        "-g": "--global",
        "-f": "--force",
        "-y": "--yes",
        "--iwr": "--include-workspace-root",
    },
    # pnpm docs, CLI options: "-C <path>, --dir <path>", "-r, --recursive",
    # "-w, --workspace-root" (not npm's --workspace); filtering: "--filter (or -F)".
    "pnpm": {"-C": "--dir", "-r": "--recursive", "-w": "--workspace-root", "-F": "--filter"},
    # ``pip install --help``: "-r, --requirement", "-c, --constraint", "-e, --editable",
    # "-t, --target", "-U, --upgrade", "-I, --ignore-installed", "-C, --config-settings",
    # "-i, --index-url". (-f is --find-links for install but --files for show: left out.)
    "pip": {
        "-r": "--requirement",
        "-c": "--constraint",
        "-e": "--editable",
        "-t": "--target",
        "-U": "--upgrade",
        "-I": "--ignore-installed",
        "-C": "--config-settings",
        "-i": "--index-url",
    },
    # GNU make manual, "Summary of Options": "-C dir, --directory=dir", "-f file,
    # --file=file, --makefile=file", "-j [jobs], --jobs[=jobs]", "-k, --keep-going",
    # "-S, --no-keep-going, --stop", "-B, --always-make", "-n, --just-print, --dry-run,
    # --recon", "-i, --ignore-errors", "-e, --environment-overrides", "-t, --touch",
    # "-I dir, --include-dir=dir".
    "make": {
        "-C": "--directory",
        "-f": "--file",
        "--makefile": "--file",
        "-j": "--jobs",
        "-k": "--keep-going",
        "-S": "--no-keep-going",
        "--stop": "--no-keep-going",
        "-B": "--always-make",
        "-n": "--just-print",
        "--dry-run": "--just-print",
        "--recon": "--just-print",
        "-i": "--ignore-errors",
        "-e": "--environment-overrides",
        "-t": "--touch",
        "-I": "--include-dir",
    },
    # ``mypy --help``: "-m MODULE, --module MODULE", "-p PACKAGE, --package PACKAGE",
    # "-c PROGRAM_TEXT, --command PROGRAM_TEXT".
    "mypy": {"-m": "--module", "-p": "--package", "-c": "--command"},
}

#: Options that run a program as if it were started in another folder, per program
#: (canonical spelling), with what their value normalizes to when it names the
#: repository root. There they are trivial and dropped: the same route run from the root.
RUN_IN_DIR: dict[str, tuple[str, str]] = {
    "make": ("--directory", "."),  # make: "Change to directory dir before reading makefiles"
    "git": ("-C", "."),  # git(1): "Run as if git was started in <path>"
    "go": ("-C", "."),  # go help build: "-C dir  Change to dir before running the command"
    "npm": ("--prefix", "."),  # npm config prefix: "forces non-global commands to run in
    # the specified folder"
    "pnpm": ("--dir", "."),  # pnpm: "Run as if pnpm was started in <path>"
    "yarn": ("--cwd", "."),  # yarn CLI: "--cwd <dir>  Specify a working directory to use"
    # cargo: "--manifest-path path  Path to the Cargo.toml file. By default, Cargo searches
    # for the Cargo.toml file in the current directory or any parent directory."
    "cargo": ("--manifest-path", "Cargo.toml"),
    # terraform docs: "-chdir=DIR switches to a different working directory".
    "terraform": ("-chdir", "."),
    # gradle CLI: "-p, --project-dir: Specifies the start directory for Gradle".
    "gradle": ("--project-dir", "."),
    # poetry: "-C, --directory: The working directory for the Poetry command".
    "poetry": ("--directory", "."),
    # docker compose: "--project-directory: Specify an alternate working directory".
    "docker": ("--project-directory", "."),
}

#: Programs whose positional arguments are a set of independent targets.
ORDER_FREE = frozenset(
    {"pytest", "mypy", "ruff", "black", "isort", "flake8", "pylint", "pyright", "eslint"}
    | {"prettier", "jest", "vitest", "tsc", "rm", "mkdir", "touch", "ls", "wc"}
)

#: Programs without subcommands: every positional is a target (``pytest tests`` names a
#: folder even though ``tests`` does not look like a path).
TARGETS_ONLY = (ORDER_FREE - {"ruff"}) | {"python", "node", "cat"}

#: Programs with single-dash long options (``-run``, ``-name``): never split clusters.
SINGLE_DASH_LONG = frozenset({"go", "find", "java", "javac", "terraform", "mvn"})

# The toolchain tables of issue 18 item E (:mod:`.toolchains`) join the lookups above.
for _program, _aliases in TOOL_ALIASES.items():
    FLAG_ALIASES[_program] = {**FLAG_ALIASES.get(_program, {}), **_aliases}
for _program, _flags in TOOL_VALUE_FLAGS.items():
    VALUE_FLAGS[_program] = VALUE_FLAGS.get(_program, frozenset()) | _flags
for _program, _flags in OUTPUT_ONLY.items():
    COSMETIC_FLAGS[_program] = COSMETIC_FLAGS.get(_program, frozenset()) | _flags


def canonical_option(program: str, name: str) -> tuple[str, str | None]:
    """An option's canonical name, and the value it implies (``-s`` is ``--capture=no``)."""
    name = FLAG_ALIASES.get(program, {}).get(name, name)
    canonical, eq, implied = name.partition("=")
    return canonical, implied if eq else None


def takes_value(program: str, name: str) -> bool:
    value_flags = VALUE_FLAGS.get(program, frozenset())
    return name in value_flags or canonical_option(program, name)[0] in value_flags


def option_pairs(program: str, arg: str) -> list[tuple[str, str | None]]:
    """The (name, value) pairs of one option word; value None: it may be the next word."""
    if program in GO_FLAGS and arg.startswith("--") and len(arg) > 2:
        arg = arg[1:]  # Go's flag package: "-flag" and "--flag" are the same
    if arg.startswith("--") or program in SINGLE_DASH_LONG or len(arg) == 2:
        name, eq, value = arg.partition("=")
        return [(name, value if eq else None)]
    pairs: list[tuple[str, str | None]] = []
    for at in range(1, len(arg)):  # a cluster: -xvs, -kexpr
        name = "-" + arg[at]
        if takes_value(program, name):
            pairs.append((name, arg[at + 1 :] or None))
            break
        pairs.append((name, ""))
    return pairs
