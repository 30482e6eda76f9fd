"""Real PDFs and .docx files for the attachment tests and benchmarks, made on the spot.

ReportLab draws the PDFs (text placed page by page, so a test knows the page each word is
on), python-docx writes the Word files, and the hostile PDFs are written byte by byte: a
page tree that claims a billion pages, objects nested far deeper than any real file, a
content stream that inflates to hundreds of megabytes, a cross-reference table that points
nowhere.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen import canvas

WIDTH, HEIGHT = A4
MARGIN = 56


def _lines(text: str, font: str, size: float, width: float) -> list[str]:
    out: list[str] = []
    for para in text.split("\n"):
        out.extend(simpleSplit(para, font, size, width) or [""])
    return out


def text_pdf(
    path: Path,
    pages: Sequence[str],
    *,
    title: str | None = None,
    outline: Sequence[tuple[int, int, str]] = (),
    font: str = "Helvetica",
    size: float = 11,
) -> Path:
    """One page per entry of ``pages``, its text wrapped to the page; ``outline`` is
    (0-based page, level, heading) bookmarks, each heading also drawn as the page's first line."""
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    if title:
        c.setTitle(title)
    heads: dict[int, list[tuple[int, str]]] = {}
    for page, level, heading in outline:
        heads.setdefault(page, []).append((level, heading))
    for n, text in enumerate(pages):
        y = HEIGHT - MARGIN
        for level, heading in heads.get(n, []):
            c.setFont("Helvetica-Bold", 14)
            c.drawString(MARGIN, y, heading)
            key = f"h{n}-{heading}"
            c.bookmarkPage(key, fit="XYZ", top=y + 14)
            c.addOutlineEntry(heading, key, level=level - 1)
            y -= 24
        c.setFont(font, size)
        for line in _lines(text, font, size, WIDTH - 2 * MARGIN):
            if y < MARGIN:
                raise ValueError(f"page {n + 1}'s text does not fit on one page")
            c.drawString(MARGIN, y, line)
            y -= size * 1.3
        c.showPage()
    c.save()
    return path


def two_column_pdf(path: Path, left: str, right: str) -> Path:
    """One page set in two columns, as papers are: the left column is drawn first."""
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    column = (WIDTH - 2 * MARGIN - 24) / 2
    c.setFont("Times-Roman", 10)
    for x, text in ((MARGIN, left), (MARGIN + column + 24, right)):
        y = HEIGHT - MARGIN
        for line in _lines(text, "Times-Roman", 10, column):
            c.drawString(x, y, line)
            y -= 13
    c.showPage()
    c.save()
    return path


