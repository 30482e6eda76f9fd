"""A sample Zotero library: several item types, creators, tags, collections, child notes,
an attachment, a standalone note, and items in the trash."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.sources.zotero_library import ZoteroLibrary

ATTENTION_ABSTRACT = (
    "The dominant sequence transduction models are based on complex recurrent or convolutional neural networks. "
    "We propose a new simple network architecture, the Transformer, based solely on attention mechanisms."
)


@dataclass
class Sample:
    library: ZoteroLibrary
    keys: dict[str, str]

    @property
    def path(self) -> Path:
        return self.library.path


def build_sample(path: Path, zotero: int = 7) -> Sample:
    lib = ZoteroLibrary(path, zotero=zotero)
    ml = lib.add_collection("Machine learning")
    attention = lib.add_collection("Attention", ml)
    psych = lib.add_collection("Psychology")
    old = lib.add_collection("Old reading", trashed=zotero >= 7)
    keys: dict[str, str] = {}
    cite = {"citationKey": "vaswani2017"} if zotero >= 7 else {"extra": "Citation Key: vaswani2017\nPMID: 123"}
    keys["attention"] = lib.add_item(
        "journalArticle",
        {
            "title": "Attention Is All You Need",
            "abstractNote": ATTENTION_ABSTRACT,
            "date": "2017-06-12 June 12, 2017",
            "publicationTitle": "Advances in Neural Information Processing Systems",
            "DOI": "10.48550/arXiv.1706.03762",
            "url": "https://arxiv.org/abs/1706.03762",
            "volume": 30,
            **cite,
        },
        creators=[("Ashish", "Vaswani", "author"), ("Noam", "Shazeer", "author"), ("Niki", "Parmar", "author")],
        tags=["transformers", "attention"],
        collections=[attention, old],
        notes=["<div data-schema-version='8'><h1>Reading notes</h1><p>Multi-head <b>attention</b> runs "
               "several attention functions in parallel.</p><ul><li>positional encodings</li></ul></div>"],
    )  # fmt: skip
    lib.add_note(keys["attention"], "<p>A thought I threw away about cuttlefish.</p>", trashed=True)
    lib.add_attachment(keys["attention"], "Full Text PDF")
    keys["thinking"] = lib.add_item(
        "book",
        {"title": "Thinking, Fast and Slow", "date": "2011-00-00 2011", "publisher": "Farrar, Straus and Giroux"},
        creators=[("Daniel", "Kahneman", "author")],
        tags=["psychology"],
        collections=[psych],
        notes=["<p>System 1 is fast <b>and <i>intuitive</b> while</i> System 2 <span>deliberates</p></div></div>"
               "<p>heuristics &amp; biases &bogus; <b>end of the note"],
    )  # fmt: skip
    keys["chapter"] = lib.add_item(
        "bookSection",
        {
            "title": "Prospect theory revisited",
            "bookTitle": "Handbook of Decision Making",
            "date": "1999-03-00 March 1999",
        },
        creators=[("Amos", "Tversky", "author"), ("Ed", "Itor", "editor")],
    )
    keys["paper"] = lib.add_item(
        "conferencePaper",
        {"title": "Dense passage retrieval", "proceedingsTitle": "Proceedings of EMNLP", "date": "2020-11-00 2020"},
        creators=[("Vladimir", "Karpukhin", "author")],
        tags=["retrieval"],
    )
    keys["case"] = lib.add_item(
        "case",
        {"caseName": "Feist Publications v. Rural Telephone", "dateDecided": "1991-03-27 March 27, 1991"},
        creators=[("Supreme Court of the United States", "author")],
        tags=["copyright"],
    )
    keys["untitled"] = lib.add_item(
        "webpage",
        {"abstractNote": "Field notes on quokka sightings near the ferry terminal.", "url": "https://example.org/q"},
        creators=[("Rottnest", "Ranger", "author")],
    )
    keys["trashed"] = lib.add_item(
        "journalArticle",
        {"title": "Retracted claims about cold fusion", "abstractNote": "Palladium electrodes and heavy water."},
        creators=[("Martin", "Fleischmann", "author")],
        trashed=True,
    )
    lib.add_note(None, "<p>Standalone musings about zeppelins.</p>")
    return Sample(lib, keys)


@pytest.fixture
def sample(tmp_path: Path) -> Iterator[Sample]:
    (tmp_path / "Zotero").mkdir()
    s = build_sample(tmp_path / "Zotero" / "zotero.sqlite")
    yield s
    s.library.close()
