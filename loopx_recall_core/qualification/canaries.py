# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Synthetic secrets and ordinary build output, generated from a seed, for measuring
redaction (``loopx_recall_core/redaction.py``).

:func:`secret_canaries` gives lines as a transcript would hold them (a shell command, an
environment dump, a config file, an HTTP trace), each carrying one made-up secret in a
vendor's documented format: never a real credential. :func:`ordinary_lines` gives the
build and test output that must come through unchanged (commit hashes, UUIDs, digests,
base64 test data, long paths, version strings, image digests). Both are deterministic.
:func:`vendor_canaries` is issue 29's wider corpus (250 secrets of 50 kinds) that chose and
proves the detector. :func:`planted_canaries` is both (300 secrets), as the end-to-end leak
tests plant them and as ``recall qualify``'s corpus carries them in its long-history
family's transcripts (commands, outputs and messages).

Long because: one maker per vendor format and per leaking form, each with its source.
"""

from __future__ import annotations

import base64
import functools
import random
import re
import string
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass

__all__ = ["Canary", "ordinary_lines", "planted_canaries", "secret_canaries", "vendor_canaries"]

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

    def leaked(self, text: str, size: int = 8) -> list[str]:
        """The pieces of the secret ``text`` still holds, markers aside (a marker's kind,
        ``[redacted:github_pat]``, may spell a token's prefix)."""
        bare = re.sub(r"\[redacted:[a-z_]+\]", "\x00", text)
        return [piece for piece in self.fragments(size) if piece in bare]


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


# --- Issue 29: a wider corpus, for choosing and proving a maintained detector -----------
#
# Each kind is a vendor's documented token shape (prefix, alphabet, length) or a form the
# issue found leaking (command-line and environment passwords, URL passwords holding "/",
# "#" or "@", a value on the line after its name, cookies, JSON inside a JSON string).
# Bodies are drawn at random from a seed: made-up, never a real key, and never a detector's
# own test fixture. ``secret`` is the part that must not survive (for a URL, the password).

_LETTERS = string.ascii_letters
_B62 = _ALNUM


def _t(prefix: str, alphabet: str, n: int, suffix: str = "") -> Callable[[random.Random], str]:
    return lambda r: prefix + _draw(r, alphabet, n) + suffix


def _pw(r: random.Random) -> str:
    return _password(r, 16)


def _pw_special(r: random.Random) -> str:
    # a password holding the characters a URL treats as delimiters
    body = _draw(r, _ALNUM, 12)
    return body[:4] + r.choice("/#@") + body[4:8] + r.choice("/#@") + body[8:]


def _telegram(r: random.Random) -> str:
    return f"{r.randint(10**8, 10**10 - 1)}:AA{_draw(r, _B64URL, 33)}"


def _slack_bot(r: random.Random) -> str:
    return f"xoxb-{r.randint(10**10, 10**12)}-{r.randint(10**10, 10**12)}-{_draw(r, _ALNUM, 24)}"


#: kind -> (source of the shape, the secret's maker, environment-variable style name)
_VENDOR: dict[str, tuple[str, Callable[[random.Random], str], str]] = {
    "github_classic_pat": ("GitHub: ghp_ + 36 base62", _t("ghp_", _B62, 36), "GITHUB_TOKEN"),
    "github_oauth": ("GitHub: gho_ + 36 base62", _t("gho_", _B62, 36), "GH_OAUTH_TOKEN"),
    "github_app_token": ("GitHub: ghs_/ghu_ + 36 base62", _t("ghs_", _B62, 36), "GH_APP_TOKEN"),
    "github_fine_grained_pat": ("GitHub: github_pat_ + 22 + _ + 59",
                                lambda r: f"github_pat_{_draw(r, _B62, 22)}_{_draw(r, _B62, 59)}",
                                "GH_PAT"),
    "gitlab_pat": ("GitLab: glpat- + 20", _t("glpat-", _B64URL, 20), "GITLAB_TOKEN"),
    "gitlab_runner": ("GitLab: glrt- + 20", _t("glrt-", _B64URL, 20), "RUNNER_TOKEN"),
    "slack_bot": ("Slack: xoxb-<digits>-<digits>-<24>", _slack_bot, "SLACK_BOT_TOKEN"),
    "slack_webhook": ("Slack: hooks.slack.com/services/T../B../24",
                      lambda r: f"T{_draw(r, _UPPER32, 8)}/B{_draw(r, _UPPER32, 10)}/"
                                f"{_draw(r, _B62, 24)}",
                      "SLACK_WEBHOOK_URL"),
    "stripe_secret": ("Stripe: sk_live_ + 24..99 base62", _t("sk_live_", _B62, 32),
                      "STRIPE_SECRET_KEY"),
    "stripe_restricted": ("Stripe: rk_live_ + 24..99 base62", _t("rk_live_", _B62, 32),
                          "STRIPE_RESTRICTED_KEY"),
    "aws_access_key_id": ("AWS IAM: AKIA + 16 [A-Z2-7]", _t("AKIA", _UPPER32, 16),
                          "AWS_ACCESS_KEY_ID"),
    "google_api_key": ("Google Cloud API keys: AIza + 35 [A-Za-z0-9_-]", _t("AIza", _B64URL, 35),
                       "GOOGLE_API_KEY"),
    "google_oauth_secret": ("Google OAuth client secret: GOCSPX- + 28", _t("GOCSPX-", _B64URL, 28),
                            "GOOGLE_CLIENT_SECRET"),
    "openai_project_key": ("OpenAI: sk-proj- ... T3BlbkFJ ...",
                           lambda r: f"sk-proj-{_draw(r, _B64URL, 74)}T3BlbkFJ"
                                     f"{_draw(r, _B64URL, 74)}",
                           "OPENAI_API_KEY"),
    "anthropic_key": ("Anthropic: sk-ant-api03- + 93 + AA", _t("sk-ant-api03-", _B64URL, 93, "AA"),
                      "ANTHROPIC_API_KEY"),
    "huggingface_token": ("Hugging Face User Access Tokens: hf_ + 34 letters",
                          lambda r: "hf_" + "".join(r.choice(_LETTERS) for _ in range(34)),
                          "HF_TOKEN"),
    "sendgrid_key": ("SendGrid: SG. + 22 + . + 43",
                     lambda r: f"SG.{_draw(r, _B64URL, 22)}.{_draw(r, _B64URL, 43)}",
                     "SENDGRID_API_KEY"),
    "digitalocean_pat": ("DigitalOcean: dop_v1_ + 64 hex", _t("dop_v1_", _HEX, 64),
                         "DIGITALOCEAN_TOKEN"),
    "vault_service_token": ("HashiCorp Vault 1.10+: hvs. + 90+ base62", _t("hvs.", _B62, 92),
                            "VAULT_TOKEN"),
    "telegram_bot_token": ("Telegram Bot API: <bot id>:AA + 33", _telegram, "TELEGRAM_BOT_TOKEN"),
    "npm_token": ("npm: npm_ + 36 base62", _t("npm_", _B62, 36), "NPM_TOKEN"),
    "pypi_token": ("PyPI: pypi-AgEIcHlwaS5vcmc + macaroon", _t("pypi-AgEIcHlwaS5vcmc", _B64URL, 70),
                   "TWINE_PASSWORD"),
    "twilio_api_key": ("Twilio API key SID: SK + 32 hex", _t("SK", _HEX, 32), "TWILIO_API_KEY"),
    "shopify_token": ("Shopify: shpat_ + 32 hex", _t("shpat_", _HEX, 32), "SHOPIFY_ACCESS_TOKEN"),
    "databricks_token": ("Databricks PAT: dapi + 32 hex", _t("dapi", _HEX, 32), "DATABRICKS_TOKEN"),
    "doppler_token": ("Doppler: dp.pt. + 43 base62", _t("dp.pt.", _B62, 43), "DOPPLER_TOKEN"),
    "linear_key": ("Linear: lin_api_ + 40 base62", _t("lin_api_", _B62, 40), "LINEAR_API_KEY"),
    "postman_key": ("Postman: PMAK- + 24 hex + - + 34 hex",
                    lambda r: f"PMAK-{_draw(r, _HEX, 24)}-{_draw(r, _HEX, 34)}", "POSTMAN_API_KEY"),
    "age_secret_key": ("age: AGE-SECRET-KEY-1 + 58 bech32 (upper)",
                       _t("AGE-SECRET-KEY-1", "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58),
                       "SOPS_AGE_KEY"),
    "grafana_service_account": ("Grafana: glsa_ + 32 base62 + _ + 8 hex",
                                lambda r: f"glsa_{_draw(r, _B62, 32)}_{_draw(r, _HEX, 8)}",
                                "GRAFANA_TOKEN"),
    "pulumi_token": ("Pulumi: pul- + 40 hex", _t("pul-", _HEX, 40), "PULUMI_ACCESS_TOKEN"),
    "docker_hub_pat": ("Docker Hub: dckr_pat_ + 27", _t("dckr_pat_", _B64URL, 27), "DOCKER_PAT"),
    "supabase_token": ("Supabase: sbp_ + 40 hex", _t("sbp_", _HEX, 40), "SUPABASE_ACCESS_TOKEN"),
    "groq_key": ("Groq: gsk_ + 52 base62", _t("gsk_", _B62, 52), "GROQ_API_KEY"),
    "replicate_token": ("Replicate: r8_ + 37 base62", _t("r8_", _B62, 37), "REPLICATE_API_TOKEN"),
    "planetscale_token": ("PlanetScale: pscale_tkn_ + 43", _t("pscale_tkn_", _B64URL, 43),
                          "PLANETSCALE_TOKEN"),
    "jwt": ("RFC 7519 JWT", _jwt, "ID_TOKEN"),
    "mailgun_key": ("Mailgun: key- + 32 hex", _t("key-", _HEX, 32), "MAILGUN_API_KEY"),
}

_VENDOR_FORMS = (
    lambda n, s: f"export {n}={s}",
    lambda n, s: f'  "{n.lower()}": "{s}",',
    lambda n, s: f"docker run --rm -e {n}={s} app:latest",
    lambda n, s: f"{n.lower()}: {s}",
    lambda n, s: f"Using credentials {s} for the deploy step",
)


def _issue_forms() -> dict[str, tuple[str, list[Maker]]]:
    """The issue's leaking forms: (fact, makers of (secret, text))."""
    return {
        "cli_option_password": ("command-line options --password=, --api-key=, --token= ...", [
            lambda r: (s := _pw(r), f"psql --host=db --password={s} app"),
            lambda r: (s := _draw(r, _B62, 32), f"mytool deploy --api-key={s} --region eu"),
            lambda r: (s := _draw(r, _B62, 32), f"./cli login --token={s}"),
            lambda r: (s := _pw(r), f"rabbitmqctl add_user admin --password {s}"),
            lambda r: (s := _draw(r, _B62, 40), f"gh-release --client-secret={s} v1.2.3"),
        ]),
        "env_password": ("environment variables that hold a password (PGPASSWORD, DB_PASS ...)", [
            lambda r: (s := _pw(r), f"PGPASSWORD={s} psql -h db -U app"),
            lambda r: (s := _pw(r), f"DB_PASS={s} npm run migrate"),
            lambda r: (s := _pw(r), f"export MYSQL_PWD={s}"),
            lambda r: (s := _pw(r), f"REDIS_PASSWORD={s} docker compose up"),
            lambda r: (s := _pw(r), f"SMTP_PASS={s} ./send-mail.sh"),
        ]),
        "mysql_dash_p": ("mysql(1): -p<password> with no space", [
            lambda r: (s := _pw(r), f"mysql -u root -p{s} app < dump.sql"),
            lambda r: (s := _pw(r), f"mysqldump -uroot -p{s} shop > shop.sql"),
            lambda r: (s := _pw(r), f"mysql -h 127.0.0.1 -P 3306 -u app -p{s} -e 'select 1'"),
            lambda r: (s := _pw(r), f"mysqladmin -u root -p{s} status"),
            lambda r: (s := _pw(r), f"mysql --user=app -p{s} db"),
        ]),
        "curl_user": ("curl(1) -u/--user user:password", [
            lambda r: (s := _pw(r), f"curl -u deploy:{s} https://nexus.example.com/repo"),
            lambda r: (s := _pw(r), f"curl --user admin:{s} -X POST https://ci.example.com/job"),
            lambda r: (s := _pw(r), f"curl -s -u ci:{s} https://registry.example.com/v2/"),
            lambda r: (s := _pw(r), f"curl -fsSL -u 'bot:{s}' https://api.example.com"),
            lambda r: (s := _pw(r), f"curl -u jenkins:{s} http://jenkins:8080/crumbIssuer"),
        ]),
        "url_password_special": ("RFC 3986 userinfo with /, # or @ in the password", [
            lambda r: (s := _pw_special(r), f"DATABASE_URL=postgres://app:{s}@db.internal:5432/app"),
            lambda r: (s := _pw_special(r), f"git clone https://deploy:{s}@git.example.com/r.git"),
            lambda r: (s := _pw_special(r), f"redis://default:{s}@cache.internal:6379/0"),
            lambda r: (s := _pw_special(r), f"mongodb+srv://root:{s}@cluster0.example.net/db"),
            lambda r: (s := _pw_special(r), f"amqp://guest:{s}@mq.internal:5672/vhost"),
        ]),
        "value_on_next_line": ("a secret's name on one line, its value on the next", [
            lambda r: (s := _draw(r, _B62, 32), f"password:\n  {s}"),
            lambda r: (s := _draw(r, _B62, 40), f"API token:\n{s}"),
            lambda r: (s := _draw(r, _B62, 32), f'"client_secret":\n    "{s}"'),
            lambda r: (s := _pw(r), f"Enter password:\n{s}"),
            lambda r: (s := _draw(r, _B62, 36), f"SECRET_KEY=\\\n  {s}"),
        ]),
        "session_cookie": ("HTTP cookies that carry a session (RFC 6265)", [
            lambda r: (s := _draw(r, _B64URL, 40), f"Cookie: session={s}; theme=dark"),
            lambda r: (s := _draw(r, _B62, 32), f"Set-Cookie: sessionid={s}; HttpOnly; Path=/"),
            lambda r: (s := _draw(r, _B64URL, 48), f"curl -b 'connect.sid={s}' https://app"),
            lambda r: (s := _draw(r, _HEX, 32), f"-H 'Cookie: PHPSESSID={s}'"),
            lambda r: (s := _draw(r, _B64URL, 44), f"< set-cookie: _app_session={s}; secure"),
        ]),
        "nested_json_secret": ("a secret inside a JSON string inside a JSON string", [
            lambda r: (s := _draw(r, _B62, 32),
                       '{"body": "{\\"api_key\\": \\"' + s + '\\", \\"n\\": 1}"}'),
            lambda r: (s := _pw(r),
                       '{"config": "{\\"db\\": {\\"password\\": \\"' + s + '\\"}}"}'),
            lambda r: (s := _draw(r, _B62, 40),
                       '"output": "{\\"access_token\\":\\"' + s + '\\",\\"ok\\":true}"'),
            lambda r: (s := _draw(r, _B62, 36),
                       '{"msg":"{\\"headers\\":{\\"x-api-key\\":\\"' + s + '\\"}}"}'),
            lambda r: (s := _draw(r, _B62, 32),
                       '{"env": "{\\"CLIENT_SECRET\\": \\"' + s + '\\"}"}'),
        ]),
        "authorization_header": ("RFC 6750 Bearer / RFC 7617 Basic", [
            lambda r: (s := _draw(r, _B64URL, 32),
                       f'curl -H "Authorization: Bearer {s}" https://api.example.com/v1/me'),
            lambda r: (s := base64.b64encode(f"ci:{_pw(r)}".encode()).decode(),
                       f"> Authorization: Basic {s}"),
            lambda r: (s := _draw(r, _B62, 40), f"authorization: token {s}"),
            lambda r: (s := _draw(r, _B64URL, 36), f"headers = {{'Authorization': 'Bearer {s}'}}"),
            lambda r: (s := _draw(r, _B62, 32), f"X-Api-Key: {s}"),
        ]),
        "private_key": ("RFC 7468 PEM private keys", [
            lambda r: _pem(r, "RSA PRIVATE KEY"),
            lambda r: _pem(r, "OPENSSH PRIVATE KEY"),
            lambda r: _pem(r, "EC PRIVATE KEY"),
            lambda r: _pem(r, "PRIVATE KEY"),
            lambda r: (lambda b, t: (b, f'  "private_key": "{t}\\n",'))(
                *_pem(r, "PRIVATE KEY", escaped=True)),
        ]),
        "aws_secret_access_key": ("AWS credentials: 40 base64 after its name", [
            lambda r: (s := _draw(r, _B64, 40), f"export AWS_SECRET_ACCESS_KEY={s}"),
            lambda r: (s := _draw(r, _B64, 40), f"aws_secret_access_key = {s}"),
            lambda r: (s := _draw(r, _B64, 40), f'    "SecretAccessKey": "{s}",'),
            lambda r: (s := _draw(r, _B64, 40), f"AWS_SECRET_ACCESS_KEY: {s}"),
            lambda r: (s := _draw(r, _B64, 40), f"docker run -e AWS_SECRET_ACCESS_KEY={s} app"),
        ]),
        "azure_storage_key": ("Azure Storage connection string AccountKey=", [
            lambda r: (s := _draw(r, _B64, 86) + "==", "DefaultEndpointsProtocol=https;"
                       f"AccountName=st{r.getrandbits(24)};AccountKey={s};"
                       "EndpointSuffix=core.windows.net"),
            lambda r: (s := _draw(r, _B64, 43) + "=", "Endpoint=sb://ns.servicebus.windows.net/;"
                       f"SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={s}"),
            lambda r: (s := _draw(r, _B64, 86) + "==",
                       f'AZURE_STORAGE_CONNECTION_STRING="AccountName=x;AccountKey={s}"'),
            lambda r: (s := _draw(r, _B64, 86) + "==", f"az storage blob list --account-key {s}"),
            lambda r: (s := _draw(r, _B64, 86) + "==", f"AZURE_STORAGE_KEY={s}"),
        ]),
    }


def vendor_canaries(seed: int = 29) -> list[Canary]:
    """Issue 29's corpus: every vendor kind in five places a transcript holds it, and the
    issue's forms, five each (>= 200 secrets, >= 40 kinds), the same for the same seed."""
    rng = random.Random(seed)  # noqa: S311 - made-up data, reproducible by design
    found = []
    for kind, (_, make, name) in _VENDOR.items():
        for form in _VENDOR_FORMS:
            secret = make(rng)
            # a webhook's secret is its path; the text holds the whole URL
            url = secret if kind != "slack_webhook" else f"https://hooks.slack.com/services/{secret}"
            found.append(Canary(kind=kind, secret=secret, text=form(name, url)))
    for kind, (_, makers) in _issue_forms().items():
        for make in makers:
            secret, text = make(rng)
            found.append(Canary(kind=kind, secret=secret, text=text))
    return found


@functools.cache
def planted_canaries() -> tuple[Canary, ...]:
    """Every canary (:func:`secret_canaries` then :func:`vendor_canaries`): the corpus the
    end-to-end leak tests plant, and the one the qualification corpus carries."""
    return (*secret_canaries(), *vendor_canaries())
