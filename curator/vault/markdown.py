"""Markdown structure shared by links and the chunker: fenced code and headings.

Both are found with multi-line regular expressions over the whole text and then
mapped to line numbers: a per-line Python loop over a large vault costs more than
everything else the indexer does.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

FENCE_RE = re.compile(r"^[ ]{0,3}(`{3,}|~{3,})")
# These start with a literal newline (matched against "\n" + text) so the regex engine
# jumps from line start to line start instead of trying every character.
FENCE_LINE_RE = re.compile(r"\n[ ]{0,3}(`{3,}|~{3,})([^\n]*)")
HEADING_RE = re.compile(r"^[ ]{0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
HEADING_LINE_RE = re.compile(r"\n[ ]{0,3}#{1,6}[ \t]")
INLINE_CODE_RE = re.compile(r"(`+)(?:(?!\1).)+?\1")


def _line_numbers(text: str, offsets: list[int]) -> list[int]:
    """0-based line indices of ascending character offsets."""
    out: list[int] = []
    line, prev = 0, 0
    for off in offsets:
        line += text.count("\n", prev, off)
        prev = off
        out.append(line)
    return out


def code_flags(lines: list[str], text: str | None = None) -> list[bool]:
    """For each line, whether it is inside (or is a fence of) a fenced code block.

    ``text`` is ``"\\n".join(lines)`` when the caller has it already.
    """
    flags = [False] * len(lines)
    if text is None:
        text = "\n".join(lines)
    if "```" not in text and "~~~" not in text:
        return flags
    text = "\n" + text
    matches = list(FENCE_LINE_RE.finditer(text))
    fence: str | None = None
    start = 0
    for m, line in zip(matches, _line_numbers(text, [m.start() for m in matches]), strict=True):
        marker, rest = m.group(1), m.group(2)
        if fence is None:
            fence, start = marker, line
        elif marker[0] == fence[0] and len(marker) >= len(fence) and not rest.strip().strip(fence[0]):
            flags[start : line + 1] = [True] * (line + 1 - start)
            fence = None
    if fence is not None:
        flags[start:] = [True] * (len(lines) - start)  # an unclosed fence runs to the end
    return flags


def heading_lines(text: str) -> list[int]:
    """0-based indices of lines that look like ATX headings (code is the caller's to exclude)."""
    if "#" not in text:
        return []
    text = "\n" + text
    offsets = [m.start() for m in HEADING_LINE_RE.finditer(text)]
    return _line_numbers(text, offsets)


def fence_states(lines: list[str]) -> Iterator[tuple[str, bool]]:
    """Each line with whether it is inside (or is a fence of) a fenced code block."""
    return zip(lines, code_flags(lines), strict=True)


def heading(line: str) -> tuple[int, str] | None:
    if "#" not in line[:4]:
        return None
    m = HEADING_RE.match(line)
    if not m:
        return None
    return len(m.group(1)), m.group(2).strip()


COMMENTS = (("%%", "%%"), ("<!--", "-->"))
"""Obsidian's ``%% comment %%`` and HTML's ``<!-- comment -->``: (opener, closer)."""


def _without_comments(text: str) -> str:
    """``text`` with each comment replaced by the newlines it held, scanning once.

    The leftmost opener starts a comment that ends at its first closer; an opener with no
    closer after it is text. A regular expression (``<!--.*?-->``) would look for the closer
    again from every unclosed opener, a square of the note's length (an 80 KB note of
    ``<!--`` took seconds); here a kind of comment whose closer is nowhere further on is
    not looked for again."""
    out: list[str] = []
    i = 0
    closable = [True, True]
    starts = [-1, -1]
    while True:
        for k, (opener, _c) in enumerate(COMMENTS):
            if closable[k] and starts[k] < i:
                starts[k] = text.find(opener, i)  # each kind's next opener, looked for only once it is passed
                closable[k] = starts[k] >= 0
        found = [(s, k) for k, s in enumerate(starts) if closable[k]]
        if not found:
            break
        start, k = min(found)
        opener, closer = COMMENTS[k]
        end = text.find(closer, start + len(opener))
        if end < 0:
            closable[k] = False  # no closer anywhere after: no later opener of this kind closes
            continue
        end += len(closer)
        out.append(text[i:start])
        out.append("\n" * text.count("\n", start, end))
        i = end
    out.append(text[i:])
    return "".join(out)


def has_comments(text: str) -> bool:
    return "%%" in text or "<!--" in text


def strip_comments(lines: list[str], code: list[bool]) -> list[str]:
    """``lines`` without Obsidian ``%% comments %%`` and ``<!-- HTML comments -->``.

    A comment may span lines; its newlines are kept, so every line keeps its number.
    Fenced code is left alone (``%%`` and ``<!--`` are code there), and so is an opener
    that never closes: it is more likely a stray ``%%`` than a comment hiding the rest.
    """
    out = list(lines)
    n = len(lines)
    i = 0
    while i < n:
        if code[i] or not has_comments(lines[i]):
            i += 1
            continue
        j = i
        while j < n and not code[j]:
            j += 1
        segment = "\n".join(lines[i:j])
        out[i:j] = _without_comments(segment).split("\n")
        i = j
    return out
