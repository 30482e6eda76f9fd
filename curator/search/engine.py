"""Running a search against the serving epoch: legs, floor, fusion, hits with citations."""

from __future__ import annotations

import apsw

from curator.embedders import all_embedders
from curator.embedders import base as embedders
from curator.errors import EmbedderError, UsageError
from curator.index import boilerplate as boilerplate_index
from curator.index import db, ranking, reading
from curator.index.normalise import fts_query
from curator.index.pages import pages_of
from curator.leaks import find_query_secrets
from curator.search import asker as askers
from curator.search import boilerplate, copies, translations
from curator.search import legs as legs_mod
from curator.search.filters import Filters, Leg
from curator.search.fuse import cosine, keep_agreement, mmr, rrf
from curator.search.results import ALSO, Also, Copy, Hit, Result, Slot, Translation
from curator.search.snippet import snippet

MODES = ("hybrid", "lexical", "vector")


class QueryWithheld(EmbedderError):
    """The query carries a secret: it is not sent to the remote embedder."""

    def __init__(self, kinds: list[str]) -> None:
        super().__init__(f"the query carries a secret ({', '.join(kinds)}) and was not sent to the remote embedder")
        self.kinds = kinds


class Searcher:
    """Holds an open epoch and, once needed, the epoch's own embedder for queries."""

    def __init__(self, conn: apsw.Connection, epoch: str, base_url: str | None = None) -> None:
        self.conn = conn
        self.epoch = epoch
        fp = db.get_json(conn, "fingerprint")
        self.spec = embedders.from_fingerprint(fp["embedder"], base_url)
        self.has_vectors = db.has_vectors(conn) and self.spec.provider != "none"
        self._embedder: embedders.Embedder | None = None
        self._asker = askers.Asker()
        self._copies: dict[int, list[int]] = {}
        self._translations: dict[int, list[int]] = {}

    def embed_query(self, text: str) -> bytes:
        if self._embedder is None:
            self._embedder = all_embedders.create(self.spec, few=True)
        if self._embedder.remote:
            # A query is egress too: one carrying a secret is not sent (SPEC §6).
            kinds = find_query_secrets(text)
            if kinds:
                reading.record_withheld_query(self.conn, kinds)
                raise QueryWithheld(kinds)
        return self._embedder.embed_query([text])[0]

    def search(
        self,
        query: str,
        *,
        k: int = 10,
        mode: str = "hybrid",
        filters: Filters | None = None,
        links: bool = False,
        diversify: bool = False,
        depth: int | None = None,
    ) -> Result:
        if k < 1:
            raise UsageError("--k must be at least 1")
        if not any(c.isalnum() for c in query):
            raise UsageError("the query has no words to search for")
        result, fused, ran = self.rank(query, mode=mode, filters=filters, links=links, k=k, depth=depth)
        if diversify:
            fused = mmr(fused[: 4 * k], 4 * k, self._similarity)
        result.hits = self._hits(self._by_note(fused, k), ran, query)
        if not result.hits and filters and filters.path and not ranking.any_path_matches(self.conn, filters):
            result.warnings.append(
                f"no path in the index matches --path {filters.path!r}: a glob matches the whole path from "
                "the vault's top folder (`curator ls` lists them)"
            )
        return result

    def rank(
        self,
        query: str,
        *,
        mode: str = "hybrid",
        filters: Filters | None = None,
        links: bool = False,
        k: int = 10,
        depth: int | None = None,
    ) -> tuple[Result, list[tuple[int, float]], list[Leg]]:
        """The fused ranking of passage ids, before hits are read out."""
        if mode not in MODES:
            raise UsageError(f"--mode must be one of {', '.join(MODES)}")
        filters = filters or Filters()
        # A leg reads a few passages a note: hits are grouped by note, one slot each, and
        # copies of a boilerplate passage leave a leg's list but one. Fusion needs depth.
        # Asked each time: a long-lived searcher (the MCP server's) sees what a reconcile counted.
        crowded = boilerplate_index.any_in(self.conn)
        depth = depth or ((8 * k if crowded else 5 * k) if mode != "hybrid" and not links else max(100, 5 * k))
        result = Result(query, mode, self.epoch, [])
        self._asker = asker = askers.of_index(self.conn, query)
        if filters.since or filters.until:
            dated, undated = reading.dated_documents(self.conn)
            if not dated:
                result.warnings.append(
                    "no note has a date (the frontmatter keys in notes.date_keys, default created and date), "
                    "so --since/--until match nothing"
                )
            elif undated:
                result.warnings.append(
                    f"{undated} note{'s' if undated != 1 else ''} without a date (notes.date_keys, default created "
                    "and date) left out by --since/--until"
                )
        ran: list[Leg] = []
        if asker.multilingual and not asker.language:
            askers.vote(self.conn, asker, legs_mod.words_of(query))
        result.language, result.language_by = asker.language, asker.by
        if mode in ("hybrid", "lexical"):
            ran.append(legs_mod.lexical(self.conn, query, filters, depth, asker.language, asker.maybe))
        if mode in ("hybrid", "vector"):
            if not self.has_vectors:
                # A vault kept lexical on purpose (embedder: none) is not told so on every search:
                # the JSON's mode says it, and `curator status`; asking for vectors is told.
                if mode == "vector" or self.spec.provider != "none":
                    result.warnings.append("this index has no vectors (embedder: none); lexical results only")
                if mode == "vector":
                    ran.append(legs_mod.lexical(self.conn, query, filters, depth))
                result.mode = "lexical"
            else:
                waiting = reading.pending_vectors(self.conn)
                total = reading.passage_count(self.conn) if waiting else 0
                if mode == "hybrid" and 2 * waiting > total:
                    # Most passages not embedded yet (a first index still running): the vector leg
                    # would lift the few notes that have vectors over every other, whatever their
                    # language or words. Words alone rank them all alike until most have one.
                    result.warnings.append(
                        f"{waiting} of {total} passages have no vector yet (`curator index` embeds them); "
                        "ranked by their words alone until most have one"
                    )
                    result.mode = "lexical"
                else:
                    if waiting:
                        result.warnings.append(
                            f"{waiting} passage{'s have' if waiting != 1 else ' has'} no vector yet (`curator index` "
                            "embeds them); until then they are ranked by their words alone"
                        )
                    try:
                        ran.append(legs_mod.vector(self.conn, self.embed_query(query), filters, depth))
                    except EmbedderError as e:
                        why = str(e) if isinstance(e, QueryWithheld) else f"embedder unavailable ({e})"
                        result.warnings.append(f"{why}; lexical results only")
                        if mode == "vector":
                            ran.append(legs_mod.lexical(self.conn, query, filters, depth))
                        result.mode = "lexical"
        askers.look_up(self.conn, asker, [pid for leg in ran for pid, _ in (leg.deeper or leg.ranked)])
        self._copies = copies.collapse(
            self.conn, ran, (lambda pid: askers.boost_of(asker, asker.notes[pid][1]) > 1) if asker.language else None
        )
        self._translations = translations.stand_in(self.conn, ran, asker, filters)
        if [leg.name for leg in ran] == ["lexical"]:
            legs_mod.rank_notes(self.conn, ran[0], depth)
        if crowded:
            boilerplate.damp(self.conn, ran)
        boost = askers.boosts(self.conn, asker, ran)
        fused = rrf(ran, boost)
        if links:
            seeds = [pid for pid, _ in fused[: max(5, k)]]
            base = [leg for leg in ran if leg.name in ("lexical", "vector")]
            ran.append(legs_mod.links(self.conn, seeds, filters, query, depth, asker.language))
            fused = keep_agreement(rrf(ran, askers.boosts(self.conn, asker, ran)), base)
        return result, self._named_first(query, filters, fused, ran), ran

    def _named_first(
        self, query: str, filters: Filters, fused: list[tuple[int, float]], ran: list[Leg]
    ) -> list[tuple[int, float]]:
        """``fused`` with the notes the query names (its file name, title or an alias, as
        `curator read` takes it) first: searching a note's name finds that note, whatever the
        words around it in other notes. Their passage is the best the legs found of them, else
        the best match of the query's words; ``--explain`` shows them under the leg ``name``."""
        docs = ranking.named(self.conn, " ".join(query.split()), filters)
        if not docs:
            return fused
        placed = {pid: doc for pid, (doc, _lang) in ranking.notes_of(self.conn, [p for p, _ in fused], False).items()}
        first: dict[int, int] = {}
        for pid, _score in fused:
            doc = placed.get(pid)
            if doc is not None and doc not in first:
                first[doc] = pid
        terms = legs_mod.terms_for(self.conn, query)
        match = fts_query(terms) if terms else None
        # Among them, the order the legs gave (the question's language first), then the rest.
        at = {pid: n for n, (pid, _s) in enumerate(fused)}
        found = sorted((first[doc] for doc in docs if doc in first), key=at.__getitem__)
        rest = [ranking.best_passage(self.conn, doc, match) for doc in docs if doc not in first]
        pinned = self._without_copies([pid for pid in dict.fromkeys([*found, *rest]) if pid is not None])
        if not pinned:
            return fused
        ran.append(Leg("name", [(pid, 1.0) for pid in pinned]))
        top = fused[0][1] if fused else 1.0
        taken = set(pinned)
        return [(pid, top) for pid in pinned] + [(pid, s) for pid, s in fused if pid not in taken]

    def _without_copies(self, pids: list[int]) -> list[int]:
        """``pids`` less the copies of a passage before them or already listed under one (a note
        named in every version of a docs tree is pinned once, its versions as its copies)."""
        listed = {c for found in self._copies.values() for c in found}
        bodies = reading.note_body_hashes(self.conn, pids)
        lead: dict[str, int] = {}
        kept = []
        for pid in pids:
            if pid in listed:
                continue
            doc, body = bodies.get(pid, (None, None))
            if body is not None and body in lead:
                if bodies[lead[body]][0] != doc:
                    self._copies.setdefault(lead[body], []).append(pid)
                continue
            if body is not None:
                lead[body] = pid
            kept.append(pid)
        return kept

    def _similarity(self, a: int, b: int) -> float:
        # Two passages of one note count as near-duplicates: diversity is across notes.
        floor = 0.8 if reading.same_document(self.conn, a, b) else 0.0
        return max(floor, self._content_similarity(a, b))

    def _content_similarity(self, a: int, b: int) -> float:
        if self.has_vectors:
            va, vb = reading.vector_of(self.conn, a), reading.vector_of(self.conn, b)
            if va and vb:
                return cosine(va, vb)
        pa, pb = reading.passage(self.conn, a), reading.passage(self.conn, b)
        ta = set(pa.text.lower().split()) if pa else set()
        tb = set(pb.text.lower().split()) if pb else set()
        return len(ta & tb) / (len(ta | tb) or 1)

    def _by_note(self, fused: list[tuple[int, float]], k: int) -> list[Slot]:
        """The first ``k`` notes of ``fused``: each one's best passage, its score, the note's other
        passages in the list, best first (one slot per note), and the passages of other notes that
        are word for word the shown one (``search.copies``), listed under it rather than each in a
        slot of its own."""
        askers.look_up(self.conn, self._asker, [pid for pid, _ in fused])
        notes = self._asker.notes
        slots: dict[int, Slot] = {}
        for pid, score in fused:
            doc = notes.get(pid, (-pid, None))[0]
            if doc in slots:
                slots[doc].others.append(pid)
            elif len(slots) < k:
                slots[doc] = Slot(pid, score)
        for doc, slot in slots.items():
            # The notes holding the shown passage word for word (``search.copies``), whether or
            # not another passage of theirs has a slot of its own.
            slot.copies = self._copies.get(slot.pid, [])
            # The notes in other languages this one stands for (``search.translations``), with
            # their copies (``search.copies``), unless one has a slot of its own (the query names it).
            found = [c for pid in self._translations.get(doc, []) for c in (pid, *self._copies.get(pid, []))]
            askers.look_up(self.conn, self._asker, found)
            listed: set[int] = set()
            for pid in found:
                other = notes[pid][0]
                if other not in slots and other not in listed:
                    listed.add(other)
                    slot.translations.append(pid)
        return list(slots.values())

    def _hits(self, grouped: list[Slot], ran: list[Leg], query: str) -> list[Hit]:
        ranks = {leg.name: {pid: (r, s) for r, (pid, s) in enumerate(leg.ranked, start=1)} for leg in ran}
        asker = self._asker
        hits = []
        for slot in grouped:
            pid, score, others, copied = slot.pid, slot.score, slot.others, slot.copies
            p = reading.passage(self.conn, pid)
            if p is None:
                continue
            also = [q for q in (reading.passage(self.conn, o) for o in others[:ALSO]) if q is not None]
            copies = [q for q in (reading.passage(self.conn, c) for c in copied) if q is not None]
            translated = [q for q in (reading.passage(self.conn, t) for t in slot.translations) if q is not None]
            language = asker.notes.get(pid, (0, None))[1]
            boost = askers.boost_of(asker, language)
            legs = {
                name: {"rank": float(table[pid][0]), "score": round(table[pid][1], 6)}
                for name, table in ranks.items()
                if pid in table
            }
            hits.append(
                Hit(
                    pid,
                    p.kp_id,
                    p.path,
                    p.title,
                    p.breadcrumb,
                    p.start_line,
                    p.end_line,
                    score,
                    snippet(p.text, query),
                    p.source,
                    legs,
                    p.link,
                    [Also(q.breadcrumb, q.start_line, q.end_line) for q in also],
                    language,
                    boost,
                    copies=[Copy(q.path, q.start_line, q.end_line) for q in copies],
                    translations=[
                        Translation(q.path, q.start_line, q.end_line, asker.notes.get(q.id, (0, None))[1])
                        for q in translated
                    ],
                )
            )
            if p.source != "vault":  # an attachment, or a source item with a PDF: its pages
                hits[-1].pages = pages_of(self.conn, p.doc_id)
        return hits
