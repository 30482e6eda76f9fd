"""The leak scanner's hand-written rules: assigned secrets, passwords in URLs, ``Authorization``
headers (the other forms a key meets its value in, XML to ``.pgpass``, are ``curator.leak_forms``). ``curator.leaks`` is the one place that decides and the one that callers use; these
functions only find spans in a line, for it.

Assignments: a key that names a secret, a separator (``=``, ``:``, ``:=``, ``=>``) and a value, in
the forms a pasted ``.env``, JSON, YAML, INI or TOML file, a connection string or code holds them.
The key decides first (``key_names_secret``): its last part, after splitting on ``_ - .`` and
camelCase and dropping a qualifier (``_2``, ``_prod``, ``_base``), names a password (``password``,
``PGPASSWORD``, ``pwd``, ``pass``, ``passphrase``: any value of six characters or more, spaces
allowed when quoted), a secret (``secret``, ``token``, ``credentials``, ``api_key``,
``secret_key``, ``access_key``, ``DD_APP_KEY``, ...: the same, one word) or some other key
(``key``, ``STRIPE_KEY``, ``_auth``: only a value that looks random). ``PASSWORD_FILE``,
``token_type``, ``max_tokens``, ``public_key`` and ``sort_key`` name no secret. Then the value
(``value_is_secret``): a template or a reference is not a secret (``${DB_PASSWORD}``,
``<your-token>``, ``{{ var }}``, ``%s``, ``os.environ["X"]``, ``getpass()``, ``settings.KEY``,
``$Host.UI…``, ``Get-Credential``, a type such as ``str`` or ``SecretStr``, a path, a number,
a user name such as ``DOMAIN\\user``), nor a word that stands for one in documentation
(``changeme``, ``password``, ``xxxxxxxx``, ``********``, ``your_api_key_here``, ``REPLACE_ME``,
``MyPassword``, ``P@ssw0rd``, ``true``, ``null``): a default that is published is not a secret,
and notes about configuration are full of such lines. Unquoted after ``:`` or a spaced ``=``,
the value must end the line or come before a comment or closing punctuation, which keeps prose
such as ``Password: required for login`` out; ``KEY=value`` with no spaces is a shell or
``.env`` line and needs nothing after it (``PGPASSWORD=… psql``). In a query string or a
``;``-separated connection string the value ends at ``&`` or ``;``. Only the value is redacted.

URLs: ``scheme://user:password@host``, the user possibly empty, the password possibly holding
``/`` or ``@`` and possibly a word (``https://:pass@host`` is a password); a port and a path
before an ``@`` (``https://host:8080/users/@alice``) and a template (``:${PASS}@``) are not.

Headers: ``Bearer``, and after ``Authorization`` also ``Token`` or ``Bot``, with a credential of
16 characters or more holding a digit (``Bearer authentication`` is prose); ``Basic`` with
base64 of ``user:password``.

Every pattern is linear in the line: a key starts only where an identifier starts and is at
most 80 characters, a value at most 256 (512 quoted), a URL's parts are bounded, and no
quantified group can split a run two ways.
"""

from __future__ import annotations

import base64
import binascii
import re
from functools import lru_cache

from curator.leak_entropy import entropy
from curator.script_pattern import ScriptPattern

