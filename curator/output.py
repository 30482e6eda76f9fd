"""Printing results: JSON for scripts, plain lines for people.

Every path, title or other text from the vault that reaches a terminal goes
through ``escape``: a note named ``esc\\x1b[2Jname.md`` or a title with a newline
must not clear the screen, move the cursor or fake a line of Curator's output.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from curator.unsafe import UNSAFE, shown


def escape(text: str, *, lines: bool = False) -> str:
    """``text`` safe to print: control and reordering characters shown as ``\\xNN``/``\\uNNNN``.

    ``lines=True`` keeps newlines and tabs (a rationale, a multi-line reason).
    """
    return shown(text, keep="\n\t" if lines else "")


def emit_json(obj: Any) -> None:
    sys.stdout.write(dumps_json(obj) + "\n")


# JSON escapes the C0 controls inside strings itself; with ensure_ascii=False (ordinary text
# stays readable UTF-8) it would print the rest of the unsafe set raw: DEL, the C1 controls
# (\x9b is CSI, ESC [ in one byte), the bidi characters, the line and paragraph separators.
# Any lone surrogate goes too (a YAML "\ud800" escape makes one), which no UTF-8 stream can
# even write. The newlines left raw are the encoder's own indentation.
_JSON_RAW = re.compile(f"(?!\n)[{UNSAFE}\ud800-\udfff]")


def dumps_json(obj: Any) -> str:
    """``obj`` as indented JSON for a terminal or a pipe: the same values to any parser, with the
    characters a terminal would act on written as ``\\uXXXX`` escapes (they only occur inside strings)."""
    text = json.dumps(obj, ensure_ascii=False, indent=2, default=str)
    return _JSON_RAW.sub(_json_escape, text)


def _json_escape(m: re.Match[str]) -> str:
    """A character as JSON spells it: ``\\uXXXX``, or past the BMP (a tag character) its UTF-16
    surrogate pair, which every parser reads back as the one character."""
    code = ord(m.group(0))
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def one_line(text: str) -> str:
    """``escape`` that keeps tabs: what ``line``, ``warn`` and ``note`` print."""
    return shown(text, keep="\t")


def line(text: str = "") -> None:
    """One line to stdout. Escaped here, so no caller can forget: a newline in a title stays ``\\x0a``."""
    sys.stdout.write(one_line(text) + "\n")


def warn(text: str) -> None:
    sys.stderr.write(f"curator: warning: {one_line(text)}\n")


def note(text: str) -> None:
    sys.stderr.write(one_line(text) + "\n")


Level = Literal["note", "warning"]


@dataclass(frozen=True)
class Notice:
    """A line about how an answer came about, printed on stderr beside it.

    A ``note`` says what Curator did on the way (``reconciled first: 2 indexed, 0 removed``) and
    prints as it is; a ``warning`` says what may be wrong with the answer and prints after
    ``curator: warning:``. JSON carries both by their text, in the ``warnings`` list."""

    text: str
    level: Level = "warning"


def tell(notices: Iterable[Notice]) -> None:
    """Each notice on stderr, as its level says."""
    for n in notices:
        (note if n.level == "note" else warn)(n.text)


def texts(notices: Iterable[Notice]) -> list[str]:
    """The notices' texts, as ``--json`` and the MCP tools give them."""
    return [n.text for n in notices]


def safe_path(path: str) -> str:
    """A path that can be printed: control characters and undecodable bytes shown escaped."""
    return escape(path)
