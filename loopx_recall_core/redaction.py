# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Secret redaction: the one function every piece of transcript text we keep goes through.

:func:`redact` replaces each secret it recognises with ``[redacted:<kind>]``;
:func:`redact_snippet` does the same for a capped snippet and keeps it within its cap.
The host calls them after it has verified a provider's result and before anything is
stored, printed, digested into a receipt or compared (``recall/service.py``,
``recall/replan/comparison.py``, ``recall/replan/terms.py``).

The rules are a reviewed table of regular expressions, each from the vendor's documented
token format (the ``source`` of each :class:`Rule`), applied in order: vendor tokens with
a fixed prefix first, then structures (PEM blocks, JWTs, URL passwords, authorization
headers), then assignments whose NAME says secret. No detection library: detect-secrets
(the usual choice) costs ~260 ms to import with requests and PyYAML, ~33 ms per 2,000-
character snippet (two seconds for a full 64-item result), reports findings rather than
spans to replace, and its entropy plugins flag commit hashes and digests (README,
"What is kept out").

Redaction is idempotent (a marker matches no rule) and never lengthens a capped snippet
past its cap. It is a safety net for well-known shapes, not a guarantee: a password typed
as free text with no name around it is not recognised.
"""

from __future__ import annotations

import math
import re
import string
from collections import Counter
from collections.abc import Callable
from typing import NamedTuple

from loopx_recall_core.snippet_rules import CUT as _CUT  # a cut header's mark

__all__ = ["KINDS", "RULES", "Rule", "redact", "redact_snippet"]

_MARKER = re.compile(r"\[redacted:[a-z_]+\]")


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
    {"secret", "secrets", "token", "tokens", "password", "passwd", "pwd", "passphrase",
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
_NAME_HINTS = ("secret", "token", "passw", "pwd", "passphrase", "credential", "key")
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_PLACEHOLDER = re.compile(
    r"(?:\$\{?\{?\s*[A-Za-z_].*|%[A-Za-z_]+%?|<[^>]*>?|\*+|x+|X+|\.\.\.|…|"
    r"(?i:null|none|nil|true|false|undefined|changeme|redacted|hidden|masked|example|"
    r"placeholder|your[-_a-z]*|dummy|test|secret|password|token))\Z"
)
_NOT_VALUE = re.compile(
    r"(?:\d+(?:\.\d+)*|\d{4}-\d\d-\d\d[T ]\S*|[a-z][a-z0-9+.-]*://\S*|/\S*|~/\S*|\.{1,2}/\S*|"
    r"sha(?:1|256|384|512)[:-]\S*|md5:\S*|"
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
    if any(w in _SECRET_WORDS for w in words):
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
    return not _MARKER.match(match.group("secret"))


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


def _rule(
    kind: str,
    pattern: str,
    source: str,
    hint: tuple[str, ...],
    accept: Callable[[re.Match[str]], bool] | None = None,
) -> Rule:
    return Rule(kind, re.compile(pattern), source, hint, accept)


RULES: tuple[Rule, ...] = (
    _rule("private_key",
          r"-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY( BLOCK)?-----[\s\S]*?"
          r"(?:-----END[A-Z0-9 ]{0,40} PRIVATE KEY( BLOCK)?-----|\Z)",
          "RFC 7468 textual encoding (PKCS #8, RSA, EC, OpenSSH, PGP); a GCP service "
          "account key file's private_key is one", ("private key",)),
    _rule("jwt", r"eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*",
          "RFC 7519: base64url JOSE header and claims, both JSON objects ({\" = eyJ)",
          ("eyj",), _starts_token),
    _rule("anthropic_key", r"sk-ant-[A-Za-z0-9_-]{20,}",
          "Anthropic API keys: sk-ant-api03-..., sk-ant-admin01-...", ("sk-ant-",),
          _starts_token),
    _rule("openai_key", r"sk-(?:proj-|svcacct-|admin-)?(?P<body>[A-Za-z0-9_-]{20,})",
          "OpenAI API keys: sk-..., sk-proj-..., sk-svcacct-..., sk-admin-...", ("sk-",),
          _mixed_token),
    _rule("github_token", r"gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}",
          "GitHub token formats (2021): ghp_, gho_, ghu_, ghs_, ghr_ + 36; "
          "github_pat_ fine-grained", ("gh", "github_pat_"), _starts_token),
    _rule("gitlab_token", r"gl(?:pat|dt|rt|ptt|ft|soat)-[A-Za-z0-9_-]{20,}",
          "GitLab token prefixes: glpat- personal, gldt- deploy, glrt- runner, glptt- "
          "pipeline trigger, glft- feed, glsoat- SCIM", ("gl",), _starts_token),
    _rule("slack_token", r"xox[abprs]-[A-Za-z0-9-]{10,}|xapp-[A-Za-z0-9-]{10,}",
          "Slack token types: xoxb- bot, xoxp- user, xoxa-/xoxr- refresh, xoxs-, xapp- "
          "app-level", ("xox", "xapp-"), _starts_token),
    _rule("slack_webhook",
          r"https?://hooks\.slack\.com/(?P<secret>(?:services|workflows|triggers)"
          r"/[A-Za-z0-9/_-]+)", "Slack incoming webhooks: hooks.slack.com/services/T../B../..",
          ("hooks.slack.com",)),
    _rule("stripe_key", r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{20,}",
          "Stripe API keys: sk_live_/sk_test_ secret, rk_live_ restricted; whsec_ webhook "
          "signing secret", ("sk_live_", "rk_live_", "sk_test_", "rk_test_", "whsec_"),
          _starts_token),
    _rule("npm_token", r"npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_-])",
          "npm access tokens (2021 format): npm_ + 36 base62", ("npm_",), _starts_token),
    _rule("pypi_token", r"pypi-AgE[A-Za-z0-9_-]{50,}",
          "PyPI API tokens: pypi- + a macaroon whose base64 starts AgE", ("pypi-age",),
          _starts_token),
    _rule("aws_access_key_id",
          r"(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9_-])",
          "AWS IAM unique identifier prefixes: AKIA access key, ASIA temporary key",
          ("akia", "asia", "abia", "acca", "a3t"), _starts_token),
    _rule("aws_secret_access_key",
          r"(?i:aws_?secret_?(?:access_?)?key|secretaccesskey)[\"']?\s*[:=]\s*[\"']?"
          r"(?P<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])",
          "AWS credentials file and environment: aws_secret_access_key = 40 base64",
          ("aws_secret", "awssecret", "secretaccesskey", "secret_access_key"), _value_only),
    _rule("azure_account_key",
          r"(?i:AccountKey|SharedAccessKey|SharedAccessSignature)=(?P<secret>[^;\s\"']{16,})",
          "Azure Storage connection strings (AccountKey=) and Service Bus (SharedAccessKey=)",
          ("accesskey", "accountkey", "accesssignature"), _value_only),
    _rule("url_password",
          r"://[^\s:/?#@\[\]\"'<>]*:(?P<secret>[^\s/?#@\"'<>]+)@(?=[A-Za-z0-9\[])",
          "RFC 3986 section 3.2.1 userinfo (user:password@host); scheme, user and host kept",
          ("://",), _value_only),
    _rule("authorization",
          r"(?i:authorization)[\"']?\s*[:=]\s*[\"']?(?i:bearer|basic|token)\s+"
          r"(?P<secret>[A-Za-z0-9._~+/-]{6,}=*)",
          "RFC 6750 Bearer and RFC 7617 Basic credentials in an Authorization header",
          ("authorization",), _value_only),
    _rule("authorization", r"(?i:bearer)\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)",
          "RFC 6750 Bearer credentials outside a header (curl -H, logs)", ("bearer",),
          _token_value),
    _rule("secret", r"[\"'][ \t]*:[ \t]*\"(?P<secret>(?:[^\"\\\n]|\\.){8,})\"",
          "JSON members whose name says secret, token, password or *key (a value with "
          "blanks or escapes included)", _NAME_HINTS, _member),
    _rule("secret",
          r"(?::=|=|:(?=[ \t\"']))[ \t]*(?P<q>[\"']?)(?P<secret>[^\s\"'`,;&|<>]{8,})",
          "NAME=value (shell, .env), name: value (YAML, headers), name := value; the name "
          "is read back from the separator", _NAME_HINTS, _assigned),
    _rule("secret",
          r"--(?P<name>[A-Za-z][A-Za-z0-9-]{0,40})[ \t]+(?P<q>[\"']?)"
          r"(?P<secret>[^\s\"'`,;&|<>-][^\s\"'`,;&|<>]{7,})",
          "command-line options whose name says secret (--password VALUE, --token VALUE)",
          _NAME_HINTS, _flag),
)  # fmt: skip

KINDS: tuple[str, ...] = tuple(dict.fromkeys(rule.kind for rule in RULES))


def _apply(rule: Rule, text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        if rule.accept is not None and not rule.accept(match):
            return match.group(0)
        marker = f"[redacted:{rule.kind}]"
        if "secret" not in match.groupdict():
            return marker
        start, end = match.span()
        return text[start : match.start("secret")] + marker + text[match.end("secret") : end]

    return rule.pattern.sub(replace, text)


def redact(text: str) -> str:
    """``text`` with every secret the rules recognise replaced by ``[redacted:<kind>]``."""
    lowered = text.lower()
    for rule in RULES:
        if any(hint in lowered for hint in rule.hint):
            text = _apply(rule, text)
            lowered = text.lower()
    return text


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
