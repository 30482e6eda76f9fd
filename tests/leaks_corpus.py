"""A corpus of secret shapes for the leak scanner: generated positives and hand-written negatives.

Every positive is made at run time from a seeded ``random.Random``, so the repository holds no
file of real-looking keys for other scanners to flag, and a run is the same on every machine.
Each shape is a function from a generator to a ``Sample``: the text as it would sit in a note (a
line of a pasted ``.env``, a JSON config, a PEM block, a header in a ``curl`` command) and the
substrings that must not survive redaction. A sample counts as caught when the scanner names a
secret in it and none of those substrings is left in the redacted text.

The negatives are text a vault holds that must be left alone: prose about passwords, code that
names a secret field without holding a value, placeholders, identifiers (ULIDs, kp_ids, git
object ids, UUIDs in links), encoded data that is not a secret (images, lockfile hashes, public
keys and certificates), markdown tables, URLs without credentials and e-mail addresses. A few
families are generated (random ids); the rest are written out.

Judgement calls, the scanner's too (``curator/leak_rules.py``): a template, a reference or a
word that stands for a secret in documentation is not one in an assignment (``changeme``,
``password``, ``<your-token>``, ``xxxxxxxx``, ``${DB_PASSWORD}``, ``P@ssw0rd``, ``MyPassword``);
a URL's password is one even when it is a word (``https://:pass@host``); a public key, a
certificate, a lockfile hash, a ``data:`` image and an SSH fingerprint are not secrets; nor is a
user name given as a credential (``-Credential Domain01\\User01``).

    python -c "from tests.leaks_corpus import corpus; print(corpus(3))"
"""

from __future__ import annotations

import base64
import random
import string
from collections.abc import Callable
from dataclasses import dataclass

SEED = 20_240_601


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
WORDS = _words(
    "maple river stone cobalt lantern orchid falcon harbor meadow copper violet ember quartz willow "
    "thunder canyon pepper saffron glacier juniper marble nectar pixel raven tundra horse battery staple "
    "correct velvet walrus zephyr"
)


@dataclass(frozen=True)
class Sample:
    text: str
    secrets: tuple[str, ...]
    """Substrings of ``text`` that must be gone once it is redacted."""


