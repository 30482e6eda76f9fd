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


COMMENT_RE = re.compile(r"%%.*?%%|<!--.*?-->", re.DOTALL)


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
        out[i:j] = COMMENT_RE.sub(lambda m: "\n" * m.group(0).count("\n"), segment).split("\n")
        i = j
    return out
