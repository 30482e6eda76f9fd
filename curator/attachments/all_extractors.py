"""Every extractor adapter, by the file suffix it reads (the registry)."""

from __future__ import annotations

import posixpath

from curator.attachments.base import Extractor
from curator.attachments.pdf import PdfExtractor
from curator.attachments.word import WordExtractor

EXTRACTORS: dict[str, Extractor] = {
    suffix: adapter for adapter in (PdfExtractor(), WordExtractor()) for suffix in adapter.suffixes
}


def for_path(path: str) -> Extractor | None:
    """The adapter that reads ``path``, by its suffix (any case); None when none does."""
    return EXTRACTORS.get(posixpath.splitext(path)[1].casefold())
