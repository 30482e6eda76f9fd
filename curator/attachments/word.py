"""Word files (.docx) through python-docx: paragraphs and tables in reading order, headings
by their paragraph style (Heading 1 … Heading 9, Title).

Word does not store pages (it lays them out when it shows the file), so a Word file is one
run of text, cited by line like a note.
"""

from __future__ import annotations

import io

from curator.attachments import VERSIONS
from curator.attachments.base import Extraction, Heading, Limits, Unextractable, clean, usable_title


class WordExtractor:
    kind = "Word"
    suffixes: tuple[str, ...] = (".docx",)
    package = "python-docx"
    libraries: tuple[str, ...] = ("docx", "docx.table", "docx.opc.exceptions")
    version = VERSIONS["Word"]

    def extract(self, data: bytes, limits: Limits) -> Extraction:
        import zipfile  # 4 ms (shutil, bz2, lzma) that every search paid through the registry

        import docx
        from docx.opc.exceptions import PackageNotFoundError
        from docx.table import Table

        try:
            document = docx.Document(io.BytesIO(data))
        except MemoryError:
            raise  # the sandbox names it with the limit
        except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError) as e:
            raise Unextractable(f"not a readable Word file ({type(e).__name__}: {str(e)[:80]})") from None
        except Exception as e:  # lxml's XMLSyntaxError and friends: a damaged part
            raise Unextractable(f"not a readable Word file ({type(e).__name__})") from None
        lines: list[str] = []
        headings: list[Heading] = []
        chars = 0
        for block in document.iter_inner_content():
            if isinstance(block, Table):
                rows = [" | ".join(clean(c.text).replace("\n", " ") for c in row.cells) for row in block.rows]
                text = "\n".join(r for r in rows if r.strip(" |"))
            else:
                text = clean(block.text)
                level = _heading_level(block.style.name if block.style is not None else "")
                if level and text:
                    headings.append(Heading(0, len(lines), level, " ".join(text.split())[:200]))
            if not text.strip():
                continue
            chars += len(text)
            if chars > limits.max_chars:
                raise Unextractable(f"more than {limits.max_chars:,} characters of text")
            lines.extend(text.split("\n"))
            lines.append("")
        if not any(line.strip() for line in lines):
            raise Unextractable("no text (a Word file of pictures or empty paragraphs)")
        return Extraction(
            ("\n".join(lines).rstrip("\n"),),
            tuple(headings),
            usable_title(document.core_properties.title),
            paged=False,
        )


def _heading_level(style: str | None) -> int:
    if not style:
        return 0
    if style == "Title":
        return 1
    if style.startswith("Heading "):
        tail = style.removeprefix("Heading ")
        return int(tail) if tail.isdigit() and 1 <= int(tail) <= 9 else 0
    return 0
