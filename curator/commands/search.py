"""``curator search QUERY``: hybrid search with citations."""

from __future__ import annotations

from curator import cores, output
from curator.commands.app import App
from curator.commands.index import progress_bar
from curator.output import Notice
from curator.search.filters import Filters

COPIES_NAMED = 2
"""A hit's copies (and translations) named on its line; past these, counted (``--json`` lists each)."""
LEG_SCORES = {"lexical": "BM25", "vector": "cosine", "links": "links to it"}
"""What each leg's score is, as ``--explain`` prints it beside the leg's rank."""


def _leg(name: str, leg: dict[str, float]) -> str:
    if name == "name":
        return f"name #{int(leg['rank'])} (the query names the note)"
    return f"{name} #{int(leg['rank'])} ({LEG_SCORES.get(name, 'score')} {leg['score']:.4g})"


def _named(cites: list[str]) -> str:
    more = len(cites) - COPIES_NAMED
    return ", ".join(cites[:COPIES_NAMED]) + (f" and {more} more" if more > 0 else "")


def run(
    app: App,
    query: str,
    k: int | None,
    mode: str,
    filters: Filters,
    links: bool | None,
    mmr: bool | None,
    explain: bool,
) -> int:
    from curator.index.serving import open_serving
    from curator.search.engine import Searcher

    if mode != "lexical":
        cores.one_question()
        cores.sample_early()  # a first index (torch) runs on as many threads as are free
    settings = app.settings()
    # A vault never indexed is indexed first (progress on stderr), as a stale index is reconciled first.
    with progress_bar(True) as progress:
        opened = open_serving(*app.place(), build=True, progress=progress, announce=output.note)
    searcher = Searcher(opened.conn, opened.epoch.id, opened.base_url)
    result = searcher.search(
        query,
        k=k or settings.search.k,
        mode=mode,
        filters=filters,
        links=settings.search.links if links is None else links,
        diversify=settings.search.mmr if mmr is None else mmr,
    )
    notices = list(dict.fromkeys([*opened.warnings, *map(Notice, result.warnings)]))  # one warning, said once
    result.warnings = output.texts(notices)
    if app.json:
        output.emit_json(result.to_json(explain))
        return 0
    output.tell(notices)
    if not result.hits:
        output.line("no matches")
        return 0
    if explain:
        told = f"{result.language} (told by its {result.language_by})" if result.language else "not told"
        output.line(f"question's language: {told}")
    for n, hit in enumerate(result.hits, start=1):
        if hit.source != "vault":
            ident = f"  {hit.link}" if hit.link else ""  # its cite is its reference already
        else:
            ident = f"  {hit.kp_id}" if hit.kp_id else ""
        output.line(f"{n}. {hit.breadcrumb}  {hit.cite}{ident}")
        output.line(f"   {hit.snippet}")
        if hit.also:
            output.line("   also " + ", ".join(hit.cite_lines(a.start_line, a.end_line) for a in hit.also))
        if hit.copies:
            output.line(f"   the same text in {_named([c.cite for c in hit.copies])}")
        if hit.translations:
            output.line(f"   the same page in {_named([f'{t.cite} ({t.language})' for t in hit.translations])}")
        if explain:
            legs = ", ".join(_leg(name, v) for name, v in hit.legs.items())
            if hit.boost != 1.0:
                language = f", ×{hit.boost:g} in the question's language ({hit.language})"
            else:  # the note's language as told, so a note not preferred says why
                language = f"; the note is in {hit.language}" if hit.language else "; the note's language is not told"
            output.line(f"   fused by rank {hit.score:.4f} = {legs}{language}")
    return 0
