"""JSONL corpora: bad lines are counted and named, never fatal."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from curator.errors import SourceError
from curator.sources.base import Item, Problems
from curator.sources.jsonl import JsonlSource


def _read(path: Path, **options: int) -> tuple[list[Item], Problems]:
    problems = Problems()
    return list(JsonlSource("corpus", str(path), **options).read(problems)), problems


def _line(**fields: object) -> str:
    return json.dumps(fields, ensure_ascii=False) + "\n"


def test_fields_are_kept_and_the_reference_names_the_source(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text(
        _line(_id="d1", title="Tidal locking", text="The Moon shows one face.", source="wiki", url="https://x/1",
              commit="abc123")
        + _line(id=7, text="No title here.")
    )  # fmt: skip
    items, problems = _read(path)
    assert problems.count == 0
    first, second = items
    assert first.ref == "jsonl:corpus/d1" and first.title == "Tidal locking" and first.link == "https://x/1"
    assert first.fields == {"id": "d1", "source": "wiki", "url": "https://x/1", "commit": "abc123"}
    assert second.ref == "jsonl:corpus/7" and second.title == "7" and second.text == "No title here."


def test_malformed_lines_are_counted_and_named_by_number(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    lines = [
        _line(_id="ok1", text="fine"),
        "{not json\n",
        "[1, 2]\n",
        _line(title="no id", text="x"),
        _line(_id="no-text"),
        _line(_id="bad-text", text=["a"]),
        _line(_id="", text="empty id"),
        _line(_id="ctl\x1b[31m", text="escape codes in an id"),
        "\n",
        b"\xff\xfe{}\n".decode("latin-1"),
        _line(_id="ok2", text="also fine", url={"nested": 1}),
        _line(_id="ok3", text="fine again"),
    ]
    raw = b"".join(s.encode("latin-1") if s.startswith("\xff") else s.encode("utf-8") for s in lines)
    path.write_bytes(raw)
    items, problems = _read(path)
    assert [i.ref for i in items] == ["jsonl:corpus/ok1", "jsonl:corpus/ok3"]
    assert problems.count == 9
    assert problems.named == [
        "line 2: not JSON (Expecting property name enclosed in double quotes at column 2)",
        "line 3: a JSON list, not an object",
        "line 4: no _id or id",
        "line 5: no text",
        "line 6: text is not a string",
        "line 7: an empty id",
        "line 8: the id has control characters",
        "line 10: not UTF-8 (byte 1)",
        "line 11: url is not a string",
    ]


def test_gzip_and_a_byte_order_mark(tmp_path: Path) -> None:
    body = "\ufeff" + _line(_id="a", text="first") + _line(_id="b", text="second")
    gz = tmp_path / "corpus.jsonl.gz"
    gz.write_bytes(gzip.compress(body.encode("utf-8")))
    plain = tmp_path / "corpus.jsonl"
    plain.write_text(body, encoding="utf-8")
    for path in (gz, plain):
        items, problems = _read(path)
        assert [i.ref for i in items] == ["jsonl:corpus/a", "jsonl:corpus/b"], path
        assert problems.count == 0


def test_gzip_detected_by_its_bytes_not_its_name(tmp_path: Path) -> None:
    path = tmp_path / "corpus.jsonl"
    path.write_bytes(gzip.compress(_line(_id="a", text="zipped").encode()))
    assert [i.text for i in _read(path)[0]] == ["zipped"]


def test_a_truncated_gzip_file_is_a_named_error(tmp_path: Path) -> None:
    path = tmp_path / "corpus.jsonl.gz"
    path.write_bytes(gzip.compress((_line(_id="a", text="x" * 5000) * 50).encode())[:300])
    with pytest.raises(SourceError, match=f"{path} cannot be read to the end"):
        _read(path)


def test_a_ten_megabyte_line(tmp_path: Path) -> None:
    big = " ".join(f"word{n % 5000}." for n in range(1_200_000))
    assert len(big) > 10_000_000
    path = tmp_path / "c.jsonl"
    path.write_text(_line(_id="big", text=big) + _line(_id="small", text="tiny"))
    items, problems = _read(path, max_item_bytes=20 * 1024 * 1024)
    assert [i.ref for i in items] == ["jsonl:corpus/big", "jsonl:corpus/small"] and problems.count == 0
    assert items[0].text == big
    items, problems = _read(path)  # over the default limit: named, and the rest still read
    assert [i.ref for i in items] == ["jsonl:corpus/small"]
    assert problems.named == ["line 1: 11.7 MB, over the 10485760 byte limit (max_item_bytes)"]


def test_duplicate_ids_the_later_line_wins_and_is_named(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text(
        _line(_id="x", text="first version")
        + _line(_id="y", text="other")
        + _line(_id="x", text="second version")
        + "{broken\n"
        + _line(_id="x", text="third version")
    )
    items, problems = _read(path)
    assert [(i.ref, i.text) for i in items] == [("jsonl:corpus/y", "other"), ("jsonl:corpus/x", "third version")]
    assert problems.warnings == [
        "id 'x' on line 1 appears again on line 3: the later line wins",
        "id 'x' on line 1 appears again on line 5: the later line wins",
    ]
    assert problems.named == ["line 4: not JSON (Expecting property name enclosed in double quotes at column 2)"]


def test_a_missing_corpus_or_a_folder(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=f"no corpus at {tmp_path}/none.jsonl"):
        _read(tmp_path / "none.jsonl")
    with pytest.raises(SourceError, match="is a folder"):
        _read(tmp_path)


def test_an_id_is_judged_by_the_one_unsafe_set(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text(
        _line(_id="note\u00a0: Paris", text="a no-break space, as French writes it")
        + _line(_id="famille \U0001f468\u200d\U0001f469", text="an emoji sequence joined by a zero-width joiner")
        + _line(_id="evil\u202etxt.exe", text="a bidi override")
        + _line(_id="tag\U000e0041", text="a tag character")
    )
    items, problems = _read(path)
    assert [i.ref for i in items] == ["jsonl:corpus/note\u00a0: Paris", "jsonl:corpus/famille \U0001f468\u200d\U0001f469"]
    assert problems.named == ["line 3: the id has control characters", "line 4: the id has control characters"]
