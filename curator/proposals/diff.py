"""Parsing ``changes.diff``: git-style unified diffs, one section per file.

Headers (paths with git's C-quoting, /dev/null, modes, renames, binary) are read
here; hunks and their lines come from unidiff. Nothing is trusted: any shape
Curator does not produce itself is reported, not guessed at.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from unidiff.errors import UnidiffParseError
from unidiff.patch import PatchSet

if TYPE_CHECKING:
    # pydantic, which the manifest's module loads, stays out of the validator's start-up.
    from curator.proposals.manifest import Op

_HUNK_RE = re.compile(r"^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@")
_ESCAPES = {"a": "\a", "b": "\b", "t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}


class DiffError(ValueError):
    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class Hunk:
    old_start: int
    old_len: int
    new_start: int
    new_len: int
    lines: list[tuple[str, str]]
    """(' ' | '-' | '+', text with its line ending exactly as in the file)."""

    @property
    def preimage(self) -> list[str]:
        return [t for kind, t in self.lines if kind != "+"]

    @property
    def postimage(self) -> list[str]:
        return [t for kind, t in self.lines if kind != "-"]

    @property
    def trailing_context(self) -> int:
        n = 0
        for kind, _ in reversed(self.lines):
            if kind != " ":
                break
            n += 1
        return n


@dataclass
class FilePatch:
    old_path: str | None
    """None when the old side is /dev/null."""
    new_path: str | None
    text: str
    """This file's section of the diff, as given."""
    first_line: int
    """Line of changes.diff where the section starts (1-based)."""
    hunks: list[Hunk] = field(default_factory=list)
    binary: bool = False
    mode_change: bool = False
    rename: bool = False
    index_mode: str | None = None
    """The mode on the section's ``index`` line, when it carries one (``index a..b 100644``)."""

    @property
    def path(self) -> str:
        return self.new_path or self.old_path or ""

    @property
    def op(self) -> Op:
        if self.old_path is None:
            return "create"
        if self.new_path is None:
            return "delete"
        return "modify"


def unquote(raw: str) -> str:
    """A path from a diff header, with git's C-style quoting undone."""
    raw = raw.rstrip("\n").split("\t", 1)[0] if not raw.startswith('"') else raw.rstrip("\n")
    if not raw.startswith('"'):
        return raw
    end = raw.rfind('"')
    if end <= 0:
        raise DiffError(f"unterminated quoted path {raw!r}")
    body = raw[1:end]
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out += c.encode("utf-8")
            i += 1
            continue
        nxt = body[i + 1 : i + 2]
        if nxt in _ESCAPES:
            out += _ESCAPES[nxt].encode()
            i += 2
        elif re.match(r"[0-7]{3}", body[i + 1 : i + 4]):
            out.append(int(body[i + 1 : i + 4], 8))
            i += 4
        else:
            raise DiffError(f"bad escape in quoted path {raw!r}")
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        raise DiffError(f"quoted path {raw!r} is not UTF-8") from None


def _side(raw: str, prefix: str) -> str | None:
    path = unquote(raw)
    if path == "/dev/null":
        return None
    if not path.startswith(prefix):
        raise DiffError(f"path {path!r} lacks the {prefix!r} prefix of a git diff")
    return path[len(prefix) :]


def _sections(text: str) -> list[tuple[int, str]]:
    lines = text.splitlines(keepends=True)
    starts = [i for i, ln in enumerate(lines) if ln.startswith("diff --git ")]
    if not starts:
        if text.strip():
            raise DiffError("not a git diff: no 'diff --git' header", 1)
        return []
    if any(ln.strip() for ln in lines[: starts[0]]):
        raise DiffError("text before the first 'diff --git' header", 1)
    bounds = [*starts, len(lines)]
    return [(bounds[i] + 1, "".join(lines[bounds[i] : bounds[i + 1]])) for i in range(len(starts))]


def _header(fp: FilePatch, section: str) -> None:
    # `new file mode` and `deleted file mode` decide the section's op whatever `---`/`+++`
    # lines follow them, as libgit2 reads them: a modify that carries one is judged a create
    # (or a delete) here too, never valid here and refused at apply.
    created = deleted = False
    for ln in section.splitlines():
        if _HUNK_RE.match(ln):
            break
        if ln.startswith("--- "):
            fp.old_path = _side(ln[4:], "a/")
        elif ln.startswith("+++ "):
            fp.new_path = _side(ln[4:], "b/")
        elif ln.startswith(("old mode ", "new mode ")):
            fp.mode_change = True
        elif ln.startswith("index "):
            fields = ln.split()
            fp.index_mode = fields[2] if len(fields) == 3 else None
        elif ln.startswith(("rename from ", "rename to ", "copy from ", "copy to ")):
            fp.rename = True
        elif ln.startswith(("Binary files ", "GIT binary patch")):
            fp.binary = True
        elif ln.startswith("new file mode "):
            created = True
        elif ln.startswith("deleted file mode "):
            deleted = True
    if created:
        fp.old_path = None
    if deleted:
        fp.new_path = None


