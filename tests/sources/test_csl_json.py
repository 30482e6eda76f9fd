"""CSL-JSON exports, from Zotero (ids are item URIs) and Better BibTeX (ids are citation keys)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curator.errors import SourceError
from curator.sources.base import Item, Problems
from curator.sources.csl_json import CslJsonSource

EXPORT = [
    {
        "id": "http://zotero.org/users/local/AbCdEfGh/items/ABCD2345",
        "type": "article-journal",
        "title": "Attention Is All You Need",
        "container-title": "NeurIPS",
        "author": [{"family": "Vaswani", "given": "Ashish"}, {"literal": "Google Brain"}],
        "issued": {"date-parts": [[2017, 6, 12]]},
        "abstract": "Attention mechanisms, and nothing else.",
        "DOI": "10.48550/arXiv.1706.03762",
        "keyword": "transformers, attention",
        "note": "Citation Key: vaswani2017",
    },
    {
        "id": "kahneman2011",
        "citation-key": "kahneman2011",
        "type": "book",
        "title": "Thinking, Fast and Slow",
        "author": [{"family": "Kahneman", "given": "Daniel"}],
        "editor": [{"family": "Editor", "given": "Some"}],
        "issued": {"raw": "2011"},
    },
    {"id": "http://zotero.org/groups/4711/items/GRPK2345", "type": "webpage", "issued": "2020-05"},
    "not an object",
    {"title": "no id"},
]


def _read(path: Path) -> tuple[dict[str, Item], Problems]:
    problems = Problems()
    return {i.ref: i for i in CslJsonSource("refs", str(path)).read(problems)}, problems


def test_an_export_from_zotero_and_better_bibtex(tmp_path: Path) -> None:
    path = tmp_path / "library.json"
    path.write_text(json.dumps(EXPORT))
    items, problems = _read(path)
    assert set(items) == {"zotero:ABCD2345", "csl:refs/kahneman2011", "zotero:GRPK2345"}
    assert problems.named == ["entry 4: not an object", "entry 5: no id"]
    a = items["zotero:ABCD2345"]
    assert a.link == "zotero://select/library/items/ABCD2345"
    assert a.cite_keys == ("vaswani2017",) and a.date == "2017-06-12" and a.tags == ("transformers", "attention")
    assert "Ashish Vaswani; Google Brain" in a.text and "Attention mechanisms, and nothing else." in a.text
    k = items["csl:refs/kahneman2011"]
    assert k.link == "zotero://select/items/@kahneman2011" and k.cite_keys == ("kahneman2011",)
    assert k.date == "2011" and "Some Editor (editor)" in k.text
    g = items["zotero:GRPK2345"]
    assert g.link == "zotero://select/groups/4711/items/GRPK2345"
    assert g.title == "Untitled webpage (2020)" and g.date == "2020-05"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'[{"id": "a",', "is not JSON at line 1 column 13"),
        (b'{"id": "a"}', "the top level is not a list of items"),
        (b"\xff\xfe[]", "is not UTF-8"),
    ],
)
def test_a_file_that_is_not_an_export(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "library.json"
    path.write_bytes(content)
    with pytest.raises(SourceError, match=message):
        _read(path)


def test_a_missing_export(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=f"no CSL-JSON export at {tmp_path}/x.json"):
        _read(tmp_path / "x.json")
