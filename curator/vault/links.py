"""Links in a note's body, read as Obsidian reads them (SPEC §1).

- ``[[target]]``, ``[[target|text]]``, ``[[target#Heading]]``, ``[[target#^block]]``,
  ``![[embed]]``; inside a table the alias separator is written ``\\|``
  (``[[Note\\|text]]``, ``![[image.png\\|200]]``), and is read the same way anywhere.
- ``[text](href)`` with a relative or bare href: ``[t](Note)``, ``[t](Note.md)``,
  ``[t](../dir/Note.md#part)``, ``[t](<My Note.md>)``, ``[t](My%20Note.md)``. The href
  is kept as written (decoded): the resolver tries it relative to the linking note first,
  then by name, as Obsidian does.
- ``[[a]](b)`` is a wikilink followed by the text ``(b)``, not a markdown link.
- ``[[#Heading]]`` points inside the same note, and ``[[]]`` / ``[[|text]]`` at nothing:
  none of them is a link to another note.

Links in fenced or inline code, ``%% comments %%`` and ``<!-- HTML comments -->`` are
not links.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from urllib.parse import unquote

from curator.vault import mdlinks
from curator.vault.markdown import INLINE_CODE_RE, code_flags, has_comments, strip_comments

WIKILINK_RE = re.compile(r"(!?)\[\[([^\[\]\n]*?)\]\]")
SCHEME_RE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
# Pandoc's citation syntax: @key or @{key}, the key starting and ending with a letter, digit
# or underscore, with internal punctuation allowed. Not after a word character, '@', '.'
# or '/', so e-mail addresses and URLs (example.com/@user) are not citations.
CITATION_RE = re.compile(r"(?<![\w@./\\])@(?:\{([^{}\n]+)\}|(\w(?:[\w:.#$%&+?<>~/-]*\w)?))")

# The attachment formats Obsidian opens (its help, "Accepted file formats"), and the
# office and archive files vaults carry beside them. A target with one of these
# extensions is a file, not a note; any other dot is part of a note's name
# ([[scrybble.ink]], [[Node.js]], [[v1.2 notes]], an Excalidraw [[Drawing.excalidraw]]).
ATTACHMENT_EXTS = frozenset(
    {
        *("avif", "bmp", "gif", "jpeg", "jpg", "png", "svg", "webp", "ico", "tif", "tiff", "heic"),
        *("flac", "m4a", "mp3", "ogg", "wav", "webm", "3gp", "opus", "aac"),
        *("mkv", "mov", "mp4", "ogv", "avi", "m4v", "pdf", "canvas", "base"),
        *("zip", "gz", "tgz", "7z", "rar", "tar", "epub", "csv", "tsv"),
        *("doc", "docx", "xls", "xlsx", "ppt", "pptx", "odt", "ods", "odp"),
    }
)


@dataclass(frozen=True)
class Link:
    target: str
    """What the link names, as written: a kp_id, a path, a file name, a title or an alias."""
    kind: str
    """wikilink, embed, markdown, or cite (a Pandoc citation ``@key``, target ``@key``)."""
    line: int
    """1-based line in the linking file."""
    heading: str | None = None
    """What follows ``#``: a heading (``H1#H2`` for nested ones) or ``^block-id``."""
    alias: str | None = None
    """The link text: after ``|`` in a wikilink, between the brackets of a markdown link."""
    raw: str = ""

    @property
    def block(self) -> str | None:
        return self.heading[1:] if self.heading and self.heading.startswith("^") else None

    @property
    def text(self) -> str:
        """What a reader sees: the alias, else the target (with its heading)."""
        if self.alias:
            return self.alias
        if self.heading and not self.block:
            return f"{self.target} > {self.heading.replace('#', ' > ')}"
        return self.target


def is_attachment(target: str) -> bool:
    ext = posixpath.splitext(posixpath.basename(target))[1][1:].lower()
    return ext in ATTACHMENT_EXTS


def _wikilink(inner: str, embed: bool, line: int, raw: str) -> Link | None:
    alias = None
    # In a table cell the separator is escaped as \| ; Obsidian reads it as | everywhere.
    inner = inner.replace("\\|", "|")
    if "|" in inner:
        inner, alias = inner.split("|", 1)
        alias = alias.strip() or None
    heading = None
    if "#" in inner:
        inner, heading = inner.split("#", 1)
        heading = heading.strip().strip("#").strip() or None
    target = inner.strip()
    if not target:
        return None  # [[#Heading]] points inside this note; [[]] and [[|x]] at nothing
    return Link(target, "embed" if embed else "wikilink", line, heading, alias, raw)


