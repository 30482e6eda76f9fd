"""What a search answers: its hits, each with its citations, its note's other passages, its
copies in other notes and the translations it stands for, and how they read as JSON
(``curator search --json``, ``kp_search``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from curator.index.db import ATTACHMENT
from curator.index.pages import cite_of, page_of

ALSO = 3
"""Other passages of a hit's note listed with it, at most (best first)."""


@dataclass
class Also:
    """Another passage of a hit's note that matched: cited beside the hit, not a slot of its own."""

    breadcrumb: str
    start_line: int
    end_line: int


@dataclass
class Copy:
    """Another note whose passage is word for word the hit's (the same page kept in each version
    of a docs tree): listed under the hit, not in a slot of its own."""

    path: str
    start_line: int
    end_line: int

    @property
    def cite(self) -> str:
        return f"{self.path}:{self.start_line}-{self.end_line}"


@dataclass
class Translation(Copy):
    """A note in another language that the legs found, whose page the hit is in the question's
    language (``search.translations``): listed under the hit, its place given to it."""

    language: str | None = None


@dataclass
class Hit:
    passage_id: int
    kp_id: str | None
    path: str
    title: str
    breadcrumb: str
    start_line: int
    end_line: int
    score: float
    snippet: str
    source: str = "vault"
    legs: dict[str, dict[str, float]] = field(default_factory=dict)
    link: str | None = None
    """Where a person opens a source item (``zotero://select/...``); None for notes."""
    also: list[Also] = field(default_factory=list)
    """Other passages of the same note among the results, best first: one slot per note."""
    language: str | None = None
    """The note's language, when it says or tells it."""
    boost: float = 1.0
    """Its weight in fusion: above 1 when it is written in the question's language."""
    pages: list[int] | None = None
    """An attachment's page starts (``index.attached``): which page its lines are on."""
    copies: list[Copy] = field(default_factory=list)
    """Other notes whose best passage here is word for word this one, best first."""
    translations: list[Translation] = field(default_factory=list)
    """Notes in other languages the legs found, whose page this one is in the question's
    language, best first."""

    @property
    def cite(self) -> str:
        """A note's lines (``path:start-end``), an attachment's page (``paper.pdf#page=3``), or a
        source item's own reference (``zotero:KEY``, ``zotero:KEY#page=3`` in its PDF)."""
        return self.cite_lines(self.start_line, self.end_line)

    def cite_lines(self, start: int, end: int) -> str:
        return cite_of(self.source, self.path, self.pages, start, end)

    def to_json(self, explain: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kp_id": self.kp_id,
            "path": self.path,
            "title": self.title,
            "breadcrumb": self.breadcrumb,
            "start_line": self.start_line,
            "end_line": self.end_line,
            "cite": self.cite,
            "score": round(self.score, 6),
            "snippet": self.snippet,
            "also": [
                {
                    "cite": self.cite_lines(a.start_line, a.end_line),
                    "breadcrumb": a.breadcrumb,
                    "start_line": a.start_line,
                    "end_line": a.end_line,
                }
                for a in self.also
            ],
        }
        if self.copies:
            data["copies"] = [
                {"path": c.path, "cite": c.cite, "start_line": c.start_line, "end_line": c.end_line}
                for c in self.copies
            ]
        if self.translations:
            data["translations"] = [
                {
                    "path": t.path,
                    "cite": t.cite,
                    "language": t.language,
                    "start_line": t.start_line,
                    "end_line": t.end_line,
                }
                for t in self.translations
            ]
        if self.source != "vault":
            data["source"] = self.source
            data["link"] = self.link
        if self.source == ATTACHMENT or self.pages:
            data["page"] = page_of(self.pages, self.start_line)
        if explain:
            data["explain"] = {**self.legs}
            if self.boost != 1.0 or self.language:
                data["explain"]["language"] = {"note": self.language, "boost": self.boost}
        return data


@dataclass
class Slot:
    """One note's place in the results (``Searcher._by_note``): the passage shown for it, its
    fused score, its other passages in the list, its copies' passages and those of its
    translations it stands for, each best first."""

    pid: int
    score: float
    others: list[int] = field(default_factory=list)
    copies: list[int] = field(default_factory=list)
    translations: list[int] = field(default_factory=list)


@dataclass
class Result:
    query: str
    mode: str
    epoch: str
    hits: list[Hit]
    warnings: list[str] = field(default_factory=list)
    language: str | None = None
    """The question's language, when search told it (``search.asker``)."""
    language_by: str = ""

    def to_json(self, explain: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "query": self.query,
            "mode": self.mode,
            "epoch": self.epoch,
            "hits": [h.to_json(explain) for h in self.hits],
        }
        if explain:
            data["language"] = {"question": self.language, "told_by": self.language_by or None}
        if self.warnings:
            data["warnings"] = self.warnings
        return data
