"""Passages: a note split at headings (never inside fenced code), long sections at blank
lines, each with its breadcrumb (``Title › H1 › H2``) and 1-based line range."""

from __future__ import annotations

import re
from dataclasses import dataclass

from curator.vault.markdown import fence_states, heading

CHUNKER_VERSION = 1
MAX_CHARS = 1500
"""A section longer than this is split; about the 256 word pieces the local model reads."""
SENTENCE_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])")
SEP = " › "


@dataclass(frozen=True)
class Passage:
    seq: int
    start_line: int
    end_line: int
    breadcrumb: str
    text: str

    @property
    def embed_text(self) -> str:
        """What the embedder reads: the breadcrumb keeps a passage tied to what it is about."""
        return f"{self.breadcrumb}\n{self.text}"


@dataclass
class _Block:
    start: int
    lines: list[str]
    code: bool


def _blocks(lines: list[tuple[int, str, bool]]) -> list[_Block]:
    """Paragraphs separated by blank lines; a fenced code block is one unbreakable block."""
    blocks: list[_Block] = []
    current: _Block | None = None
    for no, line, in_code in lines:
        if not in_code and not line.strip():
            current = None
            continue
        if current is None or current.code != in_code:
            current = _Block(no, [], in_code)
            blocks.append(current)
        current.lines.append(line)
    return blocks


def _split_long(start: int, lines: list[str]) -> list[tuple[int, int, str]]:
    """One over-long paragraph: at line boundaries, and a single long line at sentences."""
    pieces: list[tuple[int, int, str]] = []
    buf: list[str] = []
    buf_start = start
    for offset, line in enumerate(lines):
        no = start + offset
        if len(line) > MAX_CHARS:
            if buf:
                pieces.append((buf_start, no - 1, "\n".join(buf)))
                buf = []
            sentences = SENTENCE_RE.split(line)
            chunk = ""
            for s in sentences:
                if chunk and len(chunk) + len(s) + 1 > MAX_CHARS:
                    pieces.append((no, no, chunk))
                    chunk = s
                else:
                    chunk = f"{chunk} {s}" if chunk else s
            if chunk:
                pieces.append((no, no, chunk))
            buf_start = no + 1
            continue
        if buf and sum(len(b) + 1 for b in buf) + len(line) > MAX_CHARS:
            pieces.append((buf_start, no - 1, "\n".join(buf)))
            buf, buf_start = [], no
        buf.append(line)
    if buf:
        pieces.append((buf_start, start + len(lines) - 1, "\n".join(buf)))
    return pieces


def _section_passages(lines: list[tuple[int, str, bool]]) -> list[tuple[int, int, str]]:
    text_len = sum(len(line) + 1 for _, line, _ in lines)
    if text_len <= MAX_CHARS:
        first, last = lines[0][0], lines[-1][0]
        return [(first, last, "\n".join(line for _, line, _ in lines).strip("\n"))]
    out: list[tuple[int, int, str]] = []
    buf: list[_Block] = []
    size = 0

    def flush() -> None:
        nonlocal buf, size
        if buf:
            first = buf[0].start
            last = buf[-1].start + len(buf[-1].lines) - 1
            out.append((first, last, "\n\n".join("\n".join(b.lines) for b in buf)))
        buf, size = [], 0

    for block in _blocks(lines):
        block_len = sum(len(x) + 1 for x in block.lines)
        if size and size + block_len > MAX_CHARS:
            flush()
        if block_len > MAX_CHARS and not block.code:
            flush()
            out.extend(_split_long(block.start, block.lines))
            continue
        buf.append(block)
        size += block_len
    flush()
    return out


def chunk(body: str, first_line: int, title: str) -> list[Passage]:
    """Passages of a note body whose first line is line ``first_line`` of the file."""
    raw = body.split("\n")
    if raw and raw[-1] == "":
        raw.pop()
    stack: list[tuple[int, str]] = []
    sections: list[tuple[str, list[tuple[int, str, bool]]]] = []
    current: list[tuple[int, str, bool]] = []
    crumb = title

    def close() -> None:
        if any(line.strip() and not (heading(line) and not code) for _, line, code in current):
            sections.append((crumb, list(current)))

    for offset, (line, in_code) in enumerate(fence_states(raw)):
        no = first_line + offset
        h = None if in_code else heading(line)
        if h is not None:
            close()
            current = []
            level, text = h
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, text))
            names = [t for _, t in stack]
            if names and names[0].casefold() == title.casefold():
                names = names[1:]
            crumb = SEP.join([title, *names])
        current.append((no, line, in_code))
    close()
    passages: list[Passage] = []
    for crumb, lines in sections:
        while lines and not lines[0][1].strip():
            lines = lines[1:]
        while lines and not lines[-1][1].strip():
            lines = lines[:-1]
        if not lines:
            continue
        for start, end, text in _section_passages(lines):
            if text.strip():
                passages.append(Passage(len(passages), start, end, crumb, text))
    return passages
