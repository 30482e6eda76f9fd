"""Reading one file as a ``kp-note/v1`` note, or saying why it is not one."""

from __future__ import annotations

import datetime as dt
import functools
import posixpath
from dataclasses import dataclass, field
from typing import Any

from curator import clock
from curator.vault import frontmatter
from curator.vault import kp_id as kp_id_reader
from curator.vault.identity import is_valid_kp_id, why_invalid
from curator.vault.links import display
from curator.vault.markdown import fence_states, heading
from curator.vault.tags import inline_tags, merged

BINARY_SNIFF = 8192


class NotANote(Exception):
    """The file is skipped; ``reason`` says why, for the user."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Problem:
    code: str
    line: int | None
    message: str


@dataclass
class Note:
    path: str
    text: str
    meta: dict[str, Any]
    body_line: int
    body_start: int
    kp_id: str | None
    title: str
    problems: list[Problem] = field(default_factory=list)

    @property
    def body(self) -> str:
        return self.text[self.body_start :]

    @property
    def identity(self) -> str:
        """kp_id when the note has a valid one, else its path (SPEC §1)."""
        return self.kp_id or self.path

    @property
    def aliases(self) -> list[str]:
        return _str_list(self.meta.get("aliases") or self.meta.get("alias"))

    @functools.cached_property
    def tags(self) -> list[str]:
        """The frontmatter's tags, then those written in the body (``#tag``), each once."""
        return merged(tags_of(self.meta), inline_tags(self.body))

    @property
    def created(self) -> str | None:
        return self.date(("created", "date"))

    def date(self, keys: tuple[str, ...]) -> str | None:
        """The note's date: the first of ``keys`` (notes.date_keys) its frontmatter has, as ISO text."""
        for key in keys:
            value = to_iso(self.meta.get(key))
            if value:
                return value
        return None


def tags_of(meta: dict[str, Any]) -> list[str]:
    """A note's tags as its frontmatter spells them (``tags`` or ``tag``, a list or a comma list)."""
    return [t.lstrip("#") for t in _str_list(meta.get("tags") or meta.get("tag"))]


def _str_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()] if "," in value else [value]
    if isinstance(value, list):
        return [str(v) for v in value if v is not None and not isinstance(v, (dict, list))]
    return [str(value)]


def to_iso(value: Any) -> str | None:
    if isinstance(value, dt.datetime):
        return clock.iso(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str) and value[:4].isdigit():
        return value
    return None


def decode(raw: bytes) -> str:
    """Note text from bytes, or NotANote for binary or non-UTF-8 content."""
    if b"\x00" in raw[:BINARY_SNIFF]:
        raise NotANote("binary content (NUL bytes)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        raise NotANote(f"not UTF-8 (invalid byte at line {line})") from None
    if "\x00" in text:
        raise NotANote("binary content (NUL bytes)")
    return text.removeprefix("\ufeff")


def _first_heading(body: str) -> str | None:
    for line, in_code in fence_states(body.split("\n", 200)[:200]):
        if in_code:
            continue
        h = heading(line)
        if h and h[0] == 1:
            return display(h[1])
    return None


def parse(path: str, raw: bytes) -> Note:
    text = decode(raw)
    problems: list[Problem] = []
    try:
        meta, s = frontmatter.read(text)
        body_line, body_start = s.body_line, s.body_start
    except frontmatter.FrontmatterTooLarge as e:
        raise NotANote(f"{e} — kept out of the index; fix or remove that frontmatter") from None
    except frontmatter.FrontmatterError as e:
        problems.append(Problem("malformed-frontmatter", e.line, str(e)))
        meta, body_line, body_start = {}, 1, 0
        s2 = frontmatter.split(text)
        if s2.yaml is not None:
            body_line, body_start = s2.body_line, s2.body_start
    kp_id = kp_id_reader.of_meta(meta)
    if kp_id is not None and not is_valid_kp_id(kp_id):
        problems.append(Problem("invalid-kp-id", 2, why_invalid(kp_id)))
        kp_id = None
    title_value = meta.get("title")
    title = (
        str(title_value).strip() if isinstance(title_value, (str, int, float)) and str(title_value).strip() else None
    )
    title = title or _first_heading(text[body_start:]) or posixpath.splitext(posixpath.basename(path))[0]
    return Note(path, text, meta, body_line, body_start, kp_id, title, problems)
