"""Lexical normalisation: identifier-aware terms for FTS5, the same on both sides.

FTS5's unicode61 tokenizer already splits ``snake_case`` and ``kebab-case`` at
the separators, and keeps ``getUserName`` whole. What it cannot do is find
``getUserName`` by ``user``, or match ``busy_timeout`` as one token. So each
passage also gets an ``extra`` column: camelCase sub-words, and the identifier
joined without separators (``busytimeout``, ``getusername``), which is how a
query's identifier is looked up too.

Accent folding and Porter stemming are the tokenizer's options, chosen by the epoch's
normalisation mode; Porter is English, so notes in other languages have their words
stemmed by their own language's rules first, and marked so Porter leaves them alone
(``curator.index.language``). Scripts written without spaces also get bigrams in ``extra``
(``curator.index.segment``).

A change to what it makes bumps ``NORMALISATION_VERSION`` in ``curator.index.versions``.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

# Imported here, not per passage: fts_row runs 60,000 times in a 3,000-note first index.
from curator.index import language as lang
from curator.index.segment import PREFIX, RUN_RE, has_unspaced, index_terms
from curator.index.segment import query_terms as unspaced_terms
from curator.languages import ENGLISH, STEMMERS

WORD_RE = re.compile(r"[^\W_]+(?:[_\-.][^\W_]+)*", re.UNICODE)
CAMEL_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z0-9])|[A-Z]?[a-z0-9]+|[A-Z]+|\d+")
PLAIN_RE = re.compile(r"[^\W_]+", re.UNICODE)



def tokenizer(mode: str) -> str:
    """The FTS5 tokenizer: words, accent folding, and Porter's English stemming (which
    leaves alone the marked words of notes in other languages: see ``language``)."""
    fold = "2" if "fold" in mode else "0"
    base = f"unicode61 remove_diacritics {fold}"
    return f"porter {base}" if "stem" in mode else base


def fts_row(crumb: str, text: str, language: str, mode: str) -> tuple[str, str, str]:
    """What a passage puts in the FTS columns (breadcrumb, body, extra) for its note's
    ``language`` under normalisation ``mode``."""
    joined = f"{crumb}\n{text}"
    extra = extra_terms(joined)
    # Apart: a breadcrumb's › separator makes every passage non-ASCII, and the text alone
    # usually is ASCII, which has_unspaced answers at once.
    if has_unspaced(text) or has_unspaced(crumb):
        extra = f"{extra} {index_terms(joined)}"
    if "stem" in mode and language != ENGLISH:
        crumb = lang.marked(crumb, language, whole=True)
        text = lang.marked(text, language)
    return crumb, text, extra


def note_rows(
    passages: Sequence[tuple[int, int, int, str, str]], aliases: list[str], language: str, mode: str
) -> list[tuple[str, str, str]]:
    """The FTS columns of a note's passages (``fts_row``), its ``aliases`` added to its first
    passage's breadcrumb column: a note is found by another name it goes by (``PVE``), as its
    title is found in every breadcrumb, and the passage shown for it stays its opening."""
    rows = [fts_row(crumb, text, language, mode) for _s, _a, _b, crumb, text in passages]
    names = " ".join(a for a in aliases if a.strip())
    if rows and names:
        crumb, _body, extra = fts_row(names, "", language, mode)
        first = rows[0]
        rows[0] = (f"{first[0]} {crumb}", first[1], f"{first[2]} {extra}".strip())
    return rows


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


def query_terms(
    query: str,
    languages: tuple[str, ...] = ("en",),
    mode: str = "fold+stem",
    asker: str | None = None,
    every: bool = False,
    maybe: tuple[str, ...] = (),
) -> list[str]:
    """Terms for the lexical leg: each word, and for identifiers their parts and joined form;
    a run of an unspaced script as its bigrams and adjacent pairs (``segment.run_terms``).

    When ``mode`` stems and the index holds notes in other languages than English
    (``languages``), each word also as its exact marked form, and as its marked stem in the
    question's language ``asker`` only (``language``). Stop words of the question's language
    (of the index's, when it is not known) are dropped when the query has other words. A term
    may come twice: it then weighs twice (``fts_query`` keeps it). ``every``: stemmed in each
    of the index's languages (a question of unknown language that nothing holds as written);
    ``maybe``: the languages a question of unknown language is too close to call between, each
    of which stems it."""

    terms: list[str] = []
    for m in WORD_RE.finditer(query):
        token = m.group(0)
        if RUN_RE.search(token):
            terms.extend(t if RUN_RE.search(t) else t.lower() for t in unspaced_terms(token))
            continue
        terms.extend(p.lower() for p in PLAIN_RE.findall(token))
        if _is_compound(token):
            parts = _parts(token)
            if len(parts) >= 2:
                terms.extend(p.lower() for p in parts)
                terms.append("".join(parts).lower())
    unique = list(dict.fromkeys(t for t in terms if t))
    stops = lang.stopwords((ENGLISH, asker) if asker else languages)
    content = [t for t in unique if t not in stops]
    chosen = content or unique
    if "stem" not in mode or not any(code != ENGLISH for code in languages):
        return chosen
    # Notes in other languages are indexed by each word's exact and stemmed marked forms
    # (``language.marked``): a word is looked up exact in every one of them, stemmed in the
    # question's language alone.
    words = [t for t in chosen if not RUN_RE.search(t)]
    exact = dict(zip(words, (w + lang.EXACT for w in words), strict=True))
    stems: dict[str, list[str]] = {}
    stemmers = [asker] if asker in STEMMERS and asker != ENGLISH else []
    if asker is None:
        stemmers = [code for code in maybe if code in STEMMERS and code != ENGLISH]
    if every:
        stemmers = [code for code in languages if code in STEMMERS and code != ENGLISH]
    for code in stemmers:
        for w, stem in zip(words, lang.marked_words(words, code), strict=True):
            stems.setdefault(w, [])
            if stem not in stems[w]:
                stems[w].append(stem)
    # A term twice counts twice in bm25(): an English question's words count double in English
    # notes, as a German one's count double (exact and stem) in German notes; so the answer in
    # the question's language is not outranked by its translations, whose exact words
    # ("latex", "math" in their code examples) are rarer in the index than English words.
    plain = 2 if asker == ENGLISH else 1
    out: list[str] = []
    for t in chosen:
        out.extend([t] * (plain if t in exact else 1))
        if t in exact:
            out.append(exact[t])
        out.extend(stems.get(t, ()))
    return out


def fts_query(terms: list[str]) -> str:
    """An FTS5 MATCH expression: every term quoted (no operators leak in), ORed; a term
    ending in ``*`` (one character of an unspaced script) is a prefix query. A term given
    twice is a phrase twice, and bm25() counts it twice."""

    def quoted(t: str) -> str:
        if t.endswith(PREFIX) and len(t) > 1:
            return '"' + t[:-1].replace('"', '""') + '"*'
        return '"' + t.replace('"', '""') + '"'

    return " OR ".join(map(quoted, terms))
