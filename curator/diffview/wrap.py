"""Where a long line of a diff wraps: after the last space that fits, else at the width.

One function decides it for both the layout (how many screen lines a row takes, worked out
for every row when a diff is shown) and the drawing (which part of the row each line shows),
so the two never disagree. Nothing is dropped: the pieces put back together are the line
(a space a line ends on stays on it), so a changed space is still shown, and word highlights,
which are character spans of the whole line, land on the piece that holds them.

Hand-written rather than ``rich.Text.wrap``: that folds and trims whitespace as prose wants,
and it needs a styled ``Text`` of the row, which the layout must not make for every row of a
5,000-line diff (``benchmarks/review_ui.py``); this counts on the row's plain string.
"""

from __future__ import annotations

from rich.cells import get_character_cell_size


def _cells(text: str) -> list[int]:
    return [get_character_cell_size(c) for c in text]


def breaks(text: str, width: int) -> list[int]:
    """The offsets in ``text`` (one line, already made visible) where each line after the first
    starts, at ``width`` cells a line. Empty when it fits; each line holds at least one character."""
    width = max(1, width)
    if len(text) <= width and (text.isascii() or sum(_cells(text)) <= width):
        return []
    out: list[int] = []
    start = 0
    if text.isascii():
        while len(text) - start > width:
            space = text.rfind(" ", start + 1, start + width)
            start = space + 1 if space > start else start + width
            out.append(start)
        return out
    cells = _cells(text)
    total = sum(cells)
    used = 0  # cells before ``start``
    while total - used > width:
        end, room = start, width
        while end < len(text) and cells[end] <= room:
            room -= cells[end]
            end += 1
        end = max(end, start + 1)  # a character wider than the line still takes one
        space = text.rfind(" ", start + 1, end)
        cut = space + 1 if space > start and end < len(text) else end
        used += sum(cells[start:cut])
        start = cut
        if start < len(text):  # a last character wider than the line ends it
            out.append(start)
    return out


def count(text: str, width: int) -> int:
    """How many lines ``text`` takes at ``width`` cells a line."""
    return 1 + len(breaks(text, width))
