"""The one set of characters that never reaches a person's screen, a commit or an agent raw.

C0 and C1 controls, DEL, the line and paragraph separators, the bidi marks, embeddings,
overrides and isolates (text that reorders itself on screen, the "Trojan Source" set), and
the lone surrogates that stand for undecodable bytes of a file name (``surrogateescape``),
which no terminal encoding can write; and the tag characters (U+E0000–U+E007F), invisible
letters that spell an instruction a model reads and a person never sees ("ASCII smuggling";
their one use in text, the subdivision flags, is given up). The CLI shows them escaped, the review UI as styled
symbols, the librarian and the sources drop them, the validator refuses them in paths and
in a manifest's text: each through this module, so all of them agree on what is unsafe.

Ordinary text is never in the set: a zero-width joiner (emoji sequences, Indic scripts) and
a no-break space (French punctuation) are text, not controls.
"""

from __future__ import annotations

import re
from functools import cache

UNSAFE = "\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\udc80-\udcff\U000e0000-\U000e007f"
"""A regular-expression character class body (without the brackets)."""


@cache
def pattern(keep: str = "") -> re.Pattern[str]:
    """The unsafe characters but those in ``keep``, as one compiled class."""
    return re.compile(f"(?![{re.escape(keep)}])[{UNSAFE}]" if keep else f"[{UNSAFE}]")


TERMINAL_CONTROLS = "\x00-\x08\x0b\x0e-\x1f\x7f-\x9f"
"""The controls a terminal acts on (ESC starts every escape sequence, C1 ``\x9b`` is one by
itself), short of the ones text is made of: tab, newline, form feed and carriage return."""


def first_terminal_control(text: str) -> tuple[int, str] | None:
    """(0-based offset, character) of the first terminal control in ``text``, or None."""
    found = re.search(f"[{TERMINAL_CONTROLS}]", text)
    return (found.start(), found.group(0)) if found else None


def first_unsafe(text: str, keep: str = "") -> str | None:
    """The first unsafe character of ``text`` (``keep`` aside), or None."""
    found = pattern(keep).search(text)
    return found.group(0) if found else None


def strip_unsafe(text: str, keep: str = "\n\t") -> str:
    """``text`` without its unsafe characters, keeping those in ``keep``."""
    return pattern(keep).sub("", text)


def _escaped(n: int) -> str:
    if 0xDC80 <= n <= 0xDCFF:  # an undecodable file-name byte
        return f"\\x{n - 0xDC00:02x}"
    if n > 0xFFFF:
        return f"\\U{n:08x}"
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
    return pattern(keep).sub(lambda m: stand_in(ord(m.group(0))), text)
