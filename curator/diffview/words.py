"""Word-level highlights: which parts of a changed line differ from the line it replaces."""

from __future__ import annotations

import difflib
import re

_TOKEN_RE = re.compile(r"\w+|\s+|[^\w\s]")
# Past this, a line is highlighted whole: difflib is quadratic in the worst case.
MAX_CHARS = 2000
# Below this similarity the lines are unrelated and word highlights would be noise.
MIN_RATIO = 0.3

Spans = list[tuple[int, int]]


def changed_spans(old: str, new: str) -> tuple[Spans, Spans] | None:
    """Character spans that differ in ``old`` and in ``new``; None when the lines are too unlike."""
    if len(old) > MAX_CHARS or len(new) > MAX_CHARS:
        return None
    a, b = _TOKEN_RE.findall(old), _TOKEN_RE.findall(new)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.ratio() < MIN_RATIO:
        return None
    a_off = _offsets(a)
    b_off = _offsets(b)
    old_spans: Spans = []
    new_spans: Spans = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        if i2 > i1:
            old_spans.append((a_off[i1], a_off[i2]))
        if j2 > j1:
            new_spans.append((b_off[j1], b_off[j2]))
    return old_spans, new_spans


def _offsets(tokens: list[str]) -> list[int]:
    out = [0]
    for t in tokens:
        out.append(out[-1] + len(t))
    return out
