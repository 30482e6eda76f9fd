"""An attachment of the vault as an index document: its text extracted in a sandboxed child
(several at a time), split into passages page by page, each section under the heading the
document's outline gives it.

The extracted text is kept whole (``doc_text``) with each page's first line (``meta.pages``),
so a passage's lines say which page it is on, ``curator read`` shows a PDF page by page, and
a hit cites ``paper.pdf#page=3``: the form Obsidian opens at that page.
"""

from __future__ import annotations

import itertools
import posixpath
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import apsw

from curator import faults
from curator.attachments import sandbox
from curator.attachments.all_extractors import EXTRACTORS, for_path
from curator.attachments.base import Extraction, Limits, Unextractable
from curator.cores import workers
from curator.index import db
from curator.index.attached import resolve_links
from curator.index.chunker import SEP, Passage, split_text
from curator.index.db import ATTACHMENT
from curator.index.documents import Job, Prepared, git_blob_id, iter_jobs
from curator.index.language import PROSE_LINES, of_text
from curator.index.writer import DocInput, Writer
from curator.settings import Settings
from curator.vault.tree import FileStat, Skip

if TYPE_CHECKING:
    from curator.index.reconcile import Progress, Report

MAX_WORKERS = 4
"""Children extracting at once: each is a whole core's work."""


def limits_of(settings: Settings) -> Limits:
    a = settings.attachments
    return Limits(max_pages=a.max_pages, max_seconds=a.max_seconds, max_memory=a.max_memory_mb * 1024 * 1024)


def state_of(settings: Settings) -> dict[str, Any]:
    """What decides an attachment's extraction besides its bytes: when it changes, every
    attachment is read again (a file refused at 2,000 pages may be read at 5,000)."""
    limits = limits_of(settings)
    return {"max_pages": limits.max_pages, "max_seconds": limits.max_seconds, "max_memory": limits.max_memory}


BATCH_FILES = 16
BATCH_BYTES = 64 * 1024 * 1024
"""Files one child reads, at most (a file larger than this is a batch of its own)."""


def _batches(jobs: list[Job]) -> list[list[Job]]:
    batches: list[list[Job]] = []
    size = 0
    for job in jobs:
        if not batches or len(batches[-1]) >= BATCH_FILES or size + job.size > BATCH_BYTES:
            batches.append([])
            size = 0
        batches[-1].append(job)
        size += max(job.size, 0)
    return batches


def prepare_batch(batch: list[Job], settings: Settings) -> list[Prepared]:
    """(path, doc, DocInput), (path, same, blob), or (path, skip|error, reason) for each job:
    the files whose bytes changed read by one child (``sandbox.extract_many``)."""
    out: list[Prepared] = []
    todo: list[tuple[int, Job, bytes, str]] = []
    work: list[sandbox.Work] = []
    for job in batch:
        extractor = for_path(job.path)
        if extractor is None:
            known = ", ".join(sorted(EXTRACTORS))
            out.append((job.path, "skip", f"no text extractor for this kind of file (Curator reads {known})"))
            continue
        try:
            with open(job.full, "rb") as f:
                raw = f.read()
        except OSError as e:
            out.append((job.path, "error", f"cannot read: {e.strerror}"))
            continue
        blob = git_blob_id(raw)
        if blob == job.known_blob:
            out.append((job.path, "same", blob))  # touched, not edited: not read again
            continue
        todo.append((len(out), job, raw, blob))
        work.append((extractor, raw))
        out.append((job.path, "error", "not read"))  # replaced below
    for (i, job, _raw, blob), got in zip(todo, sandbox.extract_many(work, limits_of(settings)), strict=True):
        if isinstance(got, Unextractable):
            out[i] = (job.path, "skip", got.reason)
        else:
            out[i] = (job.path, "doc", document(job.path, got, job.size, job.mtime_ns, blob, settings))
    return out


def prepare_all(jobs: list[Job], settings: Settings) -> Iterator[Prepared]:
    """Results in job order, the batches read by several children at once when there are several.

    Threads, not the notes' worker processes: each batch is read in a child process of its
    own (``attachments.sandbox``), so a thread here only waits on it. One per core, as the
    notes' workers (``cores.workers``): a busy core is shared, not waited for."""
    batches = _batches(jobs)
    count = min(workers(MAX_WORKERS), len(batches))
    if count < 2:
        for batch in batches:
            yield from prepare_batch(batch, settings)
        return
    pool = ThreadPoolExecutor(max_workers=count, thread_name_prefix="extract")
    try:
        for done in pool.map(lambda batch: prepare_batch(batch, settings), batches):
            yield from done
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # interrupted: nothing more is started


