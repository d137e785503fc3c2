# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Secrets by position: an argument a program takes as a password, token, key or
credential, whatever it looks like (issue 40).

A password is known by its place on a command line, not by its shape. For every command
in a text (a snippet's header, a proposed command, a line of output that echoes one),
this module reads the program's words with the route model's one option parser
(:func:`loopx_recall_core.routes.invocation.walk_words`, the program's spec from
``@withfig/autocomplete`` and the hand facts of ``routes/programs.py``) and reports:

* the value of every option the spec marks SECRET (its name says password, passphrase,
  secret, token, API or access key, credential or private key) or a hand fact adds
  (``SPEC_CORRECTIONS``, each with its source), attached (``-pVALUE``, ``--pass=V``) or
  the next word;
* the secret part of a value with a form (:data:`VALUE_FORMS`: ``user:pass`` after
  ``curl -u``, ``pass:X`` after ``openssl -passin``, ...);
* positional secrets (:data:`POSITIONAL`: ``htpasswd -b FILE user pass``, ``mysqladmin
  password X``, ``aws configure set aws_secret_access_key V``, ...);
* every ``NAME=VALUE`` word of a command (an environment assignment, ``-e NAME=V``,
  ``-var 'NAME=V'``, ``--from-literal=NAME=V``) with its NAME, which the caller judges
  (:mod:`loopx_recall_core.redaction` keeps a value whose name is not a secret's).

Standard library and the route model only: the guard's hot path runs it on every proposed
command, so nothing here loads the detector. A word holding an expansion (``$PASS``,
``$(cat f)``) or a placeholder (``<password>``, ``***``) is a reference, not a secret.

Long because: each positional rule and value form sits beside the documentation it
follows, and reading a text for commands (the grammar's words with their places, the
cut or quoted lines it cannot parse) is one pass with its checks for prose.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Iterator
from typing import NamedTuple

from loopx_recall_core.routes.grammar import ParseError, parse
from loopx_recall_core.routes.invocation import Walked, canonical_program, walk_words
from loopx_recall_core.routes.programs import SPEC_CORRECTIONS
from loopx_recall_core.routes.specs import SECRET, may_take_secret

__all__ = ["POSITIONAL", "VALUE_FORMS", "Found", "command_secrets"]


class Found(NamedTuple):
    start: int
    end: int
    name: str  # "": a secret by its position; else the NAME of a NAME=VALUE word


# --- value forms --------------------------------------------------------------------------


def _user_pass(separator: str) -> Callable[[str], tuple[int, int] | None]:
    """``user<sep>password``: the password; with an empty password, a user that is a key
    (an API key given as the user name: Stripe's docs, "Authentication": ``curl ... -u
    sk_test_...:`` "provide your API key as the basic auth username value. You do not need
    to provide a password": 12 or more characters mixing letters and digits); a user alone
    (the tool then prompts) holds no secret."""

    def form(value: str) -> tuple[int, int] | None:
        user, sep, password = value.partition(separator)
        if not sep:
            return None
        if password:
            return len(user) + 1, len(value)
        keyish = len(user) >= 12 and any(c.isdigit() for c in user) and any(
            c.isalpha() for c in user)  # fmt: skip
        return (0, len(user)) if keyish else None

    return form


def _pass_source(value: str) -> tuple[int, int] | None:
    # openssl-passphrase-options(1): "pass:password  The actual password is password";
    # env:var, file:pathname, fd:number and stdin name where it is
    if value.startswith("pass:"):
        return (5, len(value)) if len(value) > 5 else None
    if value.startswith(("env:", "file:", "fd:")) or value == "stdin":
        return None
    return 0, len(value)


def _cert_password(value: str) -> tuple[int, int] | None:
    # curl(1): "-E, --cert <certificate[:password]>"
    head, sep, password = value.rpartition(":")
    if not sep or not password or not head or "/" in password or "\\" in password:
        return None
    return len(head) + 1, len(value)


#: (program, option's canonical name) -> where in its value the secret is. Sources:
#: curl(1) ``--help all`` (installed): "-u, --user <user:password>", "-U, --proxy-user
#: <user:password>", "-E, --cert <certificate[:password]>"; HTTPie docs, "Authentication":
#: "-a username:password"; skopeo(1): "--creds username[:password]"; lftp(1): "-u
#: user[,pass]"; smbclient(1): "-U|--user=[DOMAIN\\]USERNAME[%PASSWORD]";
#: openssl-passphrase-options(1) for -pass/-passin/-passout/-password/-passcerts.
VALUE_FORMS: dict[tuple[str, str], Callable[[str], tuple[int, int] | None]] = {
    ("curl", "--user"): _user_pass(":"),
    ("curl", "--proxy-user"): _user_pass(":"),
    ("curl", "--cert"): _cert_password,
    ("http", "--auth"): _user_pass(":"),
    ("https", "--auth"): _user_pass(":"),
    ("xh", "--auth"): _user_pass(":"),
    ("skopeo", "--creds"): _user_pass(":"),
    ("skopeo", "--src-creds"): _user_pass(":"),
    ("skopeo", "--dest-creds"): _user_pass(":"),
    ("lftp", "-u"): _user_pass(","),
    ("smbclient", "--user"): _user_pass("%"),
    **{("openssl", name): _pass_source
       for name in ("-pass", "-passin", "-passout", "-password", "-passcerts")},
}  # fmt: skip


# --- positional secrets -------------------------------------------------------------------

#: (word index in args, offset in the word[, length: else to the word's end])
_Spot = tuple[int, ...]


def _plain(walked: Walked, args: list[str]) -> list[tuple[int, str]]:
    """The positionals that are not subcommands: (word index, word as written)."""
    skip = len(walked.path)
    return [(at, args[at]) for at in walked.positional_at[skip:]]


def _mysqladmin(walked: Walked, args: list[str]) -> list[_Spot]:
    # MySQL manual, mysqladmin: "password new_password  Set a new password"
    plain = _plain(walked, args)
    return [(plain[i + 1][0], 0) for i, (_, word) in enumerate(plain[:-1]) if word == "password"]


def _htpasswd(walked: Walked, args: list[str]) -> list[_Spot]:
    # htpasswd(1): "htpasswd -b[cmBdpsDv] [-C cost] [-r rounds] passwdfile username
    # password", "htpasswd -nb[mBdpsDv] [-C cost] [-r rounds] username password"
    names = {p.name for p in walked.parsed}
    if "-b" not in names:
        return []
    plain = _plain(walked, args)
    at = 1 if "-n" in names else 2
    return [(plain[at][0], 0)] if len(plain) > at else []


_AWS_SECRETS = frozenset({"aws_secret_access_key", "aws_session_token", "aws_security_token"})


def _aws(walked: Walked, args: list[str]) -> list[_Spot]:
    # AWS CLI reference, "aws configure set": "aws configure set aws_secret_access_key
    # ...", a name may be qualified ("default.aws_secret_access_key", "profile.x....")
    plain = _plain(walked, args)
    if walked.path[:2] == ["configure", "set"] and len(plain) >= 2:  # noqa: SIM102
        if plain[0][1].rsplit(".", 1)[-1].lower() in _AWS_SECRETS:
            return [(plain[1][0], 0)]
    return []


_VAULT_KEYS = frozenset({"token", "password", "secret_id", "client_secret", "passcode"})


def _vault(walked: Walked, args: list[str]) -> list[_Spot]:
    # Vault docs, "vault login": "vault login [options] [AUTH K=V...]": a bare argument is
    # the token ("vault login <token>"); "vault login -method=userpass username=my-user
    # password=..."; "vault write auth/userpass/users/my-user password=...".
    spots = []
    for index, (at, word) in enumerate(_plain(walked, args)):
        key, eq, _ = word.partition("=")
        if eq and key.lower() in _VAULT_KEYS:
            spots.append((at, len(key) + 1))
        elif not eq and index == 0 and walked.path[:1] == ["login"]:
            spots.append((at, 0))
    return spots


def _first_after(path: list[str], position: int) -> Callable[[Walked, list[str]], list[_Spot]]:
    """The positional ``position`` after the words ``path`` (subcommands or not)."""

    def rule(walked: Walked, args: list[str]) -> list[_Spot]:
        items = [(-1, word) for word in walked.path] + _plain(walked, args)
        if [word for _, word in items[: len(path)]] != path:
            return []
        rest = items[len(path) :]
        return [(rest[position][0], 0)] if len(rest) > position and rest[position][0] >= 0 else []

    return rule


def _poetry(walked: Walked, args: list[str]) -> list[_Spot]:
    # Poetry docs, "Repositories": "poetry config pypi-token.pypi <my-token>", "poetry
    # config http-basic.foo <username> <password>"
    if walked.path[:1] != ["config"]:
        return []
    plain = _plain(walked, args)
    if plain and plain[0][1].startswith("pypi-token.") and len(plain) >= 2:
        return [(plain[1][0], 0)]
    if plain and plain[0][1].startswith("http-basic.") and len(plain) >= 3:
        return [(plain[2][0], 0)]
    return []


def _redis(walked: Walked, args: list[str]) -> list[_Spot]:
    # Redis docs, AUTH: "AUTH [username] password"; CONFIG SET: "requirepass <password>",
    # "masterauth <master-password>"
    plain = _plain(walked, args)
    words = [w.lower() for _, w in plain]
    spots = []
    if words[:1] == ["auth"] and 2 <= len(words) <= 3:
        spots.append((plain[-1][0], 0))
    for i, word in enumerate(words[:-1]):
        if word in ("requirepass", "masterauth"):
            spots.append((plain[i + 1][0], 0))
    return spots


_NPM_SECRETS = ("_authtoken", "_auth", "_password", "npmauthtoken", "npmauthident")


def _package_config(walked: Walked, args: list[str]) -> list[_Spot]:
    # npm docs, "npmrc", "Auth related configuration": "_auth", "_authToken",
    # "_password" (also "//registry.example/:_authToken"); "npm config set <key>=<value>
    # [<key>=<value> ...]" or "<key> <value>"; Yarn docs, "npmAuthToken", "npmAuthIdent"
    words = walked.path + [w for _, w in _plain(walked, args)]
    if words[:2] != ["config", "set"]:
        return []
    plain = _plain(walked, args)[max(0, 2 - len(walked.path)) :]
    spots = []
    for i, (at, word) in enumerate(plain):
        key, eq, _ = word.partition("=")
        if not key.lower().endswith(_NPM_SECRETS):
            continue
        if eq:
            spots.append((at, len(key) + 1))
        elif i + 1 < len(plain):
            spots.append((plain[i + 1][0], 0))
    return spots


def _mc(walked: Walked, args: list[str]) -> list[_Spot]:
    # MinIO Client docs: "mc alias set ALIAS URL ACCESSKEY SECRETKEY"; the older "mc
    # config host add ALIAS URL ACCESSKEY SECRETKEY"
    plain = _plain(walked, args)
    words = [w for _, w in plain]
    for lead in (["alias", "set"], ["config", "host", "add"]):
        at = len(lead) + 3
        if words[: len(lead)] == lead and len(words) > at:
            return [(plain[at][0], 0)]
    return []


def _freerdp(walked: Walked, args: list[str]) -> list[_Spot]:
    # FreeRDP manual: "/p:<password>  Password", "/pth:<password-hash>  Pass the hash"
    spots = []
    for at, word in _plain(walked, args):
        for lead in ("/p:", "/pth:", "/password:"):
            if word.startswith(lead) and len(word) > len(lead):
                spots.append((at, len(lead)))
    return spots


def _sqlplus(walked: Walked, args: list[str]) -> list[_Spot]:
    # SQL*Plus docs: "sqlplus username/password@connect_identifier"
    plain = _plain(walked, args)
    if not plain:
        return []
    at, word = plain[0]
    user, slash, rest = word.partition("/")
    if not slash or not user or not rest or "/" in user:
        return []
    password = rest.rpartition("@")[0] if "@" in rest else rest
    return [(at, len(user) + 1, len(password))]


def _gh(walked: Walked, args: list[str]) -> list[_Spot]:
    # GitHub CLI manual, "gh secret set": "-b, --body string  The value for the secret"
    if walked.path[:2] != ["secret", "set"]:
        return []
    return [(at, offset) for name, _, at, offset in walked.options if name == "--body"]


def _kubectl(walked: Walked, args: list[str]) -> list[_Spot]:
    # kubectl reference, "kubectl create secret generic": "--from-literal=key1=supersecret"
    if walked.path[:2] != ["create", "secret"]:
        return []
    spots = []
    for name, value, at, offset in walked.options:
        key, eq, _ = value.partition("=")
        if name == "--from-literal" and eq:
            spots.append((at, offset + len(key) + 1))
    return spots


#: program -> the positional secrets of its words (each rule cites the tool's docs).
POSITIONAL: dict[str, Callable[[Walked, list[str]], list[_Spot]]] = {
    "mysqladmin": _mysqladmin,
    "mariadb-admin": _mysqladmin,
    "htpasswd": _htpasswd,
    "aws": _aws,
    "vault": _vault,
    # cargo-login(1): "cargo login [options] [token]"
    "cargo": _first_after(["login"], 0),
    # ngrok docs: "ngrok config add-authtoken <token>"; ngrok v2: "ngrok authtoken <token>"
    "ngrok": lambda w, a: _first_after(["authtoken"], 0)(w, a)
    or _first_after(["config", "add-authtoken"], 0)(w, a),
    "poetry": _poetry,
    "redis-cli": _redis,
    "npm": _package_config,
    "pnpm": _package_config,
    "yarn": _package_config,
    "mc": _mc,
    "xfreerdp": _freerdp,
    "xfreerdp3": _freerdp,
    "wlfreerdp": _freerdp,
    "sqlplus": _sqlplus,
    "gh": _gh,
    "kubectl": _kubectl,
}

_HAND = frozenset(
    {program for program, options in SPEC_CORRECTIONS.items()
     if any(bits & SECRET for _, bits, _ in options.values())}
    | {program for program, _ in VALUE_FORMS} | set(POSITIONAL)
)  # fmt: skip


_CANDIDATES: dict[str, str | None] = {}


def _candidate(word: str) -> str | None:
    """The program ``word`` runs if secrets may sit in its words, else None (kept per
    process: a text names the same words again and again)."""
    if word in _CANDIDATES:
        return _CANDIDATES[word]
    program: str | None = word
    if word not in _HAND:
        program = canonical_program(word, None)[0]
        if program not in _HAND and not may_take_secret(program):
            program = None
    if len(_CANDIDATES) >= 4096:
        _CANDIDATES.clear()
    _CANDIDATES[word] = program
    return program


# --- reading a text -----------------------------------------------------------------------

_PROGRAM_WORD = re.compile(r"[A-Za-z0-9_][\w.+-]*")
#: before a program's name: the start, a blank, a folder, a quote, an operator, "Bash:"
_BEFORE = frozenset(" \t\r\n/\"'`;|&(={:$")
_ASSIGNMENT_HINT = re.compile(
    r"(?i:pass|pwd|secret|token|key|credential|auth)[\w.-]*=[^\s=]", re.ASCII
)
_ASSIGNMENT = re.compile(r"(-{0,2})([A-Za-z_][\w.-]{0,63})=")
#: What documentation writes where a secret goes, and prose around an option: a
#: placeholder (``<token>``, ``PASSWORD``, ``[options]``, ``***``, ``...``, the option's own
#: word: "-p password"), a template, a marker, or a word of punctuation.
_PLACEHOLDER = re.compile(
    r"(?:<.*|.*>|\*+|x{3,}|X{3,}|.*\.\.\..*|.*….*|\[.*|.*\]|\(.*|.*\)|.*[,;:`]|[,;:].*"
    r"|.*\s-{1,2}[A-Za-z].*|\{\{.*\}\}"
    r"|%[A-Za-z_]+%|[A-Z]+(?:_[A-Z]+)*|[^A-Za-z0-9]*"
    r"|(?i:true|false|yes|no|none|null|nil|on|off|\d{1,5}|your[-_]?\w*|my[-_]?(?:password|secret"
    r"|token|pass)|(?:new|old)?[-_]?(?:password|passwd|pass|pw|pwd|pswd|passphrase|phrase)"
    r"|secret|token|key|apikey|api[-_]key|credentials?|value|val|string|str|arg|rounds|cost"
    r"|options|changeme|redacted))\Z"
)
_SCAN = re.compile(r"[^\s;|&()]+")


class _Word(NamedTuple):
    value: str
    start: int
    end: int
    dynamic: bool


def _words(text: str, at: int) -> list[_Word]:
    """The words of the first command of ``text[at:]`` with their spans (the shell
    grammar's words, :mod:`loopx_recall_core.routes.grammar`; where the text is not a
    complete command line, a cut or quoted one, its blank-separated words, unquoted)."""
    rest = text[at:]
    try:
        commands = parse(rest)
    except (ParseError, RecursionError):
        commands = None
    out: list[_Word] = []
    if commands and commands[0].kind == "simple":
        cursor = 0
        for word in commands[0].words:
            found = rest.find(word.raw, cursor)
            if found < 0:
                break
            cursor = found + len(word.raw)
            out.append(_Word(word.value, at + found, at + cursor, word.dynamic))
        return out
    for match in _SCAN.finditer(rest):
        raw = match.group()
        if out and rest[out[-1].end - at : match.start()].strip(" \t"):
            break  # an operator or a newline: the command ended
        value = raw.replace('"', "").replace("'", "")  # quotes in prose pair unreliably
        dynamic = "$" in raw or "`" in raw
        out.append(_Word(value, at + match.start(), at + match.end(), dynamic))
    return out


def _span(word: _Word, offset: int, text: str, length: int | None = None) -> tuple[int, int]:
    """Where the secret ``word.value[offset:offset+length]`` is written in ``text``."""
    secret = word.value[offset:] if length is None else word.value[offset : offset + length]
    raw = text[word.start : word.end]
    found = raw.find(secret, min(offset, len(raw)))
    if found < 0:
        found = raw.find(secret)
    if found >= 0:
        return word.start + found, word.start + found + len(secret)
    # written with quotes or escapes inside: the whole word after the option's letters
    start = word.start + min(offset, len(raw))
    while start < word.end and text[start] in "\"'":
        start += 1
    end = word.end
    while end > start and text[end - 1] in "\"'":
        end -= 1
    return start, end


def _secret_ok(value: str) -> bool:
    value = value.strip()
    return bool(value) and value != "-" and not _PLACEHOLDER.match(value)


def _assignments(words: list[_Word], text: str) -> Iterator[Found]:
    for word in words:
        value, offset = word.value, 0
        for _ in range(3):  # --from-literal=password=V: the innermost NAME=VALUE
            match = _ASSIGNMENT.match(value, offset)
            if match is None:
                break
            offset = match.end()
            secret = value[offset:]
            if (word.dynamic and "$" in secret) or not _secret_ok(secret):
                continue
            start, end = _span(word, offset, text)
            if end > start and _written_whole(secret, start, text):
                yield Found(start, end, match.group(2))


def _command(program: str, words: list[_Word], text: str) -> Iterator[Found]:
    args = [w.value for w in words]
    walked = walk_words(program, args, None)
    spots: list[tuple[int, int, int | None]] = [(at, off, None) for at, off, _ in walked.secrets]
    for name, value, at, offset in walked.options:
        form = VALUE_FORMS.get((program, name))
        if form is not None:
            part = form(value)
            spots = [s for s in spots if s[0] != at]  # the form says which part
            if part is not None:
                spots.append((at, offset + part[0], part[1] - part[0]))
    rule = POSITIONAL.get(program)
    if rule is not None:
        spots.extend((*spot, None)[:3] for spot in rule(walked, args))  # type: ignore[misc]
    for at, offset, length in spots:
        word = words[at]
        secret = word.value[offset:] if length is None else word.value[offset : offset + length]
        if (word.dynamic and "$" in secret) or not _secret_ok(secret):
            continue
        start, end = _span(word, offset, text, length)
        if end > start and _written_whole(secret, start, text):
            yield Found(start, end, "")


def _written_whole(secret: str, start: int, text: str) -> bool:
    """A value holding a blank is one only when a quote opens right before it
    (``-p'my pass'``); quotes that pair across words are prose (``"mc ... KEY"; the``)."""
    return not any(c.isspace() for c in secret) or (start > 0 and text[start - 1] in "\"'")


#: ``<token>``, ``<user:password>``: a usage line, not a command (a shell would read
#: redirections there).
_USAGE = re.compile(r"<[A-Za-z][\w:.-]*>")


#: Commands that read a secret on standard input, so ``echo SECRET | <command>`` types
#: it on the command line: docker login docs, "Provide a password using STDIN" (also
#: podman-login(1), helm registry login, oras, cosign, crane, nerdctl, buildah:
#: ``--password-stdin``); GitHub CLI "gh auth login --with-token  Read token from
#: standard input"; docker secret create docs: ``printf "..." | docker secret create
#: my_secret -``; chpasswd(8) "user_name:password" lines; passwd(1) ``--stdin``.
_STDIN_READERS = re.compile(
    r"--password-stdin|--with-token|\bchpasswd\b|\bpasswd\b[^|\n]*--stdin"
    r"|\bsecret\s+create\s+\S+\s+-(?:\s|$)"
)
_ECHO = frozenset({"echo", "printf"})


def _piped(body: str) -> Iterator[Found]:
    """``echo SECRET | <a command reading its secret on standard input>``: the words echoed."""
    if "|" not in body or not _STDIN_READERS.search(body):
        return
    try:
        commands = parse(body)
    except (ParseError, RecursionError):
        return
    cursor = 0
    placed: list[list[_Word]] = []
    for command in commands:
        words = []
        for word in command.words:
            found = body.find(word.raw, cursor)
            if found < 0:
                return
            cursor = found + len(word.raw)
            words.append(_Word(word.value, found, cursor, word.dynamic))
        placed.append(words)
    for index in range(len(commands) - 1):
        words, reader = placed[index], commands[index + 1]
        if not words or words[0].value not in _ECHO or not reader.after_pipe:
            continue
        if not _STDIN_READERS.search(" ".join(w.raw for w in reader.words)):
            continue
        args = [w for w in words[1:] if not (w.value.startswith("-") and len(w.value) <= 3)]
        if words[0].value == "printf" and len(args) > 1:
            args = args[1:]  # the format, then the values
        chpasswd = any(w.value == "chpasswd" for w in reader.words)
        for word in args:
            if word.dynamic or not _secret_ok(word.value):
                continue
            offset = word.value.find(":") + 1 if chpasswd else 0
            start, end = _span(word, offset, body)
            if end > start:
                yield Found(start, end, "")


def _line_at(text: str, at: int) -> tuple[int, int]:
    """The logical line holding ``at``: a newline after a backslash continues it."""
    start = text.rfind("\n", 0, at)
    while start > 0 and text[start - 1] == "\\":
        start = text.rfind("\n", 0, start - 1)
    end = text.find("\n", at)
    while end > 0 and text[end - 1] == "\\":
        end = text.find("\n", end + 1)
    return start + 1, len(text) if end < 0 else end


#: Each line's findings, by a keyed hash of the line (never the line itself: no text is
#: kept, only where its secrets are): a text's unescaped views and the snippets of one
#: recall repeat most lines.
_LINES: dict[bytes, tuple[Found, ...]] = {}
_LINES_KEY = os.urandom(16)


def command_secrets(text: str) -> list[Found]:
    """Every secret by position in ``text``, with its span (:class:`Found`)."""
    lines: set[tuple[int, int]] = set()
    for match in _PROGRAM_WORD.finditer(text):
        start, end = match.span()
        if start and text[start - 1] not in _BEFORE:
            continue
        if end < len(text) and text[end] not in " \t\\":
            continue
        if _candidate(match.group()) is not None:
            lines.add(_line_at(text, start))
    if "|" in text:
        lines |= {_line_at(text, m.start()) for m in _STDIN_READERS.finditer(text)}
    lines |= {_line_at(text, m.start()) for m in _ASSIGNMENT_HINT.finditer(text)}
    found: list[Found] = []
    for base, stop in sorted(lines):
        body = text[base:stop]
        key = hashlib.blake2b(body.encode("utf-8", "surrogatepass"), key=_LINES_KEY,
                              digest_size=16).digest()  # fmt: skip
        spans = _LINES.get(key)
        if spans is None:
            spans = tuple(_in_line(body))
            if len(_LINES) >= 8192:
                _LINES.clear()
            _LINES[key] = spans
        found.extend(Found(base + f.start, base + f.end, f.name) for f in spans)
    return found


def _in_line(body: str) -> Iterator[Found]:
    """The secrets by position of one logical line."""
    for match in _PROGRAM_WORD.finditer(body):
        start, end = match.span()
        if start and body[start - 1] not in _BEFORE:
            continue
        if end < len(body) and body[end] not in " \t\\":
            continue
        program = _candidate(match.group())
        if program is None:
            continue
        words = _words(body, start)
        if len(words) < 2 or _USAGE.search(body, start, words[-1].end):
            continue
        yield from _command(program, words[1:], body)
    yield from _piped(body)
    if _ASSIGNMENT_HINT.search(body):
        at = 0
        while at < len(body):
            words = _words(body, at)
            yield from _assignments(words, body)
            if not words:
                break
            at = words[-1].end
            # to the next command: past the operator that ended this one
            while at < len(body) and body[at] in " \t;|&()<>\n":
                at += 1
