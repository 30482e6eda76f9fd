"""Markdown links ``[text](target "title")`` and images ``![alt](target)``, found in linear time.

What is found is exactly what this regular expression finds (a differential test holds the
two together)::

    (!?)\\[((?:[^\\[\\]\\n]|\\[[^\\[\\]\\n]*\\])*)\\]\\(\\s*(?:<([^<>\\n]+)>|([^)\\s]+))(?:\\s+["'(][^)]*)?\\s*\\)

Written by hand because the expression is quadratic: tried at every ``[``, its target
``[^)\\s]+`` runs to the end of a line that never closes, so a line of 8,000 ``[a](`` took
5.8 s and an 80 KB note froze the MCP server. Here each character's next stop (a ``)`` or
a space, a closing bracket, a ``)``) is worked out once for the whole text, and every
attempt at a ``[`` costs its label's length, not the rest of the line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class MdLink:
    start: int
    end: int
    bang: str
    """``!`` for an image, else empty."""
    label: str
    angled: str | None
    """The target when written ``<...>``."""
    plain: str | None
    """The target otherwise."""

    @property
    def target(self) -> str:
        return self.angled if self.angled is not None else self.plain or ""


def _next(text: str, stops: re.Pattern[str]) -> list[int]:
    """For each position, the first position at or after it of a character ``stops`` matches
    (``len(text)`` when there is none). Built from the matches, in C-speed list extends."""
    n = len(text)
    out: list[int] = []
    prev = 0
    for m in stops.finditer(text):
        p = m.start()
        out.extend([p] * (p - prev + 1))
        prev = p + 1
    out.extend([n] * (n - prev + 1))
    return out


def _next_non_space(text: str) -> list[int]:
    """For each position, the first position at or after it that is not whitespace."""
    out = list(range(len(text) + 1))
    for m in _SPACES.finditer(text):
        a, b = m.span()
        out[a:b] = [b] * (b - a)
    return out


_DEST_STOPS = re.compile(r"[)\s]")
_SPACES = re.compile(r"\s+")
_BRACKETS = re.compile(r"[\[\]\n]")
_ANGLES = re.compile(r"[<>\n]")
_PARENS = re.compile(r"\)")


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.dest_end = _next(text, _DEST_STOPS)
        self.non_space = _next_non_space(text)
        self.paren = _next(text, _PARENS)
        self.bracket = _next(text, _BRACKETS)
        self.angle = _next(text, _ANGLES)

    def at(self, s: int) -> MdLink | None:
        t = self.text
        n = len(t)
        bang = ""
        i = s
        if t[i] == "!":
            bang, i = "!", i + 1
        if i >= n or t[i] != "[":
            return None
        j = i + 1
        while True:  # the label: text, or one level of [nested] brackets
            j = self.bracket[j]
            if j >= n or t[j] == "\n":
                return None
            if t[j] == "]":
                break
            k = self.bracket[j + 1]  # a nested [...]: its own closing bracket, nothing else between
            if k >= n or t[k] != "]":
                return None
            j = k + 1
        label = t[i + 1 : j]
        if j + 1 >= n or t[j + 1] != "(":
            return None
        k = self.non_space[j + 2]
        if k < n and t[k] == "<":  # <target>, and when what follows it does not close, a plain one
            e = self.angle[k + 1]
            if e > k + 1 and e < n and t[e] == ">":
                end = self._suffix(e + 1)
                if end is not None:
                    return MdLink(s, end, bang, label, t[k + 1 : e], None)
        e = self.dest_end[k]
        if e == k:
            return None
        end = self._suffix(e)
        return None if end is None else MdLink(s, end, bang, label, None, t[k:e])

    def _suffix(self, e: int) -> int | None:
        """Where ``(?:\\s+["'(][^)]*)?\\s*\\)`` ends from ``e``, or None."""
        t, n = self.text, len(self.text)
        w = self.non_space[e]
        if w > e and w < n and t[w] in "\"'(":
            p = self.paren[w + 1]
            if p < n:
                return p + 1
        if w < n and t[w] == ")":
            return w + 1
        return None


PATTERN = re.compile(r"(!?)\[((?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]\(\s*(?:<([^<>\n]+)>|([^)\s]+))(?:\s+[\"'(][^)]*)?\s*\)")
"""The expression this module computes; run as it is where it cannot cost more than a few
passes (``FEW_BRACKETS``): in C, it is eight times faster on an ordinary line."""
FEW_BRACKETS = 16
"""Up to this many ``[`` the expression makes at most as many attempts, each at most one
pass over the text: linear. The scanner takes over past it."""


def find(text: str) -> Iterator[MdLink]:
    """Every markdown link of ``text``, left to right, none inside another (as ``finditer``)."""
    if "](" not in text:
        return
    if text.count("[", 0) <= FEW_BRACKETS:
        for m in PATTERN.finditer(text):
            yield MdLink(m.start(), m.end(), m.group(1), m.group(2), m.group(3), m.group(4))
    else:
        yield from scan(text)


def scan(text: str) -> Iterator[MdLink]:
    """``find`` by the scanner alone, whatever the text (what the differential test holds)."""
    scan = _Scanner(text)
    s = 0
    for q in (i for i, c in enumerate(text) if c == "["):
        if q < s:
            continue  # inside the link just found
        # A link may start at the '!' before this '[' (an image), else at the '[' itself.
        for start in (q - 1, q) if q and text[q - 1] == "!" and q - 1 >= s else (q,):
            link = scan.at(start)
            if link is not None:
                yield link
                s = link.end
                break


def sub(text: str, replace: object) -> str:
    """``text`` with each link replaced by ``replace(link)`` (as ``re.sub`` with a function)."""
    assert callable(replace)
    out, pos = [], 0
    for link in find(text):
        out.append(text[pos : link.start])
        out.append(replace(link))
        pos = link.end
    out.append(text[pos:])
    return "".join(out)
