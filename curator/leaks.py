"""The leak scanner: the one place that decides what text carries a secret.

Two exits use it, and nothing else may decide on its own: the remote embedder
(a passage or a query with a secret is not sent) and the MCP server (secrets are
redacted from every tool's output, text and structured).

What counts as a secret:

- detect-secrets' pattern plugins (AWS, GitHub, GitLab, Slack, Stripe, JWT, private
  keys, keyword assignments, ...), their regexes run directly over each line rather
  than through ``scan_line``: that costs 1.7 ms a line (it rebuilds its filters on
  every call), the regexes about 0.1 ms, with cheap literal pre-checks in front of
  the five slow assignment patterns;
- token shapes it does not know: Google ``AIza…``, Hugging Face ``hf_…``, npm
  ``npm_…``, OpenAI-style ``sk-…``, passwords in URLs, ``token = …`` assignments;
- high-entropy strings: 20+ characters mixing upper case, lower case and digits,
  changing character class often, with a Shannon entropy near the maximum for their
  length (git object ids and ULIDs, all one case, and camelCase names are not flagged);
- private key blocks, whole: every line from ``-----BEGIN … PRIVATE KEY-----`` to
  its ``END`` line (or to the end of the text), so the body of a pasted key is
  caught even in a passage or page that does not hold the ``BEGIN`` line.

Every line is scanned whole (detect-secrets' own line scanning stops at 4,000
characters; these regexes do not), and a text is scanned as a whole note, so a
key block spanning passages is seen as one.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

EXTRA: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("AWS Access Key", re.compile(r"\b(?:A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("Google API Key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}")),
    ("Hugging Face Token", re.compile(r"\bhf_[A-Za-z0-9]{30,}")),
    ("npm Token", re.compile(r"\bnpm_[A-Za-z0-9]{36}")),
    ("GitHub Token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9_]{36,}|github_pat_[A-Za-z0-9_]{22,})")),
    ("OpenAI-style Key", re.compile(r"\bsk-(?:proj-|live-|test-|ant-)?[A-Za-z0-9_\-]{20,}")),
    ("Password in URL", re.compile(r"\b[a-z][a-z0-9+.\-]*://[^/\s:@]+:[^/\s@]+@", re.IGNORECASE)),
    (
        "Assigned Secret",
        re.compile(
            r"(?i)\b(?:api[_-]?key|secret|token|passw(?:or)?d|access[_-]?key|client[_-]?secret)\b\s*[:=]\s*['\"]?"
            r"[A-Za-z0-9_\-+/=.]{12,}"
        ),
    ),
)
SKIP_PLUGINS = {"Base64HighEntropyString", "HexHighEntropyString", "IPPublicDetector", "KeywordDetector"}
"""The entropy plugins only look inside quotes and flag prose; the keyword plugin is replaced by
the "Assigned Secret" pattern, which needs no quotes (notes are not code)."""

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

TOKEN = re.compile(r"[A-Za-z0-9+/_\-]{20,}={0,2}")
# A ULID (Crockford base32, one case) standing as a whole path segment: proposal folders and
# kp_ids. Beside lower-case path words it reads as random mixed-case text, so a token such as
# ``proposals/01M8Q1N39VFH.../files`` is judged by the parts around it, not as one string.
ULID_SEGMENT = re.compile(r"(?<![A-Za-z0-9+_\-])[0-9A-HJKMNP-TV-Z]{26}(?![A-Za-z0-9+_\-])")
PEM_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")
PEM_END = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")
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


def _entropy(token: str) -> float:
    counts = Counter(token)
    n = len(token)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _high_entropy(token: str) -> bool:
    core = token.rstrip("=")
    if len(core) < 20:
        return False
    if not (any(c.islower() for c in core) and any(c.isupper() for c in core) and any(c.isdigit() for c in core)):
        return False
    if sum(c.isdigit() for c in core) < 2:
        return False
    # Random base64 of n characters has entropy near log2(min(n, 64)) and changes character
    # class (upper, lower, digit) at about two of three steps; identifiers and words repeat
    # letters and run in one class for several characters.
    classes = ["u" if c.isupper() else "l" if c.islower() else "d" if c.isdigit() else "o" for c in core]
    changes = sum(a != b for a, b in itertools.pairwise(classes)) / (len(core) - 1)
    return changes >= 0.4 and _entropy(core) >= 0.75 * math.log2(min(len(core), 64))


def scan_line(line: str, index: int = 0) -> list[Leak]:
    leaks: list[Leak] = []
    for kind, pattern in EXTRA:
        leaks.extend(Leak(kind, index, m.start(), m.end()) for m in pattern.finditer(line))
    for _name, kind, denylist, precheck in _plugins():
        if precheck is not None and not precheck(line):
            continue
        for pattern in denylist:
            leaks.extend(Leak(kind, index, m.start(), m.end()) for m in pattern.finditer(line) if m.end() > m.start())
    for m in TOKEN.finditer(line):
        leaks.extend(Leak(HIGH_ENTROPY, index, start, end) for start, end in _random_parts(line, m.start(), m.end()))
    return leaks


def _random_parts(line: str, start: int, end: int) -> list[tuple[int, int]]:
    """Spans of ``line[start:end]`` that read as random text, ULID path segments set aside."""
    ulids = list(ULID_SEGMENT.finditer(line, start, end))
    if not ulids:
        return [(start, end)] if _high_entropy(line[start:end]) else []
    parts, at = [], start
    for u in ulids:
        parts.append((at, u.start()))
        at = u.end()
    parts.append((at, end))
    return [(a, b) for a, b in parts if _high_entropy(line[a:b])]


def _key_blocks(lines: list[str]) -> list[tuple[int, int]]:
    """(first, last) line indices of private key blocks; an unclosed block runs to the end."""
    blocks = []
    i = 0
    while i < len(lines):
        if not PEM_BEGIN.search(lines[i]):
            i += 1
            continue
        j = i
        if not PEM_END.search(lines[i]):
            j = i + 1
            while j < len(lines) and not PEM_END.search(lines[j]):
                j += 1
        last = min(j, len(lines) - 1)
        blocks.append((i, last))
        i = last + 1
    return blocks


CACHE_CHARS = 64 * 1024
"""Texts up to this size are remembered (a note read page by page is scanned once); larger ones
are not, so the cache stays under about 8 MB of text."""


def scan(text: str) -> tuple[Leak, ...]:
    """Every secret in ``text`` (a whole note, passage or query), by line, in order."""
    return _remembered(text) if len(text) <= CACHE_CHARS else _scan(text)


@lru_cache(maxsize=128)
def _remembered(text: str) -> tuple[Leak, ...]:
    return _scan(text)


def _scan(text: str) -> tuple[Leak, ...]:
    lines = text.split("\n")
    leaks: list[Leak] = []
    for first, last in _key_blocks(lines):
        leaks.extend(Leak(PRIVATE_KEY, n, 0, len(lines[n])) for n in range(first, last + 1))
    for n, line in enumerate(lines):
        if line:
            leaks.extend(scan_line(line, n))
    return tuple(sorted(set(leaks), key=lambda k: (k.line, k.start, -k.end, k.kind)))


def find_secrets(text: str) -> list[str]:
    """The kinds of secret found in ``text`` (empty when it looks clean)."""
    return sorted({leak.kind for leak in scan(text)})


def _merge(leaks: Iterable[Leak]) -> list[tuple[int, int, list[str]]]:
    spans: list[tuple[int, int, list[str]]] = []
    for leak in sorted(leaks, key=lambda k: (k.start, -k.end)):
        if spans and leak.start < spans[-1][1]:
            start, end, kinds = spans[-1]
            spans[-1] = (start, max(end, leak.end), kinds if leak.kind in kinds else [*kinds, leak.kind])
        else:
            spans.append((leak.start, leak.end, [leak.kind]))
    return spans


def redact_line(line: str, leaks: Iterable[Leak]) -> str:
    out, pos = [], 0
    for start, end, kinds in _merge(leaks):
        out.append(line[pos:start])
        out.append(f"[REDACTED: {', '.join(sorted(kinds))}]")
        pos = end
    out.append(line[pos:])
    return "".join(out)


def redact(text: str) -> tuple[str, list[str]]:
    """``text`` with every secret replaced by ``[REDACTED: kind]``, and the kinds removed."""
    leaks = scan(text)
    if not leaks:
        return text, []
    lines = text.split("\n")
    by_line: dict[int, list[Leak]] = {}
    for leak in leaks:
        by_line.setdefault(leak.line, []).append(leak)
    for n, found in by_line.items():
        lines[n] = redact_line(lines[n], found)
    return "\n".join(lines), sorted({leak.kind for leak in leaks})


def redact_lines(lines: list[str], context: str, first: int) -> tuple[list[str], list[str]]:
    """Lines ``first``… of the note ``context`` (0-based), redacted with the whole note in view:
    a page in the middle of a key block is redacted although its ``BEGIN`` line is elsewhere."""
    by_line: dict[int, list[Leak]] = {}
    kinds: set[str] = set()
    for leak in scan(context):
        if first <= leak.line < first + len(lines):
            by_line.setdefault(leak.line - first, []).append(leak)
            kinds.add(leak.kind)
    return [redact_line(line, by_line[i]) if i in by_line else line for i, line in enumerate(lines)], sorted(kinds)


def _numbered(spans: list[tuple[int, int, str]]) -> tuple[int, list[str]]:
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
    first, numbered = _numbered(spans)
    found = scan("\n".join(numbered))
    return [sorted({k.kind for k in found if start - first <= k.line <= end - first}) for start, end, _ in spans]


def redact_passage(spans: list[tuple[int, int, str]], index: int) -> tuple[str, list[str]]:
    """Passage ``index`` of a note given as passages, redacted with the whole note in view."""
    first, numbered = _numbered(spans)
    start, end, text = spans[index]
    blocks = {n + first for a, b in _key_blocks(numbered) for n in range(a, b + 1)}
    parts = text.split("\n")
    kinds: set[str] = set()
    if blocks and len(parts) == end - start + 1:
        for i in range(len(parts)):
            if start + i in blocks:
                parts[i] = f"[REDACTED: {PRIVATE_KEY}]"
                kinds.add(PRIVATE_KEY)
    clean, more = redact("\n".join(parts))
    return clean, sorted(kinds | set(more))
