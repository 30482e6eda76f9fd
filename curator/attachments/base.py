"""The extractor port: an attachment's bytes in, its text page by page out.

An adapter is an object with ``kind``, ``suffixes``, ``version`` and ``extract(data,
limits)``; ``all_extractors.EXTRACTORS`` maps each suffix to one. ``extract`` raises
``Unextractable`` with a reason for the person (``no text layer``, ``encrypted``, ``4,000
pages; attachments.max_pages is 2000``): the index names the file with it and goes on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Protocol

NO_TEXT_LAYER = "no text layer (a scan or pictures of text; Curator does no OCR)"


class Unextractable(Exception):
    """The attachment is skipped; ``reason`` says why, for the person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Limits:
    """What one attachment may cost; the sandbox enforces the first three, the adapter the pages."""

    max_pages: int = 2000
    max_seconds: int = 60
    """CPU seconds."""
    max_memory: int = 1024 * 1024 * 1024
    """Bytes of memory above what the process held before it started."""
    max_chars: int = 20 * 1024 * 1024
    """Characters of text: more is not a document anyone reads, and the index would carry it."""


@dataclass(frozen=True)
class Heading:
    page: int
    """0-based index into ``Extraction.pages``."""
    line: int
    """0-based line of that page's text where the heading's section starts."""
    level: int
    """1 for a top-level heading."""
    text: str


@dataclass(frozen=True)
class Extraction:
    pages: tuple[str, ...]
    """Each page's text (one entry for a format without pages), lines split by ``\\n``."""
    headings: tuple[Heading, ...] = ()
    """The document's outline, in reading order."""
    title: str | None = None
    """The title the file's own metadata gives, when it gives a usable one."""
    paged: bool = True
    """Whether ``pages`` are the document's own pages (a PDF's), cited as ``#page=N``."""
    extractor: str = ""
    """The library that read it, with its version (filled in by the sandbox)."""
    notes: tuple[str, ...] = field(default_factory=tuple)
    """What the person should know about an extraction that succeeded (pages without text)."""


class Extractor(Protocol):
    kind: str
    """What the format is called to a person: PDF, Word."""
    suffixes: tuple[str, ...]
    """Lower-case file suffixes it reads (``.pdf``)."""
    package: str
    """The distribution that does the reading (its version is recorded with what it read)."""
    libraries: tuple[str, ...]
    """The modules it imports: loaded once before the sandbox forks, so each child has them."""
    version: int
    """How this adapter turns a file into pages and headings; part of the epoch fingerprint."""

    def extract(self, data: bytes, limits: Limits) -> Extraction:
        """The text of the file whose bytes are ``data`` (the bytes whose blob id the index
        records, so text and change token always agree); raises Unextractable with the
        reason it cannot be read."""
        ...


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffe\uffff]")
_TRAILING = re.compile(r"[ \t]+\n")


def clean(text: str) -> str:
    """Text as the index keeps it: line ends as ``\\n``, no control characters (a PDF's
    text can carry any code point, and a terminal obeys escape sequences), no spaces at
    line ends, no run of more than one blank line."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _CONTROL.sub("", text)
    text = _TRAILING.sub("\n", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n")


def usable_title(raw: object) -> str | None:
    """A metadata title worth showing: not empty, not a word processor's placeholder."""
    if not isinstance(raw, str):
        return None
    title = " ".join(clean(raw).split())
    if not title or title.casefold() in ("untitled", "title", "unknown") or title.startswith("Microsoft Word - "):
        return None
    return title[:300]
