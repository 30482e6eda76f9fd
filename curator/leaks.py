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
  public key block): ``curator.leak_entropy``;
- private key blocks, whole: every line from ``-----BEGIN … PRIVATE KEY-----`` to
  its ``END`` line (or to the end of the text), so the body of a pasted key is
  caught even in a passage or page that does not hold the ``BEGIN`` line, and the values
  YAML writes below a key that names a secret: ``curator.leak_blocks``.

The token shapes (detect-secrets' plugins and ``EXTRA``) are ``curator.leak_patterns``, which
also compiles every pattern of the scanner on its first use.

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

from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache

from curator.leak_blocks import PRIVATE_KEY, block_values, key_blocks, public_blocks
from curator.leak_entropy import HIGH_ENTROPY, random_spans
from curator.leak_patterns import EXTRA
from curator.leak_plugins import plugins

# The hand-written rules (curator.leak_rules, leak_forms, leak_queries) are imported where a text
# is scanned: they compile some forty regular expressions (12 ms), which a process that imports
# the scanner and never scans (`curator validate` on notes, the pre-commit hook) need not pay.


@dataclass(frozen=True)
class Leak:
    kind: str
    line: int
    """0-based line index in the scanned text."""
    start: int
    end: int
    """Character span within that line."""


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
    for _name, kind, denylist, precheck in plugins():
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
        leaks.extend(Leak(HIGH_ENTROPY, index, a, b) for a, b in random_spans(line))
    return leaks


CACHE_CHARS = 64 * 1024
"""Texts up to this size are remembered (a note read page by page is scanned once); larger ones
are not, so the cache stays under about 8 MB of text."""


def scan(text: str, only: Collection[int] | None = None) -> tuple[Leak, ...]:
    """Every secret in ``text`` (a whole note, passage or query), by line, in order.

    ``only``: the lines (0-based) to judge alone; the others are read for what they make of
    the lines around them (the key above a YAML block value) and are otherwise taken to be
    judged elsewhere: the lines a change leaves as they were (see ``leak_blocks.settles``)."""
    if only is not None:
        return _scan(text, only)
    return _remembered(text) if len(text) <= CACHE_CHARS else _scan(text)


@lru_cache(maxsize=128)
def _remembered(text: str) -> tuple[Leak, ...]:
    return _scan(text)


def _scan(text: str, only: Collection[int] | None = None) -> tuple[Leak, ...]:
    from curator.leak_rules import ASSIGNED

    lines = text.split("\n")
    leaks: list[Leak] = []
    for first, last in key_blocks(lines):
        leaks.extend(Leak(PRIVATE_KEY, n, 0, len(lines[n])) for n in range(first, last + 1))
    public = {n for first, last in public_blocks(lines) for n in range(first + 1, last)}
    for n, line in enumerate(lines) if only is None else ((n, lines[n]) for n in sorted(only) if n < len(lines)):
        if line:
            leaks.extend(scan_line(line, n, high_entropy=n not in public))
    leaks.extend(Leak(ASSIGNED, n, a, b) for n, a, b in block_values(lines))
    return tuple(sorted(set(leaks), key=lambda k: (k.line, k.start, -k.end, k.kind)))


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
