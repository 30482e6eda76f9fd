"""Applying hunks to text exactly where they say, as strictly as libgit2.

No offsets and no fuzz: a hunk's pre-image must sit at its stated line. Git's
own anchoring rules are kept too (a hunk without trailing context must end at
the end of the file; one starting at line 0 or 1 at its beginning), so when
this says a patch applies, ``git apply`` picks the same place and writes the
same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from curator.proposals.diff import Hunk

_LINE_RE = re.compile(r"[^\n]*\n|[^\n]+\Z")


class HunkConflict(Exception):
    def __init__(self, hunk: int, line: int, message: str) -> None:
        super().__init__(message)
        self.hunk = hunk
        self.line = line
        self.message = message


def split_lines(text: str) -> list[str]:
    """Lines with their endings; only '\\n' ends a line (a lone '\\r' is content)."""
    return _LINE_RE.findall(text)


def apply(text: str, hunks: Sequence[Hunk], *, delete: bool = False) -> str:
    lines = split_lines(text)
    out: list[str] = []
    pos = 0
    for n, h in enumerate(hunks, start=1):
        pre = h.preimage
        start = h.old_start if h.old_len == 0 else h.old_start - 1
        if start < pos:
            raise HunkConflict(n, h.old_start, f"hunk {n} overlaps the hunk before it")
        if start + len(pre) > len(lines):
            raise HunkConflict(n, h.old_start, f"hunk {n} runs past the end of the file ({len(lines)} lines)")
        here = lines[start : start + len(pre)]
        if here != pre:
            bad = next(i for i, (a, b) in enumerate(zip(here, pre, strict=True)) if a != b)
            raise HunkConflict(
                n,
                start + bad + 1,
                f"hunk {n} does not match at line {start + bad + 1}: "
                f"expected {pre[bad].rstrip()!r}, found {here[bad].rstrip()!r}",
            )
        if h.trailing_context == 0 and start + len(pre) != len(lines):
            raise HunkConflict(
                n,
                start + len(pre) + 1,
                f"hunk {n} was made at the end of the file, but the file now continues past line {start + len(pre)}",
            )
        out.extend(lines[pos:start])
        out.extend(h.postimage)
        pos = start + len(pre)
    out.extend(lines[pos:])
    result = "".join(out)
    if delete and result:
        raise HunkConflict(len(hunks), pos + 1, "the deletion does not remove the whole file (it changed since)")
    return result
