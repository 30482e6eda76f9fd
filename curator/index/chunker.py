"""Passages: a note split at headings (never inside fenced code), long sections at blank
lines, each with its breadcrumb (``Title › H1 › H2``) and 1-based line range.

Written over line indices rather than per-line objects: the first index of a
3,000-note vault chunks a million lines, and this loop is most of that time.

A change to what it makes bumps ``CHUNKER_VERSION`` in ``curator.index.versions``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from curator.vault.links import display
from curator.vault.markdown import code_flags, has_comments, heading, heading_lines, strip_comments

MAX_CHARS = 1500
"""A section longer than this is split; about the 256 word pieces the local model reads."""
SENTENCE_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])")
SEP = " › "


class Passage(NamedTuple):
    """A tuple, not a dataclass: a large reconcile pickles sixty thousand of them between processes."""

    seq: int
    start_line: int
    end_line: int
    breadcrumb: str
    text: str

    @property
    def embed_text(self) -> str:
        """What the embedder reads: the breadcrumb keeps a passage tied to what it is about."""
        return f"{self.breadcrumb}\n{self.text}"


Piece = tuple[int, int, str]
"""(first index, last index, text) over the note's lines."""


def _blocks(raw: list[str], code: list[bool], start: int, end: int) -> list[tuple[int, int, bool]]:
    """Paragraphs between blank lines; a fenced code block is one unbreakable block."""
    blocks: list[tuple[int, int, bool]] = []
    i = start
    while i < end:
        if not code[i] and not raw[i].strip():
            i += 1
            continue
        j, kind = i, code[i]
        while j < end and code[j] == kind and (kind or raw[j].strip()):
            j += 1
        blocks.append((i, j, kind))
        i = j
    return blocks


def _split_long(raw: list[str], start: int, end: int) -> list[Piece]:
    """One over-long paragraph: at line boundaries, and a single long line at sentences."""
    pieces: list[Piece] = []
    buf_start, size = start, 0
    for i in range(start, end):
        line = raw[i]
        if len(line) > MAX_CHARS:
            if i > buf_start:
                pieces.append((buf_start, i - 1, "\n".join(raw[buf_start:i])))
            chunk = ""
            for s in SENTENCE_RE.split(line):
                if chunk and len(chunk) + len(s) + 1 > MAX_CHARS:
                    pieces.append((i, i, chunk))
                    chunk = s
                else:
                    chunk = f"{chunk} {s}" if chunk else s
            if chunk:
                pieces.append((i, i, chunk))
            buf_start, size = i + 1, 0
            continue
        if i > buf_start and size + len(line) > MAX_CHARS:
            pieces.append((buf_start, i - 1, "\n".join(raw[buf_start:i])))
            buf_start, size = i, 0
        size += len(line) + 1
    if end > buf_start:
        pieces.append((buf_start, end - 1, "\n".join(raw[buf_start:end])))
    return pieces


def _section(raw: list[str], code: list[bool], start: int, end: int) -> list[Piece]:
    text = "\n".join(raw[start:end])
    if len(text) <= MAX_CHARS:
        return [(start, end - 1, text)]
    out: list[Piece] = []
    group: list[tuple[int, int, bool]] = []
    size = 0

    def flush() -> None:
        nonlocal group, size
        if group:
            first, end_ = group[0][0], group[-1][1]
            out.append((first, end_ - 1, "\n".join(raw[first:end_])))
        group, size = [], 0

    for a, b, is_code in _blocks(raw, code, start, end):
        length = sum(len(raw[k]) + 1 for k in range(a, b))
        if size and size + length > MAX_CHARS:
            flush()
        if length > MAX_CHARS and not is_code:
            flush()
            out.extend(_split_long(raw, a, b))
            continue
        group.append((a, b, is_code))
        size += length
    flush()
    return out


def split_text(lines: list[str], start: int, end: int) -> list[Piece]:
    """Lines ``start`` to ``end`` (exclusive) of plain text, no markdown (a page of a PDF),
    split as a long section of a note is: at blank lines, then lines, then sentences."""
    return _section(lines, [False] * len(lines), start, end)


def chunk(
    body: str, first_line: int, title: str, code: list[bool] | None = None, lines: list[str] | None = None
) -> list[Passage]:
    """Passages of a note body whose first line is line ``first_line`` of the file.

    ``lines`` (``body.split("\\n")``) and ``code`` (their ``code_flags``) when the caller
    has them already.
    """
    raw = list(lines) if lines is not None else body.split("\n")
    if raw and raw[-1] == "":
        raw.pop()
    if code is None:
        code = code_flags(raw, body)
    if has_comments(body):
        raw = strip_comments(raw, code)  # %% comments %% and <!-- comments --> are not text
    folded_title = title.casefold()
    stack: list[tuple[int, str]] = []
    bounds: list[tuple[str, int, int, bool]] = []
    crumb, start, titled = title, 0, False
    for i in heading_lines(body):
        if i >= len(raw) or code[i]:
            continue
        h = heading(raw[i])
        if h is None:
            continue
        bounds.append((crumb, start, i, titled))
        level, text = h[0], display(h[1])
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, text))
        names = [t for _, t in stack]
        if names and names[0].casefold() == folded_title:
            names = names[1:]
        crumb, start, titled = SEP.join([title, *names]), i, True
    bounds.append((crumb, start, len(raw), titled))
    passages: list[Passage] = []
    for crumb, a, b, titled in bounds:
        # A section holding only its heading says nothing its subsections' breadcrumbs do not.
        first_body = a + 1 if titled else a
        if first_body >= b or not ("\n".join(raw[first_body:b]).strip() or any(code[first_body:b])):
            continue
        while a < b and not code[a] and not raw[a].strip():
            a += 1
        while b > a and not code[b - 1] and not raw[b - 1].strip():
            b -= 1
        pieces = [p for p in _section(raw, code, a, b) if p[2].strip()]
        for n, (s, e, text) in enumerate(pieces):
            if titled and s == e == a and n + 1 < len(pieces):
                # A heading alone (its section was split after it) joins what it heads.
                _ns, ne, _ = pieces[n + 1]
                pieces[n + 1] = (s, ne, "\n".join(raw[s : ne + 1]))
                continue
            passages.append(Passage(len(passages), first_line + s, first_line + e, crumb, text))
    if not passages:
        # A note with nothing but its title heading (what `curator new` writes) is still found by it.
        line = next((i for i, t in enumerate(raw) if t.strip() and not code[i]), None)
        if line is not None:
            passages.append(Passage(0, first_line + line, first_line + line, title, raw[line]))
    return passages
