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


def extra_terms(text: str) -> str:
    """camelCase sub-words and the joined form of every identifier in ``text``, once per
    occurrence (so BM25 sees how often an identifier is used)."""
    out: list[str] = []
    for m in WORD_RE.finditer(text):
        token = m.group(0)
        if not _is_compound(token):
            continue
        parts = _parts(token)
        if len(parts) < 2 or all(p.isdigit() for p in parts):
            continue
        # unicode61 already splits at _ - and . : only camelCase pieces are new
        camel = [
            p.lower()
            for piece in re.split(r"[_\-.]", token)
            if piece and _is_compound(piece)
            for p in CAMEL_RE.findall(piece)
        ]
        out.extend(camel)
        out.append("".join(parts).lower())
    return " ".join(out)


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
