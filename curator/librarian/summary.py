"""The one-line summary: a sentence taken from the note, chosen deterministically.

Sentences come from the note's own prose: headings (ATX and setext), fenced and
indented code, tables, block quotes and callouts (someone else's words), HTML and
comments, embeds and link definitions are left out, a list item's marker is
dropped, and a sentence that wraps over several lines is joined with single spaces.
A sentence needs three words outside its links, code spans and bare URLs: a list of
links, a row of code or an address says nothing about the note.

The sentence is shown as a reader sees it: each link as its text (``[[a|b]]`` → b,
``[t](x.md)`` and ``[t][ref]`` → t), footnote marks, inline HTML tags and block ids
dropped, the rest verbatim. A link copied as it is would not resolve from the digest folder (a
relative path, a reference whose definition stays in the note); the entry links the
note itself.

The chosen one shares the most of now.md's terms for its length (overlap² / its
terms, compared exactly, in the text shown), ties going to the earlier sentence;
with no now.md terms it is the first sentence. Only sentences with the fewest
flaws compete, the flaws weighed in this order: over MAX_CHARS (then cut at a word
with "…"), a lead-in (ends in ":"), mostly link text (a pointer elsewhere), a
fragment without a closing stop (a list item, a label).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from fractions import Fraction

from curator.index.language import STOPWORDS
from curator.script_pattern import ScriptPattern
from curator.vault.links import display
from curator.vault.markdown import code_flags, heading

MAX_CHARS = 300
MIN_WORDS = 3
_LIST_MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?")
_RULE = re.compile(r"^\s*(?:[-*_]\s*){3,}$")
_LINK_DEF = re.compile(r"^\s*\[[^\]]+\]:\s")
# A sentence ends at . ! ? (then space and a capital, digit, quote or markup) or at a CJK stop;
# not after an initial ("Mike F. Robbins") or "e.g." and "i.e.".
_SENTENCE_END = re.compile(
    r"(?<=[.!?])(?<![\s(][A-Z]\.)(?<!\se\.g\.)(?<!\si\.e\.)\s+(?=[A-Z0-9\"'(\[*_`])|(?<=[。！？])"
)
_COMPLETE = re.compile(r"[.!?。！？…][\"'”’)\]*_]*$")
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
_WORD = re.compile(r"\w+")
_LINKS = re.compile(r"!?\[\[[^\]]*\]\]|!?\[[^\]]*\]\([^)]*\)|!?\[[^\]]*\]\[[^\]]*\]")
_REF_LINK = re.compile(r"!?\[([^\[\]]*)\]\[[^\[\]]*\]")
_FOOTNOTE = re.compile(r"\[\^[^\[\]]*\]")
_BLOCK_ID = re.compile(r"\s\^[A-Za-z0-9-]+$")
_URL = re.compile(r"<?\bhttps?://[^\s>]+>?")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_SETEXT = re.compile(r"^\s{0,3}(?:=+|-+)\s*$")
_CJK = ScriptPattern(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


def _prose_lines(text: str) -> Iterable[str | None]:
    """The passage's lines that are prose, with list markers dropped; None between paragraphs."""
    lines = text.split("\n")
    code = code_flags(lines, text)
    in_comment = False
    in_list = False
    blank_before = True
    for n, (line, is_code) in enumerate(zip(lines, code, strict=True)):
        after_blank, blank_before = blank_before, not line.strip()
        indented = line.startswith(("    ", "\t"))
        if line.strip() and not indented:
            in_list = bool(_LIST_MARKER.match(line)) or (in_list and not after_blank)
        if after_blank and indented and not in_list:
            is_code = True  # an indented code block
        if not is_code and n + 1 < len(lines) and line.strip() and _SETEXT.match(lines[n + 1]) and not code[n + 1]:
            is_code = True  # a setext heading's text: not prose (its underline is a rule)
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


