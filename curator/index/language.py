"""Each note's language, and stemming by its rules (Snowball, through PyStemmer).

A note's language is its frontmatter ``lang`` (or ``language``), else the first
``index.languages`` folder glob that matches its path, else the language its text is
written in (``detect``), else ``index.language``. Text in scripts written without spaces is
segmented whatever the language (``segment``); this module decides how words are stemmed,
so German text is never cut by English rules.

English notes go to FTS5 as they are, and its ``porter`` tokenizer stems them in C, as
it always did (SciFact's figures are unchanged by construction). A note in another
language has each word indexed twice with a marker appended: as it is (``EXACT``,
``einstellungen`` → ``einstellungen1``) and as its stem in that language (``STEM``,
``einstell0``); Porter's rules are all about letters at the end of a word, so it passes a
word ending in a digit through untouched. A question is stemmed in its own language only
(``normalise.query_terms``): each word is looked up as itself (Porter-stemmed, for English
notes), as its exact marked form (found in a note of any language: "Templater"), and as its
marked stem in the question's language. An exact word thus scores twice where an inflected
one scores once, and a word of one language is never stemmed by another's rules into a
third language's word. A language without a stemmer here has its words indexed only as
they are.

Measured on the 3,112-file powershell-docs tree: stemming every note in Python (rather
than marking only non-English ones) made the first index about 1.8x slower.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache
from typing import Any

from curator.index.db import get_json
from curator.index.detect import detect
from curator.languages import ENGLISH, ENGLISH_FUNCTION_WORDS, STEMMERS, base, normalise_code
from curator.vault.globs import matches

STEM = "0"
"""Appended to each word's stem in a note in another language than English: no Porter rule
matches a word ending in a digit."""
EXACT = "1"
"""Appended to each word as it is written (lower-cased), beside its stem."""
TOKEN_RE = re.compile(r"[^\W_]+")


def of_index(conn: Any) -> tuple[str, ...]:
    """The languages of an index's notes (English for an index from before they were kept)."""

    return tuple(get_json(conn, "languages", [ENGLISH]))


def of_note(meta: dict[str, Any], path: str, folders: tuple[tuple[str, str], ...], default: str) -> str:
    """The language code a note says it is in (frontmatter, else folder), else ``default``."""

    return stated(meta, path, folders) or normalise_code(default) or default


def stated(meta: dict[str, Any], path: str, folders: tuple[tuple[str, str], ...]) -> str | None:
    """The language a note's frontmatter ``lang`` or its ``index.languages`` folder names."""
    for key in ("lang", "language"):
        if key in meta:
            code = normalise_code(meta[key])
            return code if code is not None else str(meta[key]).strip().casefold()[:16]
    for pattern, code in folders:
        if matches(path, (pattern,)):
            return normalise_code(code) or code
    return None


PROSE_LINES = 400
"""Lines of a note's start read for its language: enough for the detector's sample."""


def prose(lines: list[str], code: list[bool]) -> str:
    """The start of a note's text outside fenced code: a page's code examples are in no
    language its readers speak (a Catalan page on Bases syntax is mostly YAML)."""
    head = lines[:PROSE_LINES]
    return "\n".join(itertools.compress(head, [not c for c in code[: len(head)]]))


def of_text(
    meta: dict[str, Any], path: str, folders: tuple[tuple[str, str], ...], default: str, text: str
) -> tuple[str, str | None]:
    """(the language a note is stemmed by, its language when it says it or its text tells it;
    None when neither does and ``default`` stands in): see the module docstring."""
    told = stated(meta, path, folders) or detect(text)
    return (told, told) if told is not None else (normalise_code(default) or default, None)


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
    """Each lower-case word as its marked stem in language ``code``."""
    table = _table(_WORDS, code)
    todo = [w for w in dict.fromkeys(words) if w not in table]
    if todo:
        stems = _stemmer(code).stemWords(todo)
        for w, s in zip(todo, stems, strict=True):
            table[w] = (s or w) + STEM
    return [table[w] for w in words]


def indexed_words(words: list[str], code: str) -> list[str]:
    """The tokens a note in language ``code`` is indexed by for ``words`` (lower-case): each
    word exact and, when the language has a stemmer here, its stem."""
    exact = [w + EXACT for w in words]
    if code not in STEMMERS:
        return exact
    return [t for pair in zip(exact, marked_words(words, code), strict=True) for t in pair]


def marked(text: str, code: str, whole: bool = False) -> str:
    """``text`` as its words' exact and stemmed tokens in language ``code``, for an FTS column.

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
            value = table[chunk] = " ".join(indexed_words(TOKEN_RE.findall(chunk.lower()), code))
        out[i] = value
        i += 1
    return " ".join(filter(None, out))


# Query-side stop words (documents keep every word): the most frequent function words.
# Query-side only: dropped when the query has other words, so "why is the database
# locked" is about databases and locks (documents keep every word).
STOPWORDS = ENGLISH_FUNCTION_WORDS

_STOPWORDS = {
    "de": "aber als am an auch auf aus bei bin bis da das dass dem den der des die dies doch du durch ein eine "
    "einem einen einer eines er es für hat hatte ich ihr im in ist ja kann man mit nach nicht noch nur ob oder "
    "sein sich sie sind so über um und uns vom von vor war was wie wir wird zu zum zur",
    "fr": "au aux avec ce ces dans de des du elle en est et il ils je la le les leur lui mais me mes même ne nos "
    "notre nous on ou par pas pour qu que qui sa se ses son sur ta te tes toi ton tu un une vos votre vous "
    # elided before a vowel (d'une, l'image, qu'il), split from the word at the apostrophe
    "c d j l m n s t jusqu lorsqu puisqu",
    "es": "al como con de del el en es esta este hay la las le lo los más me mi muy no nos o para pero por que "
    "se si sin sobre su sus también te tu un una uno y ya",
    "it": "a al alla che ci come con da dal del della di e è gli ha i il in la le lo ma mi ne nel non o per più "
    "quella quello se si sono su tra un una uno "
    "nella nelle nello negli nei della delle dello degli dei alla alle allo agli ai dalla dalle dal dai sulla sul "
    # elided before a vowel (dell'interfaccia, un'immagine, l'abbonamento)
    "c l all coll dall dell nell sull quell quest",
    "nl": "aan al als bij dan dat de der die dit door een en er het hij ik in is je maar met na naar niet nog of "
    "om ook op te tot u uit van voor was wat we wel wij zal ze zij zijn",
    "ru": "а без в во вы да для до же за и из или им их к как ко ли мне мой моя мы на над не нет но о об "
    "он она они от по под при с со так то у уже что чтобы это я",
    "pt": "a ao as com como da das de do dos e é em entre era essa esse eu foi isso mais mas me muito na nas não "
    "no nos o os ou para pela pelo por que se sem seu sua são também te um uma",
}


@lru_cache(maxsize=64)
def stopwords(languages: tuple[str, ...]) -> frozenset[str]:
    """Stop words of every language in ``languages`` (English always, as before)."""
    words: set[str] = set(STOPWORDS)
    for code in languages:
        words.update(_STOPWORDS.get(base(code), "").split())
    return frozenset(words)