def cjk_pdf(path: Path, pages: Sequence[str]) -> Path:
    """Chinese text in Adobe's STSong-Light, a font PDF readers bring themselves (not embedded):
    what many Chinese PDFs look like, the characters mapped through the UniGB-UCS2-H CMap."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    for text in pages:
        c.setFont("STSong-Light", 12)
        y = HEIGHT - MARGIN
        for line in text.split("\n"):
            c.drawString(MARGIN, y, line)
            y -= 18
        c.showPage()
    c.save()
    return path


def scan_pdf(path: Path, pages: int = 2) -> Path:
    """Pages that are pictures of text (what a scanner without OCR makes): no text layer."""
    from reportlab.lib.utils import ImageReader

    pixels = bytearray()
    for row in range(200):
        pixels += bytes(255 if (row // 8 + col // 6) % 3 else 0 for col in range(300))
    image = ImageReader(_gray_png(300, 200, bytes(pixels)))
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    for _ in range(pages):
        c.drawImage(image, MARGIN, HEIGHT / 2, width=WIDTH - 2 * MARGIN, height=300)
        c.showPage()
    c.save()
    return path


def _gray_png(width: int, height: int, pixels: bytes) -> Path | object:
    import io
    import struct

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + pixels[r * width : (r + 1) * width] for r in range(height))
    png = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )
    return io.BytesIO(png)


def docx(path: Path, blocks: Sequence[tuple[str, str]], *, title: str | None = None) -> Path:
    """A Word file of (style, text) blocks: style ``h1``..``h3`` for headings, ``p`` for a
    paragraph, ``page`` for a page break, ``table`` for a one-row table of ``|``-separated cells."""
    import docx as python_docx

    doc = python_docx.Document()
    if title:
        doc.core_properties.title = title
    for style, text in blocks:
        if style.startswith("h"):
            doc.add_heading(text, level=int(style[1:]))
        elif style == "page":
            doc.add_page_break()
        elif style == "table":
            cells = text.split("|")
            table = doc.add_table(rows=1, cols=len(cells))
            for cell, value in zip(table.rows[0].cells, cells, strict=True):
                cell.text = value
        else:
            doc.add_paragraph(text)
    doc.save(str(path))
    return path


# -- hostile PDFs, written object by object ------------------------------------------------


def _assemble(objects: Sequence[bytes], *, broken_xref: bool = False, root: int = 1) -> bytes:
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % ((off * 7 + 13) if broken_xref else off)
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        root,
        (xref + 9999) if broken_xref else xref,
    )
    return bytes(out)


def _page_objects(content: bytes, count: int = 1, filters: bytes = b"") -> list[bytes]:
    return [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count %d >>" % count,
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d %s>>\nstream\n" % (len(content), filters) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]


def hand_pdf(text: str = "Hand written lamp page") -> bytes:
    """A well-formed one-page PDF, written by hand: the baseline the hostile ones bend."""
    return _assemble(_page_objects(b"BT /F1 12 Tf 72 700 Td (%s) Tj ET" % text.encode("latin-1")))


def billion_pages_pdf() -> bytes:
    """A page tree whose /Count claims a billion pages (it holds one)."""
    return _assemble(_page_objects(b"BT /F1 12 Tf 72 700 Td (one real page) Tj ET", count=1_000_000_000))


def many_pages_pdf(pages: int) -> bytes:
    """``pages`` real pages, each with a line of text."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]
    kids = []
    font = 3
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for n in range(pages):
        content = b"BT /F1 12 Tf 72 700 Td (page %d) Tj ET" % (n + 1)
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
            b"/Resources << /Font << /F1 %d 0 R >> >> >>" % (len(objects), font)
        )
        kids.append(b"%d 0 R" % len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(kids), pages)
    return _assemble(objects)


def nested_pdf(depth: int = 100_000) -> bytes:
    """A page whose resources hold an array nested ``depth`` deep: a recursive parser's stack."""
    objects = _page_objects(b"BT /F1 12 Tf 72 700 Td (nested page) Tj ET")
    objects[2] = (
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> /Deep " + b"[" * depth + b"]" * depth + b" >> >>"
    )
    return _assemble(objects)


def bomb_pdf(inflated: int = 512 * 1024 * 1024) -> bytes:
    """A content stream of a few hundred KB that inflates to ``inflated`` bytes of text
    operators: a compression bomb."""
    unit = b"BT /F1 12 Tf 72 700 Td (bomb) Tj ET\n"
    packer = zlib.compressobj(9)
    parts = []
    block = unit * (1024 * 1024 // len(unit))
    for _ in range(inflated // len(block)):
        parts.append(packer.compress(block))
    parts.append(packer.flush())
    return _assemble(_page_objects(b"".join(parts), filters=b"/Filter /FlateDecode "))


def broken_xref_pdf() -> bytes:
    """Every cross-reference offset wrong and startxref past the end of the file."""
    return _assemble(_page_objects(b"BT /F1 12 Tf 72 700 Td (broken xref page) Tj ET"), broken_xref=True)


def garbage_pdf() -> bytes:
    """A .pdf that is no PDF at all."""
    return b"%PDF-1.4\n" + bytes(range(256)) * 64
