"""The full path of a reconcile: anything differs, so git classifies the tree, changed files
are read (in worker processes when there are many), identical bytes are not re-chunked,
and the index is written in batches. Its modules load only here: an unchanged vault never
needs them."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import apsw

from curator.index import db, template_notes
from curator.index.db import ATTACHMENT
from curator.index.db import VAULT as SOURCE
from curator.index.versions import LINKS_VERSION
from curator.index.writer import DocInput, Writer, resolve_links, save_languages
from curator.settings import Settings
from curator.vault.discover import Vault
from curator.vault.tree import FileStat, GitView, Skip, classify, walk

if TYPE_CHECKING:
    from curator.index.reconcile import Progress, Report

BATCH = 500
OUTSIZED_PASSAGES = 1000
"""A note that makes more passages than this is named: a note usually makes a few, and a
thousand passages (about 1.5 MB of text) are minutes of embedding and crowd search."""
UNBROKEN_PASSAGES = 200
"""Nor more than this many in one section, with no heading between them (about 300 KB):
what a pasted log, export or dump looks like, rather than anything written to be read."""


def outsized(doc: DocInput, settings: Settings) -> str | None:
    """The warning for a note with far more passages than notes have, naming it; None for
    any other note."""
    passages = doc.passages
    if len(passages) <= UNBROKEN_PASSAGES:
        return None
    longest, run = 1, 1
    for before, after in itertools.pairwise(passages):
        run = run + 1 if after[3] == before[3] else 1  # the same breadcrumb: one section
        longest = max(longest, run)
    if len(passages) <= OUTSIZED_PASSAGES and longest <= UNBROKEN_PASSAGES:
        return None
    unbroken = (
        f", {longest} of them in one section with no heading (a pasted log or dump?)"
        if longest > UNBROKEN_PASSAGES
        else ""
    )
    return (
        f"{doc.path} makes {len(passages)} passages{unbroken}; a note usually makes a few. If it is not "
        f"for searching, keep it out with notes.exclude, or set notes.max_bytes (now {settings.notes.max_bytes}) "
        f"below its {doc.size} bytes"
    )


def full_path(
    vault: Vault,
    settings: Settings,
    conn: apsw.Connection,
    sentinels: list[object],
    report: Report,
    progress: Progress | None,
) -> None:
    """Git classifies the tree, changed files are hashed and read, identical bytes are not
    re-chunked; the walk's stats are stored for the next fast check."""
    # The full path's modules load here: an unchanged vault never needs them.
    from curator.index.documents import iter_jobs, prepare_all, worker_count

    db.writing(conn)
    git = GitView(vault)
    classified = classify(walk(vault.root, git.dir_ignored), settings, git.file_ignored)
    writer = Writer(conn, vectors=db.has_vectors(conn))
    known = {
        p: (i, s, m, b)
        for i, p, s, m, b in conn.execute(
            "SELECT id, path, size, mtime_ns, blob FROM documents WHERE source = ?", (SOURCE,)
        )
    }
    current = {f.path: f for f in classified.notes}
    removed = [known[p][0] for p in known if p not in current]
    # Link extraction changed since this epoch was filled: every note is read once more
    # (its passages keep their vectors) so it gains the links it was indexed without.
    relink = db.get_meta(conn, "links.version") != str(LINKS_VERSION)
    if relink:
        known = {p: (i, s, m, None) for p, (i, s, m, _b) in known.items()}
    # Settings that change what a note's bytes become (its date, its language) make every
    # note be read again when they change, though no file did.
    derived = {
        "date_keys": list(settings.notes.date_keys),
        "language": settings.index.language,
        "languages": settings.index.languages,
        "attachments": list(settings.attachments.include),  # which links to attachments a note keeps
    }
    reread = db.get_json(conn, "derived") != derived
    todo: list[FileStat] = [
        f
        for f in classified.notes
        if relink or reread or f.path not in known or known[f.path][1:3] != (f.size, f.mtime_ns)
    ]
    report.unchanged = len(classified.notes) - len(todo)
    reuse = writer.reusable([known[f.path][0] for f in todo if f.path in known] + removed)
    unreadable: list[Skip] = []
    jobs = iter_jobs(
        vault.root,
        ((f.path, f.size, f.mtime_ns, known[f.path][3] if f.path in known and not reread else None) for f in todo),
    )
    by_path = {f.path: f for f in todo}
    report.workers = worker_count(len(jobs))
    results = prepare_all(jobs, settings, report.workers)
    done = 0
    while True:
        batch = list(itertools.islice(results, BATCH))
        with conn:
            writer.clear(known[path][0] for path, kind, _ in batch if kind == "doc" and path in known)
            for path, kind, payload in batch:
                done += 1
                f, old = by_path[path], known.get(path)
                if kind == "same":
                    assert old is not None
                    writer.touch(old[0], f.size, f.mtime_ns)
                    report.unchanged += 1
                elif kind == "doc":
                    written, reused = writer.upsert(payload, reuse, old[0] if old else None)
                    if (warning := outsized(payload, settings)) is not None:
                        report.warnings.append(warning)
                    report.indexed += 1
                    report.written += written
                    report.reused += reused
                else:
                    unreadable.append(Skip(path, str(payload), f.size, f.mtime_ns))
                    if old is not None:
                        writer.delete(old[0])
                        report.removed += 1
        if progress:
            progress(f"reading notes ({report.workers} worker{'s' if report.workers > 1 else ''})", done, len(todo))
        if done >= len(todo):
            break
    if classified.attachments or db.count(conn, "SELECT count(*) FROM documents WHERE source = ?", (ATTACHMENT,)):
        from curator.index.attachment import index_all  # the extractors and the sandbox: most vaults have none

        unreadable += index_all(vault.root, settings, conn, classified.attachments, writer, report, progress)
    with conn:
        for doc_id in removed:
            writer.delete(doc_id)
        report.removed += len(removed)
        resolve_links(conn)
        save_languages(conn, writer.languages, writer.told)
        template_notes.mark(conn, vault.root)
        conn.execute("DELETE FROM skips")
        for s in sorted([*classified.skips, *unreadable], key=lambda s: s.path):
            conn.execute(
                "INSERT OR REPLACE INTO skips(path, reason, size, mtime_ns) VALUES (?, ?, ?, ?)",
                (s.path, s.reason, s.size, s.mtime_ns),
            )
        db.set_json(conn, "walk.pruned", classified.ignored_dirs)
        db.set_json(conn, "derived", derived)
        db.set_json(conn, "walk.sentinels", sentinels)
        db.set_meta(conn, "links.version", str(LINKS_VERSION))
