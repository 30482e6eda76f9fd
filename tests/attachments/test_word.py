"""The Word adapter on .docx files made here with python-docx."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from curator.attachments import sandbox
from curator.attachments.base import Heading, Limits, Unextractable
from curator.attachments.word import WordExtractor
from tests.attachments import documents

WORD = WordExtractor()


def test_paragraphs_tables_and_headings_come_out_in_reading_order(tmp_path: Path) -> None:
    path = documents.docx(
        tmp_path / "r.docx",
        [
            ("h1", "Lighthouses"),
            ("p", "Lamps burned whale oil."),
            ("table", "keeper|island|year"),
            ("page", ""),
            ("h2", "Fresnel lenses"),
            ("p", "A lens bends the light."),
        ],
        title="Report on lights",
    )
    got = sandbox.extract(WORD, path.read_bytes(), Limits())
    assert not got.paged and got.title == "Report on lights"
    lines = got.pages[0].split("\n")
    assert [line for line in lines if line] == [
        "Lighthouses",
        "Lamps burned whale oil.",
        "keeper | island | year",
        "Fresnel lenses",
        "A lens bends the light.",
    ]
    assert got.headings == (
        Heading(0, lines.index("Lighthouses"), 1, "Lighthouses"),
        Heading(0, lines.index("Fresnel lenses"), 2, "Fresnel lenses"),
    )
    assert got.extractor.startswith("python-docx ")


def test_a_file_that_is_no_word_file_is_named_unreadable() -> None:
    with pytest.raises(Unextractable) as e:
        sandbox.extract(WORD, b"PK\x03\x04 not really a zip", Limits())
    assert e.value.reason.startswith("not a readable Word file")


def test_a_word_file_whose_text_inflates_past_the_memory_limit_is_stopped(tmp_path: Path) -> None:
    body = b"a" * (96 * 1024 * 1024)
    source = io.BytesIO(documents.docx(tmp_path / "seed.docx", [("p", "seed")]).read_bytes())
    bomb = io.BytesIO()
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as out:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "word/document.xml":
                data = data.replace(b"seed", body)
            out.writestr(item, data)
    with pytest.raises(Unextractable) as e:
        sandbox.extract(WORD, bomb.getvalue(), Limits(max_memory=64 * 1024 * 1024))
    assert "memory" in e.value.reason or "characters" in e.value.reason, e.value.reason
