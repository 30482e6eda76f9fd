"""The index's notes as the one link resolver sees them (``curator.vault.resolve``).

The writer points links at notes with it; ``read`` and ``relate`` ask it which notes a
ref or a link names, so they can list the other candidates, and where in the target
a ``#Heading`` or ``#^block`` link lands.
"""

from __future__ import annotations

from dataclasses import dataclass

import apsw

from curator.index.db import CITE_RANK, VAULT
from curator.vault import anchors
from curator.vault.resolve import Resolution, Resolver, Target


@dataclass
class Graph:
    resolver: Resolver
    ids: dict[str, int]
    """Vault path → document id."""
    other_ids: dict[str, int]
    """Case-folded kp_id → document id, for documents of other sources (Zotero items, corpora)."""
    cites: dict[str, int]
    """Case-folded ``@citekey`` → the source item's document id."""


def load(conn: apsw.Connection) -> Graph:
    aliases: dict[int, list[str]] = {}
    cites: dict[str, int] = {}
    for doc_id, key, rank in conn.execute(f"SELECT doc_id, key, rank FROM doc_keys WHERE rank IN (4, {CITE_RANK})"):
        if rank == CITE_RANK:
            cites.setdefault(key, doc_id)
        else:
            aliases.setdefault(doc_id, []).append(key)
    ids: dict[str, int] = {}
    targets: list[Target] = []
    other: dict[str, int] = {}
    for doc_id, source, path, kp_id, title in conn.execute(
        "SELECT id, source, path, kp_id, title FROM documents ORDER BY id"
    ):
        if source == VAULT:
            ids[path] = doc_id
            targets.append(Target(path, kp_id, title, tuple(aliases.get(doc_id, ()))))
        elif kp_id:
            other.setdefault(kp_id.casefold(), doc_id)
    return Graph(Resolver(targets), ids, other, cites)


def lookup(conn: apsw.Connection, ref: str) -> Resolution:
    """The notes ``ref`` names (kp_id, path, file name, alias, title), nearest the top first."""
    return load(conn).resolver.resolve_target(ref.strip(), "", relative=False)


def anchor_line(conn: apsw.Connection, doc_id: int, anchor: str | None) -> int | None:
    """The line of ``doc_id`` that ``#Heading`` (``H1#H2``: the last one) or ``#^block`` names,
    matched as ``curator.vault.anchors`` matches it."""
    if not anchor:
        return None
    if anchor.startswith("^"):
        block = anchors.block_pattern(anchor[1:])
        for start, text in conn.execute(
            "SELECT start_line, text FROM passages WHERE doc_id = ? ORDER BY seq", (doc_id,)
        ):
            for n, line in enumerate(text.split("\n")):
                if block.search(line):
                    return int(start) + n
        return None
    for start, crumb in conn.execute(
        "SELECT start_line, breadcrumb FROM passages WHERE doc_id = ? ORDER BY seq", (doc_id,)
    ):
        last = crumb.rsplit(" › ", 1)[-1] if " › " in crumb else None
        if last is not None and anchors.heading_matches(last, anchor):
            return int(start)
    return None


def link_kinds(conn: apsw.Connection) -> dict[str, int]:
    """How many links of each kind (wikilink, embed, markdown, cite) the vault's notes write:
    the vault's own link style, for what Curator writes into it."""
    return {str(kind): int(n) for kind, n in conn.execute("SELECT kind, count(*) FROM links GROUP BY kind")}