def _markdown_link(href: str, text: str, embed: bool, line: int, raw: str) -> Link | None:
    if href.startswith(("#", "/", "//")) or SCHEME_RE.match(href):
        return None  # in-page anchors, site-absolute paths and URLs are not notes
    path, _, anchor = href.partition("#")
    path = unquote(path.split("?", 1)[0]).strip()
    if not path or path in (".", "./"):
        return None
    heading = unquote(anchor).strip() or None
    return Link(path, "embed" if embed else "markdown", line, heading, text.strip() or None, raw)


def _in_spans(start: int, spans: list[tuple[int, int]]) -> bool:
    return any(a <= start < b for a, b in spans)


def extract(
    body: str, first_line: int = 1, note_path: str = "", code: list[bool] | None = None, lines: list[str] | None = None
) -> list[Link]:
    """Links in ``body``; ``first_line`` is the file line number of the body's first line.

    ``note_path`` is accepted for callers that pass it; hrefs are kept as written and
    resolved against the linking note by the resolver.
    """
    del note_path
    if "[" not in body:
        return []
    if lines is None:
        lines = body.split("\n")
    if code is None and ("```" in body or "~~~" in body):
        code = code_flags(lines, body)
    if has_comments(body):
        lines = strip_comments(lines, code if code is not None else [False] * len(lines))
    links: list[Link] = []
    for offset, line in enumerate(lines):
        if "[" not in line or (code is not None and code[offset]):
            continue
        if "`" in line:
            line = INLINE_CODE_RE.sub(lambda m: " " * len(m.group(0)), line)
        no = first_line + offset
        found: list[tuple[int, Link]] = []
        wiki_spans: list[tuple[int, int]] = []
        if "[[" in line:
            for m in WIKILINK_RE.finditer(line):
                wiki_spans.append(m.span())
                link = _wikilink(m.group(2), m.group(1) == "!", no, m.group(0))
                if link:
                    found.append((m.start(), link))
        if "](" in line:
            for md in mdlinks.find(line):
                if wiki_spans and _in_spans(md.start + len(md.bang) + 1, wiki_spans):
                    continue  # [[a]](b): the wikilink, then plain text
                link = _markdown_link(md.target, md.label, md.bang == "!", no, line[md.start : md.end])
                if link:
                    found.append((md.start, link))
        if len(found) > 1 and wiki_spans and "](" in line:
            found.sort(key=lambda f: f[0])
        links.extend(link for _col, link in found)
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


def _shown(m: re.Match[str]) -> str:
    link = _wikilink(m.group(2), False, 0, "")
    if link is None:
        inner = m.group(2).replace("\\|", "|")
        return inner.split("|", 1)[1].strip() if "|" in inner else inner.lstrip("#").strip()
    return link.text


def display(text: str) -> str:
    """``text`` as a reader sees it: link text instead of link markup (``[[a|b]]`` → ``b``,
    ``[[a#H]]`` → ``a > H``, ``[t](x.md)`` → ``t``), for titles, breadcrumbs and snippets.
    Code (fenced blocks, inline spans) is shown as written: ``[[x]]`` there is no link."""
    if "[" not in text:
        return text
    if "`" not in text and "~~~" not in text:
        return _display_prose(text)
    lines = text.split("\n")
    code = code_flags(lines, text)
    out: list[str] = []
    for line, in_code in zip(lines, code, strict=True):
        if in_code or "[" not in line:
            out.append(line)
            continue
        parts: list[str] = []
        pos = 0
        for m in INLINE_CODE_RE.finditer(line):
            parts += [_display_prose(line[pos : m.start()]), m.group(0)]
            pos = m.end()
        out.append("".join(parts) + _display_prose(line[pos:]))
    return "\n".join(out)


def _display_prose(text: str) -> str:
    if "[" not in text:
        return text
    if "[[" in text:
        text = WIKILINK_RE.sub(_shown, text)
    if "](" in text:
        text = mdlinks.sub(text, lambda m: m.label)
    return text
