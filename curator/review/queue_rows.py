"""What a row of the queue shows: its cells, its title with the revision mark, and each entry's
place in its revision chain. No Textual here (the table draws these)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from rich.text import Text

from curator import clock
from curator.proposals import revision
from curator.proposals.events import PENDING
from curator.review.entries import CHECKING, Entry

COLUMNS = (
    ("title", "Title"),
    ("author", "Author"),
    ("age", "Age"),
    ("verdict", "Verdict"),
    ("drift", "Drift"),
    ("files", "Files"),
)
SORTS = ("age", "title", "author", "verdict", "drift", "files")
# Fixed widths; the title takes what is left.
WIDTHS = {"author": 22, "age": 4, "verdict": 10, "drift": 9, "files": 5}
_VERDICT_STYLE = {"valid": "green", "rejected": "red", CHECKING: "grey50"}
_DRIFT_STYLE = {"clean": "green", "drifted": "yellow", "conflicts": "bold red", "new": "cyan"}
_STATUS_STYLE = {"applied": "green", "rejected": "red", "superseded": "grey62"}
# Sorted before every time: a row whose time cannot be read.
_NEVER = dt.datetime.min.replace(tzinfo=dt.UTC)


def columns(inner: int) -> list[tuple[str, str, int]]:
    """Each column's key, label and width in a table ``inner`` cells wide."""
    author = WIDTHS["author"] if inner >= 90 else 14
    rest = sum(w for k, w in WIDTHS.items() if k != "author") + author
    title = max(16, inner - rest - 2 * len(COLUMNS) - 1)
    return [
        (key, label, title if key == "title" else author if key == "author" else WIDTHS[key]) for key, label in COLUMNS
    ]


def sort_value(entry: Entry, column: str) -> tuple[object, ...]:
    if column == "age":
        return (clock.parse_or_none(entry.created) or _NEVER, entry.id)
    if column == "files":
        return (entry.files, entry.id)
    return (str(getattr(entry, column)).casefold(), entry.id)


def link_chains(entries: Iterable[Entry]) -> None:
    """Each entry's place in its revision chain (v1 → v2), from what every manifest supersedes."""
    entries = list(entries)
    revised = {e.id: e.supersedes for e in entries}
    if not any(revised.values()):
        for e in entries:
            e.version, e.chain = 1, []
        return
    links = revision.chains(revised)
    newer = {link.supersedes: link.id for link in links.values() if link.supersedes}
    for e in entries:
        link = links.get(e.id)
        e.version = link.version if link else 1
        chain = revision.chain_of(e.id, links, newer)
        e.chain = chain if len(chain) > 1 else []


def title(e: Entry) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    if e.chain:
        text.append(f"v{e.version} ", style="bold magenta")
    if e.requested is not None and e.status == PENDING:
        text.append("↩ ", style="bold yellow")
    text.append(e.title or e.id)
    return text


def cells(e: Entry, now: dt.datetime) -> list[Text]:
    verdict = Text(e.verdict, style=_VERDICT_STYLE.get(e.verdict, ""))
    if e.status != PENDING:
        verdict = Text(e.status, style=_STATUS_STYLE.get(e.status, ""))
    if e.gone:
        verdict = Text("gone", style="grey50")
    return [
        title(e),
        Text(e.author, no_wrap=True, overflow="ellipsis"),
        Text(clock.age(e.created, now), justify="right"),
        verdict,
        Text(e.drift, style=_DRIFT_STYLE.get(e.drift, "")),
        Text(str(e.files) if e.files else "", justify="right"),
    ]