def _hunks(fp: FilePatch, section: str) -> None:
    try:
        patch = PatchSet(io.StringIO(section))
    except UnidiffParseError as e:
        raise DiffError(f"malformed or truncated diff for {fp.path}: {e}", fp.first_line) from None
    if len(patch) != 1:
        raise DiffError(f"cannot read the diff section for {fp.path}", fp.first_line)
    _counted(fp, section, [len(h) for h in patch[0]])
    for h in patch[0]:
        lines: list[tuple[str, str]] = []
        for ln in h:
            kind = ln.line_type
            if kind == "\\":
                if not lines:
                    raise DiffError(f"'\\ No newline' with no line before it in {fp.path}", fp.first_line)
                k, t = lines[-1]
                lines[-1] = (k, t[:-1] if t.endswith("\n") else t)
            elif kind in (" ", "-", "+"):
                lines.append((kind, ln.value))
            else:
                raise DiffError(f"unexpected line in a hunk of {fp.path}: {ln.value!r}", fp.first_line)
        fp.hunks.append(Hunk(h.source_start, h.source_length, h.target_start, h.target_length, lines))


def _counted(fp: FilePatch, section: str, sizes: list[int]) -> None:
    """Every line after a hunk's header is one its counts hold. unidiff stops reading a hunk when
    its header's counts are used up and drops what follows: a header that counts fewer lines than
    follow it would be judged, shown and applied as a smaller change than the diff spells out
    (``git apply`` calls it a corrupt patch)."""
    lines = section.split("\n")  # as unidiff reads it: a line may hold a '\r' or U+2028 of the note's
    if lines[-1] == "":
        lines.pop()
    headers = [i for i, ln in enumerate(lines) if _HUNK_RE.match(ln)]
    if len(headers) != len(sizes):
        raise DiffError(f"cannot read the hunks of {fp.path}", fp.first_line)
    for n, at in enumerate(headers):
        end = headers[n + 1] if n + 1 < len(headers) else len(lines)
        extra = end - at - 1 - sizes[n]
        if extra > 0:
            raise DiffError(
                f"hunk {n + 1} of {fp.path}: its header {lines[at].split(' @@')[0]} @@ counts fewer lines than "
                f"follow it ({extra} more); regenerate the diff",
                fp.first_line + at + 1 + sizes[n],
            )


def _name_from_header(fp: FilePatch, first: str, section: str) -> None:
    rest = first.rstrip("\n")[len("diff --git ") :]
    name = None
    if rest.startswith('"'):
        m = re.match(r'^("(?:[^"\\]|\\.)*") ("(?:[^"\\]|\\.)*")$', rest)
        if m:
            old, new = unquote(m.group(1)), unquote(m.group(2))
            name = old[2:] if old.startswith("a/") and new == "b/" + old[2:] else None
    elif (len(rest) - 5) % 2 == 0 and len(rest) > 5:
        half = (len(rest) - 5) // 2
        candidate = rest[2 : 2 + half]
        name = candidate if rest == f"a/{candidate} b/{candidate}" else None
    if not name:
        raise DiffError(f"the section names no file: {first.strip()!r}", fp.first_line)
    lines = section.splitlines()
    if any(ln.startswith("new file mode ") for ln in lines):
        fp.new_path = name
    elif any(ln.startswith("deleted file mode ") for ln in lines):
        fp.old_path = name
    else:
        fp.old_path = fp.new_path = name


def parse(text: str) -> list[FilePatch]:
    """Every file section of a diff; DiffError for anything malformed or truncated."""
    patches = []
    for first_line, section in _sections(text):
        fp = FilePatch(None, None, section, first_line)
        first = section.splitlines()[0]
        m = re.match(r'^diff --git (?:"(?:[^"\\]|\\.)*"|\S+) (?:"(?:[^"\\]|\\.)*"|\S+)$', first)
        # Paths with spaces are unquoted in the header line; the ---/+++ lines decide.
        _header(fp, section)
        if not (fp.hunks or fp.binary or fp.mode_change or fp.rename) and "@@" not in section and "--- " not in section:
            raise DiffError(f"diff section without hunks: {first.strip()!r}", first_line)
        if m is None and fp.old_path is None and fp.new_path is None:
            raise DiffError(f"unreadable diff header {first.strip()!r}", first_line)
        if not fp.path:
            # No ---/+++ lines (a mode change alone, an empty new file): git names the file
            # only in the header line, read as git does when both sides are one name.
            _name_from_header(fp, first, section)
        if not fp.binary:
            _hunks(fp, section)
        patches.append(fp)
    return patches


