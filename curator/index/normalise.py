"""Lexical normalisation: identifier-aware terms for FTS5, the same on both sides.

FTS5's unicode61 tokenizer already splits ``snake_case`` and ``kebab-case`` at
the separators, and keeps ``getUserName`` whole. What it cannot do is find
``getUserName`` by ``user``, or match ``busy_timeout`` as one token. So each
passage also gets an ``extra`` column: camelCase sub-words, and the identifier
joined without separators (``busytimeout``, ``getusername``), which is how a
query's identifier is looked up too. Accent folding and Porter stemming are
the tokenizer's options, chosen by the epoch's normalisation mode.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from functools import lru_cache

NORMALISATION_VERSION = 1

WORD_RE = re.compile(r"[^\W_]+(?:[_\-.][^\W_]+)*", re.UNICODE)
CAMEL_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z0-9])|[A-Z]?[a-z0-9]+|[A-Z]+|\d+")
PLAIN_RE = re.compile(r"[^\W_]+", re.UNICODE)

# Query-side only: dropped when the query has other words, so "why is the database
# locked" is about databases and locks (documents keep every word).
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "for",
        "from",
        "has",
        "have",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "so",
        "such",
        "that",
        "the",
        "their",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "was",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "why",
        "will",
        "with",
        "you",
        "your",
        "do",
        "does",
        "did",
        "can",
        "could",
        "should",
        "would",
        "not",
        "no",
    ]
)


def tokenizer(mode: str) -> str:
    fold = "2" if "fold" in mode else "0"
    base = f"unicode61 remove_diacritics {fold}"
    return f"porter {base}" if "stem" in mode else base


def _parts(token: str) -> list[str]:
    pieces = [p for p in re.split(r"[_\-.]", token) if p]
    out: list[str] = []
    for p in pieces:
        out.extend(m.group(0) for m in CAMEL_RE.finditer(p))
    return out


def _is_compound(token: str) -> bool:
    if any(c in token for c in "_-."):
        return True
    return any(a.islower() and b.isupper() for a, b in itertools.pairwise(token))


# Only tokens that can be identifiers reach Python: ASCII words joined by _ - . or with
# a lower-to-upper case change inside. Plain words are skipped by the regex engine; the
# word boundary and the atomic group keep it from backtracking through every word.
COMPOUND_RE = re.compile(r"\b(?:(?>[A-Za-z0-9]+)(?:[_\-.][A-Za-z0-9]+)+|[A-Za-z0-9]*?[a-z0-9][A-Z][A-Za-z0-9]*)")


@lru_cache(maxsize=1 << 16)
def _expand(token: str) -> str:
    parts = _parts(token)
    if len(parts) < 2 or all(p.isdigit() for p in parts):
        return ""
    # unicode61 already splits at _ - and . : only camelCase pieces are new
    camel = [
        p.lower()
        for piece in re.split(r"[_\-.]", token)
        if piece and _is_compound(piece)
        for p in CAMEL_RE.findall(piece)
    ]
    return " ".join([*camel, "".join(parts).lower()])


_CHUNKS: dict[str, str] = {}
_CHUNKS_MAX = 1 << 19


def _expand_chunk(chunk: str) -> str:
    return " ".join(filter(None, map(_expand, COMPOUND_RE.findall(chunk))))


def extra_terms(text: str) -> str:
    """camelCase sub-words and the joined form of every identifier in ``text``, once per
    occurrence (so BM25 sees how often an identifier is used).

    Identifiers never span whitespace, and a vault repeats the same whitespace-separated
    chunks endlessly: each distinct chunk is worked out once and then found in a dict,
    with the loop over a passage's words left to C (map, list.index, join).
    """
    tokens = text.split()
    parts = list(map(_CHUNKS.get, tokens))
    i = 0
    while True:
        try:
            i = parts.index(None, i)
        except ValueError:
            break
        token = tokens[i]
        value = _CHUNKS.get(token)
        if value is None:
            if len(_CHUNKS) >= _CHUNKS_MAX:
                _CHUNKS.clear()
            value = _CHUNKS[token] = _expand_chunk(token)
        parts[i] = value
        i += 1
    return " ".join(filter(None, parts))


def fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def query_terms(query: str) -> list[str]:
    """Terms for the lexical leg: each word, and for identifiers their parts and joined form."""
    terms: list[str] = []
    for m in WORD_RE.finditer(query):
        token = m.group(0)
        terms.extend(p.lower() for p in PLAIN_RE.findall(token))
        if _is_compound(token):
            parts = _parts(token)
            if len(parts) >= 2:
                terms.extend(p.lower() for p in parts)
                terms.append("".join(parts).lower())
    unique = list(dict.fromkeys(t for t in terms if t))
    content = [t for t in unique if t not in STOPWORDS]
    return content or unique


def fts_query(terms: list[str]) -> str:
    """An FTS5 MATCH expression: every term quoted (no operators leak in), ORed."""
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
