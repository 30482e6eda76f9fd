"""Links in a note's body: wikilinks, embeds, relative markdown links (SPEC §1)."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from urllib.parse import unquote

from curator.vault.markdown import INLINE_CODE_RE, code_flags

LINKS_VERSION = 2
"""What link extraction finds; bumped when it finds links it did not before (2: Pandoc
citations), so the next reconcile reads every note once for them."""
WIKILINK_RE = re.compile(r"(!?)\[\[([^\[\]\n]+?)\]\]")
MDLINK_RE = re.compile(r"(!?)\[((?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+[\"'(][^)]*)?\)")
SCHEME_RE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
# Pandoc's citation syntax: @key or @{key}, the key starting and ending with a letter, digit
# or underscore, with internal punctuation allowed. Not after a word character, '@', '.'
# or '/', so e-mail addresses and URLs (example.com/@user) are not citations.
CITATION_RE = re.compile(r"(?<![\w@./\\])@(?:\{([^{}\n]+)\}|(\w(?:[\w:.#$%&+?<>~/-]*\w)?))")


@dataclass(frozen=True)
class Link:
    target: str
    """What the link points at: a kp_id, a path, a stem, a title or an alias."""
    kind: str
    """wikilink, embed, markdown, or cite (a Pandoc citation ``@key``, target ``@key``)."""
    line: int
    """1-based line in the file."""
    heading: str | None = None
    alias: str | None = None
    raw: str = ""


def _wikilink(raw_inner: str, embed: bool, line: int, raw: str) -> Link | None:
    inner = raw_inner.strip()
    alias = None
    if "|" in inner:
        inner, alias = inner.split("|", 1)
        alias = alias.strip() or None
    heading = None
    if "#" in inner:
        inner, heading = inner.split("#", 1)
        heading = heading.strip() or None
    target = inner.strip()
    if not target:
        return None  # [[#Heading]] points inside the same note
    return Link(target, "embed" if embed else "wikilink", line, heading, alias, raw)


def _markdown_link(href: str, text: str, embed: bool, line: int, raw: str, note_dir: str) -> Link | None:
    if href.startswith(("#", "/", "//")) or SCHEME_RE.match(href):
        return None
    path, _, anchor = href.partition("#")
    path = unquote(path.split("?", 1)[0])
    if not path:
        return None
    joined = posixpath.normpath(posixpath.join(note_dir, path)) if note_dir else posixpath.normpath(path)
    return Link(joined, "markdown", line, anchor or None, text or None, raw)


def extract(
    body: str, first_line: int = 1, note_path: str = "", code: list[bool] | None = None, lines: list[str] | None = None
) -> list[Link]:
    """Links in ``body``; ``first_line`` is the file line number of the body's first line."""
    if "[" not in body:
        return []
    note_dir = posixpath.dirname(note_path)
    if lines is None:
        lines = body.split("\n")
    if code is None and ("```" in body or "~~~" in body):
        code = code_flags(lines, body)
    links: list[Link] = []
    for offset, line in enumerate(lines):
        if "[" not in line or (code is not None and code[offset]):
            continue
        if "`" in line:
            line = INLINE_CODE_RE.sub(lambda m: " " * len(m.group(0)), line)
        no = first_line + offset
        if "[[" in line:
            for m in WIKILINK_RE.finditer(line):
                link = _wikilink(m.group(2), m.group(1) == "!", no, m.group(0))
                if link:
                    links.append(link)
        if "](" in line:
            for m in MDLINK_RE.finditer(line):
                link = _markdown_link(m.group(3), m.group(2), m.group(1) == "!", no, m.group(0), note_dir)
                if link:
                    links.append(link)
    return links


def citations(
    body: str, first_line: int = 1, code: list[bool] | None = None, lines: list[str] | None = None
) -> list[Link]:
    """Pandoc citations (``@key``, ``[@key, p. 3]``, ``@{key}``) outside code, as links of
    kind ``cite`` whose target is ``@key``. Only a source item with that citation key
    answers one, so an ``@mention`` that is no citation is never reported as a broken link."""
    if "@" not in body:
        return []
    if lines is None:
        lines = body.split("\n")
    if code is None and ("```" in body or "~~~" in body):
        code = code_flags(lines, body)
    found: list[Link] = []
    for offset, line in enumerate(lines):
        if "@" not in line or (code is not None and code[offset]):
            continue
        if "`" in line:
            line = INLINE_CODE_RE.sub(lambda m: " " * len(m.group(0)), line)
        for m in CITATION_RE.finditer(line):
            key = (m.group(1) or m.group(2)).strip()
            if key:
                found.append(Link(f"@{key}", "cite", first_line + offset, raw=m.group(0)))
    return found