ASSIGNED = "Assigned Secret"
URL_PASSWORD = "Password in URL"
AUTH_HEADER = "Authorization Header"
BASIC_AUTH = "Basic Auth Credentials"


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# A key (bounded, starting only where an identifier starts, so a line costs linear time), what
# may close it (a quote, a bracket, markdown emphasis), then the separator.
KEY_SEPARATOR = re.compile(r"(?<![\w.\-])([\w.\-]{1,80})([\"'`\]*]{0,3})[ \t]*(:=|=>|=|:|：|＝)")
WIDE_SEPARATORS = ("：", "＝")
"""The colon and equals sign a Chinese or Japanese keyboard types, with no space after them."""
UNQUOTED = re.compile(r"[^\s\"'`]{1,256}")
MAX_VALUE = 512
# A key's last part names a password when it ends with one of these: the languages notes are
# written in (a compound such as 数据库密码, "database password", ends with its word).
PASSWORD_WORDS = (
    "password", "passwd", "passphrase", "passwort", "kennwort", "contrasena", "contraseña", "senha",
    "wachtwoord", "lösenord", "losenord", "passord", "adgangskode", "salasana", "hasło", "haslo",
    "heslo", "jelszó", "пароль", "密码", "密碼", "口令", "パスワード", "暗証番号", "비밀번호",
)
PASSWORD_PARTS = frozenset({"pass", "pwd", "pw", "passcode", "pword", "passe"})
SECRET_WORDS = tuple(
    _words(
        "secret secrets token tokens credential credentials apikey apikeys secretkey privatekey accesskey authkey "
        "密钥 密鑰 秘钥 令牌 トークン シークレット 秘密鍵 토큰"
    )
)
SECRET_KEY_PREFIXES = _words(
    "api secret access private auth master encryption encrypt signing sign hmac client app application "
    "account service session jwt license licence subscription admin write read deploy webhook cipher aes "
    "storage db database shared root ingest rest partner consumer server bot sdk cookie csrf"
)
NOT_SECRET_KEY_PREFIXES = _words(
    "public pub publishable primary foreign sort partition cache idempotency lookup routing object hot "
    "short map dict row column unique natural composite surrogate index shard group id ssh gpg pgp "
    "translation"
)
NOT_SECRET_TOKEN_PREFIXES = _words(
    "page next continuation pagination sync cancellation eos bos pad unk mask sep cls special start end "
    "stop max min num total input output prompt completion reasoning context"
)
QUALIFIERS = _words(
    "prod production dev development test testing staging stage live local qa uat base value raw b64 "
    "base64 hex new old current primary secondary main default str enc"
)
NOT_SECRET_VALUES = _words(
    "changeme changeit password passwd pass secret token apikey key none null nil undefined true false "
    "yes no on off required optional empty hidden redacted masked example sample dummy foo bar baz foobar "
    "todo tbd fixme placeholder default string str text value secretstr bytes int bool any na"
)
PLACEHOLDER_PARTS = tuple(_words("xxxx **** ... … changeme change_me change-me replace placeholder example redacted"))
TEMPLATE = re.compile(
    r"<[^<>]*>|\{\{.*\}\}|\$\{.*\}|\$\(.*\)|\$\w+|%\(\w*\)[sd]|%[sd]|%\w+%|\[\w*\]|![A-Za-z]+"
    r"|[*&][A-Za-z_]\w*|[*x•#.\-]+",
    re.IGNORECASE,
)
FORMAT_FIELD = re.compile(r"\{[\w.]*\}")  # "Bearer {token}", f"{prefix}-key"
REFERENCE = re.compile(
    r"[A-Za-z_][\w.]*(?:[(\[].*[)\]]|[(\[])$"  # a call or a subscript: getpass(), os.environ["X"]
    r"|[A-Za-z_]+\d*(?:\.[A-Za-z_]+\d*)+$"  # an attribute: settings.API_KEY
    r"|[A-Za-z]+(?:_[A-Za-z]+)+$"  # a variable: db_password
    r"|[a-z]+(?:[A-Z][a-z]+)+$|[A-Z][a-z]+(?:[A-Z][a-z]+)+$"  # camelCase, a type: SecretStr
)
# A call begun (``PSParser.Tokenize(text, …``) after a spaced ``=``; a ``KEY=value`` line is
# not code, and a random value there may well hold ``(`` (Django's keys do).
CALL = re.compile(r"[A-Za-z_][\w.]*[(\[]")
COMMAND = re.compile(r"[A-Z][a-z]+-[A-Z][A-Za-z]+")  # Get-Credential
ACCOUNT = re.compile(r"[\w.\-]+\\[\w.\-$]+|[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+")
_LEET = str.maketrans("@4$5013!7", "aassoieit")
PATH = re.compile(
    r"(?:/|\./|\.\./|~/|[A-Za-z]:\\)|.*\.(?:json|pem|key|txt|ya?ml|env|p12|pfx|crt|cer|der|jks|toml|ini|cfg|conf)$"
)
NUMBER = re.compile(r"[\d.,:_\-]+")
TOKEN_CHARS = re.compile(r"[A-Za-z0-9+/=_\-.~]+")
TWO_DIGITS = re.compile(r"\d[^\d]*\d")
TWO_LETTERS = re.compile(r"[A-Za-z][^A-Za-z]*[A-Za-z]")
NOT_ALNUM = re.compile(r"[\W_]")
WORDS_OF_CJK = ScriptPattern(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
"""Kana, CJK ideographs and Hangul: prose in a value, never what a password prompt takes."""
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)
ULID = re.compile(r"[0-9A-HJKMNP-TV-Z]{26}")
# After the value of ``key: value`` or ``key = value`` (spaced), what may follow: nothing, a
# comment, or punctuation that closes the value; anything else is prose.
VALUE_END = re.compile(r"\s*(?:$|#|//|--|—|\(|[,;)\]}>|*.`。，；）])")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_KEY_PARTS = re.compile(r"[_.\-\s]+")


