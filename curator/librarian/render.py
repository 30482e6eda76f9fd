"""The digest note: frontmatter that records how it was made, then entries grouped by tag.

Everything taken from notes (titles, tags, sentences) is made inert first: one
line, no control characters, and in link labels and headings no ``[ ] |`` or
``< >`` that could end a wikilink early or open an HTML comment (a forged
managed-region marker would make the digest's own proposal invalid).

Grouping: each entry goes under the one of its tags that most of the digest's
entries share (ties to the note's own tag order); derived documents group by
their source; notes without tags go under "Untagged" (no heading at all when
that is the only group). Groups appear in the order of their best entry; entries
keep their rank within a group. Notes with the same title and summary (one page
in several versions) make one entry, the others linked on its line by what tells
them apart ("Also: 7.4, 7.5").
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass

from curator import clock
from curator.index.db import ATTACHMENT, VAULT
from curator.librarian.candidates import Window
from curator.librarian.links import Linker
from curator.librarian.scoring import BM25, COSINE, Method, Scored
from curator.unsafe import strip_unsafe

UNTAGGED = "Untagged"
_SPACE = re.compile(r"\s+")
_LABEL = str.maketrans({"[": "(", "]": ")", "|": "-", "<": "‹", ">": "›"})
# A note's kp_id, or a derived document's reference (zotero:KEY, jsonl:NAME/ID) made of
# characters that cannot end a wikilink or start a heading or block reference in it.
_SAFE_REF = re.compile(r"[a-z][a-z0-9-]*:[A-Za-z0-9._/-]+")


@dataclass(frozen=True)
class Entry:
    scored: Scored
    summary: str | None
    alike: tuple[Scored, ...] = ()
    """Lower-ranked notes with the same title and summary (one page in several versions
    or places): listed on this entry's line, not as entries of their own."""


def same(a: Entry, scored: Scored, summary: str | None) -> bool:
    """Whether a note reads as ``a`` in a digest: the same title and the same summary."""
    return (
        a.summary == summary
        and label(a.scored.candidate.doc.title).casefold() == label(scored.candidate.doc.title).casefold()
    )


def one_line(text: str) -> str:
    """Whitespace collapsed, the unsafe characters (``curator.unsafe``) dropped."""
    spaced = "".join(" " if ch.isspace() else ch for ch in text)
    return _SPACE.sub(" ", strip_unsafe(spaced, keep="")).strip()


def label(text: str) -> str:
    """Text safe inside a wikilink's alias or a heading."""
    return one_line(text).translate(_LABEL).lstrip("#").strip() or "(untitled)"


def link(scored: Scored, linker: Linker, name: str | None = None) -> str:
    """A note by its path, as Obsidian opens it (``curator.librarian.links``); an attachment by a
    relative link; a source's item by its reference, which Curator resolves."""
    doc = scored.candidate.doc
    name = label(doc.title) if name is None else label(name)
    if doc.source == VAULT:
        return linker.link(doc.path, name)
    if doc.source == ATTACHMENT:  # a file of the vault: a relative link opens it
        return f"[{name}]({linker.markdown_target(doc.path)})"
    if doc.kp_id and _SAFE_REF.fullmatch(doc.kp_id):
        return f"[[{doc.kp_id}|{name}]]"
    return f"{name} ({label(doc.kp_id or f'{doc.source}:{doc.path}')})"


def identity(scored: Scored) -> str:
    """What Curator knows a linked note by: its kp_id, else its path (a source's item: its reference)."""
    doc = scored.candidate.doc
    return doc.kp_id or (doc.path if doc.source in (VAULT, ATTACHMENT) else f"{doc.source}:{doc.path}")


def group_of(scored: Scored, counts: Counter[str]) -> str:
    doc = scored.candidate.doc
    if doc.source != VAULT:
        return f"Source: {doc.source}"
    if not doc.tags:
        return UNTAGGED
    return max(doc.tags, key=lambda t: (counts[t], -doc.tags.index(t)))


def groups(entries: list[Entry]) -> list[tuple[str, list[Entry]]]:
    counts = Counter(t for e in entries if e.scored.candidate.doc.source == VAULT for t in e.scored.candidate.doc.tags)
    out: dict[str, list[Entry]] = {}
    for e in entries:
        out.setdefault(group_of(e.scored, counts), []).append(e)
    return list(out.items())