def _range(start: int, length: int) -> str:
    return f"{start}" if length == 1 else f"{start},{length}"


def render_hunk(h: Hunk, old_start: int, new_start: int) -> str:
    out = [f"@@ -{_range(old_start, h.old_len)} +{_range(new_start, h.new_len)} @@\n"]
    for kind, text in h.lines:
        out.append(kind + text)
        if not text.endswith("\n"):
            out.append("\n\\ No newline at end of file\n")
    return "".join(out)


def reanchor(fp: FilePatch, at: list[int]) -> str:
    """``fp``'s section with each hunk's header moved to the line it applied at.

    ``at[i]`` is where hunk i matched in the file as the hunks before it left it (as
    ``hunks.place`` reports). libgit2 applies a hunk exactly at its header's line, so
    this is the diff it is handed when a note drifted.
    """
    lines = fp.text.splitlines(keepends=True)
    head = []
    for ln in lines:
        if _HUNK_RE.match(ln):
            break
        # The mode is the validator's to check against HEAD (KP001); libgit2's scratch
        # files carry no mode, so it is not handed on.
        head.append(" ".join(ln.split()[:2]) + "\n" if ln.startswith("index ") else ln)
    out = ["".join(head)]
    delta = 0
    for h, pos in zip(fp.hunks, at, strict=True):
        orig = pos - delta
        out.append(render_hunk(h, orig + 1 if h.old_len else orig, pos + 1 if h.new_len else pos))
        delta += h.new_len - h.old_len
    return "".join(out)


def _plain_name(raw: str) -> str | None:
    path = unquote(raw.strip())
    return None if path == "/dev/null" else path


def parse_input(text: str, existing: Callable[[str], str | None] | None = None) -> list[FilePatch]:
    """A diff someone hands ``curator propose --patch``: git's, or plain ``diff -u`` output.

    Plain sections (no ``diff --git`` line) may name files as ``a/x`` and ``b/x`` (the
    prefixes are dropped when both sides carry them) or bare, with or without
    timestamps after a tab. A section whose hunks all start at ``-0,0`` creates its file,
    one whose hunks all end at ``+0,0`` deletes it (GNU diff ``-N`` writes no /dev/null).
    Curator re-renders every section as a git diff before staging it.

    Which file a plain section changes is chosen as GNU ``patch`` chooses it: of the names in
    its header, the first that exists (``existing`` maps a name to the vault path of an
    existing file, or None), the old name first, so ``diff -u notes/a.md /tmp/a.md`` changes
    ``notes/a.md``; an old name of ``/dev/null`` (or hunks starting at ``-0,0``) creates the
    new one.
    """
    if any(ln.startswith("diff --git ") for ln in text.splitlines()):
        return parse(text)
    try:
        patchset = PatchSet(io.StringIO(text))
    except UnidiffParseError as e:
        raise DiffError(f"not a unified diff: {e}", 1) from None
    if not len(patchset):
        if text.strip():
            raise DiffError("not a unified diff: no '---'/'+++' file header and hunk", 1)
        return []
    out = []
    for pf in patchset:
        old, new = _plain_name(pf.source_file), _plain_name(pf.target_file)
        sides = [p for p in (old, new) if p is not None]
        if not sides:
            raise DiffError("a diff section where both sides are /dev/null", 1)
        prefixed = (old is None or old.startswith("a/")) and (new is None or new.startswith("b/"))
        if prefixed:
            old = old[2:] if old else None
            new = new[2:] if new else None
        target = new if new is not None else old
        assert target is not None
        section = str(pf)
        fp = FilePatch(old, new, section, 1)
        _hunks(fp, section)
        if fp.hunks and all(h.old_start == 0 and h.old_len == 0 for h in fp.hunks):
            fp.old_path, fp.new_path = None, target
        elif fp.hunks and all(h.new_start == 0 and h.new_len == 0 for h in fp.hunks):
            fp.old_path, fp.new_path = target, None
        else:
            chosen = None
            for name in (old, new):
                if chosen is None and name is not None and existing is not None:
                    chosen = existing(name)
            fp.old_path = fp.new_path = chosen or (old if old is not None else target)
        out.append(fp)
    return out