def _outside_code(s: str, plain: Callable[[str], str]) -> str:
    """``plain`` applied to the text between code spans; the spans themselves kept as they are."""
    if "`" not in s:
        return plain(s)
    out, at = [], 0
    for m in _CODE_SPAN.finditer(s):
        out += [plain(s[at : m.start()]), m.group(0)]
        at = m.end()
    return "".join([*out, plain(s[at:])])


def _as_read(text: str) -> str:
    if "<" in text:
        text = _HTML_TAG.sub(lambda m: " " if m.group(0)[1:3].lower() == "br" else "", text)  # markup, not words
    text = display(_FOOTNOTE.sub("", text)) if "[" in text else text
    return _REF_LINK.sub(lambda m: m.group(1), text) if "][" in text else text


def readable(s: str) -> str:
    """The sentence as a reader sees it: links as their text; footnote marks, inline HTML tags
    and a block id dropped."""
    if "[" not in s and "<" not in s and "^" not in s:
        return s  # nothing to read differently (most sentences)
    return " ".join(_outside_code(_BLOCK_ID.sub("", s), _as_read).split())


def _own_words(s: str) -> str:
    """What the sentence says in its own words: no links, code spans or bare URLs."""
    if "`" in s:
        s = _CODE_SPAN.sub(" ", s)
    if "[" in s:
        s = _LINKS.sub(" ", s)
    return _URL.sub(" ", s) if "://" in s else s


def _is_sentence(s: str) -> bool:
    """Prose of its own: a list of links, a row of code or a lone label says nothing about the note."""
    if "![[" in s:
        return False  # an embed would pull the whole target into the digest
    words = _own_words(s)
    return len(_WORD.findall(words)) >= MIN_WORDS or len(_CJK.findall(words)) >= 8


def _mostly_links(s: str, shown: str) -> bool:
    """More than half of what is shown is link text: a pointer to other notes."""
    return "[" in s and len(" ".join(_LINKS.sub(" ", s).split())) * 2 < len(shown)


def _cut(s: str) -> str:
    head = s[: MAX_CHARS - 1]
    space = head.rfind(" ")
    return (head[:space] if space > MAX_CHARS // 2 else head).rstrip() + "…"


def terms(text: str) -> set[str]:
    """The words a sentence and now.md are compared by: casefolded, stopwords out."""
    return {w for w in _WORD.findall(text.casefold()) if w not in STOPWORDS}


def _inert(shown: str) -> bool:
    """No comment marker or embed made by joining what a tag or a link held apart
    ("<<b>!--" reads "<!--"): a forged managed-region marker would sink the digest."""
    return "<!--" not in shown and "-->" not in shown and "![[" not in shown


def _flaws(s: str, shown: str) -> tuple[bool, bool, bool, bool]:
    return len(shown) > MAX_CHARS, shown.endswith(":"), _mostly_links(s, shown), not _COMPLETE.search(shown)


def choose(texts: Iterable[str], anchor_terms: Iterable[str]) -> str | None:
    """The summary of a note whose passages' texts are ``texts``, as shown; None when it has no prose."""
    wanted = set(anchor_terms)
    found = [(s, shown) for s in sentences(texts) if _is_sentence(s) and _inert(shown := readable(s))]
    if not found:
        return None
    # The sentences with the fewest flaws, in this order: too long, a lead-in (ends in
    # ":"), mostly link text (a pointer elsewhere), a fragment (no closing stop: a
    # list item, a label).
    flaws = [_flaws(s, shown) for s, shown in found]
    least = min(flaws)
    pool = [f for f, flaw in zip(found, flaws, strict=True) if flaw == least]
    best, best_value = pool[0][1], Fraction(-1)
    if wanted:
        for _raw, shown in pool:
            mine = terms(_URL.sub(" ", shown) if "://" in shown else shown)
            overlap = len(mine & wanted)
            value = Fraction(overlap * overlap, len(mine)) if mine else Fraction(0)
            if value > best_value:
                best, best_value = shown, value
    return best if len(best) <= MAX_CHARS else _cut(best)
