"""The question's language, and the preference search gives notes written in it.

A vault in several languages holds the same page in each: the asker's own comes first, the
others stay in the list below it. The question's language is told by its text
(``curator.index.detect``: its script, its function words), else by the notes its words are
found in: each word votes for the languages of the notes that hold it, its vote shared among
them by the share of each language's notes holding it, so a word every translation keeps
(``Evernote``, ``Bases``) says little and a word of one language says much
(``Tastenkürzel ändern`` is German because only German notes hold those words). A question whose words two languages share as much (``importar notas``: Spanish and
Portuguese) prefers nothing. A language written in variants (European and Brazilian Portuguese)
is told as the language, then as the variant its words show (``telemóvel``): a note of the
other variant is not preferred, one that shows neither is (``languages.same_language``).

The preference is a weight inside fusion, on both legs alike: a passage of a note in the
question's language counts ``BOOST`` times its reciprocal rank in each leg, so with k=60 it
passes a passage in another language that a leg ranked up to about a dozen places above it,
and never leaves the list. An index of notes in one language (SciFact, most vaults) is not
touched.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import apsw

from curator.index import db
from curator.index.detect import detect, variant
from curator.index.language import EXACT
from curator.index.normalise import fts_query
from curator.index.ranking import UNTOLD, notes_holding, notes_of, notes_per_language
from curator.languages import base, same_language
from curator.search.filters import Leg

BOOST = 1.2
"""The weight of a passage in the question's language, in each leg's share of the fused score."""
LEAD = 1.5
"""How far one language's vote must lead the next one's for it to be taken as the question's."""
WORDS = 8
"""The question's words that vote, at most (each costs a look-up in the index)."""


@dataclass
class Asker:
    """What search knows of the question's language in this index."""

    languages: frozenset[str] = frozenset()
    """The languages the index's notes say or tell (``told_languages``)."""
    language: str | None = None
    """The question's language, once known."""
    by: str = ""
    """How it was told: ``text`` or ``notes``."""
    maybe: tuple[str, ...] = ()
    """When it is not told: the languages its words' notes are too close to call between (each
    within ``LEAD`` of the first), best first; the question is stemmed in each, none preferred."""
    notes: dict[int, tuple[int, str | None]] = field(default_factory=dict)
    """Passage id → (document id, its language), filled as passages are looked at."""

    @property
    def multilingual(self) -> bool:
        return len(self.languages) > 1


def of_index(conn: apsw.Connection, query: str) -> Asker:
    """The index's languages, and the question's when its text tells it. In an index whose
    notes are all in one language the question may be in that one (``maybe``): it is stemmed
    by its rules, so ``raccourci`` finds a French vault's ``raccourcis``, and nothing is
    preferred."""
    told = db.get_json(conn, "told_languages", None)
    asker = Asker(frozenset(told or ()))
    if asker.multilingual:
        asker.language = detect(query, asker.languages, short=True)
        asker.by = "text" if asker.language else ""
    else:
        asker.maybe = tuple(asker.languages)
    return asker


def look_up(conn: apsw.Connection, asker: Asker, pids: list[int]) -> None:
    todo = [pid for pid in dict.fromkeys(pids) if pid not in asker.notes]
    if todo:
        asker.notes.update(notes_of(conn, todo, asker.multilingual))


def vote(conn: apsw.Connection, asker: Asker, words: list[str]) -> None:
    """Take the question's language from the notes its ``words`` are found in, when one
    language leads: each word's vote is shared among the languages by the share of each one's
    notes that hold it, so a word of one language that another's notes quote once or twice
    (``modello`` in an English page about Italian templates) still speaks for the first. The
    share is smoothed by the mean number of notes a language has, so the few notes of a small
    language (a Catalan word that French writes too) do not outvote the many of a large one.
    The notes whose language is not known vote as one more language: a question whose words
    only they hold (Catalan, where the detector leaves most notes untold) is not told by the
    one word a known language shares with it."""
    if asker.language or not asker.multilingual:
        return
    # A language's variants vote as the language (``pt-br`` and ``pt-pt`` notes as ``pt``); the
    # question's own words then say its variant, if they do.
    sizes = _by_language(notes_per_language(conn))
    if not sizes:
        return
    smooth = sum(sizes.values()) / len(sizes)
    tally: dict[str, float] = {}
    for word in words[:WORDS]:
        held = _by_language(notes_holding(conn, fts_query([word, word + EXACT])))
        shares = {lang: n / (sizes.get(lang, 0) + smooth) for lang, n in held.items()}
        total = sum(shares.values())
        for lang, share in shares.items():
            tally[lang] = tally.get(lang, 0.0) + share / total
    ranked = sorted(tally.values(), reverse=True)
    if not ranked or ranked[0] < 0.5:
        return
    first = max(tally, key=lambda lang: tally[lang])
    if len(ranked) == 1 or ranked[0] >= LEAD * ranked[1]:
        if first != UNTOLD:
            asker.language, asker.by = variant(first, " ".join(words), short=True), "notes"
        return
    close = [lang for lang in tally if LEAD * tally[lang] >= ranked[0] and lang != UNTOLD]
    asker.maybe = tuple(sorted(close, key=lambda lang: -tally[lang]))


def boosts(conn: apsw.Connection, asker: Asker, legs: list[Leg]) -> dict[int, float]:
    """The fusion weight of every passage in ``legs`` written in the question's language."""
    if not asker.language:
        return {}
    look_up(conn, asker, [pid for leg in legs for pid, _ in leg.ranked])
    return {pid: BOOST for pid, (_doc, lang) in asker.notes.items() if same_language(lang, asker.language)}


def boost_of(asker: Asker, language: str | None) -> float:
    """The fusion weight of a note in ``language``: ``BOOST`` when it is the question's."""
    return BOOST if same_language(language, asker.language) else 1.0


def _by_language(counts: dict[str, int]) -> dict[str, int]:
    """Counts of notes by language, each variant's added to its language's (``languages.base``)."""
    out: dict[str, int] = {}
    for code, n in counts.items():
        out[base(code)] = out.get(base(code), 0) + n
    return out
