# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Secrets typed where a program takes them, as each tool's own documentation writes the
command or file (its usage line, its examples), with made-up values (issue 40).

Each form names its tool and its source. A value's shape is chosen per form (a plain
word, a password with symbols, digits, a vendor token), because a password is known by
its place, not its shape: the redactor must catch it whatever it looks like. Every value
is made up here from a fixed seed (never a real key, never a tool's own example value);
each is unique in the corpus, so a test can look for it in any output.

Used by ``tests/core/test_secrets_by_position.py`` (recall by form, each form through
every path that prints or stores text) and ``benchmarks/secret_detectors.py``.
"""

from __future__ import annotations

import random
import string
from typing import NamedTuple

__all__ = ["FORMS", "Form", "secret_forms"]


class Form(NamedTuple):
    name: str  # tool: what the form is
    text: str  # the command line or file lines, the secret in place
    secret: str
    source: str

    @property
    def kind(self) -> str:  # the canaries' field: what a leak is reported as
        return self.name

    def leaked(self, output: str) -> bool:
        """Whether any of the secret survives in ``output`` (the whole value, or for a
        long one any 8-character piece of it)."""
        if self.secret in output:
            return True
        if len(self.secret) < 16:
            return False
        return any(self.secret[i : i + 8] in output for i in range(len(self.secret) - 7))


_ALNUM = string.ascii_letters + string.digits


def _shape(rng: random.Random, shape: str) -> str:
    pick = lambda alphabet, n: "".join(rng.choice(alphabet) for _ in range(n))  # noqa: E731
    if shape == "word":  # a plain lower-case password: no shape says it is one
        return pick(string.ascii_lowercase, rng.randint(9, 12))
    if shape == "pw":  # a password with a symbol
        return pick(_ALNUM, 9) + rng.choice("!@%^*-_+=") + pick(string.digits, 2)
    if shape == "digits":
        return pick(string.digits, rng.randint(8, 10))
    if shape == "url":  # safe in a URL and in any quoting
        return pick(_ALNUM, 16)
    if shape == "sk_live":
        return "sk_live_" + pick(_ALNUM, 24)
    if shape == "rk_live":
        return "rk_live_" + pick(_ALNUM, 24)
    if shape == "telegram":
        return pick(string.digits, 10) + ":AA" + pick(_ALNUM + "_-", 33)
    if shape == "discord":
        return ("M" + pick(_ALNUM, 23) + "." + pick(_ALNUM, 6) + "."
                + pick(_ALNUM + "_-", 27))  # fmt: skip
    if shape == "ya29":
        return "ya29." + pick(_ALNUM + "_-", 60)
    if shape == "hex64":
        return pick("0123456789abcdef", 64)
    if shape == "sig":  # a URL-encoded base64 signature (Azure SAS)
        return pick(_ALNUM, 30) + "%2B" + pick(_ALNUM, 9) + "%3D"
    if shape == "b64":
        return pick(_ALNUM + "+/", 27) + "="
    if shape == "slack":
        return pick(string.ascii_uppercase + string.digits, 24)
    if shape == "mm26":
        return pick(string.ascii_lowercase + string.digits, 26)
    if shape == "ghp":
        return "ghp_" + pick(_ALNUM, 36)
    if shape == "hvs":
        return "hvs." + pick(_ALNUM, 24)
    if shape == "npm":
        return "npm_" + pick(_ALNUM, 36)
    if shape == "pypi":
        return "pypi-AgEIcHlwaS5vcmc" + pick(_ALNUM + "_-", 50)
    if shape == "aws":
        return pick(_ALNUM + "/+", 40)
    if shape == "tskey":
        return "tskey-auth-" + pick(_ALNUM, 12) + "-" + pick(_ALNUM, 30)
    if shape == "token":  # an opaque API token
        return pick(_ALNUM, 32)
    raise ValueError(shape)


# (name, template with {s}, shape, source)
_CURL = "curl(1), curl --help all (installed)"
_TEMPLATES: list[tuple[str, str, str, str]] = [
    # --- curl ---------------------------------------------------------------------------
    ("curl -u user:password", "curl -u alice:{s} https://api.example.com/v1/items", "pw", _CURL),
    ("curl --user 'user:password'", "curl --user 'alice:{s}' https://api.example.com", "word",
     _CURL),
    ("curl -u Stripe secret key:", "curl https://api.stripe.com/v1/charges -u {s}: -d amount=2000",
     "sk_live", "Stripe API docs, 'Authentication': curl ... -u sk_...:"),
    ("curl -u Stripe restricted key:", "curl https://api.stripe.com/v1/customers -u {s}:",
     "rk_live", "Stripe docs, 'Restricted API keys'"),
    ("curl -U proxy user:password", "curl -U proxyuser:{s} -x http://proxy.example.com:3128 "
     "https://example.com", "pw", _CURL),
    ("curl --proxy-user", "curl --proxy-user proxyuser:{s} -x http://proxy:3128 https://a.example",
     "word", _CURL),
    ("curl --oauth2-bearer", "curl --oauth2-bearer {s} https://api.example.com/me", "token", _CURL),
    ("curl -E cert:password", "curl -E client.pem:{s} https://mtls.example.com", "word", _CURL),
    ("curl --cert cert:password", "curl --cert ./client.pem:{s} https://mtls.example.com",
     "pw", _CURL),
    ("curl --pass key passphrase", "curl --cert c.pem --key k.pem --pass {s} https://x.example.com",
     "word", _CURL),
    ("curl -H Authorization: Bearer", 'curl -H "Authorization: Bearer {s}" https://api.example.com',
     "token", "RFC 6750 section 2.1; curl(1) -H"),
    ("curl -H Authorization: Basic", "curl -H 'Authorization: Basic {s}' https://api.example.com",
     "b64", "RFC 7617 section 2"),
    ("Telegram sendMessage URL", 'curl "https://api.telegram.org/bot{s}/sendMessage?chat_id=42&'
     'text=hi"', "telegram", "Telegram Bot API, 'Making requests'"),
    ("Telegram getUpdates URL", "curl -X POST https://api.telegram.org/bot{s}/getUpdates",
     "telegram", "Telegram Bot API, 'getUpdates'"),
    ("Telegram file download URL", "wget https://api.telegram.org/file/bot{s}/photos/file_1.jpg",
     "telegram", "Telegram Bot API, 'getFile'"),
    ("Discord webhook URL", "curl -H \"Content-Type: application/json\" "
     "-d '{{\"content\":\"hi\"}}' "
     "https://discord.com/api/webhooks/123456789012345678/{s}", "token",
     "Discord developer docs, 'Execute Webhook'"),
    ("Discord webhook URL (discordapp.com)", "curl -X POST https://discordapp.com/api/webhooks/"
     "876543210987654321/{s}", "url", "Discord developer docs, 'Webhook Resource'"),
    ("Discord Authorization: Bot", 'curl -H "Authorization: Bot {s}" '
     "https://discord.com/api/v10/users/@me", "discord", "Discord docs, 'Authentication'"),
    ("Discord bot token in code", 'client.run("{s}")', "discord",
     "discord.py docs, 'A Minimal Bot': client.run('your token here')"),
    ("Slack incoming webhook", "curl -X POST -H 'Content-type: application/json' --data "
     "'{{\"text\":\"Hello\"}}' https://hooks.slack.com/services/T0123ABCD/B0456EFGH/{s}", "slack",
     "Slack docs, 'Sending messages using incoming webhooks'"),
    ("Microsoft Teams webhook", "curl -H 'Content-Type: application/json' -d '{{\"text\":\"hi\"}}' "
     "https://contoso.webhook.office.com/webhookb2/{s}", "token",
     "Microsoft Learn, 'Create an Incoming Webhook'"),
    ("Mattermost incoming webhook", "curl -i -X POST -d 'payload={{\"text\":\"Hi\"}}' "
     "https://chat.example.com/hooks/{s}", "mm26", "Mattermost docs, 'Incoming webhooks'"),
    ("Zapier catch hook", "curl -X POST -d '{{}}' https://hooks.zapier.com/hooks/catch/123456/{s}/",
     "url", "Zapier help, 'Webhooks by Zapier'"),
    ("IFTTT webhook key", "curl -X POST https://maker.ifttt.com/trigger/door_open/with/key/{s}",
     "url", "IFTTT, 'Webhooks service' documentation"),
    ("Google Maps key=", 'curl "https://maps.googleapis.com/maps/api/geocode/json?address=Paris'
     '&key={s}"', "url", "Google Maps Platform, 'Geocoding API request'"),
    ("GitLab private_token=", 'curl "https://gitlab.example.com/api/v4/projects?private_token={s}"',
     "url", "GitLab REST API docs, 'Authentication'"),
    ("OAuth access_token= query", 'curl "https://www.googleapis.com/oauth2/v3/tokeninfo?'
     'access_token={s}"', "ya29", "RFC 6750 section 2.3; Google OAuth 2.0 tokeninfo"),
    ("Google ya29 bearer", 'curl -H "Authorization: Bearer {s}" https://www.googleapis.com/drive/'
     "v3/files", "ya29", "Google Identity, 'Using OAuth 2.0 to Access Google APIs'"),
    ("Google ya29 alone (print-access-token)", "$ gcloud auth print-access-token\n{s}", "ya29",
     "gcloud auth print-access-token reference"),
    ("Azure SAS sig=", 'curl "https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&ss=b&srt=co'
     '&sp=r&se=2026-01-01T00:00:00Z&spr=https&sig={s}"', "sig",
     "Azure Storage, 'Create a service SAS'"),
    ("azcopy SAS URL", "azcopy copy 'f.txt' 'https://acct.blob.core.windows.net/c?sp=rcw&"
     "st=2026-01-01T00:00:00Z&se=2026-01-02T00:00:00Z&spr=https&sv=2022-11-02&sr=c&sig={s}'",
     "sig", "Microsoft Learn, 'Upload files with AzCopy'"),
    ("az generate-sas output", '"se=2026-01-01&sp=r&sv=2022-11-02&sr=c&sig={s}"', "sig",
     "az storage container generate-sas reference (its output)"),
    ("AWS presigned X-Amz-Signature", 'curl "https://b.s3.amazonaws.com/k?X-Amz-Algorithm='
     "AWS4-HMAC-SHA256&X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host"
     '&X-Amz-Signature={s}"', "hex64", "AWS, 'Authenticating Requests: Using Query Parameters'"),
    ("GCS signed X-Goog-Signature", 'curl "https://storage.googleapis.com/b/o?X-Goog-Algorithm='
     'GOOG4-RSA-SHA256&X-Goog-Expires=900&X-Goog-Signature={s}"', "hex64",
     "Google Cloud Storage, 'Signed URLs'"),
    ("Google Chat webhook token=", 'curl -X POST "https://chat.googleapis.com/v1/spaces/AAAAx/'
     'messages?key=AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI&token={s}"', "url",
     "Google Chat, 'Build a Google Chat app as a webhook'"),
    ("curl -d client_secret=", 'curl -d "grant_type=client_credentials&client_id=app&'
     'client_secret={s}" https://oauth.example.com/token', "word", "RFC 6749 section 2.3.1"),
    ("curl -b session cookie", 'curl -b "sessionid={s}" https://example.com/account', "token",
     "RFC 6265; curl(1) -b"),
    ("curl user:password@ URL", "curl https://alice:{s}@example.com/file.txt", "word",
     "RFC 3986 section 3.2.1; curl(1) URL syntax"),
    ("curl -H PRIVATE-TOKEN", 'curl --header "PRIVATE-TOKEN: {s}" '
     "https://gitlab.example.com/api/v4/projects", "token",
     "GitLab REST API, 'Personal access tokens'"),
    ("curl -H X-API-Key", "curl -H 'X-API-Key: {s}' https://api.example.com/v1", "token",
     "API key header as vendors document it"),
    # --- wget, HTTPie -------------------------------------------------------------------
    ("wget --password=", "wget --user=alice --password={s} https://example.com/f.tgz", "word",
     "wget --help (installed)"),
    ("wget --http-password=", "wget --http-user=alice --http-password={s} https://example.com/f",
     "pw", "wget --help (installed)"),
    ("wget --ftp-password=", "wget --ftp-user=bob --ftp-password={s} ftp://ftp.example.com/f",
     "word", "wget --help (installed)"),
    ("wget --proxy-password=", "wget --proxy-user=p --proxy-password={s} https://example.com",
     "digits", "wget --help (installed)"),
    ("wget --password VALUE", "wget --password {s} https://example.com/f", "pw",
     "wget --help (installed)"),
    ("wget user:password@ URL", "wget https://alice:{s}@example.com/file", "url", "RFC 3986"),
    ("http -a user:password", "http -a alice:{s} https://pie.dev/basic-auth/alice/x", "word",
     "HTTPie docs, 'Authentication'"),
    ("http --auth user:password", "http --auth alice:{s} POST https://api.example.com", "pw",
     "HTTPie docs, 'Authentication'"),
    ("https -a user:password", "https -a alice:{s} example.org", "word", "HTTPie docs"),
    ("http Authorization:Bearer", 'http https://api.example.com Authorization:"Bearer {s}"',
     "token", "HTTPie docs, 'HTTP headers'"),
    # --- containers ---------------------------------------------------------------------
    ("docker login -p", "docker login -u alice -p {s} registry.example.com", "word",
     "docker login --help (installed): -p, --password string"),
    ("docker login --password", "docker login --username alice --password {s} ghcr.io", "pw",
     "docker login --help (installed)"),
    ("docker login --password=", "docker login --password={s} -u alice", "word",
     "docker login --help (installed)"),
    ("echo | docker login --password-stdin", 'echo "{s}" | docker login -u alice '
     "--password-stdin", "pw", "docker login docs, 'Provide a password using STDIN'"),
    ("echo | podman login --password-stdin", "echo '{s}' | podman login -u alice "
     "--password-stdin quay.io", "word", "podman-login(1)"),
    ("podman login -p", "podman login -u alice -p {s} quay.io", "word", "podman-login(1)"),
    ("helm registry login --password", "helm registry login registry.example.com --username "
     "alice --password {s}", "pw", "helm registry login --help"),
    ("helm repo add --password", "helm repo add myrepo https://charts.example.com --username "
     "alice --password {s}", "word", "helm repo add --help"),
    ("docker run -e MYSQL_ROOT_PASSWORD", "docker run -d -e MYSQL_ROOT_PASSWORD={s} mysql:8",
     "word", "Docker Hub, mysql image: MYSQL_ROOT_PASSWORD"),
    ("docker run -e POSTGRES_PASSWORD", "docker run -e POSTGRES_PASSWORD={s} -d postgres:16",
     "word", "Docker Hub, postgres image: POSTGRES_PASSWORD"),
    ("docker run --env REDIS_PASSWORD", "docker run --env REDIS_PASSWORD={s} redis:7", "pw",
     "docker run --help (installed): -e, --env list"),
    ("docker build --build-arg NPM_TOKEN", "docker build --build-arg NPM_TOKEN={s} -t app .",
     "npm", "docker build --help (installed): --build-arg"),
    ("docker exec -e PGPASSWORD", "docker exec -e PGPASSWORD={s} db psql -U postgres", "word",
     "docker exec --help (installed); PostgreSQL PGPASSWORD"),
    ("docker compose env", "MARIADB_ROOT_PASSWORD={s} docker compose up -d", "pw",
     "Docker Hub, mariadb image"),
    ("skopeo --creds", "skopeo copy --creds alice:{s} docker://a.example/x docker://b.example/x",
     "word", "skopeo-copy(1): --creds username[:password]"),
    ("skopeo --src-creds", "skopeo inspect --src-creds alice:{s} docker://quay.io/acme/app",
     "pw", "skopeo(1)"),
    ("cosign login -p", "cosign login ghcr.io -u alice -p {s}", "word", "cosign login --help"),
    ("docker config.json auth", '{{"auths": {{"https://index.docker.io/v1/": {{"auth": "{s}"}}}}}}',
     "b64", "Docker docs, 'docker login': credential stores, config.json"),
    # --- ssh ----------------------------------------------------------------------------
    ("sshpass -p", "sshpass -p {s} ssh alice@host.example.com", "word", "sshpass(1): -p password"),
    ("sshpass -p 'quoted'", "sshpass -p '{s}' scp f.txt alice@host:/tmp/", "pw", "sshpass(1)"),
    ("sshpass -pPASSWORD", "sshpass -p{s} rsync -a src/ host:dst/", "word", "sshpass(1)"),
    ("sudo sshpass -p", "sudo sshpass -p {s} ssh root@10.0.0.7", "digits", "sshpass(1)"),
    ("ssh-keygen -N", "ssh-keygen -t ed25519 -N {s} -f ~/.ssh/id_ed25519", "word",
     "ssh-keygen(1) (installed): -N new_passphrase"),
    ("ssh-keygen -N 'quoted'", "ssh-keygen -t rsa -b 4096 -N '{s}' -C me@example.com", "pw",
     "ssh-keygen(1) (installed)"),
    ("ssh-keygen -p -P", "ssh-keygen -p -P {s} -N Nw4passphrase -f key", "word",
     "ssh-keygen(1) (installed): -P passphrase"),
    # --- Azure CLI ----------------------------------------------------------------------
    ("az login -p", "az login -u alice@contoso.com -p {s}", "pw",
     "az login reference: --password -p"),
    ("az login --service-principal -p", "az login --service-principal -u http://app -p {s} "
     "--tenant contoso.onmicrosoft.com", "token", "az login reference"),
    ("az login --password", "az login --service-principal --username 0000-app --password {s} "
     "--tenant 1111-tenant", "word", "az login reference"),
    ("az vm create --admin-password", "az vm create -n vm1 -g rg --image Ubuntu2204 "
     "--admin-username azureuser --admin-password {s}", "pw", "az vm create reference"),
    ("az storage --account-key", "az storage blob list --account-name acct --account-key {s} "
     "-c c", "b64", "az storage blob list reference"),
    ("az storage --connection-string", 'az storage container create -n c --connection-string '
     '"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={s};EndpointSuffix=core.'
     'windows.net"', "b64", "az storage container create reference"),
    # --- Redis --------------------------------------------------------------------------
    ("redis-cli -a", "redis-cli -a {s} ping", "word", "redis-cli docs: -a <password>"),
    ("redis-cli -h -p -a", "redis-cli -h redis.example.com -p 6379 -a {s} INFO", "pw",
     "redis-cli docs"),
    ("redis-cli --pass", "redis-cli --pass {s} --no-auth-warning get k", "word", "redis-cli docs"),
    ("redis-cli -u redis://", "redis-cli -u redis://default:{s}@redis.example.com:6379 ping",
     "url", "redis-cli docs: -u <uri>"),
    ("redis-cli AUTH password", "redis-cli AUTH {s}", "word", "Redis docs, AUTH"),
    ("redis-cli AUTH user password", "redis-cli AUTH default {s}", "pw", "Redis docs, AUTH"),
    ("redis-cli CONFIG SET requirepass", "redis-cli CONFIG SET requirepass {s}", "word",
     "Redis docs, 'Authentication': requirepass"),
    ("redis-cli --user --pass", "redis-cli --user alice --pass {s} ping", "pw", "redis-cli docs"),
    # --- MongoDB ------------------------------------------------------------------------
    ("mongosh -p", 'mongosh "mongodb://db.example.com:27017" -u admin -p {s} '
     "--authenticationDatabase admin", "word", "mongosh docs, 'Connect with Authentication'"),
    ("mongosh --password", "mongosh --username admin --password {s}", "pw", "mongosh options"),
    ("mongosh mongodb+srv://user:pass@", 'mongosh "mongodb+srv://admin:{s}@cluster0.example.'
     'mongodb.net/test"', "url", "MongoDB, 'Connection Strings'"),
    ("mongodump --uri user:pass@", 'mongodump --uri="mongodb://admin:{s}@db:27017" --out dump',
     "url", "mongodump docs: --uri"),
    ("mongodump -p", "mongodump -u admin -p {s} --authenticationDatabase admin", "word",
     "mongodump docs: --password=<password>, -p=<password>"),
    ("mongorestore --password=", "mongorestore --username admin --password={s} dump/", "pw",
     "mongorestore docs"),
    ("mongoexport -p", "mongoexport --db=x --collection=y -u admin -p {s} --out y.json", "word",
     "mongoexport docs"),
    ("mongoimport -p", "mongoimport --db x -u admin -p {s} --file f.json", "word",
     "mongoimport docs"),
    ("mongo -p (legacy shell)", "mongo -u admin -p {s} --authenticationDatabase admin", "pw",
     "legacy mongo shell docs"),
    # --- MySQL / MariaDB ----------------------------------------------------------------
    ("mysql -pPASSWORD", "mysql -u root -p{s} mydb", "word",
     "MySQL manual: -p[password], no space"),
    ("mysql --password=", 'mysql --user=root --password={s} -e "SELECT 1"', "pw", "MySQL manual"),
    ("mysql -uroot -pPASSWORD -h", "mysql -uroot -p{s} -h 127.0.0.1", "digits", "MySQL manual"),
    ("mysqldump -pPASSWORD", "mysqldump -u root -p{s} mydb > dump.sql", "word",
     "mysqldump manual"),
    ("mysqldump --password=", "mysqldump --password={s} --all-databases", "pw", "mysqldump manual"),
    ("mysqladmin password NEW", "mysqladmin -u root password {s}", "word",
     "mysqladmin manual: password new_password"),
    ("mysqladmin -pPASSWORD", "mysqladmin -u root -p{s} status", "pw", "mysqladmin manual"),
    ("mysqladmin -p old password NEW", "mysqladmin -u root -pOld4passw0rd password {s}", "word",
     "mysqladmin manual"),
    ("mariadb -pPASSWORD", "mariadb -u root -p{s}", "word",
     "MariaDB, 'mariadb Command-Line Client'"),
    ("MYSQL_PWD=", "MYSQL_PWD={s} mysql -u root", "word", "MySQL manual, 'Environment Variables'"),
    (".my.cnf password=", "[client]\nuser=root\npassword={s}", "word",
     "MySQL manual, 'Using Option Files'"),
    (".my.cnf password=\"quoted\"", '[mysqldump]\npassword="{s}"', "pw",
     "MySQL manual, 'Using Option Files'"),
    # --- PostgreSQL ---------------------------------------------------------------------
    ("PGPASSWORD=", "PGPASSWORD={s} psql -h db.example.com -U app app", "word",
     "PostgreSQL docs, 'Environment Variables'"),
    ("psql postgresql://user:pass@", 'psql "postgresql://app:{s}@db.example.com:5432/app"',
     "url", "PostgreSQL docs, 'Connection URIs'"),
    ("psql keyword=value password=", 'psql "host=db.example.com port=5432 dbname=app user=app '
     'password={s}"', "word", "PostgreSQL docs, 'Keyword/Value Connection Strings'"),
    ("pg_dump postgres://user:pass@", 'pg_dump "postgres://app:{s}@localhost/app" > dump.sql',
     "url", "pg_dump docs; Connection URIs"),
    (".pgpass line", "db.example.com:5432:app:app:{s}", "word",
     "PostgreSQL docs, 'The Password File'"),
    (".pgpass wildcard line", "*:*:*:postgres:{s}", "pw", "PostgreSQL docs, 'The Password File'"),
    (".pgpass localhost line", "localhost:5432:*:replicator:{s}", "word",
     "PostgreSQL docs, 'The Password File'"),
    ("echo .pgpass line >> ~/.pgpass", 'echo "localhost:5432:*:postgres:{s}" >> ~/.pgpass',
     "word", "PostgreSQL docs, 'The Password File'"),
    ("DATABASE_URL=postgres://", "export DATABASE_URL=postgres://app:{s}@db:5432/app", "url",
     "Heroku Postgres docs, DATABASE_URL"),
    ("JDBC password=", 'java -jar app.jar "jdbc:postgresql://db/app?user=app&password={s}"', "word",
     "PostgreSQL JDBC docs, 'Connecting to the Database'"),
    ("SQL Server connection string", '"Server=db;Database=app;User Id=sa;Password={s};"', "pw",
     "Microsoft, 'SqlConnection.ConnectionString'"),
    ("ODBC PWD=", '"Driver={{ODBC Driver 18 for SQL Server}};Server=db;UID=sa;PWD={s};"', "word",
     "Microsoft ODBC driver, connection string keywords"),
    # --- .netrc and credential files ----------------------------------------------------
    (".netrc one line", "machine api.heroku.com login me@example.com password {s}", "token",
     "Heroku CLI docs, '.netrc'; GNU inetutils, 'The .netrc file'"),
    (".netrc several lines", "machine github.com\n  login alice\n  password {s}", "word",
     "GNU inetutils, 'The .netrc file'"),
    (".netrc default", "default login anonymous password {s}", "word", "GNU inetutils netrc"),
    (".netrc with account", "machine ftp.example.com login bob password {s} account acct1", "pw",
     "GNU inetutils netrc"),
    (".pypirc password =", "[pypi]\nusername = __token__\npassword = {s}", "pypi",
     "PyPA, 'The .pypirc file'"),
    (".pypirc password:", "[testpypi]\nusername = alice\npassword: {s}", "word",
     "PyPA, 'The .pypirc file' (configparser accepts ':')"),
    (".npmrc _authToken", "//registry.npmjs.org/:_authToken={s}", "npm",
     "npm docs, 'npmrc': auth-related configuration"),
    (".npmrc GitHub Packages", "//npm.pkg.github.com/:_authToken={s}", "ghp",
     "GitHub docs, 'Working with the npm registry'"),
    (".npmrc _auth", "_auth={s}", "b64", "npm docs, 'npmrc': _auth"),
    (".npmrc _password", "//registry.example.com/:_password={s}", "b64", "npm docs, 'npmrc'"),
    (".yarnrc.yml npmAuthToken", "npmAuthToken: {s}", "npm", "Yarn docs, '.yarnrc.yml'"),
    (".yarnrc.yml scoped npmAuthToken", 'npmScopes:\n  acme:\n    npmAuthToken: "{s}"', "word",
     "Yarn docs, '.yarnrc.yml': npmScopes"),
    (".git-credentials", "https://alice:{s}@github.com", "ghp", "git-credential-store(1)"),
    (".git-credentials oauth2", "https://oauth2:{s}@gitlab.example.com", "url",
     "GitLab docs, 'Clone with a personal access token'"),
    ("~/.gem/credentials", "---\n:rubygems_api_key: {s}", "hex64",
     "RubyGems guides, 'API key scopes'"),
    ("~/.aws/credentials", "[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPL3\n"
     "aws_secret_access_key = {s}", "aws", "AWS CLI, 'Configuration and credential file settings'"),
    ("~/.aws/credentials session token", "[dev]\naws_session_token = {s}", "b64", "AWS CLI docs"),
    (".s3cfg secret_key", "[default]\naccess_key = AKIAIOSFODNN7EXAMPL3\nsecret_key = {s}", "aws",
     "s3cmd docs, '.s3cfg'"),
    (".env DB_PASSWORD", "DB_PASSWORD={s}", "word", "dotenv convention (twelve-factor config)"),
    (".env STRIPE_SECRET_KEY", "STRIPE_SECRET_KEY={s}", "sk_live", "Stripe docs, keys in env"),
    (".env SECRET_KEY", "SECRET_KEY={s}", "pw", "Django docs, SECRET_KEY"),
    # --- git ----------------------------------------------------------------------------
    ("git clone user:pass@", "git clone https://alice:{s}@github.com/acme/repo.git", "word",
     "git-clone(1), 'GIT URLS'"),
    ("git clone x-access-token:", "git clone https://x-access-token:{s}@github.com/acme/repo.git",
     "ghp", "GitHub docs, 'Authenticating as a GitHub App installation'"),
    ("git remote set-url oauth2:", "git remote set-url origin https://oauth2:{s}@gitlab.com/"
     "acme/repo.git", "url", "GitLab docs"),
    ("git -c http.extraHeader", 'git -c http.extraHeader="Authorization: Bearer {s}" clone '
     "https://example.com/r.git", "token", "git-config(1): http.extraHeader"),
    ("git push user:pass@", "git push https://alice:{s}@bitbucket.org/acme/repo.git main", "pw",
     "git-push(1)"),
    # --- AWS CLI ------------------------------------------------------------------------
    ("aws configure set aws_secret_access_key", "aws configure set aws_secret_access_key {s}",
     "aws", "aws configure set reference"),
    ("aws configure set aws_session_token", "aws configure set aws_session_token {s} "
     "--profile dev", "b64", "aws configure set reference"),
    ("aws configure set default.aws_secret_access_key", "aws configure set "
     "default.aws_secret_access_key {s}", "aws", "aws configure set reference"),
    ("aws configure set profile.x.aws_secret_access_key", "aws configure set "
     "profile.dev.aws_secret_access_key {s}", "word", "aws configure set reference"),
    ("AWS_SECRET_ACCESS_KEY=", "AWS_SECRET_ACCESS_KEY={s} aws s3 ls", "aws",
     "AWS CLI, 'Environment variables'"),
    ("aws rds --master-user-password", "aws rds create-db-instance --db-instance-identifier db1 "
     "--master-username admin --master-user-password {s} --engine mysql", "word",
     "aws rds create-db-instance reference"),
    ("aws iam create-login-profile --password", "aws iam create-login-profile --user-name bob "
     "--password {s}", "pw", "aws iam create-login-profile reference"),
    ("aws iam change-password", "aws iam change-password --old-password {s} --new-password "
     "N3wpassw0rd!", "word", "aws iam change-password reference"),
    ("aws elasticache --auth-token", "aws elasticache create-replication-group "
     "--replication-group-id r1 --replication-group-description d --auth-token {s}", "token",
     "aws elasticache create-replication-group reference"),
    ("aws ds --password", "aws ds create-directory --name corp.example.com --password {s} "
     "--size Small", "pw", "aws ds create-directory reference"),
    ("aws cognito admin-set-user-password", "aws cognito-idp admin-set-user-password "
     "--user-pool-id p1 --username u --password {s} --permanent", "word",
     "aws cognito-idp admin-set-user-password reference"),
    # --- gcloud -------------------------------------------------------------------------
    ("gcloud sql users set-password", "gcloud sql users set-password root --host=% "
     "--instance=db1 --password={s}", "word", "gcloud sql users set-password reference"),
    ("gcloud sql users create --password", "gcloud sql users create app --instance=db1 "
     "--password={s}", "pw", "gcloud sql users create reference"),
    ("gcloud vpn-tunnels --shared-secret", "gcloud compute vpn-tunnels create t1 "
     "--peer-address=198.51.100.7 --shared-secret={s} --ike-version=2", "token",
     "gcloud compute vpn-tunnels create reference"),
    ("gcloud sql instances --root-password", "gcloud sql instances create db1 "
     "--root-password={s}", "word", "gcloud sql instances create reference"),
    # --- kubectl ------------------------------------------------------------------------
    ("kubectl --from-literal=password=", "kubectl create secret generic db-pass "
     "--from-literal=password={s}", "word", "kubectl create secret generic reference"),
    ("kubectl two --from-literal", "kubectl create secret generic creds "
     "--from-literal=username=admin --from-literal=password={s}", "pw",
     "kubectl create secret generic reference"),
    ("kubectl --docker-password", "kubectl create secret docker-registry regcred "
     "--docker-server=r.example.com --docker-username=u --docker-password={s} "
     "--docker-email=u@example.com", "word", "kubectl create secret docker-registry reference"),
    ("kubectl config set-credentials --token", "kubectl config set-credentials alice "
     "--token={s}", "token", "kubectl config set-credentials reference"),
    ("kubectl config set-credentials --password", "kubectl config set-credentials alice "
     "--username=alice --password={s}", "word", "kubectl config set-credentials reference"),
    ("kubectl --token=", "kubectl --token={s} get pods", "token", "kubectl options reference"),
    ("kubectl --token VALUE", "kubectl --token {s} get nodes", "token", "kubectl options"),
    # --- OpenSSL ------------------------------------------------------------------------
    ("openssl pkcs12 -passout pass:", "openssl pkcs12 -export -in cert.pem -inkey key.pem "
     "-out c.p12 -passout pass:{s}", "word", "openssl pkcs12 -help (installed); "
     "openssl-passphrase-options(1)"),
    ("openssl rsa -passin pass:", "openssl rsa -in enc.key -out dec.key -passin pass:{s}", "pw",
     "openssl rsa -help (installed)"),
    ("openssl enc -k", "openssl enc -aes-256-cbc -salt -in f -out f.enc -k {s}", "word",
     "openssl enc -help (installed): -k val Passphrase"),
    ("openssl enc -pass pass:", "openssl enc -aes-256-cbc -pbkdf2 -in f -out f.enc -pass pass:{s}",
     "word", "openssl enc -help (installed)"),
    ("openssl genrsa -passout pass:", "openssl genrsa -aes256 -passout pass:{s} -out key.pem 4096",
     "pw", "openssl genrsa -help"),
    ("openssl req -passin pass:", "openssl req -new -key key.pem -passin pass:{s} -out req.csr",
     "word", "openssl req -help"),
    ("openssl pkcs12 -password pass:", "openssl pkcs12 -in c.p12 -nodes -password pass:{s}",
     "digits", "openssl pkcs12 -help (installed)"),
    # --- archives -----------------------------------------------------------------------
    ("7z a -pPASSWORD", "7z a -p{s} -mhe=on secret.7z docs/", "word",
     "7-Zip docs, '-p (set Password) switch'"),
    ("7z x -pPASSWORD", "7z x -p{s} secret.7z", "pw", "7-Zip docs"),
    ("7za a -tzip -pPASSWORD", "7za a -tzip -p{s} a.zip f.txt", "word", "7-Zip docs"),
    ("zip -P", "zip -P {s} secret.zip file.txt", "word", "zip -h (installed): -P pswd"),
    ("zip -r -P", "zip -r -P {s} a.zip dir/", "pw", "zip -h (installed)"),
    ("zip --password", "zip --password {s} a.zip f", "word", "zip(1)"),
    ("unzip -P", "unzip -P {s} secret.zip", "word", "unzip(1) (installed): -P password"),
    ("rar a -pPASSWORD", "rar a -p{s} a.rar f", "word", "RAR manual: -p[password]"),
    ("unrar x -pPASSWORD", "unrar x -p{s} a.rar", "pw", "unrar manual"),
    # --- htpasswd -----------------------------------------------------------------------
    ("htpasswd -b FILE user pass", "htpasswd -b /etc/nginx/.htpasswd alice {s}", "word",
     "htpasswd(1): htpasswd -b passwdfile username password"),
    ("htpasswd -bc", "htpasswd -bc .htpasswd alice {s}", "pw", "htpasswd(1)"),
    ("htpasswd -nb user pass", "htpasswd -nb alice {s}", "word", "htpasswd(1): -n"),
    ("htpasswd -nbB", "htpasswd -nbB alice {s}", "word", "htpasswd(1): -B bcrypt"),
    ("htpasswd -bB -C cost", "htpasswd -bB -C 12 /etc/apache2/.htpasswd alice {s}", "pw",
     "htpasswd(1): -C cost"),
    # --- Vault --------------------------------------------------------------------------
    ("vault login TOKEN", "vault login {s}", "hvs", "Vault docs, 'vault login'"),
    ("vault login token=", "vault login token={s}", "hvs", "Vault docs, 'vault login'"),
    ("vault login userpass password=", "vault login -method=userpass username=alice "
     "password={s}", "word", "Vault docs, 'Userpass auth method'"),
    ("vault write password=", "vault write auth/userpass/users/alice password={s} "
     "policies=admins", "pw", "Vault docs, 'Userpass auth method'"),
    ("VAULT_TOKEN=", "VAULT_TOKEN={s} vault kv get secret/app", "hvs",
     "Vault docs, 'Environment variables'"),
    # --- package managers ---------------------------------------------------------------
    ("npm config set _authToken", "npm config set //registry.npmjs.org/:_authToken {s}", "npm",
     "npm docs, 'npm config'"),
    ("npm config set key=value", "npm config set //registry.npmjs.org/:_authToken={s}", "npm",
     "npm docs, 'npm config set <key>=<value>'"),
    ("yarn config set npmAuthToken", "yarn config set npmAuthToken {s}", "npm",
     "Yarn docs, 'yarn config set'"),
    ("pnpm config set _authToken", "pnpm config set //npm.pkg.github.com/:_authToken {s}", "ghp",
     "pnpm docs, 'pnpm config'"),
    ("NPM_TOKEN= npm publish", "NPM_TOKEN={s} npm publish", "npm",
     "npm docs, 'Using private packages in a CI/CD workflow'"),
    ("twine upload -p", "twine upload -u __token__ -p {s} dist/*", "pypi",
     "twine docs, 'twine upload': -p PASSWORD"),
    ("twine upload --password", "twine upload --username alice --password {s} dist/*", "word",
     "twine docs"),
    ("TWINE_PASSWORD=", "TWINE_PASSWORD={s} twine upload dist/*", "pypi", "twine docs"),
    ("poetry config pypi-token", "poetry config pypi-token.pypi {s}", "pypi",
     "Poetry docs, 'Repositories'"),
    ("poetry config http-basic", "poetry config http-basic.private alice {s}", "word",
     "Poetry docs, 'Repositories'"),
    ("cargo login TOKEN", "cargo login {s}", "token", "cargo-login(1)"),
    ("cargo publish --token", "cargo publish --token {s}", "token", "cargo-publish(1)"),
    ("GEM_HOST_API_KEY=", "GEM_HOST_API_KEY={s} gem push x-1.0.gem", "hex64",
     "RubyGems guides, 'Publishing your gem'"),
    ("pip --index-url user:pass@", "pip install --index-url https://alice:{s}@pypi.example.com/"
     "simple pkg", "word", "pip docs, 'Authentication'"),
    ("pip --extra-index-url __token__:", "pip install --extra-index-url https://__token__:{s}@"
     "gitlab.example.com/api/v4/projects/1/packages/pypi/simple pkg", "url",
     "GitLab docs, 'PyPI packages'"),
    ("dotnet nuget add source -p", "dotnet nuget add source https://nuget.example.com/v3/index.json"
     " -n x -u alice -p {s} --store-password-in-clear-text", "word",
     "dotnet nuget add source reference"),
    ("dotnet nuget push -k", "dotnet nuget push pkg.nupkg -k {s} -s "
     "https://api.nuget.org/v3/index.json", "token", "dotnet nuget push reference"),
    # --- SaaS command lines -------------------------------------------------------------
    ("gh secret set --body", "gh secret set API_KEY --body {s}", "word",
     "GitHub CLI manual, 'gh secret set'"),
    ("gh secret set -b", "gh secret set API_KEY -b {s} --repo acme/app", "pw",
     "GitHub CLI manual, 'gh secret set'"),
    ("echo | gh auth login --with-token", "echo {s} | gh auth login --with-token", "ghp",
     "GitHub CLI manual, 'gh auth login'"),
    ("glab auth login --token", "glab auth login --hostname gitlab.example.com --token {s}",
     "token", "glab docs, 'glab auth login'"),
    ("vercel --token", "vercel deploy --token {s}", "token", "Vercel CLI docs, '--token'"),
    ("vercel -t", "vercel --prod -t {s}", "token", "Vercel CLI docs"),
    ("doctl auth init -t", "doctl auth init -t {s}", "token", "doctl auth init reference"),
    ("doctl --access-token", "doctl auth init --access-token {s}", "token", "doctl reference"),
    ("ngrok config add-authtoken", "ngrok config add-authtoken {s}", "token",
     "ngrok docs, 'ngrok config add-authtoken'"),
    ("ngrok authtoken (v2)", "ngrok authtoken {s}", "token", "ngrok v2 docs"),
    ("stripe login --api-key", "stripe login --api-key {s}", "sk_live", "Stripe CLI reference"),
    ("stripe --api-key", "stripe customers list --api-key {s}", "rk_live", "Stripe CLI reference"),
    ("tailscale up --auth-key=", "tailscale up --auth-key={s}", "tskey",
     "Tailscale docs, 'tailscale up'"),
    ("turbo run --token=", "turbo run build --token={s}", "token", "Turborepo docs, remote cache"),
    ("fly deploy --access-token", "fly deploy --access-token {s}", "token", "flyctl docs"),
    ("twilio login --auth-token", "twilio login --auth-token {s}", "hex64", "Twilio CLI docs"),
    ("doppler --token", "doppler secrets --token {s}", "token", "Doppler CLI docs"),
    ("supabase db push -p", "supabase db push -p {s}", "word", "Supabase CLI reference"),
    ("supabase link -p", "supabase link --project-ref abcdefghijklmnop -p {s}", "pw",
     "Supabase CLI reference"),
    # --- other clients ------------------------------------------------------------------
    ("sqlcmd -P", 'sqlcmd -S localhost -U sa -P {s} -Q "SELECT 1"', "pw",
     "sqlcmd docs: -P password"),
    ("bcp -P", "bcp dbo.t out t.dat -S srv -U sa -P {s} -c", "word", "bcp utility docs"),
    ("sqlplus user/pass@db", "sqlplus scott/{s}@orcl", "word", "SQL*Plus User's Guide"),
    ("sqlplus user/pass@//host", "sqlplus system/{s}@//db.example.com:1521/ORCLPDB1", "pw",
     "SQL*Plus User's Guide, Easy Connect"),
    ("cqlsh -p", "cqlsh -u cassandra -p {s} 127.0.0.1", "word", "cqlsh docs"),
    ("influx -password (1.x)", "influx -username admin -password {s} -host localhost", "word",
     "InfluxDB 1.x CLI docs"),
    ("influx -t (2.x)", "influx bucket list -t {s}", "token", "influx CLI 2.x docs"),
    ("ldapsearch -w", 'ldapsearch -x -H ldap://ldap.example.com -D "cn=admin,dc=example,dc=com" '
     "-w {s} -b dc=example,dc=com", "word", "ldapsearch(1): -w passwd"),
    ("ldapadd -w", 'ldapadd -x -D "cn=admin,dc=example,dc=com" -w {s} -f add.ldif', "pw",
     "ldapadd(1)"),
    ("ldapmodify -w", "ldapmodify -x -D cn=admin,dc=example,dc=com -w {s} -f mod.ldif", "word",
     "ldapmodify(1)"),
    ("ldappasswd -s", "ldappasswd -x -D cn=admin,dc=example,dc=com -w Adm1npassw0rd -s {s} "
     "uid=alice,ou=people,dc=example,dc=com", "word", "ldappasswd(1): -s newPasswd"),
    ("ipmitool -P", "ipmitool -I lanplus -H 10.0.0.5 -U admin -P {s} chassis power status",
     "word", "ipmitool(1): -P <password>"),
    ("mosquitto_pub -P", "mosquitto_pub -h broker.example.com -u alice -P {s} -t t -m hi", "pw",
     "mosquitto_pub(1): -P, --pw"),
    ("mosquitto_sub -P", "mosquitto_sub -h broker -u alice -P {s} -t sensors", "word",
     "mosquitto_sub(1)"),
    ("rdesktop -p", "rdesktop -u Administrator -p {s} host.example.com", "pw", "rdesktop(1)"),
    ("xfreerdp /p:", "xfreerdp /v:host.example.com /u:Administrator /p:{s}", "word",
     "FreeRDP manual: /p:<password>"),
    ("smbclient -U user%pass", "smbclient //server/share -U alice%{s}", "word",
     "smbclient(1): -U USERNAME[%PASSWORD]"),
    ("smbclient --user=user%pass", "smbclient -L server --user=alice%{s}", "pw", "smbclient(1)"),
    ("lftp -u user,pass", "lftp -u alice,{s} ftp.example.com", "word", "lftp(1): -u user[,pass]"),
    ("mc alias set", "mc alias set myminio https://minio.example.com minioadmin {s}", "token",
     "MinIO Client docs, 'mc alias set'"),
    ("mc config host add", "mc config host add s3 https://s3.amazonaws.com AKIAIOSFODNN7EXAMPL3 "
     "{s}", "aws", "MinIO Client docs (older mc)"),
    ("keytool -srcstorepass", "keytool -importkeystore -srckeystore a.p12 -srcstoretype PKCS12 "
     "-srcstorepass {s} -destkeystore k.jks -deststorepass D3stpassw0rd", "word",
     "keytool -importkeystore -help (installed)"),
    ("keytool -keypass", "keytool -genkeypair -alias a -keystore k.jks -storepass St0repassw0rd "
     "-keypass {s}", "pw", "keytool docs"),
    ("keytool -storepass", "keytool -list -keystore k.jks -storepass {s}", "word", "keytool docs"),
    ("jarsigner -storepass", "jarsigner -keystore k.jks -storepass {s} app.jar alias", "word",
     "jarsigner docs"),
    ("gpg --passphrase", "gpg --batch --passphrase {s} -c file.txt", "word",
     "gpg --dump-options (installed); gpg(1) --passphrase string"),
    ("gpg --passphrase loopback", "gpg --batch --yes --passphrase {s} --pinentry-mode loopback "
     "-d f.gpg", "pw", "gpg(1)"),
    ("svn commit --password", "svn commit -m msg --username alice --password {s}", "word",
     "svn help commit"),
    ("youtube-dl -p", "youtube-dl -u alice -p {s} https://video.example.com/v/1", "word",
     "youtube-dl README: -p, --password PASSWORD"),
    ("printf | docker secret create -", 'printf "{s}" | docker secret create my_secret -', "pw",
     "docker secret create docs, 'Create a secret'"),
    ("echo | passwd --stdin", "echo {s} | passwd --stdin alice", "word",
     "passwd(1) (RHEL): --stdin"),
    ("echo user:pass | chpasswd", "echo 'alice:{s}' | sudo chpasswd", "word",
     "chpasswd(8): user_name:password lines on standard input"),
    # --- configuration given on a command line ------------------------------------------
    ("ansible --extra-vars password", 'ansible-playbook site.yml --extra-vars '
     '"ansible_become_password={s}"', "word", "Ansible docs, 'Defining variables at runtime'"),
    ("ansible -e ansible_password", 'ansible all -m ping -e "ansible_password={s}"', "pw",
     "Ansible docs, connection variables"),
    ("terraform -var password", 'terraform apply -var "db_password={s}"', "word",
     "Terraform docs, 'Input Variables on the Command Line'"),
    ("terraform -var= password", 'terraform plan -var="admin_password={s}"', "pw",
     "Terraform docs"),
    ("TF_VAR_ password", "TF_VAR_db_password={s} terraform apply", "word",
     "Terraform docs, 'Environment Variables'"),
    ("helm --set rootPassword", "helm install app ./chart --set auth.rootPassword={s}", "word",
     "Bitnami charts docs, auth.rootPassword"),
    ("helm --set postgresPassword", "helm upgrade app bitnami/postgresql --set "
     "global.postgresql.auth.postgresPassword={s}", "pw", "Bitnami postgresql chart docs"),
    ("spring --datasource.password=", "java -jar app.jar --spring.datasource.password={s}",
     "word", "Spring Boot docs, 'Externalized Configuration'"),
    ("export GITHUB_TOKEN=", "export GITHUB_TOKEN={s}", "ghp", "GitHub CLI docs, GH_TOKEN"),
    ("export OPENAI_API_KEY=", "export OPENAI_API_KEY={s}", "token", "OpenAI docs, API keys"),
    ("TELEGRAM_BOT_TOKEN=", "TELEGRAM_BOT_TOKEN={s} python bot.py", "telegram",
     "python-telegram-bot docs"),
    ("DISCORD_TOKEN=", "DISCORD_TOKEN={s} node index.js", "discord", "discord.js guide"),
]


def secret_forms() -> list[Form]:
    """The corpus: every template with its made-up value (fixed seed: the same corpus)."""
    forms = []
    for index, (name, template, shape, source) in enumerate(_TEMPLATES):
        rng = random.Random(f"issue-40-{index}-{name}")
        secret = _shape(rng, shape)
        forms.append(Form(name, template.replace("{{", "\x00").replace("}}", "\x01")
                          .replace("{s}", secret).replace("\x00", "{").replace("\x01", "}"),
                          secret, source))  # fmt: skip
    return forms


FORMS = secret_forms()
