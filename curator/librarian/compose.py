"""Composing a digest from the serving epoch: candidates, scores, summaries, the note's text.

Deterministic: the same vault, clock and config give the same text, but for the
digest's own ``kp_id``. The index is brought up to date first (built when there
is none), and an epoch whose embedder is not the configured one is refused
with the doctor's words: its vectors and now.md's would come from two models.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace

import apsw

from curator import clock, output
from curator.embedders import base as embedders
from curator.errors import EmbedderError, EpochMismatch
from curator.index import catalog, linkgraph, reading
from curator.index import epoch as epochs
from curator.index.db import VAULT
from curator.index.serving import Opened, open_serving
from curator.librarian import anchor as anchor_mod
from curator.librarian import candidates as cands
from curator.librarian import links, render, scoring, summary
from curator.librarian.history import added_times
from curator.output import Notice
from curator.search.legs import WEIGHTS
from curator.settings import Settings
from curator.vault import templates
from curator.vault.discover import Vault
from curator.vault.identity import mint


@dataclass(frozen=True)
class Options:
    now: dt.datetime | None
    """The digest's clock; None: the clock once the index is up to date (so a note the
    reconcile just sighted is inside the window, however long the reconcile took)."""
    k: int
    half_life_days: float


@dataclass
class Composed:
    window: cands.Window
    candidates: int = 0
    method: scoring.Method | None = None
    entries: list[render.Entry] = field(default_factory=list)
    ranked: list[scoring.Scored] = field(default_factory=list)
    kp_id: str = ""
    title: str = ""
    text: str = ""
    anchor: str = ""
    warnings: list[Notice] = field(default_factory=list)


def _refuse_other_model(settings: Settings, conn: apsw.Connection) -> None:
    serving = reading.fingerprint(conn)
    wanted = epochs.fingerprint(embedders.resolve(settings), settings.index.normalisation)
    if serving["embedder"] != wanted["embedder"]:
        raise EpochMismatch(epochs.mismatch_message(serving, wanted))


def _describe(fp: dict[str, object]) -> str:
    e = fp["embedder"]
    assert isinstance(e, dict)
    return "none" if e["provider"] == "none" else f"{e['provider']}:{e['model']}/{e['dims']}"


def _similarity(
    conn: apsw.Connection,
    opened: Opened,
    anchor: anchor_mod.Anchor,
    docs: list[catalog.Record],
    chosen: list[cands.Candidate],
    warnings: list[Notice],
    population: list[int],
) -> tuple[str, str | None, dict[int, float] | None, scoring.Calibration | None]:
    """(method kind, why it is not cosine, similarity by document id or None for recency, and the
    vault's scale the cosines are placed on: measured on ``population``, the candidates and a
    sample of the vault's other notes)."""
    if anchor.why_not:
        return scoring.RECENCY, anchor.why_not, None, None
    fp = reading.fingerprint(conn)
    ids = [c.doc.id for c in chosen]
    spec = embedders.from_fingerprint(fp["embedder"], opened.base_url)
    # Cosine only when every candidate has all its vectors: new notes are the ones an
    # embedder that is down leaves without, and scoring them 0 would bury exactly them.
    incomplete = [c.doc.path for c in chosen if c.doc.vectors < c.doc.passages]
    if spec.provider == "none" or not spec.dims:
        why = "the index has no vectors (embedder: none)"
    elif incomplete:
        why = f"{len(incomplete)} of the {len(chosen)} candidates have no vectors yet (run `curator index`)"
        warnings.append(Notice(f"{why}: " + ", ".join(incomplete[:5]) + (" …" if len(incomplete) > 5 else "")))
    else:
        vector = _anchor_vector(conn, anchor, docs, spec, warnings)
        if vector is None:
            why = f"{anchor.path} could not be embedded"
        else:
            measured = scoring.cosine_similarities(catalog.passage_vectors(conn, [*ids, *population]), vector)
            scale = scoring.calibration([measured[i] for i in dict.fromkeys([*ids, *population]) if i in measured])
            return scoring.COSINE, None, {i: measured[i] for i in ids if i in measured}, scale
    return scoring.BM25, why, scoring.bm25_similarities(catalog.best_bm25(conn, anchor.terms, WEIGHTS, ids)), None


def _population(
    docs: list[catalog.Record],
    chosen: list[cands.Candidate],
    settings: Settings,
    folders: list[templates.TemplateFolder],
) -> list[int]:
    """The vault's other notes the calibration samples besides the candidates (never now.md, a
    digest or a template: what ``candidates.excluded`` leaves out), at most enough for
    ``scoring.POPULATION`` in all. With few candidates their own cosines would set the
    scale: a digest of three on-topic notes would call the least of them unrelated."""
    chosen_ids = {c.doc.id for c in chosen}
    others = [
        d.id
        for d in docs
        if d.source == VAULT
        and d.id not in chosen_ids
        and 0 < d.passages == d.vectors
        and not cands.excluded(d, settings, folders)
    ]
    return scoring.sample(others, scoring.POPULATION - len(chosen_ids))


def _anchor_vector(
    conn: apsw.Connection,
    anchor: anchor_mod.Anchor,
    docs: list[catalog.Record],
    spec: embedders.EmbedderSpec,
    warnings: list[Notice],
) -> list[float] | None:
    indexed = next((d for d in docs if d.source == "vault" and d.path == anchor.path), None)
    if indexed is not None:
        # The stored vectors only when they are of the file as it is now: an index that
        # could not catch up (another indexer running) holds an older now.md.
        stored = catalog.vectors_by_hash(conn, indexed.id)
        wanted = anchor_mod.hashes(anchor)
        if wanted and all(h in stored for h in wanted):
            return scoring.mean_unit([stored[h] for h in wanted])
    try:
        return anchor_mod.embed(anchor, spec)
    except EmbedderError as e:
        warnings.append(Notice(f"{anchor.path} cannot be embedded ({e}); scoring by BM25 instead"))
        return None


def _entries(conn: apsw.Connection, ranked: list[scoring.Scored], k: int, terms: set[str]) -> list[render.Entry]:
    """The top k entries, each note that reads like a higher one (same title and summary)
    folded into it rather than taking a place of its own."""
    entries: list[render.Entry] = []
    for s in ranked:
        said = summary.choose((p.text for p in reading.passages_of(conn, s.candidate.doc.id)), terms)
        twin = next((n for n, e in enumerate(entries) if render.same(e, s, said)), None)
        if twin is not None:
            entries[twin] = replace(entries[twin], alike=(*entries[twin].alike, s))
        elif len(entries) < k:
            entries.append(render.Entry(s, said))
        else:
            break
    return entries


def compose(vault: Vault, settings: Settings, index_dir: str, opts: Options) -> Composed:
    opened = open_serving(vault, settings, index_dir, build=True, announce=output.note)
    now = clock.now() if opts.now is None else opts.now
    conn = opened.conn
    try:
        _refuse_other_model(settings, conn)
        warnings = list(opened.warnings)
        docs = catalog.records(conn)
        last_path, since, found = cands.last_digest(vault.root, settings)
        warnings += map(Notice, found)
        window = cands.Window(since, now, last_path)
        result = Composed(window, warnings=warnings)
        if since is not None and since >= now:
            return result
        history: list[dict[str, int]] = []

        def added() -> dict[str, int]:
            # git's history is walked only when some note has no date of its own.
            if not history:
                h = added_times(vault, index_dir)
                history.append(h.added)
                if h.shallow:
                    warnings.append(
                        Notice(
                            "the repository is a shallow clone: notes without a created date count from the oldest "
                            "commit fetched (fetch the full history for true creation times)"
                        )
                    )
            return history[0]

        folders = templates.on_disk(vault.root)
        sel = cands.select(docs, settings, now, added, since, folders)
        warnings += map(Notice, sel.warnings)
        result.candidates = len(sel.candidates)
        if not sel.candidates:
            return result
        anchor = anchor_mod.load(vault, settings)
        population = _population(docs, sel.candidates, settings, folders)
        kind, why, sims, scale = _similarity(conn, opened, anchor, docs, sel.candidates, warnings, population)
        fp = reading.fingerprint(conn)
        method = scoring.Method(kind, _describe(fp), opts.half_life_days, opts.k, why, scale)
        ranked = scoring.score_all(sel.candidates, sims, now, opts.half_life_days, scale)
        terms = summary.terms(anchor.body) if kind != scoring.RECENCY else set()
        entries = _entries(conn, ranked, opts.k, terms)
        linker = _linker(vault, settings, conn)
    finally:
        conn.close()
    result.method, result.ranked, result.entries, result.anchor = method, ranked, entries, anchor.path
    result.kp_id = mint()
    result.title = render.title_of(window)
    result.text = render.render(result.kp_id, window, method, anchor.path, len(ranked), entries, linker)
    return result


def _linker(vault: Vault, settings: Settings, conn: apsw.Connection) -> links.Linker:
    """Links in the vault's own style, each checked with the resolver over the index's notes."""
    kinds = linkgraph.link_kinds(conn)
    style = links.vault_style(vault.root, kinds.get("wikilink", 0), kinds.get("markdown", 0))
    return links.Linker(style, settings.notes.digest_dir, linkgraph.load(conn).resolver)
