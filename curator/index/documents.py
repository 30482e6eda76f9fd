"""A note file as an index document: read, parsed, chunked, its links and terms worked out.

``prepare`` is a pure function of a path and its bytes, so a large reconcile can run it
in worker processes while the main process writes SQLite.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import signal
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from curator import faults
from curator.cores import workers
from curator.index.boilerplate import body_hash
from curator.index.chunker import chunk
from curator.index.db import VAULT
from curator.index.language import of_text, prose
from curator.index.normalise import note_rows
from curator.index.writer import DocInput, text_hash
from curator.settings import Settings
from curator.vault.globs import matches
from curator.vault.links import citations, extract
from curator.vault.markdown import code_flags
from curator.vault.note import NotANote, parse
from curator.vault.resolve import is_note_link

SOURCE = VAULT
PARALLEL_FROM = 300
"""Below this many changed notes the worker processes cost more than they save."""


def git_blob_id(raw: bytes) -> str:
    """The git blob id of ``raw``: the change token, computed without a repository."""
    return hashlib.sha1(b"blob %d\x00" % len(raw) + raw).hexdigest()


def from_note(path: str, raw: bytes, size: int, mtime_ns: int, settings: Settings, blob: str | None = None) -> DocInput:
    """Raises NotANote for files that cannot be notes (binary, not UTF-8)."""
    note = parse(path, raw)
    include = tuple(settings.notes.include)
    body = note.body
    lines = body.split("\n")
    code = code_flags(lines, body)
    found = extract(body, note.body_line, path, code, lines)
    links = [(link.line, link.kind, link.target, link.heading) for link in found if is_note_link(link, include)]
    # Links to attachments whose text is indexed (![[paper.pdf#page=3]]): relate shows them.
    wanted = settings.attachments.include
    attached = [
        (link.line, link.kind, link.target, link.heading)
        for link in found
        if wanted and matches(link.target, wanted) and not is_note_link(link, include)
    ]
    links += [(link.line, link.kind, link.target, None) for link in citations(body, note.body_line, code, lines)]
    meta = {k: v for k, v in note.meta.items() if isinstance(k, str)}
    passages = chunk(body, note.body_line, note.title, code, lines)
    texts = [p.embed_text for p in passages]
    index = settings.index
    language, told = of_text(meta, path, tuple(index.languages.items()), index.language, prose(lines, code))
    mode = index.normalisation
    return DocInput(
        source=SOURCE,
        path=path,
        attachment_links=attached,
        title=note.title,
        passages=passages,
        kp_id=note.kp_id,
        size=size,
        mtime_ns=mtime_ns,
        blob=blob or git_blob_id(raw),
        date=note.date(settings.notes.date_keys),
        meta=meta,
        body_line=note.body_line,
        tags=note.tags,
        aliases=note.aliases,
        links=links,
        hashes=[text_hash(t) for t in texts],
        body_hashes=[body_hash(p.text) for p in passages],
        fts=note_rows(passages, note.aliases, language, mode),
        language=language,
        told=told,
    )


@dataclass(frozen=True)
class Job:
    path: str
    full: str
    size: int
    mtime_ns: int
    known_blob: str | None


Prepared = tuple[str, str, Any]
"""(path, kind, payload): kind is doc (a DocInput), same (the blob id), skip or error (a reason)."""


def prepare(job: Job, settings: Settings) -> Prepared:
    faults.slow("prepare")
    try:
        with open(job.full, "rb") as f:
            raw = f.read()
    except OSError as e:
        return job.path, "error", f"cannot read: {e.strerror}"
    blob = git_blob_id(raw)
    if blob == job.known_blob:
        return job.path, "same", blob  # touched, not edited
    try:
        return job.path, "doc", from_note(job.path, raw, job.size, job.mtime_ns, settings, blob)
    except NotANote as e:
        return job.path, "skip", e.reason


_SETTINGS: Settings | None = None
PR_SET_PDEATHSIG = 1


def _die_with(parent: int) -> None:
    """Ask Linux to kill this worker when its parent dies, however the parent dies (a
    SIGKILL runs no cleanup): an orphaned worker would parse on for nobody."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # not Linux: the executor's own checks end the worker when the pipe closes
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)


def _init(settings: Settings, parent: int) -> None:
    global _SETTINGS
    _die_with(parent)
    _SETTINGS = settings


def _prepare_in_worker(job: Job) -> Prepared:
    assert _SETTINGS is not None
    return prepare(job, _SETTINGS)


MAX_WORKERS = 4
"""Past four, the one process that writes what the workers parse is what everything waits for."""


def worker_count(jobs: int) -> int:
    """How many processes parse ``jobs`` notes: 1 (this one) for a few, else one per core."""
    return workers(MAX_WORKERS) if jobs >= PARALLEL_FROM else 1


def prepare_all(jobs: list[Job], settings: Settings, workers: int) -> Iterator[Prepared]:
    """Results in job order; in ``workers`` worker processes when there are more than one."""

    if workers < 2:
        yield from (prepare(j, settings) for j in jobs)
        return
    import multiprocessing

    context: multiprocessing.context.BaseContext
    try:
        context = multiprocessing.get_context("fork")
    except ValueError:
        context = multiprocessing.get_context()
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_init, initargs=(settings, os.getpid())
    )
    try:
        yield from pool.map(_prepare_in_worker, jobs, chunksize=64)
    finally:
        # Interrupted, the queued jobs are dropped rather than parsed for nobody.
        pool.shutdown(wait=False, cancel_futures=True)


def iter_jobs(root: str, stats: Iterable[tuple[str, int, int, str | None]]) -> list[Job]:
    return [Job(p, os.path.join(root, *p.split("/")), s, m, b) for p, s, m, b in stats]
