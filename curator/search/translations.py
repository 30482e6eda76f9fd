"""Translations: one page kept in each of its readers' languages (a help vault with a folder per
language). A note found in another language than the question's, whose page has a translation in
the question's language, gives its places in the legs to that translation; it is listed under
the translation's hit (``Hit.translations``), not hidden.

Notes are one page's translations when they share a translation key (``ranking.TRANSLATION_KEYS``:
Obsidian Publish's ``permalink``, kept alike in each language's copy; Hugo's ``translationKey``).
The translation takes a leg's place with its own passage the leg found, else with the passage at
the same place in it as the one found (a translation keeps its page's sections in order).

Why: a question's words may be in another language's page and not in its own. Obsidian's help
vault names the alias property ``aliases`` in every language, and the Spanish, French and
Italian pages are titled Alias; the Portuguese page says ``alcunhas``. On the whole help vault,
lexically, ``dar um alias a uma nota`` found those three pages first and the Portuguese one
128th; it finds the Portuguese page 3rd now, the others listed under it. The language
preference (``search.asker``) cannot do it: a weight lifts a note the legs found, and they had
not found this one.

Only when the question's language is told; a note in it keeps its own places, and the filters
hold for the translation as for any note.
"""

from __future__ import annotations

from collections.abc import Sequence

import apsw

from curator.index import ranking
from curator.languages import same_language
from curator.search import asker as askers
from curator.search.filters import Filters, Leg

MOST = 3
"""Notes in the question's language (its variants counted) that may share a page's key: more, and
the key is not one page's (a site's `permalink: /` on every index page), so none stands in."""


def stand_in(conn: apsw.Connection, legs: Sequence[Leg], asker: askers.Asker, filters: Filters) -> dict[int, list[int]]:
    """In each leg, in place, a passage of a note in another language than the question's, whose
    page has a translation in it, replaced by the translation's (once per leg: where the
    translation already stands higher, the found passage leaves). Returns each translation
    standing in (document id) → the passages it stands for, in the order the legs met them."""
    language = asker.language
    if not language:
        return {}
    pids = list(dict.fromkeys(pid for leg in legs for pid, _ in (leg.deeper or leg.ranked)))
    askers.look_up(conn, asker, pids)
    # Told in another language: a note whose language is not known may be in the question's.
    foreign = list(
        dict.fromkeys(
            doc for doc, lang in map(asker.notes.__getitem__, pids) if lang and not same_language(lang, language)
        )
    )
    ours = sorted(code for code in asker.languages if same_language(code, language))
    found = ranking.translations(conn, foreign, ours, filters) if foreign else {}
    if not found:
        return {}
    # The translations in the question's very variant, else all in its language: a question that
    # says no variant (``pt``) has a page's European and Brazilian translations stand in alike,
    # as it prefers both (``languages.same_language``).
    targets: dict[int, list[int]] = {}
    for src, notes in found.items():
        if len(notes) > MOST:
            continue  # a key many notes of the language share (`permalink: /`) names no one page
        exact = [doc for doc, lang in notes if lang == language]
        targets[src] = exact or [doc for doc, _lang in notes]
    order = ranking.passages_in_order(conn, list({*targets, *(t for ts in targets.values() for t in ts)}))
    askers.look_up(conn, asker, [pid for passages in order.values() for pid in passages])
    stood: dict[int, list[int]] = {}
    for leg in legs:
        full = leg.deeper or leg.ranked
        first: dict[int, int] = {}
        for pid, _score in full:
            first.setdefault(asker.notes[pid][0], pid)
        swapped = []
        seen: set[int] = set()
        for pid, score in full:
            for new in _instead(pid, asker.notes[pid][0], targets, order, first):
                if new != pid:
                    found_here = stood.setdefault(asker.notes[new][0], [])
                    if pid not in found_here:
                        found_here.append(pid)
                if new not in seen:
                    seen.add(new)
                    swapped.append((new, score))
        if leg.deeper:
            length = len(leg.ranked)
            leg.deeper = swapped
            leg.ranked = swapped[:length]
        else:
            leg.ranked = swapped
    return stood


def _instead(
    pid: int, doc: int, targets: dict[int, list[int]], order: dict[int, list[int]], first: dict[int, int]
) -> list[int]:
    """The passages that stand in for ``pid`` (of note ``doc``) in a leg whose first passage of
    each note is ``first``: each translation's own passage there, else the one at ``pid``'s place."""
    if doc not in targets:
        return [pid]
    place = order[doc].index(pid)
    return [first[to] if to in first else order[to][min(place, len(order[to]) - 1)] for to in targets[doc]]
