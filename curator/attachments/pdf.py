"""PDFs through pypdfium2 (PDFium, the engine Chrome reads PDFs with).

Chosen by measurement (benchmarks/attachments_libraries.py, docs/benchmarks.md): on the
same real PDFs it extracted 2.6 to 3.6 times as many pages a second as pypdf and about 23
times as many as pdfminer.six, with the same words in the same order, one and two columns,
and read the page of a file nested 100,000 deep where pypdf found no text; it ships as a
wheel with PDFium inside, nothing to compile.
"""

from __future__ import annotations

from curator.attachments import VERSIONS
from curator.attachments.base import NO_TEXT_LAYER, Extraction, Heading, Limits, Unextractable, clean, usable_title

MAX_OUTLINE = 5000
"""Outline entries read: more is not an outline a person made."""


class PdfExtractor:
    kind = "PDF"
    suffixes: tuple[str, ...] = (".pdf",)
    package = "pypdfium2"
    libraries: tuple[str, ...] = ("pypdfium2",)
    version = VERSIONS["PDF"]

    def extract(self, data: bytes, limits: Limits) -> Extraction:
        import pypdfium2 as pdfium

        try:
            pdf = pdfium.PdfDocument(data)
        except pdfium.PdfiumError as e:
            text = str(e)
            if "password" in text.lower():
                raise Unextractable("encrypted (it needs a password to open)") from None
            raise Unextractable(f"not a readable PDF ({_pdfium_reason(text)})") from None
        try:
            count = len(pdf)
            if count > limits.max_pages:
                raise Unextractable(f"{count:,} pages; attachments.max_pages is {limits.max_pages:,}")
            pages: list[str] = []
            chars = 0
            for i in range(count):
                page = pdf[i]
                textpage = page.get_textpage()
                text = clean(textpage.get_text_range())
                textpage.close()
                page.close()
                chars += len(text)
                if chars > limits.max_chars:
                    raise Unextractable(f"more than {limits.max_chars:,} characters of text by page {i + 1}")
                pages.append(text)
            if not any(p.strip() for p in pages):
                raise Unextractable(NO_TEXT_LAYER)
            headings = _outline(pdf, pages)
            title = usable_title(pdf.get_metadata_dict(skip_empty=True).get("Title"))
        finally:
            pdf.close()
        empty = sum(1 for p in pages if not p.strip())
        notes = (f"{empty} of {count} pages have no text layer (pictures of text are not read)",) if empty else ()
        return Extraction(tuple(pages), headings, title, paged=True, notes=notes)


def _pdfium_reason(text: str) -> str:
    # "Failed to load document (PDFium: Data format error)." -> "data format error"
    inner = text.partition("(PDFium: ")[2].rstrip(").")
    return (inner or text).strip().lower() or "PDFium refused it"


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def _outline(pdf: object, pages: list[str]) -> tuple[Heading, ...]:
    """The bookmarks, each placed at the line of its page where its text begins (else at
    the top of the page), in reading order; a bookmark without a page in the file is left out."""
    found: list[Heading] = []
    try:
        toc = pdf.get_toc(max_depth=8)  # type: ignore[attr-defined]
        for n, mark in enumerate(toc):
            if n >= MAX_OUTLINE:
                break
            dest = mark.get_dest()
            index = dest.get_index() if dest is not None else None
            title = " ".join(clean(mark.get_title() or "").split())
            if index is None or not 0 <= index < len(pages) or not title:
                continue
            found.append(Heading(index, 0, mark.level + 1, title[:200]))
    except MemoryError:
        raise
    except Exception:  # a broken outline is no reason to lose the text
        return ()
    placed: list[Heading] = []
    after: dict[int, int] = {}
    for h in sorted(found, key=lambda h: h.page):  # stable: the outline's order within a page
        line = _line_of(h.text, pages[h.page].split("\n"), after.get(h.page, 0))
        after[h.page] = line
        placed.append(Heading(h.page, line, h.level, h.text))
    return tuple(placed)


def _line_of(heading: str, lines: list[str], start: int) -> int:
    """The first line from ``start`` where ``heading`` is set (a long one wraps: its first
    line is a prefix of it); ``start`` when the page does not show it."""
    want = _norm(heading)
    for i in range(start, len(lines)):
        got = _norm(lines[i])
        if got and (got.startswith(want) or (want.startswith(got) and len(got) >= min(12, len(want)))):
            return i
    return start
