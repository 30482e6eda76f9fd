"""Frontmatter: the YAML block between ``---`` lines at the top of a note.

Reading goes through ``curator.yaml_reader`` (ruamel.yaml's safe loader, the C parser when
present, behind a nesting bound); flat ``key: text`` blocks are read here directly. Writing
never re-dumps the whole block: it replaces only the lines of the keys it sets
or removes, so every other key, comment, quote and the body stay byte-identical.
"""

from __future__ import annotations

import datetime as dt
import io
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from curator import yaml_reader

_OPEN_RE = re.compile(r"\A(\ufeff?)---[ \t]*(\r?\n)")
# Only ``---`` closes the block, as Obsidian, python-frontmatter and static site generators read
# it. YAML's document end ``...`` does not: a note whose block ``...`` closed for Curator alone
# could hold a second kp_id after it that every other tool reads as part of the frontmatter.
# Such a block is invalid YAML here (a second document), an error named like any other.
_CLOSE_RE = re.compile(r"^---[ \t]*(?:\r?\n|\Z)", re.MULTILINE)


class FrontmatterError(ValueError):
    """The frontmatter block cannot be read or written."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class FrontmatterTooLarge(FrontmatterError):
    """The frontmatter expands past what any reader may walk (``MAX_NODES``, ``MAX_DEPTH``): not
    merely malformed but hostile, so the note is kept out of the index whole, and named."""


@dataclass(frozen=True)
class Split:
    yaml: str | None
    """The YAML text between the fences, or None when the note has no frontmatter."""
    yaml_start: int
    yaml_end: int
    body_start: int
    body_line: int
    """1-based line number of the first body line."""
    newline: str
    unclosed: bool = False

    def body(self, text: str) -> str:
        return text[self.body_start :]


def split(text: str) -> Split:
    m = _OPEN_RE.match(text)
    if not m:
        return Split(None, 0, 0, 0, 1, "\n")
    newline = m.group(2)
    start = m.end()
    close = _CLOSE_RE.search(text, start)
    if close is None:
        # An opening fence without a closing one: treat the whole file as body.
        return Split(None, 0, 0, 0, 1, newline, unclosed=True)
    yaml_text = text[start : close.start()]
    body_line = text.count("\n", 0, close.end()) + 1
    if not text[close.start() : close.end()].endswith("\n"):
        body_line = text.count("\n", 0, close.end()) + 1
    return Split(yaml_text, start, close.start(), close.end(), body_line, newline)


# The common frontmatter is flat `key: plain text` lines, lists of plain words (`[a, b]` or a
# block list), dates, whole numbers and booleans. Those are read here directly; anything else
# (quotes, nesting, times, floats, comments, anchors) goes to ruamel.yaml. A property test holds
# the two to the same answers. Reading an Obsidian note's `tags: [a, b]` and `created: 2025-03-14`
# with ruamel cost 0.2 ms; a 6,500-note proposal reads each note before and after.
_PLAIN = r"[^\s#&*!|>'\"%@`{\[\]},?~:\-][^\t#]*?"
_SIMPLE_LINE = re.compile(rf"([A-Za-z_][A-Za-z0-9_.\- ]*?)[ ]*:(?: +({_PLAIN}|\[[^\[\]{{}}#:\t]*\]))? *")
_SIMPLE_ITEM = re.compile(rf"( *)- +({_PLAIN}) *")
_FLOW_ITEM = re.compile(r"[^\s#&*!|>'\"%@`{\[\]},?~:\-](?:[^,\[\]{}#:\t]*[^\s,\[\]{}#:])?")
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_WHOLE = re.compile(r"0|[1-9][0-9]{0,17}")
_BOOLEANS = {"true": True, "false": False}
_NOT_PLAIN_TEXT = re.compile(
    r"[-+]?[0-9_]*\.?[0-9_]*(?:[eE][-+]?[0-9]+)?|[-+]?\..*|0[oxbOXB].*|[0-9]{4}-[0-9][0-9]?-[0-9][0-9]?.*"
    r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?"
    r"|(?i:true|false|null|yes|no|on|off|y|n)"
)


def _plain_text(value: str) -> bool:
    return not (_NOT_PLAIN_TEXT.fullmatch(value) or ": " in value or value.endswith(":") or " #" in value)


def _simple_load(yaml_text: str) -> dict[str, Any] | None:
    lines = [line for line in yaml_text.split("\n") if line]
    data: dict[str, Any] = {}
    i = 0
    while i < len(lines):
        m = _SIMPLE_LINE.fullmatch(lines[i])
        if m is None:
            return None
        key, value = m.group(1), m.group(2)
        if key in data or _NOT_PLAIN_TEXT.fullmatch(key):
            return None
        i += 1
        if value is not None:
            read = _scalar(value) if value[0] != "[" else _flow_list(value)
            if read is None:
                return None
            data[key] = read
            continue
        # `key:` then a block list of plain items, all at one indentation (or nothing: null)
        items: list[str] = []
        indent: str | None = None
        while i < len(lines) and (item := _SIMPLE_ITEM.fullmatch(lines[i])):
            if indent is None:
                indent = item.group(1)
            if item.group(1) != indent or not _plain_text(item.group(2)):
                return None
            items.append(item.group(2))
            i += 1
        data[key] = items or None
    return data


def _scalar(value: str) -> Any:
    """A plain value as YAML 1.2 reads it, when it is text, a date, a whole number or a
    boolean; None for anything else (ruamel reads it)."""
    if _plain_text(value):
        return value
    if value in _BOOLEANS:
        return _BOOLEANS[value]
    if _WHOLE.fullmatch(value):
        return int(value)
    date = _DATE.fullmatch(value)
    if date is not None:
        try:
            return dt.date(int(date[1]), int(date[2]), int(date[3]))
        except ValueError:
            return None
    return None


def _flow_list(value: str) -> list[str] | None:
    """``[a, b c]``: plain words and phrases (no quotes, colons or nesting), or None."""
    inner = value[1:-1]
    if not inner.strip(" "):
        return []
    items = [item.strip(" ") for item in inner.split(",")]
    if any(not _FLOW_ITEM.fullmatch(item) or not _plain_text(item) for item in items):
        return None
    return items


def load(yaml_text: str) -> dict[str, Any]:
    """Parse a frontmatter block into a plain mapping; raise FrontmatterError otherwise."""
    simple = _simple_load(yaml_text) if "\r" not in yaml_text else None
    if simple is not None:
        return simple
    try:
        data = yaml_reader.load(yaml_text, max_depth=MAX_DEPTH, max_nodes=MAX_NODES)
    except yaml_reader.YamlTooLarge as e:
        raise FrontmatterTooLarge(f"frontmatter {e.problem}", (e.line or 1) + 1) from None
    except yaml_reader.YamlRefused as e:
        # +1 for the opening fence: the reader counts lines of the YAML alone
        raise FrontmatterError(f"invalid YAML: {e.problem}", None if e.line is None else e.line + 1) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        kind = "a list" if isinstance(data, list) else f"a {type(data).__name__}"
        raise FrontmatterError(f"frontmatter is {kind}, not a mapping", 2)
    return data


MAX_NODES = 10_000
"""Values in a frontmatter once its aliases are expanded. YAML's anchors let 400 bytes stand
for a billion values (``&a [*b, *b, …]`` nested nine deep): parsed, that is a small graph of
shared lists, but anything that walks it (JSON for the index, a search filter) expands it."""
MAX_DEPTH = yaml_reader.MAX_DEPTH
"""Nesting of lists and mappings (the one reader's bound, checked before a tree is built)."""


def read(text: str) -> tuple[dict[str, Any], Split]:
    s = split(text)
    if s.unclosed:
        raise FrontmatterError("frontmatter opened with '---' is never closed", 1)
    if s.yaml is None:
        return {}, s
    return load(s.yaml), s


def meta_or_none(text: str | None) -> dict[str, Any] | None:
    """The frontmatter of ``text`` as a mapping, or None when there is no text or it is unreadable."""
    if text is None:
        return None
    try:
        return read(text)[0]
    except FrontmatterError:
        return None


def load_roundtrip(yaml_text: str) -> Any:
    """The block as ruamel's round-trip CommentedMap (keeps comments and order)."""
    try:
        return yaml_reader.load(yaml_text, max_depth=MAX_DEPTH, max_nodes=MAX_NODES, roundtrip=True)
    except yaml_reader.YamlTooLarge as e:
        raise FrontmatterTooLarge(f"frontmatter {e.problem}", (e.line or 1) + 1) from None
    except yaml_reader.YamlRefused as e:
        raise FrontmatterError(f"invalid YAML: {e.problem}", None if e.line is None else e.line + 1) from None


def _dump_key(key: str, value: Any, newline: str) -> str:
    from ruamel.yaml import YAML

    y = YAML(typ="rt")
    y.width = 4096
    buf = io.StringIO()
    y.dump({key: value}, buf)
    out = buf.getvalue()
    if newline != "\n":
        out = out.replace("\n", newline)
    return out


def _is_continuation(line: str) -> bool:
    return line[:1] in (" ", "\t") or line.startswith("- ") or line.rstrip("\r\n") == "-"


def _key_spans(lines: list[str], data: Any) -> dict[str, tuple[int, int]]:
    keys = list(data.keys())
    starts = [data.lc.key(k)[0] for k in keys]
    spans = {}
    for i, k in enumerate(keys):
        start = starts[i]
        end = start + 1
        limit = starts[i + 1] if i + 1 < len(keys) else len(lines)
        # A value runs over indented lines (and "- " items); blank lines inside a
        # value count only when more of the value follows them.
        j = end
        while j < limit:
            line = lines[j]
            if _is_continuation(line) or (line.strip() and not line.lstrip().startswith("#")):
                end = j + 1
            elif line.strip():  # a comment at column 0 starts the next key's lines
                break
            j += 1
        spans[str(k)] = (start, end)
    return spans


def _plain_line(key: str, value: Any, newline: str) -> str | None:
    """``key: value`` as ruamel would write it, for a plain string needing no quotes."""
    if not isinstance(value, str) or not value or value != value.strip() or not _plain_text(value):
        return None
    if not _SIMPLE_LINE.fullmatch(f"{key}: {value}") or any(c in value for c in "#\"'\\\t\r\n"):
        return None
    return f"{key}: {value}{newline}"


def _append_only(s: Split, set_keys: dict[str, Any], remove: list[str]) -> str | None:
    """The new YAML block when the change only adds plain keys to flat, plain frontmatter
    (what ``curator adopt`` does to thousands of notes), else None.

    The round-trip parser is what finds a key's lines to replace; adding a key to a block
    the fast reader understands needs none of that, and costs a thousandth of the time.
    """
    assert s.yaml is not None
    if remove or "\r" in s.yaml:
        return None
    current = _simple_load(s.yaml) if s.yaml.strip() else {}
    if current is None or any(k in current for k in set_keys):
        return None
    rendered = [_plain_line(k, v, s.newline) for k, v in set_keys.items()]
    if any(r is None for r in rendered):
        return None
    block = s.yaml
    if block and not block.endswith("\n"):
        block += s.newline
    return block + "".join(r for r in rendered if r)


def update(text: str, set_keys: Mapping[str, Any] | None = None, remove: Iterable[str] = ()) -> str:
    """Set or remove top-level keys, rewriting only those keys' lines."""
    set_keys = dict(set_keys or {})
    remove = [k for k in remove if k not in set_keys]
    s = split(text)
    if s.unclosed:
        raise FrontmatterError("frontmatter opened with '---' is never closed", 1)
    if s.yaml is None:
        if not set_keys:
            return text
        nl = "\r\n" if "\r\n" in text[:2000] else "\n"
        block = "".join(_dump_key(k, v, nl) for k, v in set_keys.items())
        return f"---{nl}{block}---{nl}{text}"
    appended_only = _append_only(s, set_keys, remove)
    if appended_only is not None:
        return text[: s.yaml_start] + appended_only + text[s.yaml_end :]
    data = load_roundtrip(s.yaml)
    if data is None:
        data = {}
    if not hasattr(data, "lc") and data != {}:
        raise FrontmatterError("frontmatter is not a mapping", 2)
    lines = s.yaml.splitlines(keepends=True)
    spans = _key_spans(lines, data) if data else {}
    replacements: dict[int, tuple[int, str]] = {}
    appended: list[str] = []
    current = load(s.yaml) if data else {}
    for key, value in set_keys.items():
        if key in current and type(current[key]) is type(value) and current[key] == value:
            continue  # same value: keep the line exactly as the person wrote it
        rendered = _dump_key(key, value, s.newline)
        if key in spans:
            start, end = spans[key]
            if "".join(lines[start:end]) != rendered:
                replacements[start] = (end, rendered)
        else:
            appended.append(rendered)
    for key in remove:
        if key in spans:
            start, end = spans[key]
            replacements[start] = (end, "")
    out: list[str] = []
    i = 0
    while i < len(lines):
        if i in replacements:
            end, rendered = replacements[i]
            out.append(rendered)
            i = end
        else:
            out.append(lines[i])
            i += 1
    if appended:
        if out and not out[-1].endswith(("\n", "\r")):
            out[-1] += s.newline
        out.extend(appended)
    return text[: s.yaml_start] + "".join(out) + text[s.yaml_end :]