@lru_cache(maxsize=4096)
def key_names_secret(key: str) -> str | None:
    """What a key's name says its value is: ``"password"``, ``"secret"``, ``"key"`` (some key: only a
    random-looking value counts), or None. The last part decides (``PASSWORD_FILE`` holds a path)."""
    parts = [p for p in _KEY_PARTS.split(_CAMEL.sub("_", key).lower()) if p]
    while len(parts) > 1 and (parts[-1].isdigit() or parts[-1] in QUALIFIERS):
        parts.pop()
    if not parts or "public" in parts:
        return None  # PublicKeyToken, public_key: published by design
    last, prev = parts[-1], parts[-2] if len(parts) > 1 else ""
    if last.endswith(("words", "tokens", "secrets", "passphrases")):
        last = last[:-1]  # a list of them: passwords, api_tokens
    if last in PASSWORD_PARTS or last.endswith(PASSWORD_WORDS):
        return "password"
    if last in ("key", "keys"):
        if prev in SECRET_KEY_PREFIXES:
            return "secret"
        return None if prev in NOT_SECRET_KEY_PREFIXES else "key"
    if last.endswith(SECRET_WORDS):
        return None if last.startswith("token") and prev in NOT_SECRET_TOKEN_PREFIXES else "secret"
    return "key" if last == "auth" else None


def _random_looking(value: str) -> bool:
    if len(value) < 16 or not TOKEN_CHARS.fullmatch(value) or UUID.fullmatch(value) or ULID.fullmatch(value):
        return False
    if not (TWO_DIGITS.search(value) and TWO_LETTERS.search(value)):
        return False
    return entropy(value) >= 3.0


def value_is_secret(value: str, names: str, *, quoted: bool, tight: bool = False) -> bool:
    """Whether ``value``, assigned to a key whose name says ``names`` (``key_names_secret``), is a
    secret rather than a template, a reference, a documented default or a word. ``quoted``: it
    stood in quotes (so it is a literal, not code); ``tight``: ``KEY=value`` with no spaces."""
    if len(value) < 6 or (" " in value and names != "password"):
        return False  # too short to be anyone's secret, or a sentence in a JSON string
    if WORDS_OF_CJK.search(value):
        return False  # 请联系管理员 ("ask the administrator"): a sentence; a password is typed in Latin letters
    if TEMPLATE.fullmatch(value) or FORMAT_FIELD.search(value) or PATH.match(value) or NUMBER.fullmatch(value):
        return False
    if "://" in value[:40]:
        return False  # a URL: its password, if any, is the URL rule's
    if not quoted and (value.startswith(("${", "$(")) or COMMAND.fullmatch(value) or REFERENCE.match(value)):
        return False  # a variable, a type, a command, an expression
    if not quoted and not tight and (value[0] in "$[@{" or CALL.match(value)):
        return False  # code after a spaced ``=``: $Host.UI.PromptForCredential(, [PSCredential]::Empty
    low = value.casefold()
    if len(set(low)) <= 2 or any(p in low for p in PLACEHOLDER_PARTS):
        return False
    if len(low) <= 40 and _documents(low) and not _random_looking(value):
        return False
    if ACCOUNT.fullmatch(value) and names != "password":
        return False  # a user name for a credential: DOMAIN\\user, user@example.org
    return _random_looking(value) if names == "key" else True


def _documents(low: str) -> bool:
    """Whether a value is a word that stands for a secret in documentation: ``changeme``, ``null``,
    ``your_api_key_here``, and the thing spelled out (``MyPassword``, ``P@ssw0rd``, ``TokenValue``)."""
    bare = NOT_ALNUM.sub("", low)
    if bare in NOT_SECRET_VALUES or bare.startswith(("your", "insert", "enter")) or bare.endswith("here"):
        return True
    spelled = NOT_ALNUM.sub("", low.translate(_LEET))
    return any(w in spelled for w in ("password", "passwd", "secret", "token", "apikey"))


def assignments(line: str) -> list[tuple[int, int]]:
    """Spans of the values assigned to keys that name a secret in ``line``."""
    found = []
    for m in KEY_SEPARATOR.finditer(line) if "=" in line or ":" in line or "：" in line or "＝" in line else ():
        names = key_names_secret(m[1])
        if names is None:
            continue
        sep, at = m[3], m.end()
        if sep in WIDE_SEPARATORS:
            sep = "=" if sep == "＝" else ": "  # no space is needed after it, as a CJK writer types it
        nxt = line[at : at + 1]
        if sep == ":" and (nxt in (":", "/") or (m[2] == "" and nxt not in " \t\"'`*" and not _tight_password(line, m.end(), names))):
            continue  # ::, a URL's scheme, or ``a:b`` in prose (but ``password:Xk7pq2Lm``)
        if sep == "=" and nxt == "=" and line[at + 1 : at + 2] in (" ", '"', "'", ""):
            continue  # a comparison: password == "..."
        tight = sep == "=" and line[m.end(2) : m.end(2) + 1] == "=" and nxt not in " \t"
        while at < len(line) and line[at] in " \t*":
            at += 1
        span = _value_span(line, at, m.start(1), tight)
        if span is None:
            continue
        start, end, quoted = span
        value = line[start:end]
        if value_is_secret(value, names, quoted=quoted, tight=tight):
            found.append((start, end))
    return found

