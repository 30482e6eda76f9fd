"""``curator search QUERY``: hybrid search with citations."""

from __future__ import annotations

from curator import output
from curator.commands.app import App
from curator.commands.index import progress_bar
from curator.search.filters import Filters


def _build_if_missing(app: App) -> None:
    """A vault never indexed is indexed first (progress on stderr), as a stale index is
    reconciled first: the first search answers rather than send the person to `curator index`."""
    from curator.index import epoch as epochs

    index_dir = app.index_dir()
    if epochs.serving(index_dir) is not None:
        return
    from curator.index.reconcile import reconcile

    output.note("no index yet: indexing the vault first (as `curator index` does)")
    with progress_bar(True) as progress:
        report = reconcile(app.vault(), app.settings(), index_dir, progress, announce=output.note)
    output.note(f"indexed {report.indexed} document(s)")


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

    settings = app.settings()
    _build_if_missing(app)
    opened = open_serving(*app.place())
    searcher = Searcher(opened.conn, opened.epoch.id, opened.base_url)
    result = searcher.search(
        query,
        k=k or settings.search.k,
        mode=mode,
        filters=filters,
        links=settings.search.links if links is None else links,
        diversify=settings.search.mmr if mmr is None else mmr,
    )
    result.warnings = list(dict.fromkeys(opened.warnings + result.warnings))  # one warning, said once
    if app.json:
        output.emit_json(result.to_json(explain))
        return 0
    for w in result.warnings:
        (output.note if w.startswith("reconciled first") else output.warn)(w)
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
        if explain:
            legs = ", ".join(f"{name} #{int(v['rank'])} ({v['score']:.4g})" for name, v in hit.legs.items())
            boost = f", ×{hit.boost:g} in the question's language ({hit.language})" if hit.boost != 1.0 else ""
            output.line(f"   fused {hit.score:.4f} = {legs}{boost}")
    return 0
