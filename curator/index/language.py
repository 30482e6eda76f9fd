"""Each note's language, and stemming by its rules (Snowball, through PyStemmer).

A note's language is its frontmatter ``lang`` (or ``language``), else the first
``index.languages`` folder glob that matches its path, else ``index.language``. Text in
scripts written without spaces is segmented whatever the language (``segment``); this
module decides how words are stemmed, so German text is never cut by English rules.

English notes go to FTS5 as they are, and its ``porter`` tokenizer stems them in C, as
it always did (SciFact's figures are unchanged by construction). A note in another
language has each word replaced by its stem in that language with a marker appended
(``einstellungen`` → ``einstell0``): Porter's rules are all about letters at the end of a
word, so it passes a word ending in a digit through untouched. A query word is looked
up as itself (Porter-stemmed, for English notes) and as its marked stem in each other
language the index holds; the same word has the same stem, so an exact word
("Templater") is found whatever the note's language. A language without a stemmer here
is marked without stemming, so English rules never touch it either.

Measured on the 3,112-file powershell-docs tree: stemming every note in Python (rather
than marking only non-English ones) made the first index about 1.8x slower.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from curator.index.db import get_json
from curator.languages import ENGLISH, STEMMERS, normalise_code
from curator.vault.globs import matches

MARK = "0"
"""Appended to every word of a note in another language than English: no Porter rule
matches a word ending in a digit."""
TOKEN_RE = re.compile(r"[^\W_]+")


def of_index(conn: Any) -> tuple[str, ...]:
    """The languages of an index's notes (English for an index from before they were kept)."""

    return tuple(get_json(conn, "languages", [ENGLISH]))


def of_note(meta: dict[str, Any], path: str, folders: tuple[tuple[str, str], ...], default: str) -> str:
    """The language code a note is indexed by (see the module docstring)."""

    for key in ("lang", "language"):
        if key in meta:
            code = normalise_code(meta[key])
            return code if code is not None else str(meta[key]).strip().casefold()[:16]
    for pattern, code in folders:
        if matches(path, (pattern,)):
            return normalise_code(code) or code
    return normalise_code(default) or default


@lru_cache(maxsize=64)
def _stemmer(code: str) -> Any:
    import Stemmer

    return Stemmer.Stemmer(STEMMERS[code], 0)


_CACHE_MAX = 1 << 18
_WORDS: dict[str, dict[str, str]] = {}
_CHUNKS: dict[str, dict[str, str]] = {}


def _table(tables: dict[str, dict[str, str]], code: str) -> dict[str, str]:
    table = tables.setdefault(code, {})
    if len(table) > _CACHE_MAX:
        table.clear()
    return table


def marked_words(words: list[str], code: str) -> list[str]:
    """Each lower-case word as its marked stem in language ``code`` (marked as it is when
    the language has no stemmer here)."""
    table = _table(_WORDS, code)
    todo = [w for w in dict.fromkeys(words) if w not in table]
    if todo:
        stems = _stemmer(code).stemWords(todo) if code in STEMMERS else todo
        for w, s in zip(todo, stems, strict=True):
            table[w] = (s or w) + MARK
    return [table[w] for w in words]


def marked(text: str, code: str, whole: bool = False) -> str:
    """``text`` as its words' marked stems in language ``code``, for an FTS column.

    Worked out per whitespace-separated chunk, as ``extra_terms`` is: a vault repeats the
    same chunks endlessly, so each distinct one is stemmed once and then found in a dict,
    with the loop over a passage's chunks left to C (split, map, list.index, join).
    ``whole``: ``text`` itself recurs (a breadcrumb), and is looked up whole first.
    """
    table = _table(_CHUNKS, code)
    if whole:
        found = table.get(text)
        if found is None:
            found = table[text] = marked(text, code)
        return found
    chunks = text.split()
    out = list(map(table.get, chunks))
    i = 0
    while True:
        try:
            i = out.index(None, i)
        except ValueError:
            break
        chunk = chunks[i]
        value = table.get(chunk)
        if value is None:
            value = table[chunk] = " ".join(marked_words(TOKEN_RE.findall(chunk.lower()), code))
        out[i] = value
        i += 1
    return " ".join(filter(None, out))


# Query-side stop words (documents keep every word): the most frequent function words.
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

_STOPWORDS = {
    "de": "aber als am an auch auf aus bei bin bis da das dass dem den der des die dies doch du durch ein eine "
    "einem einen einer eines er es für hat hatte ich ihr im in ist ja kann man mit nach nicht noch nur ob oder "
    "sein sich sie sind so über um und uns vom von vor war was wie wir wird zu zum zur",
    "fr": "au aux avec ce ces dans de des du elle en est et il ils je la le les leur lui mais me mes même ne nos "
    "notre nous on ou par pas pour qu que qui sa se ses son sur ta te tes toi ton tu un une vos votre vous",
    "es": "al como con de del el en es esta este hay la las le lo los más me mi muy no nos o para pero por que "
    "se si sin sobre su sus también te tu un una uno y ya",
    "it": "a al alla che ci come con da dal del della di e è gli ha i il in la le lo ma mi ne nel non o per più "
    "quella quello se si sono su tra un una uno",
    "nl": "aan al als bij dan dat de der die dit door een en er het hij ik in is je maar met na naar niet nog of "
    "om ook op te tot u uit van voor was wat we wel wij zal ze zij zijn",
    "pt": "a ao as com como da das de do dos e é em entre era essa esse eu foi isso mais mas me muito na nas não "
    "no nos o os ou para pela pelo por que se sem seu sua são também te um uma",
}


@lru_cache(maxsize=64)
def stopwords(languages: tuple[str, ...]) -> frozenset[str]:
    """Stop words of every language in ``languages`` (English always, as before)."""
    words: set[str] = set(STOPWORDS)
    for code in languages:
        words.update(_STOPWORDS.get(code, "").split())
    return frozenset(words)
