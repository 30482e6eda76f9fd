"""The one-line summary: a sentence taken verbatim from the note, chosen deterministically.

Sentences come from the note's own prose: headings, fenced code, tables, block
quotes and callouts (someone else's words), HTML and comments, embeds and link
definitions are left out, a list item's marker is dropped, and a sentence that
wraps over several lines is joined with single spaces. A sentence needs three
words outside its links: a list of links says nothing about the note.

The chosen one shares the most of now.md's terms for its length (overlap² / its
terms, compared exactly), ties going to the earlier sentence; with no now.md
terms it is the first sentence. A sentence that ends in ":" (a lead-in) is taken
only when nothing else is there, and one over MAX_CHARS only when nothing else
fits, cut at a word with "…".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fractions import Fraction

from curator.index.normalise import STOPWORDS
from curator.vault.markdown import code_flags, heading

MAX_CHARS = 300
MIN_WORDS = 3
_LIST_MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?")
_RULE = re.compile(r"^\s*(?:[-*_]\s*){3,}$")
_LINK_DEF = re.compile(r"^\s*\[[^\]]+\]:\s")
# A sentence ends at . ! ? (then space and a capital, digit, quote or markup) or at a CJK stop.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[*_`])|(?<=[。！？])")
_WORD = re.compile(r"\w+")
_LINKS = re.compile(r"!?\[\[[^\]]*\]\]|!?\[[^\]]*\]\([^)]*\)")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


def _prose_lines(text: str) -> Iterable[str | None]:
    """The passage's lines that are prose, with list markers dropped; None between paragraphs."""
    lines = text.split("\n")
    code = code_flags(lines, text)
    in_comment = False
    for line, is_code in zip(lines, code, strict=True):
        if in_comment:
            in_comment = "-->" not in line
            yield None
            continue
        if "<!--" in line or "-->" in line:
            # A comment (or a managed-region marker) never reaches the digest.
            in_comment = "<!--" in line and "-->" not in line.split("<!--")[-1]
            yield None
            continue
        stripped = line.strip()
        if (
            is_code
            or stripped.startswith(">")
            or not stripped
            or heading(stripped) is not None
            or stripped.startswith(("|", "<", "[!", "![["))
            or _RULE.match(stripped)
            or _LINK_DEF.match(stripped)
        ):
            yield None
            continue
        marker = _LIST_MARKER.match(stripped)
        if marker:
            yield None  # a list item starts a paragraph of its own
            stripped = stripped[marker.end() :].strip()
        yield stripped


def sentences(texts: Iterable[str]) -> list[str]:
    """Every sentence of the passages' prose, in order, whitespace collapsed."""
    out: list[str] = []
    for text in texts:
        paragraph: list[str] = []
        for line in [*_prose_lines(text), None]:
            if line is not None:
                paragraph.append(line)
                continue
            if paragraph:
                joined = " ".join(" ".join(paragraph).split())
                out.extend(s.strip() for s in _SENTENCE_END.split(joined) if s.strip())
                paragraph = []
    return out


def _is_sentence(s: str) -> bool:
    """Prose of its own: a list of links or a lone label says nothing about the note."""
    if "![[" in s:
        return False  # an embed would pull the whole target into the digest
    words = _LINKS.sub(" ", s)
    return len(_WORD.findall(words)) >= MIN_WORDS or len(_CJK.findall(words)) >= 8


def _cut(s: str) -> str:
    head = s[: MAX_CHARS - 1]
    space = head.rfind(" ")
    return (head[:space] if space > MAX_CHARS // 2 else head).rstrip() + "…"


def terms(text: str) -> set[str]:
    """The words a sentence and now.md are compared by: casefolded, stopwords out."""
    return {w for w in _WORD.findall(text.casefold()) if w not in STOPWORDS}


def choose(texts: Iterable[str], anchor_terms: Iterable[str]) -> str | None:
    """The summary sentence of a note whose passages' texts are ``texts``; None when it has no prose."""
    wanted = set(anchor_terms)
    found = [s for s in sentences(texts) if _is_sentence(s)]
    if not found:
        return None
    # A sentence that fits and does not merely introduce what follows (ends in ":"), if any.
    pool = (
        [s for s in found if len(s) <= MAX_CHARS and not s.endswith(":")]
        or [s for s in found if len(s) <= MAX_CHARS]
        or found
    )
    best, best_value = pool[0], Fraction(-1)
    if wanted:
        for s in pool:
            mine = terms(s)
            overlap = len(mine & wanted)
            value = Fraction(overlap * overlap, len(mine)) if mine else Fraction(0)
            if value > best_value:
                best, best_value = s, value
    return best if len(best) <= MAX_CHARS else _cut(best)
