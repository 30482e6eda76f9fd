"""The Zotero adapter on libraries built from Zotero's schema: what it reads, what it leaves
out, and every way a library can be unreadable."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import apsw
import pytest

from curator.errors import SourceError
from curator.sources.base import Item, Problems
from curator.sources.zotero import ZoteroSource, parse_date
from tests.sources.conftest import ATTENTION_ABSTRACT, Sample, build_sample
from tests.sources.zotero_library import ZoteroLibrary, better_bibtex


def _read(path: Path, **options: object) -> tuple[dict[str, Item], Problems]:
    problems = Problems()
    items = {i.ref: i for i in ZoteroSource("library", str(path), **options).read(problems)}  # type: ignore[arg-type]
    return items, problems


@pytest.mark.parametrize("zotero", [6, 7])
def test_regular_items_with_their_metadata_and_nothing_else(tmp_path: Path, zotero: int) -> None:
    s = build_sample(tmp_path / "zotero.sqlite", zotero)
    s.library.close()
    items, problems = _read(s.path)
    k = s.keys
    expected = {k["attention"], k["thinking"], k["chapter"], k["paper"], k["case"], k["untitled"]}
    assert set(items) == {f"zotero:{key}" for key in expected}  # not the trashed item, note or attachment
    assert problems.count == 0
    a = items[f"zotero:{k['attention']}"]
    assert a.title == "Attention Is All You Need"
    assert a.link == f"zotero://select/library/items/{k['attention']}"
    assert a.date == "2017-06-12"
    assert a.cite_keys == ("vaswani2017",)
    assert a.tags == ("attention", "transformers")
    assert a.fields["creators"][0] == {"name": "Ashish Vaswani", "role": "author"}
    assert a.fields["doi"] == "10.48550/arXiv.1706.03762" and a.fields["year"] == "2017"
    collections = ["Machine learning/Attention"] + (["Old reading"] if zotero == 6 else [])
    assert a.fields["collections"] == collections  # Zotero 7 keeps "Old reading" in its trash
    assert ATTENTION_ABSTRACT in a.text and "## Abstract" in a.text
    assert "Multi-head attention runs several attention functions in parallel." in a.text
    assert "- positional encodings" in a.text
    assert "cuttlefish" not in a.text  # its note is in the trash
    assert "Full Text PDF" not in a.text
    assert not any("zeppelins" in i.text for i in items.values())  # a standalone note is not an item


def test_type_specific_fields_count_as_their_base_field(sample: Sample) -> None:
    items, _ = _read(sample.path)
    case = items[f"zotero:{sample.keys['case']}"]
    assert case.title == "Feist Publications v. Rural Telephone"  # caseName is a case's title
    assert case.date == "1991-03-27"  # dateDecided its date
    assert case.fields["creators"] == [{"name": "Supreme Court of the United States", "role": "author"}]
    chapter = items[f"zotero:{sample.keys['chapter']}"]
    assert chapter.fields["publication"] == "Handbook of Decision Making"  # bookTitle
    assert chapter.date == "1999-03" and chapter.fields["date"] == "March 1999"
    assert "Ed Itor (editor)" in chapter.text


def test_an_item_without_a_title_is_named_from_what_it_has(sample: Sample) -> None:
    items, _ = _read(sample.path)
    untitled = items[f"zotero:{sample.keys['untitled']}"]
    assert untitled.title == "Untitled webpage by Ranger"
    assert "quokka sightings" in untitled.text


def test_a_note_with_broken_html_keeps_its_text(sample: Sample) -> None:
    items, _ = _read(sample.path)
    text = items[f"zotero:{sample.keys['thinking']}"].text
    assert "System 1 is fast and intuitive while System 2 deliberates" in text
    assert "heuristics & biases &bogus; end of the note" in text
    assert "<" not in text


def test_citation_keys_from_better_bibtex_when_zotero_has_none(tmp_path: Path) -> None:
    lib = ZoteroLibrary(tmp_path / "zotero.sqlite", zotero=6)
    key = lib.add_item("book", {"title": "Gödel, Escher, Bach"}, creators=[("Douglas", "Hofstadter", "author")])
    pinned = lib.add_item("book", {"title": "Metamagical Themas", "extra": "Citation Key: hofstadter1985"})
    lib.close()
    better_bibtex(tmp_path / "better-bibtex.sqlite", {key: "hofstadter1979", pinned: "ignored-when-pinned"})
    items, _ = _read(tmp_path / "zotero.sqlite")
    assert items[f"zotero:{key}"].cite_keys == ("hofstadter1979",)
    assert items[f"zotero:{pinned}"].cite_keys == ("hofstadter1985",)


def test_group_library_items_link_to_their_group(tmp_path: Path) -> None:
    lib = ZoteroLibrary(tmp_path / "zotero.sqlite")
    group = lib.add_group(4711, "Lab")
    key = lib.add_item("journalArticle", {"title": "Shared paper"}, library=group)
    lib.close()
    items, _ = _read(tmp_path / "zotero.sqlite")
    assert items[f"zotero:{key}"].link == f"zotero://select/groups/4711/items/{key}"


def test_collections_option_takes_a_subtree(sample: Sample) -> None:
    items, problems = _read(sample.path, collections=("Machine learning", "Nowhere"))
    assert set(items) == {f"zotero:{sample.keys['attention']}"}
    assert problems.warnings == ["collection 'Nowhere' is not in the library"]


def test_notes_can_be_left_out(sample: Sample) -> None:
    items, _ = _read(sample.path, notes=False)
    assert "Multi-head" not in items[f"zotero:{sample.keys['attention']}"].text


def test_zotero_dates() -> None:
    assert parse_date("2019-03-00 March 2019") == ("March 2019", "2019-03")
    assert parse_date("2011-00-00 2011") == ("2011", "2011")
    assert parse_date("0000-00-00 Spring term") == ("Spring term", None)
    assert parse_date("ca. 1850") == ("ca. 1850", "1850")
    assert parse_date("") == ("", None)


# --- the library is never written, and can be read while Zotero holds it ------------------


def test_reading_never_writes_the_library(sample: Sample) -> None:
    sample.library.close()
    before = (sample.path.read_bytes(), sample.path.stat().st_mtime_ns, sorted(sample.path.parent.iterdir()))
    _read(sample.path)
    assert (sample.path.read_bytes(), sample.path.stat().st_mtime_ns, sorted(sample.path.parent.iterdir())) == before


HOLD_LOCK = """
import sys, apsw
conn = apsw.Connection(sys.argv[1])
conn.execute("PRAGMA locking_mode = EXCLUSIVE")
conn.execute("BEGIN EXCLUSIVE")
conn.execute("UPDATE version SET version = version WHERE schema = 'userdata'")
print("locked", flush=True)
sys.stdin.readline()
"""


def test_a_library_zotero_holds_locked_is_read_from_a_copy(sample: Sample) -> None:
    sample.library.close()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(sample.path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        probe = apsw.Connection(str(sample.path), flags=apsw.SQLITE_OPEN_READONLY)
        with pytest.raises(apsw.BusyError):
            probe.execute("SELECT count(*) FROM items").fetchone()  # SQLite itself cannot read it now
        probe.close()
        items, _ = _read(sample.path)
        assert f"zotero:{sample.keys['attention']}" in items and len(items) == 6
    finally:
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait(timeout=30)


# --- libraries that cannot be read: a clear error naming the file ------------------------


def test_a_missing_library(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=f"no Zotero library at {tmp_path}/gone/zotero.sqlite"):
        _read(tmp_path / "gone" / "zotero.sqlite")


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "zotero.sqlite"
    path.write_bytes(b"PK\x03\x04 this is a zip, not SQLite " * 200)
    with pytest.raises(SourceError, match=f"{path} is not a SQLite database"):
        _read(path)


def test_a_corrupt_library(sample: Sample) -> None:
    sample.library.close()
    raw = bytearray(sample.path.read_bytes())
    page = 4096
    raw[2 * page : len(raw)] = b"\xff" * (len(raw) - 2 * page)  # header intact, every later page garbage
    sample.path.write_bytes(bytes(raw))
    with pytest.raises(SourceError, match=f"{sample.path}.* (corrupt|not a SQLite|Zotero schema)"):
        _read(sample.path)


def test_an_empty_database_is_not_a_zotero_library(tmp_path: Path) -> None:
    path = tmp_path / "zotero.sqlite"
    conn = apsw.Connection(str(path))
    conn.execute("CREATE TABLE notes (x)")
    conn.close()
    with pytest.raises(SourceError, match="has no Zotero tables"):
        _read(path)


def test_an_unknown_schema_is_refused_with_what_is_missing(tmp_path: Path) -> None:
    """A library in the layout before Zotero 5 (child notes under ``sourceItemID``)."""
    lib = ZoteroLibrary(tmp_path / "zotero.sqlite")
    lib.add_item("book", {"title": "Old"})
    with lib.conn:
        lib.conn.execute("UPDATE version SET version = 77 WHERE schema = 'userdata'")
        lib.conn.execute("ALTER TABLE itemNotes RENAME COLUMN parentItemID TO sourceItemID")
    lib.close()
    with pytest.raises(SourceError) as e:
        _read(tmp_path / "zotero.sqlite")
    assert str(e.value).startswith(f"{tmp_path}/zotero.sqlite has a Zotero schema Curator does not know")
    assert "userdata version 77: no column itemNotes.parentItemID" in str(e.value)
