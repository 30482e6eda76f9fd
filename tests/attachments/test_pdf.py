"""The PDF adapter on real PDFs made here (ReportLab) and hostile ones written by hand,
each read through the sandbox as the index reads it."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.attachments import sandbox
from curator.attachments.base import NO_TEXT_LAYER, Heading, Limits, Unextractable
from curator.attachments.pdf import PdfExtractor
from tests.attachments import documents

PDF = PdfExtractor()


def _read(path: Path | bytes, limits: Limits | None = None):  # type: ignore[no-untyped-def]
    data = path if isinstance(path, bytes) else path.read_bytes()
    return sandbox.extract(PDF, data, limits or Limits())


def test_each_pages_text_comes_out_as_that_page(tmp_path: Path) -> None:
    pages = ["Lamps burn oil on the first page.", "Glaciers carve valleys on the second.", "Rivers end in the sea."]
    got = _read(documents.text_pdf(tmp_path / "a.pdf", pages, title="Three Pages"))
    assert got.paged and got.title == "Three Pages"
    assert got.pages == tuple(pages)
    assert got.extractor.startswith("pypdfium2 ")


def test_the_outline_becomes_headings_at_the_line_that_shows_them(tmp_path: Path) -> None:
    path = documents.text_pdf(
        tmp_path / "o.pdf",
        ["Intro text about lamps.", "Text about rivers.\nMore about rivers."],
        outline=[(0, 1, "Introduction"), (1, 1, "Water"), (1, 2, "Rivers in detail")],
    )
    got = _read(path)
    assert got.headings == (
        Heading(0, 0, 1, "Introduction"),
        Heading(1, 0, 1, "Water"),
        Heading(1, 1, 2, "Rivers in detail"),
    )
    assert got.pages[1].split("\n")[:3] == ["Water", "Rivers in detail", "Text about rivers."]


def test_two_columns_come_out_one_column_after_the_other(tmp_path: Path) -> None:
    left = "The left column tells of lamps that burn whale oil in lighthouses along the coast. " * 3
    right = "The right column tells of glaciers that carve deep valleys into the old mountains. " * 3
    text = _read(documents.two_column_pdf(tmp_path / "c.pdf", left, right)).pages[0]
    flat = " ".join(text.split())
    assert flat.index("whale oil") < flat.index("glaciers that carve")
    # Each column's sentences read whole: no line of one interleaved with the other.
    assert " ".join(left.split()) in flat and " ".join(right.split()) in flat


def test_chinese_text_in_a_font_the_reader_brings_comes_out_as_written(tmp_path: Path) -> None:
    got = _read(documents.cjk_pdf(tmp_path / "zh.pdf", ["知识管理的第一页", "检索增强生成在第二页"]))
    assert got.pages == ("知识管理的第一页", "检索增强生成在第二页")


def test_a_scan_without_a_text_layer_is_named_so(tmp_path: Path) -> None:
    with pytest.raises(Unextractable) as e:
        _read(documents.scan_pdf(tmp_path / "scan.pdf"))
    assert e.value.reason == NO_TEXT_LAYER


def test_pages_without_text_beside_pages_with_text_are_counted(tmp_path: Path) -> None:
    got = _read(documents.text_pdf(tmp_path / "gap.pdf", ["Words here.", "", "More words."]))
    assert got.pages == ("Words here.", "", "More words.")
    assert got.notes == ("1 of 3 pages have no text layer (pictures of text are not read)",)


def test_more_pages_than_the_limit_are_refused_before_any_is_read() -> None:
    with pytest.raises(Unextractable) as e:
        _read(documents.many_pages_pdf(30), Limits(max_pages=20))
    assert e.value.reason == "30 pages; attachments.max_pages is 20"


def test_a_page_tree_claiming_a_billion_pages_reads_the_one_it_has() -> None:
    assert _read(documents.billion_pages_pdf()).pages == ("one real page",)


def test_objects_nested_a_hundred_thousand_deep_do_not_stop_the_page() -> None:
    assert _read(documents.nested_pdf(100_000)).pages == ("nested page",)


def test_a_wrong_cross_reference_table_is_repaired_by_the_reader() -> None:
    assert _read(documents.broken_xref_pdf()).pages == ("broken xref page",)


def test_bytes_that_are_no_pdf_are_named_unreadable() -> None:
    with pytest.raises(Unextractable) as e:
        _read(documents.garbage_pdf())
    assert e.value.reason == "not a readable PDF (data format error)"


def test_a_compression_bomb_is_stopped_by_its_memory_limit() -> None:
    """Five hundred KB that inflate to 64 MB of page content: PDFium inflates the stream whole."""
    with pytest.raises(Unextractable) as e:
        _read(documents.bomb_pdf(64 * 1024 * 1024), Limits(max_memory=48 * 1024 * 1024))
    assert "memory" in e.value.reason, e.value.reason


def test_a_compression_bomb_is_stopped_by_its_cpu_limit() -> None:
    """Given the memory, the same bomb is millions of text operators: seconds of CPU."""
    with pytest.raises(Unextractable) as e:
        _read(documents.bomb_pdf(64 * 1024 * 1024), Limits(max_seconds=1))
    assert e.value.reason == "needed more than 1 s of CPU (attachments.max_seconds); stopped"
