"""Printing results: JSON for scripts, plain lines for people.

Every path, title or other text from the vault that reaches a terminal goes
through ``escape``: a note named ``esc\\x1b[2Jname.md`` or a title with a newline
must not clear the screen, move the cursor or fake a line of Curator's output.
"""

from __future__ import annotations

import json
import re
import sys
from functools import cache
from typing import Any

# The one set of characters that never reaches a terminal raw, for the CLI and the
# review UI alike: C0 and C1 controls, DEL, the line/paragraph separators, the bidi
# marks, embeddings, overrides and isolates (text that reorders itself on screen, the
# "Trojan Source" set), and the lone surrogates that stand for undecodable bytes of a
# file name (``surrogateescape``), which no terminal encoding can write.
UNSAFE = "\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\udc80-\udcff"


@cache
def _unsafe(keep: str) -> re.Pattern[str]:
    return re.compile(f"(?![{keep}])[{UNSAFE}]" if keep else f"[{UNSAFE}]")


def _escaped(n: int) -> str:
    if 0xDC80 <= n <= 0xDCFF:  # an undecodable file-name byte
        return f"\\x{n - 0xDC00:02x}"
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


def _picture(n: int) -> str:
    if n < 0x20:
        return chr(0x2400 + n)  # ␀ … ␟ (Unicode "control pictures")
    if n == 0x7F:
        return "\u2421"  # ␡
    if 0xDC80 <= n <= 0xDCFF:
        return f"⟨0x{n - 0xDC00:02X}⟩"
    return f"⟨U+{n:04X}⟩"


def shown(text: str, *, keep: str = "", pictures: bool = False) -> str:
    """``text`` with every unsafe character but those in ``keep`` replaced by a visible stand-in.

    The stand-ins are ``\\xNN``/``\\uNNNN`` for plain output, or with ``pictures`` the
    symbols the review UI styles (``␛``, ``⟨U+202E⟩``, ``⟨0xE9⟩`` for an undecodable byte).
    """
    stand_in = _picture if pictures else _escaped
    return _unsafe(keep).sub(lambda m: stand_in(ord(m.group(0))), text)


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
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


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


def safe_path(path: str) -> str:
    """A path that can be printed: control characters and undecodable bytes shown escaped."""
    return escape(path)
