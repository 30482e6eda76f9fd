"""Inline tags: ``#tag`` and nested ``#area/topic`` in a note's body, as Obsidian reads them.

Obsidian treats a tag written in the text like one listed in the frontmatter's ``tags:``.
A tag is ``#`` at the start of a line or after white space, then letters, digits, ``_``,
``-`` and ``/`` (``/`` nests: ``#area/topic`` sits under ``area``); it must hold at least one
character that is not a digit (``#1984`` is not a tag, ``#y1984`` is). Not tags:

- anything in fenced code or an inline code span;
- Obsidian ``%% comments %%`` and ``<!-- HTML comments -->`` (neither is shown in the note);
- a heading's marker (``# Title``: the ``#`` is followed by a space), though a tag written in a
  heading's text is one;
- a link reference definition's target (``[1]: #part``);
- a ``#`` inside a word or a link (``page#part``, ``https://x.org/a#b``, ``[[Note#Heading]]``,
  ``[x](#part)``, ``&#38;``, ``\\#escaped``): none follows white space.

Managed regions are scanned like the rest of the note: Obsidian shows and counts their tags,
so a person who sees ``#x`` in a note finds the note with ``--tag x``.
"""

from __future__ import annotations

import re

from curator.vault.markdown import INLINE_CODE_RE, code_flags, has_comments, strip_comments

TAG_RE = re.compile(r"#([\w/-]+)")
"""A candidate: ``#``, then the characters a tag may hold; what precedes it is looked at apart
(a pattern that opens with a look-behind is tried at every character: four times slower)."""
LINK_DEFINITION_RE = re.compile(r"[ ]{0,3}\[[^\]\n]+\]:\s")


def _starts(text: str, at: int) -> bool:
    """Whether the ``#`` at ``at`` opens a tag: at the start, or after white space."""
    return at == 0 or text[at - 1].isspace()


def _accept(raw: str) -> str | None:
    tag = raw.strip("/")
    if not tag or tag.isdigit():
        return None
    return tag


def inline_tags(body: str) -> list[str]:
    """The tags written in ``body`` (a note's text after its frontmatter), as spelled, in order
    of first appearance, each once (compared casefolded, as tags are matched)."""
    if "#" not in body or not any(_starts(body, m.start()) for m in TAG_RE.finditer(body)):
        return []
    lines = body.split("\n")
    code = code_flags(lines, body)
    if has_comments(body):
        lines = strip_comments(lines, code)
    found: dict[str, str] = {}
    for line, in_code in zip(lines, code, strict=True):
        if in_code or "#" not in line or (line.lstrip().startswith("[") and LINK_DEFINITION_RE.match(line)):
            continue
        if "`" in line:
            line = INLINE_CODE_RE.sub(lambda m: " " * len(m.group(0)), line)
        for m in TAG_RE.finditer(line):
            if not _starts(line, m.start()):
                continue
            tag = _accept(m.group(1))
            if tag is not None:
                found.setdefault(tag.casefold(), tag)
    return list(found.values())


def merged(*groups: list[str]) -> list[str]:
    """Tags from several places (frontmatter, then body), each once, first spelling kept."""
    out: dict[str, str] = {}
    for group in groups:
        for tag in group:
            out.setdefault(tag.casefold(), tag)
    return list(out.values())