def where(path: str, of: str) -> str:
    """What tells ``path`` apart from ``of``: the first folder (or the name) where they differ."""
    mine, theirs = path.split("/"), of.split("/")
    for n, part in enumerate(mine):
        if n >= len(theirs) or part != theirs[n]:
            return part if n < len(mine) - 1 else path
    return path


def _alike(e: Entry, linker: Linker) -> str:
    if not e.alike:
        return ""
    lead = e.scored.candidate.doc
    names = [
        link(s, linker, where(s.candidate.doc.path, lead.path) if s.candidate.doc.source == lead.source else None)
        for s in e.alike
    ]
    return f" Also: {', '.join(names)}."


def _number(value: float) -> str:
    return f"{value:g}"


def _method_sentence(method: Method, anchor: str) -> str:
    decay = f"exp(−age / {_number(method.half_life_days)} days)"
    if method.kind == COSINE:
        scale = method.calibration
        placed = (
            f", on the vault's own scale: exp((cosine − {scale.top:.3f}) / {scale.spread:.3f}), the closest of "
            f"its {scale.notes} notes and their standard deviation"
            if scale is not None
            else ""
        )
        return (
            f"Ranked by closeness to `{anchor}` (cosine of mean passage vectors, {method.embedder}{placed}) × {decay}."
        )
    if method.kind == BM25:
        return f"Ranked by BM25 similarity to the terms of `{anchor}` × {decay}: {method.why}."
    return f"Ranked by recency alone, {decay}: {method.why}."


def _q(value: str | None) -> str:
    return "null" if value is None else json.dumps(value, ensure_ascii=False)


def frontmatter(
    kp_id: str, title: str, window: Window, method: Method, anchor: str, count: int, entries: list[Entry]
) -> str:
    """``entries`` in the order the body lists them (grouped)."""
    since = clock.iso(window.since) if window.since else None
    linked = [identity(s) for e in entries for s in (e.scored, *e.alike)]
    until = clock.iso(window.until)
    return "\n".join(
        [
            "---",
            f"kp_id: {kp_id}",
            f"title: {_q(title)}",
            f"created: {_q(until)}",
            "tags: [digest]",
            "digest:",
            "  window:",
            f"    since: {_q(since)}",
            f"    until: {_q(until)}",
            f"  clock: {_q(until)}",
            "  method:",
            f"    similarity: {method.kind}",
            f"    embedder: {_q(method.embedder)}",
            f"    half_life_days: {_number(method.half_life_days)}",
            f"    k: {method.k}",
            f"    anchor: {_q(anchor)}",
            *_calibration_lines(method),
            f"  candidates: {count}",
            f"  shown: {len(entries)}",
            # The identities of the notes linked below, in their order: the links name paths
            # (what Obsidian opens), these what Curator knows each note by.
            f"  notes: [{', '.join(_q(i) for i in linked)}]",
            "---",
        ]
    )


def _calibration_lines(method: Method) -> list[str]:
    scale = method.calibration
    if scale is None:
        return []
    return [
        "    calibration:",
        f"      notes: {scale.notes}",
        f"      top: {scale.top:.6f}",
        f"      spread: {scale.spread:.6f}",
    ]


def title_of(window: Window) -> str:
    return f"Digest {window.until.date().isoformat()}"


def render(
    kp_id: str, window: Window, method: Method, anchor: str, count: int, entries: list[Entry], linker: Linker
) -> str:
    title = title_of(window)
    since = f"since {clock.iso(window.since)}" if window.since else "in the vault (the first digest)"
    new = f"{count} note{'s' if count != 1 else ''} new {since}"
    shown = f"the {len(entries)} that score highest" if len(entries) < count else "all of them"
    grouped = groups(entries)
    listed = [e for _name, members in grouped for e in members]
    lines = [
        frontmatter(kp_id, title, window, method, anchor, count, listed),
        f"# {title}",
        "",
        f"{new}; {shown} below. {_method_sentence(method, anchor)}",
    ]
    for name, members in grouped:
        # One group of untagged notes (a vault without tags) needs no heading.
        lines += [""] if [n for n, _ in grouped] == [UNTAGGED] else ["", f"## {label(name)}", ""]
        for e in members:
            c = e.scored.candidate
            text = f"- {link(e.scored, linker)} ({c.day})"
            if e.summary:
                text += f" — {one_line(e.summary)}"
            lines.append(text + _alike(e, linker))
    return "\n".join(lines) + "\n"
