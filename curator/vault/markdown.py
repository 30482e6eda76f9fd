"""Markdown structure shared by links and the chunker: fenced code and headings."""

from __future__ import annotations

import re
from collections.abc import Iterator

FENCE_RE = re.compile(r"^[ ]{0,3}(`{3,}|~{3,})")
HEADING_RE = re.compile(r"^[ ]{0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
INLINE_CODE_RE = re.compile(r"(`+)(?:(?!\1).)+?\1")


def fence_states(lines: list[str]) -> Iterator[tuple[str, bool]]:
    """Each line with whether it is inside (or is a fence of) a fenced code block."""
    fence: str | None = None
    for line in lines:
        m = FENCE_RE.match(line)
        if fence is None:
            if m:
                fence = m.group(1)
                yield line, True
            else:
                yield line, False
        else:
            if (
                m
                and m.group(1)[0] == fence[0]
                and len(m.group(1)) >= len(fence)
                and (not line.strip().lstrip(fence[0]))
            ):
                fence = None
            yield line, True


def heading(line: str) -> tuple[int, str] | None:
    m = HEADING_RE.match(line)
    if not m:
        return None
    return len(m.group(1)), m.group(2).strip()
