"""Rows as rich ``Text``: a gutter with both line numbers, colours, word highlights, markers.

Every ``Text`` is built from plain strings with ``Text(...)``/``append`` and
explicit styles; nothing here is ever parsed as markup, so a proposal line
such as ``[bold red]x[/]`` is shown as those characters.
"""

from __future__ import annotations

from functools import lru_cache

from rich.style import Style
from rich.text import Text

from curator.diffview import words
from curator.diffview.model import DiffModel
from curator.diffview.rows import ADDED, CONTEXT, CREATED, DELETED, FILE, HUNK, NOTE, Row
from curator.diffview.visible import STAND_IN_RE

S_FILE = Style(bold=True, color="bright_white", bgcolor="grey23")
S_HUNK = Style(color="cyan")
S_NOTE = Style(italic=True, color="grey62")
S_CTX = Style(color="grey70")
S_DEL = Style(color="red", bgcolor="#3a1414")
S_DEL_WORD = Style(color="bright_white", bgcolor="#8b2b2b", bold=True)
S_ADD = Style(color="green", bgcolor="#123612")
S_ADD_WORD = Style(color="bright_white", bgcolor="#2a7a2a", bold=True)
S_NEW = Style(color="grey85")
S_GUTTER = Style(color="grey50")
S_MANAGED = Style(color="black", bgcolor="yellow", bold=True)
S_STAND_IN = Style(color="black", bgcolor="magenta")
SIGNS = {CONTEXT: " ", DELETED: "-", ADDED: "+", CREATED: "+"}
STYLES = {CONTEXT: S_CTX, DELETED: S_DEL, ADDED: S_ADD, CREATED: S_NEW}
# The gutter's mark for a managed-region line: why KP004 fires, at a glance.
MANAGED_MARK = "M"


def gutter_width(model: DiffModel) -> int:
    """Digits for the largest line number shown."""
    return max(3, len(str(model.top_line)))


def _num(n: int | None, width: int) -> str:
    return str(n).rjust(width) if n is not None else " " * width


def _stand_ins(text: Text, offset: int, body: str) -> None:
    for m in STAND_IN_RE.finditer(body):
        text.stylize(S_STAND_IN, offset + m.start(), offset + m.end())


class Renderer:
    """Renders rows of one model; caches word highlights and syntax colours per row."""

    def __init__(self, model: DiffModel) -> None:
        self.model = model
        self.width = gutter_width(model)
        self._words = lru_cache(maxsize=4096)(self._word_spans)
        self._syntax: dict[int, list[Text]] = {}

    def _word_spans(self, index: int) -> list[tuple[int, int]] | None:
        row = self.model.rows[index]
        if row.pair is None:
            return None
        other = self.model.rows[row.pair]
        if row.kind == DELETED:
            found = words.changed_spans(row.text, other.text)
            return found[0] if found else None
        found = words.changed_spans(other.text, row.text)
        return found[1] if found else None

    def _highlighted(self, file: int) -> list[Text] | None:
        """A created note's lines with markdown colours (rich's Syntax), built on first use."""
        if file not in self._syntax:
            info = self.model.files[file]
            if info.syntax is None:
                return None
            from rich.syntax import Syntax

            # Highlight the visible text, so stand-ins for control characters line up.
            code = "\n".join(self.model.rows.created_lines(file))
            lines = Syntax(code, "markdown", theme="ansi_dark").highlight(code).split("\n", allow_blank=True)
            self._syntax[file] = list(lines)
        return self._syntax[file]

    def body(self, index: int) -> Text:
        """The row's text with its colours, without gutter."""
        row = self.model.rows[index]
        if row.kind == CREATED:
            lines = self._highlighted(row.file)
            if lines is not None and row.new is not None and row.new - 1 < len(lines):
                text = lines[row.new - 1].copy()
                text.end = ""
                _stand_ins(text, 0, row.text)
                return text
        style = STYLES.get(row.kind, S_NOTE)
        text = Text(row.text, style=style, end="")
        if row.kind in (DELETED, ADDED):
            spans = self._words(index)
            if spans:
                word = S_DEL_WORD if row.kind == DELETED else S_ADD_WORD
                for start, end in spans:
                    text.stylize(word, start, end)
        _stand_ins(text, 0, row.text)
        return text

    def number(self, n: int | None) -> str:
        """A line number as the gutter shows it (blank when the row has none on that side)."""
        return _num(n, self.width)

    def gutter(self, row: Row) -> Text:
        text = Text(end="")
        text.append(f"{self.number(row.old)} {self.number(row.new)} ", S_GUTTER)
        text.append(MANAGED_MARK if row.managed else " ", S_MANAGED if row.managed else S_GUTTER)
        text.append(SIGNS.get(row.kind, " "), STYLES.get(row.kind, S_GUTTER))
        return text

    def half_gutter(self, row: Row, old_side: bool) -> Text:
        """A side of a split row's gutter: that side's line number, the mark and the sign."""
        text = Text(end="")
        text.append(f"{self.number(row.old if old_side else row.new)} ", S_GUTTER)
        text.append(MANAGED_MARK if row.managed else " ", S_MANAGED if row.managed else S_GUTTER)
        text.append(SIGNS.get(row.kind, " "), STYLES.get(row.kind, S_GUTTER))
        return text

    def header_plain(self, index: int) -> str:
        """The characters ``unified`` shows for a header row (a file, hunk or note), unstyled:
        what the layout wraps without building styled text for every header."""
        row = self.model.rows[index]
        if row.kind == FILE:
            drift = self.model.files[row.file].drift
            return f" {row.text}" + (f"  [{drift}]" if drift else "")
        if row.kind == NOTE:
            return f"  {row.text}"
        return row.text

    def unified(self, index: int) -> Text:
        """One row of the unified view: gutter, sign and text; headers span the line."""
        row = self.model.rows[index]
        if row.kind in (FILE, HUNK, NOTE):
            style = S_FILE if row.kind == FILE else S_HUNK if row.kind == HUNK else S_NOTE
            text = Text(self.header_plain(index), style=style, end="")
            if row.kind == FILE:
                _stand_ins(text, 1, row.text)
            return text
        line = self.gutter(row)
        line.append_text(self.body(index))
        return line


def split_rows(model: DiffModel) -> list[tuple[int | None, int | None, int | None]]:
    """Rows of the side-by-side view: (whole-width row, old side, new side)."""
    out: list[tuple[int | None, int | None, int | None]] = []
    kinds = model.rows.kinds()
    i = 0
    while i < len(kinds):
        kind = kinds[i]
        if kind in (FILE, HUNK, NOTE):
            out.append((i, None, None))
            i += 1
        elif kind == CONTEXT:
            out.append((None, i, i))
            i += 1
        elif kind == CREATED:
            out.append((None, None, i))
            i += 1
        else:
            dels, adds = [], []
            while i < len(kinds) and kinds[i] == DELETED:
                dels.append(i)
                i += 1
            while i < len(kinds) and kinds[i] == ADDED:
                adds.append(i)
                i += 1
            for n in range(max(len(dels), len(adds))):
                out.append((None, dels[n] if n < len(dels) else None, adds[n] if n < len(adds) else None))
    return out