def paged(
    x: Extraction, title: str, first_line: int = 1, first_seq: int = 0
) -> tuple[list[str], list[int], list[Passage]]:
    """The lines of ``x`` (the first being line ``first_line``), each page's first line, and
    its passages: page by page, never across a page, each under the outline heading it is in."""
    by_page: dict[int, list[tuple[int, int, str]]] = {}
    for h in x.headings:
        by_page.setdefault(h.page, []).append((h.line, h.level, h.text))
    lines: list[str] = []
    starts: list[int] = []
    passages: list[Passage] = []
    stack: list[tuple[int, str]] = []
    crumb = title

    def emit(page: list[str], first: int, a: int, b: int) -> None:
        for s, e, text in split_text(page, a, b):
            if text.strip():
                passages.append(Passage(first_seq + len(passages), first + s, first + e, crumb, text))

    for n, text in enumerate(x.pages):
        page = text.split("\n")
        first = first_line + len(lines)
        starts.append(first)
        lines.extend(page)
        start = 0
        for line, level, heading in sorted(by_page.get(n, []), key=lambda h: h[0]):
            line = min(max(line, start), len(page))
            if line > start:
                emit(page, first, start, line)
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, heading))
            crumb = SEP.join([title, *(t for _, t in stack)])
            start = line
        emit(page, first, start, len(page))
    return lines, starts, passages


def document(path: str, x: Extraction, size: int, mtime_ns: int, blob: str, settings: Settings) -> DocInput:
    """The index document of an attachment whose text is ``x``."""
    title = x.title or posixpath.basename(path)
    lines, starts, passages = paged(x, title)
    suffix = posixpath.splitext(path)[1].casefold().lstrip(".")
    meta: dict[str, Any] = {"type": suffix, "extractor": x.extractor}
    if x.paged:
        meta["pages"] = starts
    if x.notes:
        meta["notes"] = list(x.notes)
    index = settings.index
    # Told by its text as a note is (a PDF has no frontmatter to say it), else its folder's.
    head = "\n".join(lines[:PROSE_LINES])
    language, told = of_text({}, path, tuple(index.languages.items()), index.language, head)
    return DocInput(
        source=ATTACHMENT,
        path=path,
        title=title,
        passages=passages,
        size=size,
        mtime_ns=mtime_ns,
        blob=blob,
        meta=meta,
        language=language,
        told=told,
        text="\n".join(lines),
    )


BATCH = 8
"""Attachments written per transaction: a killed run keeps what it extracted but the last few."""
STATE_KEY = "attachments"
"""Meta key: the limits the attachments were read under, and each one refused (path → [size,
mtime_ns, reason]), so an unchanged file that was refused is not read again."""


def index_all(
    root: str,
    settings: Settings,
    conn: apsw.Connection,
    found: list[FileStat],
    writer: Writer,
    report: Report,
    progress: Progress | None,
) -> list[Skip]:
    """Bring the attachments in ``found`` up to date: unchanged ones (same size and mtime, or
    the same bytes) are not read, gone ones leave the index; returns those refused, each with
    its reason, for the skips the index names."""
    known = {
        p: (i, s, m, b)
        for i, p, s, m, b in conn.execute(
            "SELECT id, path, size, mtime_ns, blob FROM documents WHERE source = ?", (ATTACHMENT,)
        )
    }
    state = db.get_json(conn, STATE_KEY) or {}
    limits = state_of(settings)
    again = state.get("limits") != limits
    refused: dict[str, list[Any]] = {} if again else dict(state.get("refused") or {})
    current = {f.path for f in found}
    skips: list[Skip] = []
    todo: list[FileStat] = []
    for f in found:
        old = known.get(f.path)
        before = refused.get(f.path)
        if old is not None and not again and old[1:3] == (f.size, f.mtime_ns):
            report.unchanged += 1
        elif old is None and before is not None and before[:2] == [f.size, f.mtime_ns]:
            skips.append(Skip(f.path, str(before[2]), f.size, f.mtime_ns))  # refused, and unchanged since
        else:
            todo.append(f)
    gone = [i for p, (i, *_rest) in known.items() if p not in current]
    reuse = writer.reusable([known[f.path][0] for f in todo if f.path in known] + gone)
    with conn:
        for doc_id in gone:
            writer.delete(doc_id)
    report.removed += len(gone)
    refused = {p: r for p, r in refused.items() if p in current}
    jobs = iter_jobs(
        root, ((f.path, f.size, f.mtime_ns, None if again else known.get(f.path, (0, 0, 0, None))[3]) for f in todo)
    )
    by_path = {f.path: f for f in todo}
    results = prepare_all(jobs, settings)
    done = 0
    while done < len(todo):
        batch = list(itertools.islice(results, BATCH))
        with conn:
            writer.clear(known[path][0] for path, kind, _ in batch if kind == "doc" and path in known)
            for path, kind, payload in batch:
                done += 1
                f, old = by_path[path], known.get(path)
                refused.pop(path, None)
                if kind == "same":
                    assert old is not None
                    writer.touch(old[0], f.size, f.mtime_ns)
                    report.unchanged += 1
                elif kind == "doc":
                    written, reused = writer.upsert(payload, reuse, old[0] if old else None)
                    report.indexed += 1
                    report.written += written
                    report.reused += reused
                else:
                    skips.append(Skip(path, str(payload), f.size, f.mtime_ns))
                    refused[path] = [f.size, f.mtime_ns, str(payload)]
                    if old is not None:
                        writer.delete(old[0])
                        report.removed += 1
            db.set_json(conn, STATE_KEY, {"limits": limits, "refused": refused})
        faults.point("attachments:after-batch")
        if progress:
            progress("reading attachments", done, len(todo))
    with conn:
        db.set_json(conn, STATE_KEY, {"limits": limits, "refused": refused})
        resolve_links(conn)
    return skips
