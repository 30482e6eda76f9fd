"""What each MCP tool does, without the SDK: read the index, frame, redact, answer.

Every answer is a pair: the text an agent reads (vault text framed as quoted data)
and the same facts as structured content. Each tool assembles both in a ``Reply``
(``curator.mcp.frame``), which runs every string through the leak scanner as it
is added, so no call site can put a raw path, title or snippet into the answer.
The service keeps one connection to the serving epoch (reopened when a rebuild
swaps the epoch) and one ``Searcher``, so the query embedder loads once.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from typing import Any

from curator import redaction
from curator.errors import CuratorError, NotFound, UsageError
from curator.index import attached, derived, reading, refs
from curator.index.neighbours import reason
from curator.locations import verdicts_folder
from curator.mcp import card
from curator.mcp.frame import NOTICE, REVIEWER_NOTICE, Answer, Reply, quote_text
from curator.search.filters import Filters
from curator.search.snippet import snippet
from curator.settings import Settings
from curator.unsafe import shown
from curator.vault.discover import Vault

__all__ = ["MAX_K", "Service"]

MAX_K = 100


class Service:
    def __init__(self, vault: Vault, settings: Settings, index_dir: str, author: str = "mcp") -> None:
        self.vault = vault
        self.settings = settings
        self.index_dir = index_dir
        self.author = author
        self._lock = threading.Lock()
        self._opened: Any = None
        self._searcher: Any = None

    # -- the serving epoch -------------------------------------------------------------

    def _reader(self) -> Any:
        """The open serving epoch, reopened when ``CURRENT`` names another one."""
        from curator.index import epoch as epochs
        from curator.index.serving import open_serving
        from curator.search.engine import Searcher

        serving = epochs.serving(self.index_dir)
        if self._opened is None or serving is None or serving.name != self._opened.epoch.name:
            if self._opened is not None:
                self._opened.conn.close()
            # Never reconcile inside a tool call: the background loop does (server.py).
            self._opened = open_serving(self.vault, self.settings, self.index_dir, refresh=False)
            self._searcher = Searcher(self._opened.conn, self._opened.epoch.id, self._opened.base_url)
        return self._opened

    def close(self) -> None:
        with self._lock:
            if self._opened is not None:
                self._opened.conn.close()
                self._opened = None

    # -- tools -----------------------------------------------------------------------

    def search(
        self, query: str, k: int = 10, mode: str = "hybrid", tags: list[str] | None = None, path: str | None = None
    ) -> Answer:
        if not 1 <= k <= MAX_K:
            raise UsageError(f"k must be between 1 and {MAX_K}, not {k}")
        if not query.strip():
            raise UsageError("the query is empty: give words to search for")
        filters = Filters(tuple(tags or ()), path or None, path_as_shown=True)
        reply = Reply()
        with self._lock:
            opened = self._reader()
            result = self._searcher.search(query, k=k, mode=mode, filters=filters)
            hits = []
            for hit in result.hits:
                p = reading.passage(opened.conn, hit.passage_id)
                text = hit.snippet
                if p is not None:
                    siblings = reading.passages_of(opened.conn, p.doc_id)
                    spans = [(q.start_line, q.end_line, q.text) for q in siblings]
                    index = next((i for i, q in enumerate(siblings) if q.id == p.id), 0)
                    text = snippet(reply.red.passage(spans, index), query)
                # The path as a path filter matched it (name by name), and the cite made of it.
                shown_hit = dataclasses.replace(
                    hit,
                    path=reply.red.path(hit.path),
                    copies=[dataclasses.replace(c, path=reply.red.path(c.path)) for c in hit.copies],
                    translations=[dataclasses.replace(t, path=reply.red.path(t.path)) for t in hit.translations],
                )
                hits.append(reply.data({**shown_hit.to_json(), "snippet": text}))
            warnings = [n.text for n in opened.warnings] + list(result.warnings)
        data = reply.data(
            {
                "query": query,
                "mode": result.mode,
                "epoch": result.epoch,
                "hits": hits,
                "warnings": warnings,
            }
        )
        if not hits:
            reply.say(f"No matches for {data['query']!r}.")
        else:
            reply.say(
                f"{len(hits)} hit(s) for {data['query']!r} ({result.mode}). Each hit's frame cites it as "
                "path:start-end (an attachment's page: path#page=N) in its cite attribute, and the note's other "
                "matching passages in also; kp_read the cite's path (with #page=N) for the whole text."
            )
            reply.say(NOTICE)
            for n, hit in enumerate(hits, start=1):
                # A file name is the vault's words: it goes out only inside the frame, as attributes.
                reply.say(f"\n{n}. score {hit['score']}")
                also = ", ".join(a["cite"] for a in hit["also"]) or None
                reply.quote_snippet(
                    hit["path"], hit["start_line"], hit["end_line"], hit["snippet"], cite=hit["cite"], also=also
                )
        for w in data["warnings"]:
            reply.say(f"warning: {w}")
        return reply.answer(data)

    def _source_item(self, conn: Any, ref: str, page: int = 1) -> Any:
        """The source item (``zotero:KEY``, ``jsonl:NAME/ID``) ``ref`` names, when no note does."""

        if conn is None or not derived.looks_like_item_ref(ref) or reading.lookup(conn, ref):
            return None
        if refs.why_not_a_note(self.vault, self.settings, ref.removeprefix("./")) is None:
            return None
        return derived.read_page(conn, ref, page)

    def _read_item(self, item: derived.ItemPage) -> Answer:
        # A source item (a Zotero item, a corpus document) is not a file of the vault: its text
        # is what the index keeps for it, framed and redacted like a note's, and it has no blob
        # because no proposal can change it.
        reply = Reply()
        lines = reply.red.lines(item.lines, "\n".join(item.lines), 0)
        reply.say(
            f"An item of a read-only source, not a note ({reply.red.text(item.type)}); page {item.page} of "
            f"{item.pages}, framed below with its ref, source and link as the frame's attributes.{_more(item)}"
        )
        reply.say(NOTICE)
        framed = reply.quote(item.ref, item.start_line, lines, source=item.source, link=item.link)
        data = reply.data(_page(item) | _framed(framed) | {"fields": reply.red.fields(item.fields)})
        return reply.answer(data)

    def _attachment(self, conn: Any, ref: str, page: int = 1) -> Any:
        """The page of the attachment ``ref`` names (``paper.pdf``, ``paper.pdf#page=3``), when the
        index holds its text; a file it skipped is a one-line refusal that says why."""

        named = attached.page_ref(ref) if conn is not None else None
        if named is None:
            return None
        path, asked = named
        got = attached.read_page(conn, path, asked or page)
        if got is None and (why := attached.refused(conn, path)) is not None:
            raise UsageError(f"{path} has no text in the index: {why}")
        return got

    def _read_attachment(self, found: Any) -> Answer:
        # An attachment's text is what its extractor read: framed and redacted like a note's,
        # with no blob, because no proposal can change it.
        reply = Reply()
        lines = reply.red.lines(found.lines, "\n".join(found.lines), 0)
        where = f"page {found.page} of {found.pages}" if found.paged else f"part {found.page} of {found.pages}"
        reply.say(
            f"The text of a {found.type.upper()} attachment of the vault as {found.extractor} read it, not a note "
            f"(no proposal changes it); {where}, framed below with its path and cite as the frame's "
            f"attributes.{_more(found)}"
        )
        reply.say(NOTICE)
        page = str(found.page) if found.paged else None
        cite = attached.cite(found.path, found.page if found.paged else None, found.start_line, found.end_line)
        framed = reply.quote(found.path, found.start_line, lines, source="attachment", page=page, cite=cite)
        data = reply.data(_page(found) | _framed(framed))
        return reply.answer(data)

    def read(self, ref: str, page: int = 1) -> Answer:
        if page < 1:
            raise UsageError("page starts at 1")
        with self._lock:
            try:
                conn = self._reader().conn
            except CuratorError:  # no index (yet): paths still resolve
                conn = None
            item = self._source_item(conn, ref, page)
            if item is not None:
                return self._read_item(item)
            found = self._attachment(conn, ref, page)
            if found is not None:
                return self._read_attachment(found)
            if conn is None:
                path, others = refs.resolve(self.vault, self.settings, ref, None), list[str]()
            else:  # the other notes a name names, as `curator read` lists them
                path, others = refs.resolve_with_others(self.vault, self.settings, ref, conn)
        got = refs.read_page(self.vault, path, page)
        reply = Reply()
        lines = reply.red.lines(got.lines, got.text, got.start_line - 1)
        more = _more(got)
        # The blob goes through the scanner too: a git object id passes it unchanged, as
        # kp_propose needs it. A note with redacted values gets a receipt instead (shown_blob).
        blob = redaction.shown_blob(got.blob, got.text, got.frontmatter)
        receipt = "" if blob == got.blob else ", a receipt of the note as redacted"
        # The note's path and kp_id are the vault's words: said only inside frames.
        if others:
            reply.say("The ref names other notes too (listed in the frame below); this is the note framed after it.")
            reply.quote_text("other notes the ref names", "\n".join(others))
        reply.say(
            f"Page {got.page} of {got.pages}, lines {got.start_line}-{got.end_line} of the note framed below; its "
            f"path, kp_id and blob are the frame's attributes (pass the blob, {blob}{receipt}, to kp_propose to "
            f"change this note).{more}"
        )
        reply.say(NOTICE)
        framed = reply.quote(got.path, got.start_line, lines, kp_id=got.kp_id, blob=blob)
        named = {"candidates": others} if others else {}
        fields = {"frontmatter": reply.red.fields(got.frontmatter)}
        data = reply.data(_page(got) | _framed(framed) | named | fields | {"blob": blob})
        return reply.answer(data)

    def relate(self, ref: str) -> Answer:

        with self._lock:
            conn = self._reader().conn
            item = self._source_item(conn, ref)
            found = self._attachment(conn, ref)
            if found is not None:
                path, rel = found.path, attached.relations(conn, found.path)
            else:
                if item is not None:
                    path, source = item.ref, item.source
                else:
                    path, source = refs.resolve(self.vault, self.settings, ref, conn), "vault"
                rel = reading.relations(conn, path, source=source)
        if rel is None:
            raise NotFound(f"{path} is not in the index yet; it is reconciled within a minute")
        reply = Reply()
        data = reply.data(dataclasses.asdict(rel))
        rows = [f"{data['path']} — {data['title']}"]
        for key, label in (("links", "links to"), ("backlinks", "linked from")):
            rows.append(f"{label} ({len(data[key])}):")
            rows += [f"  {n['path']} — {n['title']} (line {n['line']})" for n in data[key]]
        rows.append(f"unresolved links ({len(data['unresolved'])}):")
        rows += [f"  line {u['line']}: [[{u['target']}]]" for u in data["unresolved"]]
        rows.append(f"neighbours ({len(data['neighbours'])}):")
        rows += [f"  {n['path']} — {n['title']} ({reason(n['via'])})" for n in data["neighbours"]]
        reply.say(NOTICE)
        reply.quote_text(f"links of {data['path']}", "\n".join(rows))
        return reply.answer(data)

    def index_card(self, limit: int = 4096) -> Answer:
        with self._lock:
            opened = self._reader()
            facts = card.facts(opened.conn, opened.epoch.id)
        reply = Reply()
        for row in facts["tags"]:
            row["tag"] = reply.red.folded(row["tag"], row.pop("spellings"))
        facts = reply.data(facts)

        def wrap(body: str) -> str:  # the size bound holds for all the agent gets, the note included
            return NOTICE + "\n" + quote_text("index card", body) + reply.red.note()

        # The card is rendered from redacted facts, then scanned once more as a whole when said
        # (not on each of fit's tries, each a few milliseconds of scanning).
        facts, text = card.fit(facts, limit, wrap)
        reply.say(text)
        return reply.answer(facts, noted=True)

    def propose(self, title: str, rationale: str, changes: list[dict[str, Any]], revises: str | None = None) -> Answer:
        from curator.mcp import propose as prop
        from curator.proposals.manifest import Author

        parsed = [prop.ChangeIn(**c) for c in changes]
        outcome = prop.propose(
            self.vault,
            self.settings,
            title,
            rationale,
            parsed,
            Author(kind="agent", name=self.author),
            revises,
            kept_in=verdicts_folder(self.index_dir),
        )
        reply = Reply()
        data = reply.data(outcome.to_json())
        if outcome.staged:
            verdict = "valid, auto-applicable" if outcome.auto_applicable else "valid"
            what = f"a revision of {data['revises']}" if data["revises"] else "staged"
            reply.say(
                f"Proposal {data['id']}: {verdict}; {what} in .kp/proposals/{data['id']}/ for review. {data['next']}"
            )
        else:
            reply.say(f"Proposal rejected: {data['next']}")
            _findings(reply, data["findings"])
        for m in data["minted"]:
            reply.say(f"minted kp_id: {shown(m)}")
        return reply.answer(data)

    def proposal(self, ulid: str) -> Answer:
        from curator.mcp.propose import proposal_status

        reply = Reply()
        data = reply.data(proposal_status(self.vault, self.settings, ulid.strip()))
        # The status, the verdict and the drift are the validator's words; everything else was
        # written by whoever staged the proposal (another agent, perhaps) or quotes the vault.
        auto = ", auto-applicable" if data["auto_applicable"] else ""
        reply.say(
            f"Proposal {data['id']}: {data['status']}; the validator says {data['verdict']}{auto}; "
            f"drift: {data['drift'] or 'none'}."
        )
        asked = data["changes_requested"]
        if asked:
            reply.say(
                f"The reviewer asked for changes to proposal {data['id']}. Answer with a revision: "
                f"kp_propose(..., revises='{data['id']}') with the whole change as it should now be; it "
                "supersedes this proposal. The validator's current findings are listed below."
            )
            reply.say(REVIEWER_NOTICE)
            reply.quote_reviewer(asked["by"], asked["at"], asked["reason"])
        if data["status"] == "superseded" and data["superseded_by"]:
            reply.say(f"Proposal {data['id']} is superseded by its revision {data['superseded_by']}.")
        reply.say(
            NOTICE + " The proposal's title, rationale, author and changes were written by whoever staged it "
            "(another agent, perhaps), and the findings may quote the vault: they are framed the same way."
        )
        reply.quote_text("the proposal's title", data["title"] or "")
        reply.quote_text("the proposal's rationale", data["rationale"] or "")
        about = [f"author: {data['author']}", f"created: {data['created']}"]
        about += [f"{c['op']} {shown(c['path'])}" for c in data["changes"]]
        reply.quote_text("the proposal's author and changes", "\n".join(shown(line) for line in about))
        if data["events"]:
            events = [json.dumps(e, ensure_ascii=False, sort_keys=True) for e in data["events"]]
            reply.quote_text("the proposal's events", "\n".join(shown(line) for line in events))
        if data["findings"]:
            _findings(reply, data["findings"])
        else:
            reply.say("No findings.")
        return reply.answer(data)


def _findings(reply: Reply, findings: list[dict[str, Any]]) -> None:
    """The validator's findings, framed: a message may quote the note's lines (a diff that no longer
    applies says what it found there), and those are the vault's words, not the tool's."""
    reply.say(f"{len(findings)} finding(s) of the validator, one a line:")
    lines = [
        f"{f['code']}{' warning' if f.get('warning') else ''} {f['path']}"
        f"{':' + str(f['line']) if 'line' in f else ''}: {f['message']}"
        for f in findings
    ]
    reply.quote_text("findings of the validator", "\n".join(shown(line) for line in lines))


def _page(page: Any) -> dict[str, Any]:
    """A page as JSON without its raw lines: they go out framed (``_framed``), never bare."""
    return {k: v for k, v in page.to_json().items() if k != "lines"}


def _framed(framed: str) -> dict[str, Any]:
    """A page's lines in the structured content: the frame the text holds, the same bytes, so a
    client that hands the structured content to a model hands it framed vault data too."""
    return {"content": framed, "notice": NOTICE}


def _more(page: Any) -> str:
    """The hint to the next page ("" on the last)."""
    return f" Next: kp_read(ref, page={page.page + 1})." if page.page < page.pages else ""