def _pick(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def password(rng: random.Random) -> str:
    """A password as people choose them: words and digits, random printable, or a passphrase."""
    style = rng.randrange(5)
    if style == 0:  # hunter2hunter2
        word = rng.choice(WORDS)
        return f"{word}{rng.randrange(10, 9999)}{rng.choice(WORDS)}"
    if style == 1:
        return _pick(rng, ALNUM + "!@#%^&*-_+=.?~", rng.randrange(10, 25))
    if style == 2:  # correcthorsebatterystaple
        return "".join(rng.sample(WORDS, rng.randrange(3, 5)))
    if style == 3:  # Summer2024!
        return rng.choice(WORDS).capitalize() + str(rng.randrange(1990, 2030)) + rng.choice("!?#$.")
    return f"{rng.choice(WORDS)}-{rng.choice(WORDS)}-{rng.randrange(10, 99)}-{rng.choice(WORDS)}"


def api_token(rng: random.Random) -> str:
    """An opaque token of no known provider: hex, base64url or alphanumeric."""
    style = rng.randrange(3)
    if style == 0:
        return _pick(rng, HEX, rng.choice((32, 40, 64)))
    if style == 1:
        return _pick(rng, B64URL, rng.randrange(24, 48))
    return _pick(rng, ALNUM, rng.randrange(20, 40))


def _quote(rng: random.Random, value: str, styles: str = "n\"'") -> str:
    q = rng.choice(styles)
    return value if q == "n" else f"{q}{value}{q}"


def _case(rng: random.Random, name: str) -> str:
    """A key name spelled as env, snake, camel, kebab or dotted."""
    parts = name.split("_")
    style = rng.randrange(5)
    if style == 0:
        return "_".join(parts).upper()
    if style == 1:
        return "_".join(parts)
    if style == 2:
        return parts[0] + "".join(p.capitalize() for p in parts[1:])
    if style == 3:
        return "-".join(parts)
    return ".".join(parts)


ENV_NAMES = _words(
    "DB_PASSWORD POSTGRES_PASSWORD MYSQL_ROOT_PASSWORD REDIS_PASS RABBITMQ_DEFAULT_PASS PGPASSWORD "
    "SMTP_PASSWORD DB_PWD ADMIN_PASS API_KEY API_TOKEN AUTH_TOKEN ACCESS_TOKEN REFRESH_TOKEN SECRET_KEY "
    "APP_SECRET CLIENT_SECRET JWT_SECRET SESSION_SECRET ENCRYPTION_KEY WEBHOOK_SECRET MINIO_SECRET_KEY "
    "SENTRY_AUTH_TOKEN SERVICE_CREDENTIALS DB_PASSWORD_PROD API_KEY_2 SECRET_KEY_BASE STRIPE_SECRET "
    "OPENAI_API_KEY MAILGUN_API_KEY LDAP_BIND_PASSWORD KEYSTORE_PASSPHRASE VAULT_TOKEN CONSUL_HTTP_TOKEN"
)
CONFIG_NAMES = _words(
    "password db_password admin_password passwd pwd pass passphrase secret client_secret app_secret "
    "api_key secret_key access_key private_key auth_token access_token refresh_token bearer_token token "
    "api_token credentials service_credential signing_key master_key encryption_key webhook_secret "
    "smtp_password"
)


def env_assignment(rng: random.Random) -> Sample:
    name = rng.choice(ENV_NAMES)
    if rng.random() < 0.2:
        name = name.lower()
    value = password(rng) if "PASS" in name.upper() or name.upper().endswith("PWD") else api_token(rng)
    if "'" in value or '"' in value:
        value = value.replace("'", "").replace('"', "")
    line = f"{rng.choice(('', '', 'export ', '- '))}{name}={_quote(rng, value)}"
    line += rng.choice(("", "", "", "  # rotated monthly", " # prod"))
    if rng.random() < 0.2:
        line = f"Put `{line}` in the .env file."
    return Sample(line, (value,))


def yaml_assignment(rng: random.Random) -> Sample:
    name = _case(rng, rng.choice(CONFIG_NAMES)) if rng.random() < 0.8 else rng.choice(ENV_NAMES)
    value = password(rng) if "pass" in name.lower() or "pwd" in name.lower() else api_token(rng)
    indent = " " * rng.choice((0, 2, 4, 6))
    item = rng.choice(("", "", "- "))
    line = f"{indent}{item}{name}: {_quote(rng, value)}" + rng.choice(("", "", "  # from the vault"))
    return Sample(line, (value,))


def json_assignment(rng: random.Random) -> Sample:
    names = rng.sample(CONFIG_NAMES, 2)
    keys = [_case(rng, n).replace(".", "_") for n in names]
    values = [password(rng).replace('"', "") if "pass" in n else api_token(rng) for n in names]
    colon = rng.choice((": ", ":", " : "))
    pairs = [f'"{k}"{colon}"{v}"' for k, v in zip(keys, values, strict=True)]
    if rng.random() < 0.5:
        return Sample("{" + ", ".join(pairs) + "}", tuple(values))
    return Sample("  " + pairs[0] + rng.choice((",", "")), (values[0],))


def ini_assignment(rng: random.Random) -> Sample:
    name = rng.choice((*CONFIG_NAMES, "aws_secret_access_key", "db_pass", "bind_password"))
    value = password(rng) if "pass" in name or "pwd" in name else api_token(rng)
    sep = rng.choice((" = ", "=", ": ", " : "))
    return Sample(f"{name}{sep}{value}", (value,))


def toml_assignment(rng: random.Random) -> Sample:
    name = rng.choice(CONFIG_NAMES)
    value = password(rng) if "pass" in name or "pwd" in name else api_token(rng)
    value = value.replace("'", "").replace('"', "")
    q = rng.choice("\"'")
    return Sample(f"{name} = {q}{value}{q}", (value,))


def url_credentials(rng: random.Random) -> Sample:
    scheme = rng.choice(("postgres", "postgresql", "mysql", "mongodb+srv", "redis", "amqp", "https", "http", "ftp"))
    user = rng.choice(("", "admin", "app", "deploy", "x-access-token", "oauth2"))
    secret = password(rng).replace("@", "%40").replace("?", "").replace("#", "")
    if rng.random() < 0.3:
        cut = rng.randrange(1, len(secret))
        secret = secret[:cut] + "/" + secret[cut:]
    host = rng.choice(("db.example.org", "10.0.3.7", "cluster0.ab1cd.mongodb.net", "localhost", "git.example.com"))
    port = rng.choice(("", ":5432", ":6379", ":3306"))
    url = f"{scheme}://{user}:{secret}@{host}{port}/{rng.choice(('app', 'data', ''))}"
    frame = rng.choice(("{}", "DATABASE_URL={}", "Connect with `{}` from the runner.", "  url: {}", '"dsn": "{}"'))
    return Sample(frame.format(url), (secret,))


def database_dsn(rng: random.Random) -> Sample:
    secret = password(rng).replace(";", "").replace("&", "").replace("'", "").replace('"', "")
    style = rng.randrange(4)
    if style == 0:
        text = f"jdbc:postgresql://db.example.org:5432/app?user=app&password={secret}&ssl=true"
    elif style == 1:
        text = f"Server=tcp:sql.example.net,1433;Database=app;User ID=app;Password={secret};Encrypt=True;"
    elif style == 2:
        text = f"host=db.example.org port=5432 dbname=app user=app password={secret} sslmode=require"
    else:
        text = f"mysql://root:{secret}@127.0.0.1:3306/shop"
    return Sample(text, (secret,))


def authorization_header(rng: random.Random) -> Sample:
    style = rng.randrange(5)
    if style == 3:
        token = base64.b64encode(f"{rng.choice(('admin', 'api', 'ci'))}:{password(rng)}".encode()).decode()
        scheme = "Basic"
    else:
        token = jwt(rng).secrets[0] if style == 4 else api_token(rng)
        scheme = rng.choice(("Bearer", "bearer", "Token")) if style != 4 else "Bearer"
    frame = rng.choice(
        (
            "Authorization: {} {}",
            "curl -H 'Authorization: {} {}' https://api.example.com/v1/items",
            'headers = {{"Authorization": "{} {}"}}',
            "  authorization: {} {}",
        )
    )
    return Sample(frame.format(scheme, token), (token,))


PEM_TYPES = (
    "RSA PRIVATE KEY",
    "EC PRIVATE KEY",
    "OPENSSH PRIVATE KEY",
    "PRIVATE KEY",
    "ENCRYPTED PRIVATE KEY",
    "DSA PRIVATE KEY",
    "PGP PRIVATE KEY BLOCK",
)


def pem_private_key(rng: random.Random) -> Sample:
    kind = rng.choice(PEM_TYPES)
    body = [_pick(rng, B64, 64) for _ in range(rng.randrange(3, 9))] + [_pick(rng, B64, rng.randrange(8, 60)) + "=="]
    if rng.random() < 0.2:  # a service account file: the key one JSON string with \n escapes
        inline = "\\n".join([f"-----BEGIN {kind}-----", *body, f"-----END {kind}-----", ""])
        return Sample(f'  "private_key": "{inline}",', tuple(body))
    indent = rng.choice(("", "", "    ", "> "))
    head = ["Version: GnuPG v2", ""] if kind.startswith("PGP") else []
    lines = [f"-----BEGIN {kind}-----", *head, *body, f"-----END {kind}-----"]
    text = "\n".join(indent + line if line else line for line in lines)
    if rng.random() < 0.3:
        text = f"```\n{text}\n```"
    return Sample(text, tuple(body))


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def jwt(rng: random.Random) -> Sample:
    header = _b64url(b'{"alg":"%s","typ":"JWT"}' % rng.choice((b"HS256", b"RS256", b"ES256")))
    claims = f'{{"sub":"{rng.randrange(10**6)}","name":"{rng.choice(WORDS)}","iat":{rng.randrange(10**9, 2 * 10**9)}}}'
    token = f"{header}.{_b64url(claims.encode())}.{_pick(rng, B64URL, 43)}"
    frame = rng.choice(("{}", "id_token={}", "The session cookie was `{}` until it expired.", '"jwt": "{}"'))
    return Sample(frame.format(token), (token,))


def aws(rng: random.Random) -> Sample:
    key = rng.choice(("AKIA", "ASIA")) + _pick(rng, string.ascii_uppercase + string.digits, 16)
    secret = _pick(rng, B64, 40)
    style = rng.randrange(3)
    if style == 0:
        return Sample(f"aws_access_key_id = {key}\naws_secret_access_key = {secret}", (key, secret))
    if style == 1:
        return Sample(f"export AWS_ACCESS_KEY_ID={key}\nexport AWS_SECRET_ACCESS_KEY={secret}", (key, secret))
    return Sample(f'"AccessKeyId": "{key}", "SecretAccessKey": "{secret}"', (key, secret))


def _in_prose(rng: random.Random, token: str) -> str:
    return rng.choice(("{}", "token: {}", "The CI used {} until it was revoked.", "`{}`", "KEY={}")).format(token)


def github(rng: random.Random) -> Sample:
    if rng.random() < 0.3:
        token = f"github_pat_{_pick(rng, ALNUM, 22)}_{_pick(rng, ALNUM, 59)}"
    else:
        token = rng.choice(("ghp_", "gho_", "ghu_", "ghs_", "ghr_")) + _pick(rng, ALNUM, 36)
    return Sample(_in_prose(rng, token), (token,))


def gitlab(rng: random.Random) -> Sample:
    token = "glpat-" + _pick(rng, ALNUM + "_-", 20)
    return Sample(_in_prose(rng, token), (token,))


def slack(rng: random.Random) -> Sample:
    style = rng.randrange(4)
    if style == 0:
        token = f"xoxb-{rng.randrange(10**11, 10**12)}-{rng.randrange(10**12, 10**13)}-{_pick(rng, ALNUM, 24)}"
    elif style == 1:
        ids = f"{rng.randrange(10**11, 10**12)}-{rng.randrange(10**11, 10**12)}-{rng.randrange(10**12, 10**13)}"
        token = f"xoxp-{ids}-{_pick(rng, HEX, 32)}"
    elif style == 2:
        token = f"xoxa-2-{rng.randrange(10**11, 10**12)}-{rng.randrange(10**12, 10**13)}-{_pick(rng, HEX, 64)}"
    else:
        upper = string.ascii_uppercase + string.digits
        token = (
            f"https://hooks.slack.com/services/T{_pick(rng, upper, 8)}/B{_pick(rng, upper, 10)}/{_pick(rng, ALNUM, 24)}"
        )
    return Sample(_in_prose(rng, token), (token.rsplit("/", 1)[-1] if token.startswith("https") else token,))


def stripe(rng: random.Random) -> Sample:
    prefix = rng.choice(("sk_live_", "rk_live_", "sk_live_", "sk_test_", "whsec_"))
    token = prefix + _pick(rng, ALNUM, rng.choice((24, 32, 99)))
    return Sample(_in_prose(rng, token), (token,))


def twilio(rng: random.Random) -> Sample:
    if rng.random() < 0.5:
        key = "SK" + _pick(rng, HEX, 32)
        return Sample(_in_prose(rng, key), (key,))
    sid, token = "AC" + _pick(rng, HEX, 32), _pick(rng, HEX, 32)
    return Sample(f"TWILIO_ACCOUNT_SID={sid}\nTWILIO_AUTH_TOKEN={token}", (sid, token))


def sendgrid(rng: random.Random) -> Sample:
    token = f"SG.{_pick(rng, B64URL, 22)}.{_pick(rng, B64URL, 43)}"
    return Sample(_in_prose(rng, token), (token,))


def google(rng: random.Random) -> Sample:
    token = "AIza" + _pick(rng, B64URL, 35)
    return Sample(_in_prose(rng, token), (token,))


def openai(rng: random.Random) -> Sample:
    style = rng.randrange(3)
    if style == 0:
        token = f"sk-{_pick(rng, ALNUM, 20)}T3BlbkFJ{_pick(rng, ALNUM, 20)}"
    elif style == 1:
        token = "sk-proj-" + _pick(rng, B64URL, 156)
    else:
        token = "sk-" + _pick(rng, ALNUM, 48)
    return Sample(_in_prose(rng, token), (token,))


def anthropic(rng: random.Random) -> Sample:
    token = "sk-ant-api03-" + _pick(rng, B64URL, 93) + "AA"
    return Sample(_in_prose(rng, token), (token,))


def huggingface(rng: random.Random) -> Sample:
    token = "hf_" + _pick(rng, ALNUM, 34)
    return Sample(_in_prose(rng, token), (token,))


def npm(rng: random.Random) -> Sample:
    token = "npm_" + _pick(rng, ALNUM, 36)
    text = f"//registry.npmjs.org/:_authToken={token}" if rng.random() < 0.4 else _in_prose(rng, token)
    return Sample(text, (token,))


def datadog(rng: random.Random) -> Sample:
    name, n = rng.choice(
        (
            ("DD_API_KEY", 32),
            ("DATADOG_API_KEY", 32),
            ("DD_APP_KEY", 40),
            ("DATADOG_APP_KEY", 40),
            ("api_key", 32),
            ("DD_CLIENT_TOKEN", 32),
        )
    )
    token = ("pub" if name.endswith("TOKEN") else "") + _pick(rng, HEX, n)
    sep = ": " if name == "api_key" else rng.choice(("=", ": "))
    return Sample(f"{rng.choice(('', 'export ', '  '))}{name}{sep}{_quote(rng, token)}", (token,))


def django(rng: random.Random) -> Sample:
    value = _pick(rng, string.ascii_lowercase + string.digits + "!@#$%^&*(-_=+)", 50)
    if rng.random() < 0.5:
        value = "django-insecure-" + value
    if rng.random() < 0.6:
        q = rng.choice("'\"")
        return Sample(f"SECRET_KEY = {q}{value}{q}", (value,))
    return Sample(f"DJANGO_SECRET_KEY={value}", (value,))


def other_forms(rng: random.Random) -> Sample:
    """A key and its value where no ``=`` or ``:`` joins them: XML, PHP, command lines, .netrc, .pgpass."""
    secret = password(rng).replace("'", "").replace('"', "").replace("<", "").replace("&", "")
    name = rng.choice(("password", "DB_PASSWORD", "apiKey", "client_secret"))
    frame = rng.choice(
        (
            "machine api.example.com login deploy password {s}",
            "    password {s}",
            "define('{k}', '{s}');",
            "<{k}>{s}</{k}>",
            '<add key="{k}" value="{s}" />',
            "curl -u admin:{s} https://ci.example.com/api/json",
            "docker login --username ci --password {s} registry.example.com",
            "mysql -u root -p{s} shop",
            "db.example.org:5432:app:app:{s}",
        )
    )
    return Sample(frame.format(s=secret, k=name), (secret,))


def yaml_block(rng: random.Random) -> Sample:
    """A value YAML writes below its key: a block scalar, or a list under a plural key."""
    secret = password(rng)
    frame = rng.choice(
        (
            "password: |\n  {s}\n",
            "db:\n  password: >-\n    {s}\n  user: app\n",
            "passwords:\n  - {s}\n",
            "api_tokens:\n- '{s}'\n",
        )
    )
    return Sample(frame.format(s=secret), (secret,))


def _mixed(rng: random.Random) -> str:
    """A password mixing letters and digits: what a table cell or a scheme-less ``user:pass@host``
    must hold to count (a table documents types and words; ``note:thing@place`` is prose)."""
    while True:
        value = password(rng)
        if any(c.isdigit() for c in value) and any(c.isalpha() for c in value):
            return value.replace("|", "").replace("`", "").replace("@", "").replace(":", "").replace("/", "")


def table_and_tight(rng: random.Random) -> Sample:
    """A markdown table row, ``password:value`` with no space, sshpass, ``user:pass@host``."""
    secret = _mixed(rng).replace("'", "").replace('"', "").replace(" ", "")
    frame = rng.choice(
        (
            "| password | {s} |",
            "| DB_PASSWORD | `{s}` | the production database |",
            "password:{s}",
            "sshpass -p '{s}' ssh deploy@build.example.com",
            "git remote add origin deploy:{s}@git.example.com:shop.git",
        )
    )
    return Sample(frame.format(s=secret), (secret,))


def age_and_presigned(rng: random.Random) -> Sample:
    if rng.random() < 0.5:
        key = "AGE-SECRET-KEY-1" + _pick(rng, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L".upper(), 58)
        return Sample(f"# created: 2026-11-02\n{key}", (key,))
    sig = _pick(rng, "0123456789abcdef", 64)
    url = f"https://shop.s3.amazonaws.com/a.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=900&X-Amz-Signature={sig}"
    return Sample(url, (sig,))


def other_languages(rng: random.Random) -> Sample:
    """A password keyed in the language of the note, with the colon its keyboard types."""
    secret = _mixed(rng).replace("'", "").replace('"', "").replace(" ", "")
    frame = rng.choice(
        (
            "密码：{s}",
            "数据库密码: {s}",
            "パスワード：{s}",
            "API密钥={s}",
            "비밀번호: {s}",
            "пароль: {s}",
            "Kennwort: {s}",
            "senha={s}",
        )
    )
    return Sample(frame.format(s=secret), (secret,))


def html_input(rng: random.Random) -> Sample:
    """A form's input that holds its value: a password input under any name, or a secret's name."""
    secret = password(rng).replace('"', "").replace("'", "").replace("<", "").replace(">", "")
    q = rng.choice("\"'")
    frame = rng.choice(
        (
            '<input type={q}password{q} name={q}pw{q} value={q}{s}{q}>',
            '<input value={q}{s}{q} type={q}password{q} />',
            '  <input class={q}form-control{q} id={q}db-password{q} type={q}password{q} value={q}{s}{q}/>',
            '<INPUT TYPE={q}PASSWORD{q} NAME={q}login{q} VALUE={q}{s}{q}>',
            '<input type={q}text{q} name={q}client_secret{q} value={q}{s}{q}>',
        )
    )
    return Sample(frame.format(s=secret, q=q), (secret,))


SHAPES: dict[str, Callable[[random.Random], Sample]] = {
    "env KEY=value": env_assignment,
    "YAML key: value": yaml_assignment,
    'JSON "key": "value"': json_assignment,
    "INI key = value": ini_assignment,
    "TOML key = 'value'": toml_assignment,
    "URL credentials": url_credentials,
    "database DSN": database_dsn,
    "Authorization header": authorization_header,
    "PEM private key": pem_private_key,
    "JWT": jwt,
    "AWS key + secret": aws,
    "GitHub": github,
    "GitLab": gitlab,
    "Slack": slack,
    "Stripe": stripe,
    "Twilio": twilio,
    "SendGrid": sendgrid,
    "Google API key": google,
    "OpenAI": openai,
    "Anthropic": anthropic,
    "Hugging Face": huggingface,
    "npm": npm,
    "Datadog": datadog,
    "Django SECRET_KEY": django,
    "XML, PHP, command lines": other_forms,
    "YAML block values": yaml_block,
    "tables, tight colons, sshpass, user:pass@host": table_and_tight,
    "age key, S3 presigned URL": age_and_presigned,
    "keys in other languages": other_languages,
    "HTML password input": html_input,
}


def positives(shape: str, n: int, seed: int = SEED) -> list[Sample]:
    """``n`` samples of ``shape``, the same on every run for the same seed."""
    rng = random.Random(f"{seed}:{shape}")
    return [SHAPES[shape](rng) for _ in range(n)]


def _ulid(rng: random.Random) -> str:
    return "01" + rng.choice("HJK") + _pick(rng, CROCKFORD, 23)


def _uuid(rng: random.Random) -> str:
    h = _pick(rng, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


def generated_negatives(rng: random.Random, n: int) -> dict[str, list[str]]:
    """Identifiers and encoded data in the forms notes hold them, ``n`` of each family."""

    def each(make: Callable[[], str]) -> list[str]:
        return [make() for _ in range(n)]

    return {
        "ULIDs and kp_ids": each(
            lambda: rng.choice(("kp_id: kp:{}", "see [[kp:{}]]", ".kp/proposals/{}/files/notes/a.md", "id {}")).format(
                _ulid(rng)
            )
        ),
        "git object ids": each(
            lambda: rng.choice(("commit {}", "git checkout {}", "Fixed in {} (see the log).", "blob: {}")).format(
                _pick(rng, HEX, rng.choice((40, 40, 12, 7)))
            )
        ),
        "UUIDs in links": each(
            lambda: rng.choice(
                ("https://example.org/items/{}", "[the run](https://ci.example.com/runs/{}/logs)", "request_id: {}")
            ).format(_uuid(rng))
        ),
        "base64 image data": each(
            lambda: (
                f"![chart](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{_pick(rng, B64, rng.randrange(80, 400))}=)"
            )
        ),
        "lockfile hashes": each(
            lambda: rng.choice(
                (
                    f"  integrity sha512-{_pick(rng, B64, 86)}==",
                    f'"integrity": "sha512-{_pick(rng, B64, 86)}==",',
                    f"golang.org/x/text v0.3.{rng.randrange(9)} h1:{_pick(rng, B64, 43)}=",
                    f'    {{file = "pkg-1.0.tar.gz", hash = "sha256:{_pick(rng, HEX, 64)}"}},',
                    f'checksum = "{_pick(rng, HEX, 64)}"',
                    f"    --hash=sha256:{_pick(rng, HEX, 64)}",
                )
            )
        ),
        "public keys": each(
            lambda: rng.choice(
                (
                    f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{_pick(rng, B64, 43)} deploy@ci",
                    f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ{_pick(rng, B64, 300)}= alice@laptop",
                    "-----BEGIN CERTIFICATE-----\n"
                    + "\n".join(_pick(rng, B64, 64) for _ in range(4))
                    + "\n-----END CERTIFICATE-----",
                    "-----BEGIN PUBLIC KEY-----\n"
                    + "\n".join(_pick(rng, B64, 64) for _ in range(3))
                    + "\n-----END PUBLIC KEY-----",
                )
            )
        ),
    }


NEGATIVES: dict[str, list[str]] = {
    "prose": [
        "The password must be at least twelve characters long and is rotated every quarter.",
        "Reset your password: open the settings page and follow the link in the mail.",
        "Password: required for every account, see the onboarding checklist.",
        "Token: a unit of text the model reads; a sentence is about twenty of them.",
        "Secret: there is none in this note, the key lives in the team vault.",
        "The API key is stored in the vault and read by the deploy job at start-up.",
        "Tokens: 4096 per request, and the context window holds 128k.",
        "We passed the credentials through the environment, never in the repository.",
        "Use a bearer token from the login endpoint; Basic authentication is disabled.",
        "Authorization: see the section on OAuth scopes below.",
        "A key: value pair per line, the way YAML writes a mapping.",
        "The keyboard shortcut for this is Ctrl+K, and the passkey prompt follows.",
        "Notes on secret sharing: Shamir's scheme splits a secret into n shares.",
        "密码：请联系管理员获取",
        "パスワード：管理者に聞いてください",
        "パスワードを忘れた場合は、設定画面からリセットしてください。",
        "## 密码管理与轮换",
        "пароль: спросите администратора",
    ],
    "code without values": [
        "password = getpass()",
        "password: ${DB_PASSWORD}",
        'password = os.environ["DB_PASSWORD"]',
        'token = os.getenv("GITHUB_TOKEN")',
        "api_key = settings.API_KEY",
        'secret = config["secret"]',
        "const apiKey = process.env.API_KEY;",
        "PASSWORD=$(cat /run/secrets/db_password)",
        "POSTGRES_PASSWORD_FILE=/run/secrets/postgres-password",
        'password: "{{ vault_db_password }}"',
        "token: ${{ secrets.GITHUB_TOKEN }}",
        "conn = connect(host=host, user=user, password=password)",
        "this.password = password;",
        "    api_key: str",
        "    token: Optional[str] = None",
        "    password: SecretStr = Field(..., min_length=12)",
        '"password": "",',
        "password: null",
        "  secretKeyRef:",
        "    key: password",
        "password_hint: ask the admin",
        "max_tokens: 4096",
        "token_type: bearer",
        "password_min_length = 12",
        "curl -H 'Authorization: Bearer $TOKEN' https://api.example.com",
        'headers = {"Authorization": f"Bearer {token}"}',
        'pad_token: "<|endoftext|>"',
        "eos_token = tokenizer.eos_token",
        "credentials: ./secrets/service-account.json",
        "api_key = request.headers['X-Api-Key']",
        "private String password;",
        "if not password: raise ValueError('no password')",
        "secret_name: prod-db-credentials",
        "docker login --password-stdin registry.example.com < token.txt",
        "psql -h db.example.org -p 5432 -U app",
        "mysql -u root -p shop",
        "<password>${DB_PASSWORD}</password>",
        'curl -u "$USER:$TOKEN" https://ci.example.com',
        "docker run -u 1000:1000 image",
        "New-LocalUser -Name deploy -Password $password",
        "$cred = Get-Credential -Credential (Get-Secret -Name deploy)",
        "sort_key: created_at",
        "primary_key = id",
        "monkey: banana",
        "bypass: true",
    ],
    "placeholders": [
        "API_KEY=<your-api-key>",
        "token: <your-token>",
        'password = "xxxxxxxx"',
        "DB_PASSWORD=changeme",
        "api_key: your_api_key_here",
        'secret: "REPLACE_ME"',
        "password: ********",
        "OPENAI_API_KEY=sk-...",
        "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "https://user:<password>@db.example.org/app",
        "postgres://app:${DB_PASSWORD}@db:5432/app",
        "Authorization: Bearer <token>",
        'password: "password"',
        "SECRET_KEY={{ django_secret }}",
        "token = '%s' % value",
    ],
    "names and paths in code and docs": [
        "Win32_ProcessStartTrace",
        "    ClassName = 'Win32_LogicalDisk'",
        "PeakPagedMemorySize64 and WorkingSet64 are properties of the process.",
        "- `http://schemas.example.com/wbem/wsman/1/wmi/root/cimv2/Win32_LogicalDisk`",
        "See https://github.com/example/project/pull/20369 for the change.",
        "__DynamicModule_2ceb1d0a-990f-45e4-9fe4-89f0f6ead0e5",
        "[What's new](../whats-new/What-s-New-in-Release-74.md)",
        "ECDSA key fingerprint is SHA256:2kCbnhT2dUE6WCGgVJ8Hyfu1z2wE4lifaJXLO7QJy0Y.",
        "Culture=neutral, PublicKeyToken=31bf3856ad364e35",
        "$Credential = Get-Credential",
        "$Password = $Credential.GetNetworkCredential().Password",
        "Enter-PSSession -ComputerName Server01 -Credential Domain01\\User01",
        "2601:600:a27f:a470:f532:6451:5630:ec8b",
    ],
    "markdown tables": [
        "| Key | Value | Notes |",
        "| --- | --- | --- |",
        "| password | string | the user's password, hashed at rest |",
        "| api_key | string | issued on the settings page |",
        "| token | `Bearer` | sent in the Authorization header |",
    ],
    "URLs without credentials": [
        "https://example.org:8443/docs/retrieval?page=2#chunking",
        "https://example.com:8080/users/@alice",
        "https://medium.com/@writer/notes-on-retrieval-3f9a1c0e8d7b",
        "ssh://git@github.com/org/repo.git",
        "git@github.com:org/repo.git",
        "https://example.com:443/contact?mail=ops@example.org",
        "redis://cache.internal:6379/0",
        "mailto:ops@example.org",
    ],
    "HTML forms": [
        '<input type="password" name="password" placeholder="Password" required>',
        '<input type="password" value="">',
        '<input type="text" name="username" value="alice.example">',
        '<input type="password" value="{{ form.password.value }}">',
        '<input type="password" name="pw" value="<?= $password ?>">',
        '<input type="submit" value="Reset password">',
        '<input type="email" name="login" value="ops@example.org">',
    ],
    "e-mail addresses": [
        "alice@example.org",
        '"Alice Example" <alice.example@mail.example.org>',
        "Reviewed-by: Bob <bob+lists@example.net>",
    ],
}


QUERY_SECRETS: dict[str, str] = {
    # What a search query holds where a note's rules, which want a value to end its line, miss it.
    "token: ghp_Ab3dEf5gH7Ij9kL1 rejected by the API": "ghp_Ab3dEf5gH7Ij9kL1",
    "why does token: ghp_aaaabbbbccccdddd fail": "ghp_aaaabbbbccccdddd",
    "password: hunter2hunter2 not working on staging": "hunter2hunter2",
    "the db password is Summer2024! since monday": "Summer2024!",
    "api key c2VjcmV0a2V5MTIzNA== expired": "c2VjcmV0a2V5MTIzNA==",
    "api key aGVsbG8gd29ybGQ=": "aGVsbG8gd29ybGQ=",
    "is c2VjcmV0a2V5MTIzNA== still valid": "c2VjcmV0a2V5MTIzNA==",
    "key aB3dE5gH7jK9mN1p rotated": "aB3dE5gH7jK9mN1p",
    "slack xoxb-1234567890-abcdefgh scopes": "xoxb-1234567890-abcdefgh",
    "sk-proj-abc123def456 quota": "sk-proj-abc123def456",
}
QUERY_QUESTIONS = [
    # Questions a vault is asked that name secrets, models and versions: sent as typed.
    "how do I rotate the API key",
    "what is the token limit of gpt-4o-mini",
    "max token gpt-4o-mini limit",
    "password policy 2024",
    "password reset link not sent",
    "token expired after an hour",
    "the password is in 1Password",
    "secret sharing shamir",
    "api key for OpenAI in .env",
    "key = value pairs in YAML",
    "iPhone15ProMax battery",
    "ResNet50V2 accuracy on ImageNet",
    "MacBookPro16 keyboard",
    "sk-learn-tutorial pipelines",
    "utf8mb4_unicode_ci collation",
    "all-MiniLM-L6-v2 dimensions",
    "Llama3-8B-Instruct context window",
    "SHA256withRSA signature",
    "AES256GCM encryption key size",
    "OAuth2PKCE flow",
    "bge-m3 vs e5-small-v2",
    "Win32_LogicalDisk class",
    "kp:01J00000000000000000000001",
    "commit 3f9a1c0e8d7b",
    "IPv6 2601:600:a27f:a470",
    "what does KP006 mean",
    "password Passw0rd1 in the docs",
]


def negatives(n_generated: int = 50, seed: int = SEED) -> dict[str, list[str]]:
    """Hand-written negatives and ``n_generated`` of each generated family, by family."""
    return {**NEGATIVES, **generated_negatives(random.Random(f"{seed}:negatives"), n_generated)}


def corpus(n: int = 200, seed: int = SEED) -> dict[str, list[Sample]]:
    """``n`` positives of every shape."""
    return {shape: positives(shape, n, seed) for shape in SHAPES}
