"""Applying hunks to text as ``git apply`` does without fuzz: Curator's one patch engine.

A hunk applies where its pre-image (context and removed lines) matches exactly.
It is looked for first at the line the hunk names (in the file as earlier hunks
left it), then at the nearest lines around it, one below, one above, two below,
and so on: the order ``git apply`` searches in, so both pick the same place when
a note has drifted (lines added or removed above a hunk). Git's anchoring rules
are kept: a hunk that starts at line 0 or 1 must match at the start of the file,
one without trailing context at its end, and lines an earlier hunk wrote are not
matched again. There is no fuzz: context is never dropped.

libgit2, which writes the files, does not search: it applies each hunk at the
line its header names. ``place`` returns where each hunk landed, and
``curator.proposals.diff.reanchor`` rewrites the headers to those lines, so
libgit2 is handed a diff that applies exactly where git would apply the original.
The differential tests hold all three to the same bytes.

Written by hand because neither unidiff nor libgit2 searches for offsets; the
search is a list comparison per candidate line, so a 1 MiB note costs milliseconds.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from curator.proposals.diff import Hunk

_LINE_RE = re.compile(r"[^\n]*\n|[^\n]+\Z")


class HunkConflict(Exception):
    def __init__(self, hunk: int, line: int, message: str) -> None:
        super().__init__(message)
        self.hunk = hunk
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Placed:
    """Where a hunk applied."""

    at: int
    """0-based line of the file, as the hunks before it left it, where its pre-image matched."""
    offset: int
    """Lines away from where the hunk said (0 when the file has not drifted there)."""


def split_lines(text: str) -> list[str]:
    """Lines with their endings; only '\\n' ends a line (a lone '\\r' is content)."""
    return _LINE_RE.findall(text)


def _candidates(line: int, size: int) -> Iterator[int]:
    """Start lines in git's order: line, line+1, line-1, line+2, line-2, ... within [0, size].

    Lazily: a hunk almost always matches at the first, and listing every line of the
    file for each hunk was a tenth of the validator's time on a 3,000-note proposal."""
    yield line
    for d in range(1, max(line, size - line) + 1):
        if line + d <= size:
            yield line + d
        if line - d >= 0:
            yield line - d


def _matches(image: list[str], patched: list[bool], pre: list[str], at: int) -> bool | None:
    """True: exact match at ``at``. None: only git's no-newline prefix quirk matches there."""
    n = len(pre)
    if at + n > len(image) or (n > 1 and image[at] != pre[0]) or any(patched[at : at + n]):
        return False
    if image[at : at + n] == pre:
        return True
    # git compares bytes up to the pre-image's length: a last pre-image line without its
    # newline also "matches" the same line with one, mid-file. Curator refuses that place.
    if n and not pre[-1].endswith("\n") and image[at : at + n - 1] == pre[:-1] and image[at + n - 1] == pre[-1] + "\n":
        return None
    return False


def place(text: str, hunks: Sequence[Hunk], *, delete: bool = False) -> tuple[str, list[Placed]]:
    """Apply ``hunks`` to ``text`` as ``git apply`` would; the result and where each hunk landed."""
    image = split_lines(text)
    patched = [False] * len(image)
    placed: list[Placed] = []
    last_end = 0
    for n, h in enumerate(hunks, start=1):
        pre, post = h.preimage, h.postimage
        at_start = h.old_start <= 1
        at_end = h.trailing_context == 0
        want = h.new_start - 1 if h.new_start else 0
        if at_start:
            line = 0
        elif at_end:
            line = len(image) - len(pre)
        else:
            line = want
        line = min(max(line, 0), len(image))
        found: int | None = None
        for at in _candidates(line, len(image)):
            if at_start and at != 0:
                continue
            if at_end and at + len(pre) != len(image):
                continue
            m = _matches(image, patched, pre, at)
            if m is None:
                raise HunkConflict(
                    n, at + len(pre), f"hunk {n} would match at line {at + 1} only by ignoring a missing newline"
                )
            if m:
                found = at
                break
        if found is None:
            raise HunkConflict(n, want + 1, _why(n, h, image, want))
        if found < last_end:
            # git may apply a later hunk above an earlier one; Curator (and libgit2's
            # in-order application) does not.
            raise HunkConflict(n, found + 1, f"hunk {n} matches only above the hunk before it")
        image[found : found + len(pre)] = post
        patched[found : found + len(pre)] = [True] * len(post)
        last_end = found + len(post)
        placed.append(Placed(found, found - want))
    result = "".join(image)
    if delete and result:
        raise HunkConflict(len(hunks), len(image), "the deletion does not remove the whole file (it changed since)")
    return result, placed


def old_lines(hunks: Sequence[Hunk], placed: Sequence[Placed]) -> list[int]:
    """The 1-based line of the original file where each hunk applies (its first old line; for a
    hunk that only adds, the line its additions go before): where it *applies*, whatever its
    header says. Every rule that judges a hunk by its lines numbers them from here."""
    out = []
    shift = 0
    for h, p in zip(hunks, placed, strict=True):
        out.append(p.at - shift + 1)
        shift += len(h.postimage) - len(h.preimage)
    return out


def same_places(
    old_text: str, old_placed: Sequence[Placed], new_text: str, new_placed: Sequence[Placed], hunks: Sequence[Hunk]
) -> bool:
    """Whether the hunks applied to ``old_text`` (HEAD's version) at the lines that carry over to
    where they applied in ``new_text`` (the work tree, the user's edits on top): the same change at
    the same place. A hunk's lines can match in two places of a note (its frontmatter and a
    fenced copy of it), and the user's edits can move the nearest match from one to the other."""
    old, new = split_lines(old_text), split_lines(new_text)
    carried: dict[int, int] = {}
    for a, b, size in difflib.SequenceMatcher(None, old, new, autojunk=False).get_matching_blocks():
        carried.update((a + k, b + k) for k in range(size))
    for h, at_old, at_new in zip(hunks, old_lines(hunks, old_placed), old_lines(hunks, new_placed), strict=True):
        o, n = at_old - 1, at_new - 1
        span = range(len(h.preimage)) if h.preimage else [k for k in (-1, 0) if 0 <= o + k < len(old)]
        if any(carried.get(o + k) != n + k for k in span):
            return False
    return True


def apply(text: str, hunks: Sequence[Hunk], *, delete: bool = False) -> str:
    return place(text, hunks, delete=delete)[0]


def _why(n: int, h: Hunk, image: list[str], want: int) -> str:
    pre = h.preimage
    if h.trailing_context == 0 and h.old_start > 1:
        return f"hunk {n} was made at the end of the file, and the file no longer ends with its lines"
    if want + len(pre) > len(image) and not any(image[i : i + len(pre)] == pre for i in range(len(image))):
        return f"hunk {n} runs past the end of the file ({len(image)} lines), and its lines are nowhere else"
    here = image[want : want + len(pre)]
    for i, (a, b) in enumerate(zip(here, pre, strict=False)):
        if a != b:
            return (
                f"hunk {n} (its lines from line {want + 1}) does not match at line {want + i + 1} or anywhere nearby: "
                f"expected {b.rstrip()!r}, found {a.rstrip()!r}"
            )
    return f"hunk {n}'s lines are not in the file any more"
