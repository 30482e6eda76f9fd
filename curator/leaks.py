"""The leak scanner: the one place that decides what text carries a secret.

Two exits use it, and nothing else may decide on its own: the remote embedder
(a passage or a query with a secret is not sent) and the MCP server (secrets are
redacted from every tool's output, text and structured).

What counts as a secret:

- detect-secrets' pattern plugins (AWS, GitHub, GitLab, Slack, Stripe, Twilio, SendGrid,
  private keys, ...), their regexes run directly over each line rather than through
  ``scan_line``: that costs 1.7 ms a line (it rebuilds its filters on every call), the
  regexes about 0.1 ms, with cheap literal pre-checks in front of the slow assignment
  patterns;
- token shapes it does not know or cuts short: Google ``AIza…``, Hugging Face ``hf_…``, npm
  ``npm_…``, OpenAI-style ``sk-…`` (``sk-proj-``, ``sk-ant-``), Stripe keys longer than 24
  characters and ``whsec_…``, JWTs whole (the plugin's match stops before the signature);
- assignments: a key that names a secret, a separator and a value, as a pasted ``.env``,
  JSON, YAML, INI or TOML file, a connection string or code holds them (``DB_PASSWORD=…``,
  ``"api_key": "…"``, ``SECRET_KEY = '…'``); a template, a reference or a documented default
  (``${DB_PASSWORD}``, ``getpass()``, ``<your-token>``, ``changeme``) is not a secret.
  ``scan_field`` and ``redact_field`` judge a (key, value) pair the same way, for a caller that
  holds a mapping (a note's frontmatter) rather than a line;
- passwords in URLs (``scheme://user:password@host``, ``://:pass@``, a ``/`` in the password)
  and ``Authorization`` headers (``Bearer …``, ``Basic …``); these three rule sets are
  ``curator.leak_rules``, whose docstring says what each takes and leaves;
- high-entropy strings: 20+ characters mixing upper case, lower case and digits,
  changing character class often, with a Shannon entropy near the maximum for their
  length (git object ids and ULIDs, all one case, and camelCase names are not flagged;
  nor are data that are random but not secret: a ``data:…;base64,`` image, a lockfile's
  ``sha512-`` or ``h1:`` hash, an SSH public key, and the lines of a certificate or
  public key block);
- private key blocks, whole: every line from ``-----BEGIN … PRIVATE KEY-----`` to
  its ``END`` line (or to the end of the text), so the body of a pasted key is
  caught even in a passage or page that does not hold the ``BEGIN`` line.

Hand-written rather than detect-secrets', and why: its keyword plugin wants quotes in the files
notes paste (``.env``, INI, YAML), knows no env names (``DB_PASSWORD``) and needs a file name to
pick its patterns, so the assignment rule replaces it; its basic-auth plugin misses ``://:pass@``
and passwords holding ``/`` and takes a port and path for a password; its npm and JWT plugins
retry a long line from every ``//`` or ``eyJ`` (three minutes and twenty seconds on a 100 KB
line). Those three are replaced by the URL rule, the assignment rule (``:_authToken=``) and a JWT
pattern. Every pattern here is linear in the line: keys, values and URL parts have bounded
lengths, a pattern starts only where a token does, and no group can split a run two ways.

Every line is scanned whole (detect-secrets' own line scanning stops at 4,000
characters; these regexes do not), and a text is scanned as a whole note, so a
key block spanning passages is seen as one. A match made of filler (``ghp_xxxx…``) is not a
secret.
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

# The hand-written rules (curator.leak_rules, leak_forms, leak_queries) are imported where a text
# is scanned: they compile some forty regular expressions (12 ms), which a process that imports
# the scanner and never scans (`curator validate` on notes, the pre-commit hook) need not pay.

class _Compiled:
    """A regular expression compiled the first time one of its methods is asked for: the
    scanner's own two dozen patterns cost 4 ms to compile (11 ms on a busy machine), which every
    process importing the scanner paid, scanning or not. After that first use the compiled
    pattern's methods are this object's own attributes, so a scan calls them as directly as
    before. Hand-written: ``re`` has no lazy compile."""

    METHODS = ("finditer", "search", "match", "fullmatch", "split", "sub", "findall")

    def __init__(self, source: str) -> None:
        self.source = source

    def __getattr__(self, name: str) -> Any:
        compiled = re.compile(self.source)
        for method in self.METHODS:
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)


def _lazy(source: str) -> re.Pattern[str]:
    # What the scanner calls of a pattern (METHODS) behaves as the compiled pattern's own.
    return cast("re.Pattern[str]", _Compiled(source))


EXTRA: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("AWS Access Key", _lazy(r"\b(?:A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("Google API Key", _lazy(r"\bAIza[0-9A-Za-z_\-]{35}")),
    ("Hugging Face Token", _lazy(r"\bhf_[A-Za-z0-9]{30,}")),
    ("npm Token", _lazy(r"\bnpm_[A-Za-z0-9]{36}")),
    ("GitHub Token", _lazy(r"\b(?:gh[pousr]_[A-Za-z0-9_]{36,}|github_pat_[A-Za-z0-9_]{22,})")),
    ("OpenAI-style Key", _lazy(r"\bsk-(?:proj-|live-|test-|ant-)?[A-Za-z0-9_\-]{20,}")),
    ("Stripe Access Key", _lazy(r"\b(?:[rs]k_(?:live|test)_[0-9A-Za-z]{24,}|whsec_[0-9A-Za-z]{24,})")),
    ("age Secret Key", _lazy(r"\bAGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}\b")),
    ("AWS Signature", _lazy(r"(?<=X-Amz-Signature=)[0-9a-f]{64}\b")),
    ("JSON Web Token", _lazy(r"(?<![A-Za-z0-9_\-])eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*")),
)
SKIP_PLUGINS = {
    "Base64HighEntropyString",
    "HexHighEntropyString",
    "IPPublicDetector",
    "KeywordDetector",
    "BasicAuthDetector",
    "NpmDetector",
    "JwtTokenDetector",
}
"""The entropy plugins only look inside quotes and flag prose; the keyword, basic-auth, npm and
JWT plugins are replaced by hand-written rules (see the module's docstring)."""

# Cheap tests that a line could match a plugin at all: these five plugins' patterns open with
# look-behinds that are tried at every position of every line, about 90% of the scan's time.
_ASSIGNMENT: Callable[[str], bool] = lambda line: "=" in line or ":" in line  # noqa: E731
PRECHECK: dict[str, Callable[[str], bool]] = {
    "IbmCloudIamDetector": _ASSIGNMENT,
    "IbmCosHmacDetector": _ASSIGNMENT,
    "CloudantDetector": _ASSIGNMENT,
    "SoftlayerDetector": _ASSIGNMENT,
    "ArtifactoryDetector": lambda line: "AKC" in line or "AP" in line,
    "MailchimpDetector": lambda line: "-us" in line,
}

TOKEN = _lazy(r"[A-Za-z0-9+/_\-]{20,}={0,2}")
# A ULID (Crockford base32, one case) standing as a whole path segment: proposal folders and
# kp_ids. Beside lower-case path words it reads as random mixed-case text, so a token such as
# ``proposals/01M8Q1N39VFH.../files`` is judged by the parts around it, not as one string.
ULID_SEGMENT = _lazy(r"(?<![A-Za-z0-9+_\-])[0-9A-HJKMNP-TV-Z]{26}(?![A-Za-z0-9+_\-])")
# Set aside the same way: a UUID (``__DynamicModule_2ceb1d0a-990f-…``) and, in a URL, each ``/``
# (``github.com/PowerShell/PowerShell/pull/20369`` is a path of words, each judged alone).
UUID_SEGMENT = _lazy(
    r"(?<![0-9A-Fa-f])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![0-9A-Fa-f])"
)
URL_SPAN = _lazy(r"(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]{0,30}://\S+")
# Words, numbers and acronyms run together: a name in code (``Win32_ProcessStartTrace``,
# ``PeakPagedMemorySize64``), not random text, which soon has a lone lower-case letter. Atomic,
# so a run of digits or capitals is never split two ways (that backtracks exponentially).
IDENTIFIER = _lazy(r"(?>[A-Z][a-z]{2,}|[a-z]{3,}|[A-Z]{2,}|\d+|[_\-./+])++")
SEPARATOR = _lazy(r"[_\-./+]")
# Random but public: these are not high-entropy secrets (a token starting or preceded so).
NOT_SECRET_DATA = ("sha1-", "sha256-", "sha384-", "sha512-")
NOT_SECRET_BEFORE = ("base64,", "h1:", "SHA256:")
SSH_PUBLIC_KEY = _lazy(
    r"\b(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d{3}|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)"
    r" AAAA[0-9A-Za-z+/]{1,16384}={0,3}"
)
PEM_BEGIN = _lazy(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")
PEM_END = _lazy(r"-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")
PUBLIC_BEGIN = _lazy(r"-----BEGIN (?:[A-Z0-9]+ )*(?:CERTIFICATE|PUBLIC KEY(?: BLOCK)?|X509 CRL)(?: REQUEST)?-----")
PUBLIC_END = _lazy(r"-----END (?:[A-Z0-9]+ )*(?:CERTIFICATE|PUBLIC KEY(?: BLOCK)?|X509 CRL)(?: REQUEST)?-----")
PRIVATE_KEY = "Private Key"
HIGH_ENTROPY = "High-entropy String"


@dataclass(frozen=True)
class Leak:
    kind: str
    line: int
    """0-based line index in the scanned text."""
    start: int
    end: int
    """Character span within that line."""


@lru_cache(maxsize=1)
def _plugins() -> list[tuple[str, str, list[re.Pattern[str]], Callable[[str], bool] | None]]:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    found = []
    classes: list[Any] = list(get_mapping_from_secret_type_to_class().values())
    for cls in classes:
        if cls.__name__ in SKIP_PLUGINS:
            continue
        denylist = list(getattr(cls(), "denylist", ()))
        if denylist:
            found.append((cls.__name__, str(cls.secret_type), denylist, PRECHECK.get(cls.__name__)))
    return found


def _high_entropy(token: str) -> bool:
    from curator.leak_rules import entropy

    core = token.rstrip("=")
    if len(core) < 20:
        return False
    if not (any(c.islower() for c in core) and any(c.isupper() for c in core) and any(c.isdigit() for c in core)):
        return False
    if sum(c.isdigit() for c in core) < 2 or IDENTIFIER.fullmatch(core):
        return False
    # A name of short parts (a model's ``all-MiniLM-L6-v2/384``, a version string): random
    # base64 holds a separator about once in 32 characters, never one every few.
    pieces = SEPARATOR.split(core)
    if len(pieces) >= 4 and max(map(len, pieces)) <= 8:
        return False
    # Random base64 of n characters has entropy near log2(min(n, 64)) and changes character
    # class (upper, lower, digit) at about two of three steps; identifiers and words repeat
    # letters and run in one class for several characters. Separators are not counted: in a
    # name they come between words (``What-s-New-in-PowerShell-74``), in random text anywhere.
    classes = ["u" if c.isupper() else "l" if c.islower() else "d" for c in core if c.isalnum()]
    changes = sum(a != b for a, b in itertools.pairwise(classes)) / max(len(classes) - 1, 1)
    return changes >= 0.4 and entropy(core) >= 0.75 * math.log2(min(len(core), 64))


def scan_line(line: str, index: int = 0, *, high_entropy: bool = True) -> list[Leak]:
    """Every secret in one line; ``high_entropy=False`` inside a certificate or public key block."""
    if len(line) > LINE_CACHE_CHARS:
        return _scan_line(line, high_entropy, index)
    return [Leak(kind, index, start, end) for kind, start, end in _line(line, high_entropy)]


LINE_CACHE_CHARS = 512
"""Lines up to this long are remembered (4,096 of them: at most 2 MB of text)."""


@lru_cache(maxsize=4096)
def _line(line: str, high_entropy: bool) -> tuple[tuple[str, int, int], ...]:
    """``scan_line``'s spans, remembered: a line recurs (``---``, a heading, a list item copied
    into every note), and judging one costs a tenth of a millisecond."""
    return tuple((leak.kind, leak.start, leak.end) for leak in _scan_line(line, high_entropy))


def _scan_line(line: str, high_entropy: bool, index: int = 0) -> list[Leak]:
    from curator.leak_forms import other_forms
    from curator.leak_rules import ASSIGNED, assignments, authorizations, filler, url_passwords

    leaks: list[Leak] = []
    for kind, pattern in EXTRA:
        leaks.extend(Leak(kind, index, m.start(), m.end()) for m in pattern.finditer(line) if not filler(m[0]))
    for _name, kind, denylist, precheck in _plugins():
        if precheck is not None and not precheck(line):
            continue
        for pattern in denylist:
            leaks.extend(
                Leak(kind, index, m.start(), m.end())
                for m in pattern.finditer(line)
                if m.end() > m.start() and not filler(m[0])
            )
    leaks.extend(Leak(ASSIGNED, index, a, b) for a, b in (*assignments(line), *other_forms(line)))
    if "://" in line:
        leaks.extend(Leak(kind, index, a, b) for kind, a, b in url_passwords(line))
    leaks.extend(Leak(kind, index, a, b) for kind, a, b in authorizations(line))
    if high_entropy:
        public = [m.span() for m in SSH_PUBLIC_KEY.finditer(line)] if "AAAA" in line else []
        urls = [m.span() for m in URL_SPAN.finditer(line)] if "://" in line else []
        for m in TOKEN.finditer(line):
            if _not_secret_data(line, m.start(), m[0]) or _inside(public, m.start()):
                continue
            leaks.extend(Leak(HIGH_ENTROPY, index, a, b) for a, b in _random_parts(line, m.start(), m.end(), urls))
    return leaks


def _not_secret_data(line: str, start: int, token: str) -> bool:
    return token.startswith(NOT_SECRET_DATA) or any(line.startswith(p, start - len(p)) for p in NOT_SECRET_BEFORE)


def _inside(spans: list[tuple[int, int]], at: int) -> bool:
    """Whether ``at`` falls in one of ``spans`` (in order, not overlapping)."""
    i = bisect.bisect_right(spans, at, key=lambda span: span[0]) - 1
    return i >= 0 and spans[i][0] <= at < spans[i][1]


def _random_parts(line: str, start: int, end: int, urls: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
    """Spans of ``line[start:end]`` that read as random text, ULIDs and UUIDs set aside, and in a
    URL (one of ``urls``) the ``/`` between path segments."""
    cuts = [m.span() for m in ULID_SEGMENT.finditer(line, start, end)]
    if "-" in line[start:end]:
        cuts += [m.span() for m in UUID_SEGMENT.finditer(line, start, end)]
    if urls and "/" in line[start:end] and _inside(urls, start):
        cuts += [(i, i + 1) for i in range(start, end) if line[i] == "/"]
    if not cuts:
        return [(start, end)] if _high_entropy(line[start:end]) else []
    parts, at = [], start
    for a, b in sorted(cuts):
        if a >= at:
            parts.append((at, a))
            at = b
    parts.append((at, end))
    return [(a, b) for a, b in parts if _high_entropy(line[a:b])]


def key_blocks(lines: list[str]) -> list[tuple[int, int]]:
    """(first, last) line indices of private key blocks; an unclosed block runs to the end."""
    return _blocks(lines, PEM_BEGIN, PEM_END, unclosed=True)


def _public_blocks(lines: list[str]) -> list[tuple[int, int]]:
    """(first, last) line indices of certificate and public key blocks, closed ones only."""
    return _blocks(lines, PUBLIC_BEGIN, PUBLIC_END, unclosed=False) if any("-----BEGIN" in x for x in lines) else []


def _blocks(lines: list[str], begin: re.Pattern[str], end: re.Pattern[str], *, unclosed: bool) -> list[tuple[int, int]]:
    blocks = []
    i = 0
    while i < len(lines):
        if not begin.search(lines[i]):
            i += 1
            continue
        j = i
        if not end.search(lines[i]):
            j = i + 1
            while j < len(lines) and not end.search(lines[j]):
                j += 1
        if j >= len(lines) and not unclosed:
            break  # no END follows this BEGIN, so none follows a later one either
        last = min(j, len(lines) - 1)
        blocks.append((i, last))
        i = last + 1
    return blocks


CACHE_CHARS = 64 * 1024
"""Texts up to this size are remembered (a note read page by page is scanned once); larger ones
are not, so the cache stays under about 8 MB of text."""


def scan(text: str, only: Collection[int] | None = None) -> tuple[Leak, ...]:
    """Every secret in ``text`` (a whole note, passage or query), by line, in order.

    ``only``: the lines (0-based) to judge alone; the others are read for what they make of
    the lines around them (the key above a YAML block value) and are otherwise taken to be
    judged elsewhere: the lines a change leaves as they were (see ``settles``)."""
    if only is not None:
        return _scan(text, only)
    return _remembered(text) if len(text) <= CACHE_CHARS else _scan(text)


@lru_cache(maxsize=128)
def _remembered(text: str) -> tuple[Leak, ...]:
    return _scan(text)


def _scan(text: str, only: Collection[int] | None = None) -> tuple[Leak, ...]:
    lines = text.split("\n")
    leaks: list[Leak] = []
    for first, last in key_blocks(lines):
        leaks.extend(Leak(PRIVATE_KEY, n, 0, len(lines[n])) for n in range(first, last + 1))
    public = {n for first, last in _public_blocks(lines) for n in range(first + 1, last)}
    for n, line in enumerate(lines) if only is None else ((n, lines[n]) for n in sorted(only) if n < len(lines)):
        if line:
            leaks.extend(scan_line(line, n, high_entropy=n not in public))
    leaks.extend(_block_values(lines))
    return tuple(sorted(set(leaks), key=lambda k: (k.line, k.start, -k.end, k.kind)))


BLOCK_KEY = _lazy(r"(?P<indent> *)(?:- +)?(?P<quote>[\"']?)(?P<key>[^\s:#\"'][^:#\"']{0,63})(?P=quote) *: *(?P<style>[|>][-+0-9]{0,2})? *(?:#.*)?")
"""A YAML key whose value is on the lines below it: ``password: |``, ``passwords:`` over a list."""
BLOCK_ITEM = _lazy(r"- +")
NESTED_KEY = _lazy(r"[^\s:#][^:#]{0,63}: ")


def _block_values(lines: list[str]) -> list[Leak]:
    """The values a key that names a secret holds on the lines below it, as YAML writes them (a
    block scalar ``password: |``, a list under ``passwords:``): each line alone carries no key, so
    ``scan_line`` cannot see them. A line of a block scalar is judged whole; a list item by its text;
    a nested ``key: value`` is its own key's (``scan_line`` judges it). One pass, each line looked at
    once, ended by the first line no deeper than the key (but a list item at the key's own depth). Hand-written, not a YAML parse: notes
    quote YAML inside prose and code fences, where no parser would take the note."""
    from curator.leak_rules import ASSIGNED, key_names_secret, value_is_secret

    leaks: list[Leak] = []
    names: str | None = None
    depth = literal = 0
    bare = True
    for n, line in enumerate(lines):
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        deeper = indent > depth or (indent == depth and bare and BLOCK_ITEM.match(stripped) is not None)
        if names is not None and stripped and deeper:
            value = stripped.rstrip()
            if not literal:
                item = BLOCK_ITEM.match(value)
                value = value[item.end() :] if item else value
                if NESTED_KEY.match(value) or value.endswith(":"):
                    continue
                value = value.strip("\"'")
            if value and value_is_secret(value, names, quoted=True):
                start = line.index(value)
                leaks.append(Leak(ASSIGNED, n, start, start + len(value)))
            continue
        if names is not None and not stripped:
            continue
        names = None
        m = BLOCK_KEY.fullmatch(line.rstrip()) if line.endswith((":", "|", ">", "-", "+")) or "#" in line else None
        if m is not None:
            names = key_names_secret(m["key"].strip())
            depth, literal = len(m["indent"]), bool(m["style"])
            bare = BLOCK_ITEM.match(line, depth) is None  # YAML lets its list sit at the key's depth
    return leaks


def settles(line: str) -> bool:
    """Whether what ``scan`` finds below ``line`` owes nothing to the lines above it: a line at
    the left margin that is not a list item ends any YAML block value (``_block_values``), and
    every other rule but the PEM blocks judges a line alone. So a change to a long note can be
    scanned in its neighbourhood, from the last such line above it to the first below it, as
    long as neither text holds a ``-----BEGIN`` or ``-----END`` line (see ``has_blocks``)."""
    return line[:1] not in ("", " ") and BLOCK_ITEM.match(line) is None


def has_blocks(text: str) -> bool:
    """Whether ``text`` may hold a PEM block (a private key, a certificate), which spans any
    number of lines: such a text is scanned whole."""
    return "-----BEGIN" in text or "-----END" in text


def find_secrets(text: str) -> list[str]:
    """The kinds of secret found in ``text`` (empty when it looks clean)."""
    return sorted({leak.kind for leak in scan(text)})


def find_query_secrets(query: str) -> list[str]:
    """The kinds of secret in a search query: what ``find_secrets`` finds, and what a question
    holds in the shapes a note's rules leave (``curator.leak_queries``): a query is sent whole to
    a remote embedder, and withholding one costs only a lexical answer."""
    from curator.leak_queries import query_secrets

    return sorted({*find_secrets(query), *query_secrets(query)})


def scan_field(key: str, value: str) -> tuple[Leak, ...]:
    """Every secret in ``value`` when it is assigned to ``key``: what ``scan`` finds in the value,
    and the value itself where ``key: value`` on one line would be an assigned secret (each line
    of a multi-line value judged as assigned to the key). For a mapping such as a note's
    frontmatter, where the key and the value are two strings and ``scan`` of either alone cannot
    see ``password: hunter2hunter2``; spans are in ``value``'s lines.

    ``key`` is the innermost key (``password`` in ``db: {password: …}``) or a dotted path
    (``db.password``): its last part decides. A scalar that is not a string is passed as ``str``;
    each item of a list is passed with the list's key."""
    from curator.leak_rules import ASSIGNED, key_names_secret, value_is_secret

    found = set(scan(value))
    names = key_names_secret(key)
    if names is not None:
        for n, line in enumerate(value.split("\n")):
            v = line.strip()
            if v and value_is_secret(v, names, quoted=True):
                start = line.index(v)
                found.add(Leak(ASSIGNED, n, start, start + len(v)))
    return tuple(sorted(found, key=lambda k: (k.line, k.start, -k.end, k.kind)))


def numbered(spans: list[tuple[int, int, str]]) -> tuple[int, list[str]]:
    """A note rebuilt from its passages, (start_line, end_line, text): (first line number, lines)."""
    lines: dict[int, list[str]] = {}
    for start, end, text in spans:
        parts = text.split("\n")
        if len(parts) == end - start + 1:
            for i, part in enumerate(parts):
                lines.setdefault(start + i, []).append(part)
        else:  # a long line split at sentences: the pieces share the line number
            lines.setdefault(start, []).append(" ".join(parts))
    if not lines:
        return 1, []
    first, last = min(lines), max(lines)
    return first, [" ".join(lines.get(n, [])) for n in range(first, last + 1)]


def secrets_by_span(spans: list[tuple[int, int, str]]) -> list[list[str]]:
    """Kinds found in each of a note's passages, given as (start_line, end_line, text), scanned as one
    note: a passage inside a key block whose ``BEGIN`` line is in another passage is caught."""
    first, lines = numbered(spans)
    found = scan("\n".join(lines))
    return [sorted({k.kind for k in found if start - first <= k.line <= end - first}) for start, end, _ in spans]