def _tight_password(line: str, at: int, names: str) -> bool:
    """``password:FyIb1d0F2uWo``, no space after the colon: a password when the key says password
    and the value mixes letters and digits (``a:b`` in prose, ``password:changeme``, a Windows
    ``password:*`` prompt do not)."""
    if names != "password":
        return False
    value = UNQUOTED.match(line, at)
    return value is not None and len(value[0]) >= 8 and letters_and_digits(value[0])


def letters_and_digits(value: str) -> bool:
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)

def _value_span(line: str, at: int, key_start: int, tight: bool) -> tuple[int, int, bool] | None:
    if at >= len(line):
        return None
    q = line[at]
    if q in "\"'`":
        close = line.find(q, at + 1, at + 1 + MAX_VALUE)
        if close < 0 or (q == "`" and any(c in line[at + 1 : close] for c in "\"'= ")):
            return None  # unclosed, or inline code that is an expression, not a value
        return at + 1, close, True
    m = UNQUOTED.match(line, at)
    if m is None:
        return None
    end = m.end()
    before = line[:key_start].rstrip()[-1:]
    cut = {"?": "&", "&": "&", ";": ";"}.get(before, "")
    for c in cut:
        i = line.find(c, at, end)
        end = i if i >= 0 else end
    value = _closed(line[at:end], ",;" if tight else ",;)]}>|*.")
    end = at + len(value)
    if not tight and not VALUE_END.match(line, end):
        return None  # more words follow: prose, not a setting
    return at, end, False


def _closed(value: str, trailing: str) -> str:
    """``value`` without the punctuation that closes what holds it (``f(password=x)``, ``x.``),
    keeping a closing bracket the value opened (``${DB_PASSWORD}``)."""
    while value and value[-1] in trailing:
        opener = {")": "(", "]": "[", "}": "{", ">": "<"}.get(value[-1])
        if opener and value.count(opener) >= value.count(value[-1]):
            break
        value = value[:-1]
    return value


# --- URLs and headers --------------------------------------------------------------------------

URL_CREDENTIALS = re.compile(
    r"(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]{0,30}://[^\s/:@?#\[\]]{0,128}:"
    r"(\S{1,256}?)@(?=[A-Za-z0-9\[][A-Za-z0-9.\-:\[\]%]{0,252}(?:[/?#\s\"'`)>,;|\]]|$))"
)
AUTHORIZATION = re.compile(r"(?i)\b(bearer|basic|token|bot)[ \t]+([A-Za-z0-9._~+/\-]{8,1024}=*)")


def url_passwords(line: str) -> list[tuple[str, int, int]]:
    found = []
    for m in URL_CREDENTIALS.finditer(line):
        secret = m[1]
        if "/" in secret and secret.split("/", 1)[0].isdigit():
            continue  # a port and a path: https://host:8080/users/@alice
        if TEMPLATE.fullmatch(secret) or filler(secret):
            continue
        found.append((URL_PASSWORD, *m.span(1)))
    return found


def authorizations(line: str) -> list[tuple[str, int, int]]:
    found = []
    for m in AUTHORIZATION.finditer(line):
        scheme, credential = m[1].lower(), m[2]
        if TEMPLATE.fullmatch(credential) or filler(credential):
            continue
        if scheme == "basic":
            if _basic_credentials(credential):
                found.append((BASIC_AUTH, *m.span(2)))
            continue
        if scheme != "bearer" and "authorization" not in line[max(0, m.start() - 40) : m.start()].lower():
            continue  # "token" and "bot" are words; only an Authorization header makes them schemes
        if len(credential) >= 16 and any(c.isdigit() for c in credential):
            found.append((AUTH_HEADER, *m.span(2)))
    return found


def _basic_credentials(credential: str) -> bool:
    try:
        decoded = base64.b64decode(credential, validate=True)
    except (binascii.Error, ValueError):
        return False
    return b":" in decoded and decoded.isascii()


def filler(match: str) -> bool:
    """A documentation placeholder in a token's shape: ``ghp_xxxx…``, ``sk-****``."""
    low = match.lower()
    return "xxxx" in low or "****" in low or "..." in low
