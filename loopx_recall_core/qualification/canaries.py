# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Synthetic secrets and ordinary build output, generated from a seed, for measuring
redaction (``loopx_recall_core/redaction.py``).

:func:`secret_canaries` gives lines as a transcript would hold them (a shell command, an
environment dump, a config file, an HTTP trace), each carrying one made-up secret in a
vendor's documented format: never a real credential. :func:`ordinary_lines` gives the
build and test output that must come through unchanged (commit hashes, UUIDs, digests,
base64 test data, long paths, version strings, image digests). Both are deterministic.
"""

from __future__ import annotations

import base64
import random
import string
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass

__all__ = ["Canary", "ordinary_lines", "secret_canaries"]

_ALNUM = string.ascii_letters + string.digits
_UPPER32 = string.ascii_uppercase + "234567"
_B64 = _ALNUM + "+/"
_B64URL = _ALNUM + "-_"
_HEX = "0123456789abcdef"
_PASSWORD = _ALNUM + "!%^*()~"


@dataclass(frozen=True)
class Canary:
    """``text`` holds ``secret``; redacted, it must hold ``[redacted:<kind>]`` and no
    :meth:`fragments` of the secret."""

    kind: str
    secret: str
    text: str

    def fragments(self, size: int = 12) -> list[str]:
        """Every ``size``-character piece of the secret: a partial leak is a leak too."""
        return [self.secret[i : i + size] for i in range(max(len(self.secret) - size + 1, 1))]


def _draw(rng: random.Random, alphabet: str, n: int) -> str:
    while True:
        value = "".join(rng.choice(alphabet) for _ in range(n))
        # random keys mix digits and letters; a draw without both is redrawn
        if any(c.isdigit() for c in value) and any(c.isalpha() for c in value):
            return value


def _password(rng: random.Random, n: int = 16) -> str:
    return _draw(rng, _PASSWORD, n - 2) + rng.choice("ABCXYZ") + rng.choice("0123456789")


def _pem(rng: random.Random, label: str, escaped: bool = False) -> tuple[str, str]:
    body = base64.b64encode(rng.randbytes(180)).decode()
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    newline = "\\n" if escaped else "\n"
    text = newline.join([f"-----BEGIN {label}-----", *lines, f"-----END {label}-----"])
    return lines[1], text  # a whole line of the key (fragments never span a line break)


def _jwt(rng: random.Random) -> str:
    def segment(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    claims = f'{{"sub":"{rng.getrandbits(40)}","iat":{1700000000 + rng.getrandbits(20)}}}'
    header = segment(b'{"alg":"HS256","typ":"JWT"}')
    return f"{header}.{segment(claims.encode())}.{segment(rng.randbytes(32))}"


Maker = Callable[[random.Random], tuple[str, str]]


def _makers() -> dict[str, list[Maker]]:
    gh = lambda p: lambda r: (s := f"{p}_{_draw(r, _ALNUM, 36)}", f"export GITHUB_TOKEN={s}")  # noqa: E731
    return {
        "aws_access_key_id": [
            lambda r: (s := "AKIA" + _draw(r, _UPPER32, 16), f"export AWS_ACCESS_KEY_ID={s}"),
            lambda r: (s := "ASIA" + _draw(r, _UPPER32, 16), f"aws_access_key_id = {s}"),
            lambda r: (s := "AKIA" + _draw(r, _UPPER32, 16), f"found key {s} in ~/.aws"),
        ],
        "aws_secret_access_key": [
            lambda r: (s := _draw(r, _B64, 40), f"export AWS_SECRET_ACCESS_KEY={s}"),
            lambda r: (s := _draw(r, _B64, 40), f"aws_secret_access_key = {s}"),
            lambda r: (s := _draw(r, _B64, 40), f'    "SecretAccessKey": "{s}",'),
        ],
        "private_key": [
            lambda r: _pem(r, "RSA PRIVATE KEY"),
            lambda r: _pem(r, "OPENSSH PRIVATE KEY"),
            lambda r: (lambda b, t: (b, f'  "private_key": "{t}\\n",'))(
                *_pem(r, "PRIVATE KEY", escaped=True)
            ),  # a GCP service-account key file
        ],
        "azure_account_key": [
            lambda r: (s := _draw(r, _B64, 86) + "==", "DefaultEndpointsProtocol=https;"
                       f"AccountName=st{r.getrandbits(24)};AccountKey={s};"
                       "EndpointSuffix=core.windows.net"),
            lambda r: (s := _draw(r, _B64, 43) + "=", "Endpoint=sb://ns.servicebus.windows.net/;"
                       f"SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={s}"),
            lambda r: (s := _draw(r, _B64, 86) + "==",
                       f'AZURE_STORAGE_CONNECTION_STRING="AccountName=x;AccountKey={s}"'),
        ],
        "github_token": [
            *(gh(p) for p in ("ghp", "gho", "ghu", "ghs", "ghr")),
            lambda r: (s := f"github_pat_{_draw(r, _ALNUM, 22)}_{_draw(r, _ALNUM, 59)}",
                       f"git push https://x:{s}@github.com/org/repo.git"),
        ],
        "gitlab_token": [
            lambda r: (s := "glpat-" + _draw(r, _B64URL, 20), f"GITLAB_TOKEN={s}"),
            lambda r: (s := "glpat-" + _draw(r, _B64URL, 20), f"--header 'PRIVATE-TOKEN: {s}'"),
            lambda r: (s := "gldt-" + _draw(r, _B64URL, 20), f"deploy token {s}"),
        ],
        "slack_token": [
            lambda r: (s := f"xoxb-{r.getrandbits(40)}-{r.getrandbits(40)}-{_draw(r, _ALNUM, 24)}",
                       f"SLACK_BOT_TOKEN={s}"),
            lambda r: (s := f"xoxp-{r.getrandbits(40)}-{_draw(r, _ALNUM, 32)}",
                       f"slack client init token={s}"),
        ],
        "slack_webhook": [
            lambda r: (s := f"T{_draw(r, _UPPER32, 8)}/B{_draw(r, _UPPER32, 10)}/"
                       f"{_draw(r, _ALNUM, 24)}",
                       f"curl -X POST https://hooks.slack.com/services/{s} -d @msg.json"),
            lambda r: (s := f"T{_draw(r, _UPPER32, 8)}/B{_draw(r, _UPPER32, 10)}/"
                       f"{_draw(r, _ALNUM, 24)}",
                       f'webhook_url: "https://hooks.slack.com/services/{s}"'),
        ],
        "stripe_key": [
            lambda r: (s := "sk_live_" + _draw(r, _ALNUM, 24), f"STRIPE_SECRET_KEY={s}"),
            lambda r: (s := "rk_live_" + _draw(r, _ALNUM, 24), f"stripe.api_key = '{s}'"),
            lambda r: (s := "sk_test_" + _draw(r, _ALNUM, 24), f"-u {s}:"),
        ],
        "npm_token": [
            lambda r: (s := "npm_" + _draw(r, _ALNUM, 36), f"//registry.npmjs.org/:_authToken={s}"),
            lambda r: (s := "npm_" + _draw(r, _ALNUM, 36), f"NPM_TOKEN={s} npm publish"),
        ],
        "pypi_token": [
            lambda r: (s := "pypi-AgEIcHlwaS5vcmc" + _draw(r, _B64URL, 70),
                       f"twine upload -u __token__ -p {s} dist/*"),
            lambda r: (s := "pypi-AgEIcHlwaS5vcmc" + _draw(r, _B64URL, 70), f"password = {s}"),
        ],
        "openai_key": [
            lambda r: (s := "sk-" + _draw(r, _ALNUM, 48), f"export OPENAI_API_KEY={s}"),
            lambda r: (s := "sk-proj-" + _draw(r, _B64URL, 120), f"openai.api_key = \"{s}\""),
            lambda r: (s := "sk-svcacct-" + _draw(r, _B64URL, 60), f"key {s} rejected"),
        ],
        "anthropic_key": [
            lambda r: (s := f"sk-ant-api03-{_draw(r, _B64URL, 93)}AA",
                       f"export ANTHROPIC_API_KEY={s}"),
            lambda r: (s := f"sk-ant-api03-{_draw(r, _B64URL, 93)}AA", f"x-api-key: {s}"),
        ],
        "jwt": [
            lambda r: (s := _jwt(r), f"id_token={s}"),
            lambda r: (s := _jwt(r), f"session cookie {s} expired"),
        ],
        "url_password": [
            lambda r: (s := _password(r), f"DATABASE_URL=postgres://app:{s}@db.internal:5432/app"),
            lambda r: (s := _password(r), f"git clone https://deploy:{s}@git.example.com/r.git"),
            lambda r: (s := _password(r), f"redis-cli -u redis://:{s}@cache:6379/0 ping"),
        ],
        "authorization": [
            lambda r: (s := _draw(r, _B64URL, 32),
                       f'curl -H "Authorization: Bearer {s}" https://api.example.com/v1/me'),
            lambda r: (s := base64.b64encode(f"ci:{_password(r)}".encode()).decode(),
                       f"> Authorization: Basic {s}"),
            lambda r: (s := _draw(r, _ALNUM, 40), f"authorization: token {s}"),
        ],
        "secret": [
            lambda r: (s := _password(r), f"DB_PASSWORD={s}"),
            lambda r: (s := _draw(r, _B64URL, 32), f'  "client_secret": "{s}",'),
            lambda r: (s := _draw(r, _HEX, 64), f"SECRET_KEY_BASE={s}"),
            lambda r: (s := _password(r, 14), f"mysql -u root --password {s} app"),
            lambda r: (s := _draw(r, _B64URL, 28), f"  api_key: {s}"),
        ],
    }


def secret_canaries(seed: int = 22) -> list[Canary]:
    """At least 50 canaries, every kind the redactor covers, the same for the same seed."""
    rng = random.Random(seed)  # noqa: S311 - made-up data, reproducible by design
    found = []
    for kind, makers in _makers().items():
        for make in makers:
            secret, text = make(rng)
            found.append(Canary(kind=kind, secret=secret, text=text))
    return found


def _ordinary(rng: random.Random) -> Iterator[str]:
    hx = lambda n: "".join(rng.choice(_HEX) for _ in range(n))  # noqa: E731
    b64 = lambda n: base64.b64encode(rng.randbytes(n)).decode()  # noqa: E731
    ver = lambda: f"{rng.randint(0, 30)}.{rng.randint(0, 40)}.{rng.randint(0, 99)}"  # noqa: E731
    uid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    pkg = rng.choice(["attrs", "cattrs", "pluggy", "click", "requests", "numpy"])
    yield f"commit {hx(40)}"
    yield f"HEAD is now at {hx(7)} fix the token refresh race"
    yield f"   {hx(7)}..{hx(7)}  main -> main"
    yield f"Merge: {hx(7)} {hx(7)}"
    yield f"session {uid} started"
    yield f"x-request-id: {uid}"
    yield f'{{"level":"info","msg":"token refreshed","request_id":"{uid}","expires_in":3600}}'
    yield f'{{"token_type": "Bearer", "access_token_expires_at": "2026-11-{rng.randint(10, 28)}T10:00:00Z"}}'  # noqa: E501
    yield f"{hx(64)}  dist/{pkg}-{ver()}.tar.gz"
    yield f"sha256:{hx(64)}"
    yield f"Digest: sha256:{hx(64)}"
    yield f"FROM python:3.12-slim@sha256:{hx(64)}"
    yield f"docker.io/library/redis@sha256:{hx(64)}"
    yield f"Successfully tagged registry.example.com/team/app:{ver()}-rc.{rng.randint(1, 9)}"
    yield f'    "integrity": "sha512-{b64(64)}",'
    yield f'fixture_payload = "{b64(48)}"'
    yield f"data: {b64(36)}"
    yield f"E       AssertionError: assert b'{b64(24)}' == b'{b64(24)}'"
    yield (f"/home/runner/work/proj/proj/.venv/lib/python3.12/site-packages/{pkg}/"
           f"_internal/{rng.choice(['core', 'utils', 'api'])}.py:{rng.randint(1, 999)}: in call")
    yield f"Cloning into '/tmp/build-{hx(12)}/checkout/vendor/github.com/org/module'..."
    yield f"Successfully installed attrs-{ver()} cattrs-{ver()} {pkg}-{ver()}"
    yield f"node v{ver()} npm {ver()} rustc {ver()} ({hx(9)} 2026-10-15)"
    yield f"tests/test_auth.py::test_token_refresh PASSED [ {rng.randint(1, 99)}%]"
    yield "FAILED tests/test_api.py::test_password_reset - AssertionError: assert 401 == 200"
    yield f"Cache key: node-cache-Linux-x64-npm-{hx(64)}"
    yield f"Restored cache with key pip-{hx(64)}"
    yield f"max_tokens={rng.randint(256, 8192)} temperature=0.2"
    yield f"GITHUB_SHA={hx(40)}"
    yield f"GITHUB_RUN_ID={rng.getrandbits(34)}"
    yield f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{b64(30)} ci@runner"
    yield "credential.helper=manager-core"
    yield "  api_key: ${{ secrets.API_KEY }}"
    yield "export GITHUB_TOKEN=$GITHUB_TOKEN_FROM_VAULT"
    yield f"secretName: app-tls-{hx(6)}"
    yield f"password_hash: $2b$12${b64(40)[:53]}"
    yield f"WWW-Authenticate: Bearer realm=\"api\", error=\"invalid_token\" ({uid})"
    yield f"npm warn deprecated inflight@1.0.6: {hx(8)} leaks memory"
    yield f"git clone https://github.com/org/repo-{hx(6)}.git"
    yield f"ERROR: Could not find a version that satisfies the requirement {pkg}=={ver()}"
    yield f"task-runner-{hx(24)} finished in {rng.randint(1, 999)} ms"


def ordinary_lines(seed: int = 22, rounds: int = 25) -> list[str]:
    """``rounds`` x 40 lines of ordinary build and test output that hold no secret."""
    rng = random.Random(seed)  # noqa: S311 - made-up data, reproducible by design
    return [line for _ in range(rounds) for line in _ordinary(rng)]
