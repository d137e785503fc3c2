# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Per-program option facts a spec cannot say, or says wrongly, each with its source:
output-only options, folder options, programs whose targets are a set, and the option
spellings and values the tools' own help gives where the spec lacks them.

Applied by :mod:`.invocation`. Keyed by program name as normalized (``python3`` is
``python``).

Long because: every row cites the tool's help or manual beside it, and the options that
hold a secret where a spec has none (issue 40) are facts of the same kind, in the same
table (``SPEC_CORRECTIONS``).
"""

from __future__ import annotations

from loopx_recall_core.routes.toolchains import (
    OUTPUT_ONLY,
    TOOL_ALIASES,
    TOOL_VALUE_FLAGS,
)

__all__ = [
    "COSMETIC_FLAGS",
    "FLAG_ALIASES",
    "FOLDER_FILE_OPTIONS",
    "FOLDER_MODES",
    "FOLDER_OPTIONS",
    "LINK_ORDER",
    "NO_EQUALS",
    "OPTIONS_END",
    "ORDERED_OPTIONS",
    "ORDER_FREE",
    "SINGLE_DASH_LONG",
    "SPEC_CORRECTIONS",
    "TARGETS_ONLY",
    "TRAILING_SLASH",
    "VALUE_FLAGS",
]

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
    # cmake --build's options (``cmake --build`` run here, 3.25): "--parallel [<jobs>], -j
    # [<jobs>]", "-t <tgt>..., --target <tgt>...", "--config <cfg>"; "--build <dir>".
    "cmake": frozenset({"--build", "--parallel", "-j", "--target", "-t", "--config"}),
    "tar": frozenset({"-f", "--file", "-C", "--directory"}),  # GNU tar --help, as below
    # AWS CLI v2, "Command line options" (global, accepted after the subcommand too):
    # "--region <string>", "--profile <string>", "--output <string>", "--endpoint-url
    # <string>", "--query <string>", "--cli-read-timeout <int>".
    "aws": frozenset(
        {"--region", "--profile", "--output", "--endpoint-url", "--query", "--color"}
        | {"--cli-read-timeout", "--cli-connect-timeout", "--ca-bundle"}
    ),
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
    # cmake --build (as above): -j is --parallel, -t is --target.
    "cmake": {"-j": "--parallel", "-t": "--target"},
    # GNU tar 1.34 ``tar --help``, run here (the spec lacks its operations): "-c,
    # --create", "-t, --list", "-x, --extract, --get", "-C, --directory=DIR", "-f,
    # --file=ARCHIVE", "-j, --bzip2", "-J, --xz", "-z, --gzip, --gunzip, --ungzip".
    "tar": {
        "-c": "--create",
        "-t": "--list",
        "-x": "--extract",
        "--get": "--extract",
        "-C": "--directory",
        "-f": "--file",
        "-j": "--bzip2",
        "-J": "--xz",
        "-z": "--gzip",
        "--gunzip": "--gzip",
        "--ungzip": "--gzip",
    },
}

#: Options naming the folder a program runs in, for the programs whose spec does not mark
#: them (:mod:`.specs` marks an option whose description says it changes the folder:
#: ``make -C``, ``git -C``, ``pnpm --dir``, ``yarn --cwd``, ``uv --directory``). The
#: invocation then runs in that folder (taken from the folder it was given in), and the
#: option goes: ``make -C web lint`` is ``cd web && make lint``.
FOLDER_OPTIONS: dict[str, set[str]] = {
    # npm docs, config "prefix": "forces non-global commands to run in the specified
    # folder"; shorthand "-C: --prefix".
    "npm": {"--prefix", "-C"},
    "go": {"-C"},  # go help build: "-C dir  Change to dir before running the command"
    "terraform": {"-chdir"},  # terraform docs: "-chdir=DIR switches to a different working dir"
    # Gradle CLI reference: "-p, --project-dir: Specifies the start directory for Gradle".
    "gradle": {"-p", "--project-dir"},
    # poetry docs: "--directory (-C): The working directory for the Poetry command".
    "poetry": {"-C", "--directory"},
    # docker compose --help: "--project-directory string  Specify an alternate working
    # directory (default: the path of the, first specified, Compose file)".
    "docker": {"--project-directory"},
    # The Cargo Book, cargo(1): "-C PATH  Changes the current working directory before
    # executing any specified operations".
    "cargo": {"-C"},
    # yarn classic CLI: "--cwd <dir>  Specify a working directory to use".
    "yarn": {"--cwd"},
    # pnpm docs: "-C <path>, --dir <path>  Run as if pnpm was started in <path>".
    "pnpm": {"-C", "--dir"},
    # ninja --help: "-C DIR   change to DIR before doing anything else".
    "ninja": {"-C"},
    # meson docs, "meson compile": "-C BUILDDIR  The directory containing build files to
    # be built" (meson test and install take the same option).
    "meson": {"-C"},
    # pulumi docs: "-C, --cwd string  Run pulumi as if it had been started in another
    # directory".
    "pulumi": {"-C", "--cwd"},
    # swift package manager docs: "--package-path <package-path>  Specify the package
    # path to operate on (default current directory). This changes the working directory
    # before any other operation".
    "swift": {"--package-path"},
    # composer docs, global options: "--working-dir (-d): If specified, use the given
    # directory as working directory".
    "composer": {"-d", "--working-dir"},
}
#: Options naming the folder a mode works on that stay as the mode (with ``.``): cmake
#: ``--help`` "--build <dir> = Build a CMake-generated project binary tree" (``cmake
#: --build out`` is ``cd out && cmake --build .``).
FOLDER_MODES: dict[str, set[str]] = {"cmake": {"--build"}}
#: Options naming a file in the folder the tool then runs from, with the file's default
#: name (which then goes too): the Cargo Book "--manifest-path PATH  Path to the
#: Cargo.toml file. By default, Cargo searches for the Cargo.toml file in the current
#: directory"; ``mvn --help`` "-f,--file <arg>  Force the use of an alternate POM file
#: (or directory with pom.xml)" (Maven runs with the POM's folder as its base folder).
FOLDER_FILE_OPTIONS: dict[str, tuple[set[str], frozenset[str]]] = {
    "cargo": ({"--manifest-path"}, frozenset({"Cargo.toml"})),
    "mvn": ({"-f", "--file"}, frozenset({"pom.xml"})),
}

#: Where a spec is wrong: program -> spelling -> (arity, bits, canonical name or "") as
#: the tool documents the option (:mod:`.specs` gives the meaning of arity and bits; a
#: canonical name splits a spelling the spec wrongly joins to another). Sources, each
#: tool's help or manual:
#:
#: * pnpm docs, "pnpm CLI": "-w, --workspace-root  Run as if pnpm was started in the root
#:   of the workspace instead of the current working directory": no value;
#: * npm config docs: "--verbose" is a shorthand for "--loglevel verbose": no value;
#: * GNU tar manual, "Changing the Working Directory": "-C DIR ... affects all options
#:   that follow": the archive named before it is still read from where tar started, so
#:   ``tar -xzf a.tgz -C dir`` is not ``cd dir && tar -xzf a.tgz``;
#: * GNU grep ``--help``: "-r, --recursive" and "-R, --dereference-recursive" (follows
#:   every symlink) are two options;
#: * MySQL manual, mysql/mysqldump/mysqladmin: "--password[=password], -p[password]  ...
#:   there must be no space between -p and the password": ``-p secret`` prompts and
#:   takes ``secret`` as the database.
#:
#: Options whose value is a password, token or key where the spec has no such option or
#: does not mark it (bits 2, SECRET; issue 40): the value is redacted whatever it looks
#: like (:mod:`loopx_recall_core.command_secrets`). A program without a spec names its
#: option (the third field). Sources, each tool's own help (run here where installed) or
#: manual:
#:
#: * ``ssh-keygen(1)`` (installed): "-N new_passphrase Provides the new passphrase", "-P
#:   passphrase Provides the (old) passphrase";
#: * ``zip -h`` (installed): "-P pswd   use standard encryption, password is pswd";
#:   ``unzip(1)`` (installed): "-P password use password to decrypt encrypted zipfile
#:   entries";
#: * ``keytool -importkeystore -help`` (installed): "-srcstorepass <arg> source keystore
#:   password", "-deststorepass", "-srckeypass", "-destkeypass"; keytool docs:
#:   "-storepass", "-keypass", "-new" (the new password);
#: * ``gpg --dump-options`` (installed) lists ``--passphrase``; gpg(1): "--passphrase
#:   string  Use string as the passphrase";
#: * ``wget --help`` (installed): "--password=PASS", "--http-password=PASS",
#:   "--ftp-password=PASS", "--proxy-password=PASS";
#: * ``curl --help all`` (installed): "--oauth2-bearer <token> OAuth 2 Bearer Token";
#: * ``openssl rsa|pkcs12|enc -help`` (installed): "-passin val Input file pass phrase
#:   source", "-passout val", "-password val", "-passcerts val", "-pass val Passphrase
#:   source", "-k val Passphrase" (openssl-passphrase-options(1): only ``pass:`` holds the
#:   password itself; ``env:``, ``file:``, ``fd:`` and ``stdin`` name where it is);
#: * GitHub CLI manual, "gh auth login": "--with-token  Read token from standard input":
#:   a flag (the spec gives it a value);
#: * doctl docs, "doctl auth init": "-t, --access-token string API V2 access token" (the
#:   spec gives it no value);
#: * sshpass(1): "-p password  The password is given on the command line";
#: * redis-cli docs ("redis-cli, the Redis command line interface"): "-a <password>
#:   Password to use when connecting to the server", "--pass <password> Alias of -a";
#: * Azure CLI docs, "az login": "--password -p  Credentials like user password, or for a
#:   service principal, provide client secret"; "az storage": "--account-key", "--sas-token",
#:   "--connection-string"; "az vm create": "--admin-password";
#: * 7-Zip docs, "-p (set Password) switch": "-p{Password}" (attached only); RAR manual:
#:   "-p[password]";
#: * MySQL manual, mysqladmin/mysqldump: ``-p[password]``, ``--password[=password]``;
#: * sqlcmd and bcp docs: "-P password";
#: * OpenLDAP ldapsearch(1) and its siblings: "-w passwd  Use passwd as the password for
#:   simple authentication"; ldappasswd(1): "-a oldPasswd", "-s newPasswd";
#: * ipmitool(1): "-P <password>  Remote server password is specified on the command line";
#: * mosquitto_pub(1), mosquitto_sub(1): "-P, --pw  Provide a password";
#: * cqlsh docs: "-p PASSWORD, --password=PASSWORD"; influx 1.x CLI: "-password";
#:   influx 2.x CLI: "-t, --token  InfluxDB API token";
#: * MongoDB Database Tools docs (mongodump, mongorestore, mongoexport, mongostat,
#:   mongotop, mongofiles) and the legacy ``mongo`` shell: "--password=<password>,
#:   -p=<password>";
#: * rdesktop(1): "-p <password>";
#: * twine docs, "twine upload": "-p PASSWORD, --password PASSWORD";
#: * glab docs, "glab auth login": "-t, --token string  Your GitLab access token";
#: * smbclient(1): "--password=STRING"; its "-U|--user=[DOMAIN\\]USERNAME[%PASSWORD]",
#:   lftp(1) "-u user[,pass]", skopeo(1) "--creds username[:password]" and htpasswd(1)
#:   "-C cost", "-r rounds" take a value (the password part is read by
#:   :mod:`loopx_recall_core.command_secrets`).
SPEC_CORRECTIONS: dict[str, dict[str, tuple[int, int, str]]] = {
    "pnpm": {"-w": (0, 1, ""), "--workspace-root": (0, 1, "")},
    "npm": {"--verbose": (0, 0, "")},
    "tar": {"-C": (1, 0, ""), "C": (1, 0, ""), "--directory": (1, 0, "")},
    "grep": {"-R": (0, 0, "--dereference-recursive")},
    "mysql": {"-p": (2, 2, ""), "--password": (2, 2, "")},
    "mysqldump": {"-p": (2, 2, "--password"), "--password": (2, 2, "--password")},
    "mysqladmin": {"-p": (2, 2, "--password"), "--password": (2, 2, "--password")},
    "mariadb": {"-p": (2, 2, "--password"), "--password": (2, 2, "--password")},
    "mariadb-dump": {"-p": (2, 2, "--password"), "--password": (2, 2, "--password")},
    "ssh-keygen": {"-N": (1, 2, ""), "-P": (1, 2, "")},
    "zip": {"-P": (1, 2, "--password"), "--password": (1, 2, "--password")},
    "unzip": {"-P": (1, 2, "-P")},
    "keytool": {name: (1, 2, name) for name in (
        "-storepass", "-keypass", "-srcstorepass", "-deststorepass", "-srckeypass",
        "-destkeypass", "-new")},
    "jarsigner": {"-storepass": (1, 2, "-storepass"), "-keypass": (1, 2, "-keypass")},
    "gpg": {"--passphrase": (1, 2, "--passphrase")},
    "wget": {name: (1, 2, name) for name in (
        "--password", "--http-password", "--ftp-password", "--proxy-password")},
    "curl": {"--oauth2-bearer": (1, 2, "--oauth2-bearer")},
    "openssl": {name: (1, 2, name) for name in (
        "-pass", "-passin", "-passout", "-password", "-passcerts", "-k")},
    "doctl": {"-t": (1, 2, ""), "--access-token": (1, 2, "")},
    "gh": {"--with-token": (0, 0, "")},
    "sshpass": {"-p": (1, 2, "-p")},
    "redis-cli": {"-a": (1, 2, "-a"), "--pass": (1, 2, "-a"), "--user": (1, 0, "--user"),
                  "-h": (1, 0, "-h"), "-p": (1, 0, "-p"), "-n": (1, 0, "-n"),
                  "-u": (1, 0, "-u")},
    "az": {"-p": (1, 2, "--password"), "--password": (1, 2, "--password"),
           "--admin-password": (1, 2, "--admin-password"), "--account-key": (1, 2, "--account-key"),
           "--sas-token": (1, 2, "--sas-token"),
           "--connection-string": (1, 2, "--connection-string"),
           "--client-secret": (1, 2, "--client-secret"), "-u": (1, 0, "--username"),
           "--username": (1, 0, "--username"), "--tenant": (1, 0, "--tenant"),
           "-t": (1, 0, "--tenant"), "-n": (1, 0, "--name"), "-g": (1, 0, "--resource-group")},
    "7z": {"-p": (2, 2, "-p")},
    "7za": {"-p": (2, 2, "-p")},
    "7zz": {"-p": (2, 2, "-p")},
    "rar": {"-p": (2, 2, "-p")},
    "unrar": {"-p": (2, 2, "-p")},
    "sqlcmd": {"-P": (1, 2, "-P"), "-U": (1, 0, "-U"), "-S": (1, 0, "-S"), "-d": (1, 0, "-d"),
               "-Q": (1, 0, "-Q"), "-q": (1, 0, "-q"), "-i": (1, 0, "-i")},
    "bcp": {"-P": (1, 2, "-P"), "-U": (1, 0, "-U"), "-S": (1, 0, "-S")},
    **{ldap: {"-w": (1, 2, "-w"), "-D": (1, 0, "-D"), "-H": (1, 0, "-H"), "-b": (1, 0, "-b"),
              "-h": (1, 0, "-h")}
       for ldap in ("ldapsearch", "ldapmodify", "ldapadd", "ldapdelete", "ldapwhoami")},
    "ldappasswd": {"-w": (1, 2, "-w"), "-a": (1, 2, "-a"), "-s": (1, 2, "-s"),
                   "-D": (1, 0, "-D"), "-H": (1, 0, "-H")},
    "ipmitool": {"-P": (1, 2, "-P"), "-U": (1, 0, "-U"), "-H": (1, 0, "-H"), "-I": (1, 0, "-I")},
    "mosquitto_pub": {"-P": (1, 2, "--pw"), "--pw": (1, 2, "--pw"), "-u": (1, 0, "-u"),
                      "-t": (1, 0, "-t"), "-m": (1, 0, "-m"), "-h": (1, 0, "-h")},
    "mosquitto_sub": {"-P": (1, 2, "--pw"), "--pw": (1, 2, "--pw"), "-u": (1, 0, "-u"),
                      "-t": (1, 0, "-t"), "-h": (1, 0, "-h")},
    "cqlsh": {"-p": (1, 2, "--password"), "--password": (1, 2, "--password"),
              "-u": (1, 0, "--username")},
    "influx": {"-password": (1, 2, "-password"), "-username": (1, 0, "-username"),
               "-t": (1, 2, "--token"), "--token": (1, 2, "--token")},
    **{mongo: {"-p": (1, 2, "--password"), "--password": (1, 2, "--password"),
               "-u": (1, 0, "--username"), "--username": (1, 0, "--username")}
       for mongo in ("mongo", "mongodump", "mongorestore", "mongoexport", "mongostat",
                     "mongotop", "mongofiles")},
    "rdesktop": {"-p": (1, 2, "-p"), "-u": (1, 0, "-u")},
    "twine": {"-p": (1, 2, "--password"), "--password": (1, 2, "--password"),
              "-u": (1, 0, "--username"), "--username": (1, 0, "--username"),
              "-r": (1, 0, "--repository")},
    "glab": {"-t": (1, 2, "--token"), "--token": (1, 2, "--token")},
    "smbclient": {"--password": (1, 2, "--password"), "-U": (1, 0, "--user"),
                  "--user": (1, 0, "--user")},
    "lftp": {"-u": (1, 0, "-u"), "-p": (1, 0, "-p"), "-e": (1, 0, "-e")},
    "skopeo": {"--creds": (1, 0, "--creds"), "--src-creds": (1, 0, "--src-creds"),
               "--dest-creds": (1, 0, "--dest-creds")},
    "htpasswd": {"-C": (1, 0, "-C"), "-r": (1, 0, "-r")},
    # GNU coreutils 9.1 ``cut --help``: "-d, --delimiter=DELIM", "-f, --fields=LIST" (a
    # mandatory value: "Mandatory arguments to long options are mandatory for short options
    # too"); the spec makes it optional.
    "cut": {"-d": (1, 0, ""), "--delimiter": (1, 0, ""), "-f": (1, 0, ""), "--fields": (1, 0, "")},
}  # fmt: skip
#: Programs whose options take effect in the order given (each applies to what follows
#: it), so their order is part of the route: find(1) "The expression is made up of
#: options, tests, and actions ... evaluated from left to right"; ffmpeg docs "options
#: are applied to the next specified file", "order is important".
ORDERED_OPTIONS = frozenset({"find", "ffmpeg", "ffprobe"})
#: GCC manual, "Options for Linking": "-llibrary ... It makes a difference where in the
#: command you write this option; the linker searches and processes libraries and object
#: files in the order they are specified": for a compiler driver that links, ``-l`` (and
#: ``-Wl,``) options keep their place among the input files.
LINK_ORDER = frozenset({"gcc", "g++", "cc", "c++", "clang", "clang++", "ld"})
#: Programs for which a trailing "/" changes what an argument means: rsync(1), "USAGE": "A
#: trailing slash on the source changes this behavior to avoid creating an additional
#: directory level at the destination".
TRAILING_SLASH = frozenset({"rsync"})

#: Programs whose positional arguments are a set of independent targets.
ORDER_FREE = frozenset(
    {"pytest", "mypy", "ruff", "black", "isort", "flake8", "pylint", "pyright", "eslint"}
    | {"prettier", "jest", "vitest", "tsc", "rm", "mkdir", "touch", "ls", "wc"}
)

#: Programs without subcommands: every positional is a target (``pytest tests`` names a
#: folder even though ``tests`` does not look like a path).
TARGETS_ONLY = (ORDER_FREE - {"ruff"}) | {"python", "node", "cat"}

#: Programs whose long options never take ``=value`` (curl(1): "--output <file>": the
#: value is the next word; ``--output=x`` is an unknown option to curl).
NO_EQUALS = frozenset({"curl"})

#: Commands whose words after their N-th argument belong to what they run, options too
#: (program and subcommand -> N): ``docker run --help`` "Usage: docker run [OPTIONS] IMAGE
#: [COMMAND] [ARG...]" (and create, podman's alike); ssh(1) "ssh [options] destination
#: [command [argument ...]]"; java(1) "java [options] mainclass [args ...]"; ruby(1)
#: "ruby [switches] [--] [programfile] [arguments]"; perl(1) alike. A spec marks some
#: itself (an argument that is a command or a script).
OPTIONS_END: dict[str, int] = {
    "docker run": 1,
    "docker create": 1,
    "podman run": 1,
    "podman create": 1,
    "ssh": 1,
    "java": 1,
    "ruby": 1,
    "perl": 1,
}

#: Programs with single-dash long options (``-run``, ``-name``): never split clusters.
SINGLE_DASH_LONG = frozenset({"go", "find", "java", "javac", "terraform", "mvn"})

# The toolchain tables of issue 18 item E (:mod:`.toolchains`) join the lookups above.
for _program, _aliases in TOOL_ALIASES.items():
    FLAG_ALIASES[_program] = {**FLAG_ALIASES.get(_program, {}), **_aliases}
for _program, _flags in TOOL_VALUE_FLAGS.items():
    VALUE_FLAGS[_program] = VALUE_FLAGS.get(_program, frozenset()) | _flags
for _program, _flags in OUTPUT_ONLY.items():
    COSMETIC_FLAGS[_program] = COSMETIC_FLAGS.get(_program, frozenset()) | _flags
