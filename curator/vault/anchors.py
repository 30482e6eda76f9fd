"""Where in a note a ``#Heading`` or ``#^block-id`` points (``[[Note#Heading]]``, ``read Note#Heading``).

One matcher for doctor, ``read`` and the index (``index.linkgraph.anchor_line`` asks
``heading_matches`` and ``block_pattern``), so a heading doctor accepts is one relate finds:

- ``#Heading`` names a heading by its text, case-insensitively, or by its slug as markdown
  anchors write it (``#getting-started``); ``#H1#H2`` names the last one;
- ``#^id`` names the line that ends with `` ^id`` (Obsidian's block ids).

Headings and ids inside fenced code do not count.
"""

from __future__ import annotations

import re

from curator.vault.frontmatter import split
from curator.vault.links import display
from curator.vault.markdown import code_flags, heading


def _slug(text: str) -> str:
    """A heading as markdown anchors write it: ``Getting started`` → ``getting-started``."""
    return re.sub(r"[\s]+", "-", re.sub(r"[^\w\s-]", "", text.casefold()).strip())


def _github_slug(text: str) -> str:
    """A heading as GitHub's anchors write it: each space a hyphen, nothing trimmed
    (``Call operator `&``` → ``call-operator-``)."""
    return re.sub(r"[^\w\- ]", "", text.casefold()).replace(" ", "-")


def wanted_heading(anchor: str) -> str:
    return anchor.split("#")[-1].strip()


def heading_matches(text: str, anchor: str) -> bool:
    """Whether the heading ``text`` is what ``anchor`` (not a block id) names."""
    wanted = wanted_heading(anchor)
    return wanted.casefold() in (text.casefold(), _github_slug(text)) or _slug(text) == _slug(wanted)


def block_pattern(block_id: str) -> re.Pattern[str]:
    return re.compile(rf"(?:^|\s)\^{re.escape(block_id)}\s*$")


BLOCK_ID_RE = re.compile(r"(?:^|\s)\^([A-Za-z0-9-]+)\s*$")


class Anchors:
    """The headings and block ids of one note, each with its first line, for many lookups."""

    def __init__(self, text: str) -> None:
        self.headings: dict[str, int] = {}
        self.blocks: dict[str, int] = {}
        lines = text.split("\n")
        code = code_flags(lines, text)
        first = split(text).body_line  # a "# comment" in the YAML is no heading
        for n, (line, in_code) in enumerate(zip(lines, code, strict=True), 1):
            if in_code or n < first:
                continue
            line = line.rstrip("\r")
            if "^" in line:
                m = BLOCK_ID_RE.search(line)
                if m:
                    self.blocks.setdefault(m.group(1), n)
            h = heading(line) if "#" in line[:4] else None
            if h:
                for t in (h[1], display(h[1])):
                    for key in (t.casefold(), _slug(t), _github_slug(t)):
                        self.headings.setdefault(key, n)

    def find(self, anchor: str) -> int | None:
        """The line ``anchor`` names, None when the note has no such heading or block."""
        if anchor.startswith("^"):
            return self.blocks.get(anchor[1:])
        wanted = wanted_heading(anchor)
        line = self.headings.get(wanted.casefold())
        return line if line is not None else self.headings.get(_slug(wanted))


def line_of(text: str, anchor: str) -> int | None:
    """The 1-based line of ``text`` (a whole note) that ``anchor`` names, None when none does."""
    return Anchors(text).find(anchor)


def describe(anchor: str) -> str:
    return f"block ^{anchor[1:]}" if anchor.startswith("^") else f"heading {wanted_heading(anchor)!r}"
