"""Untrusted text made safe to show: control characters become visible symbols.

A proposal's title, paths and lines may carry escape sequences (ESC [ ... m
recolours or hides text, ESC ] can set the window title), carriage returns
that overwrite what came before, or bidirectional overrides that reorder what
a reviewer reads. None of them may reach the terminal: each is replaced by a
visible stand-in, so the reviewer sees that it is there.
"""

from __future__ import annotations

import re

# C0 controls (tab aside), DEL, C1 controls, and the Unicode bidi controls and
# invisible separators that reorder or hide text (the "Trojan Source" set).
_CONTROL_RE = re.compile("[\x00-\x08\x0a-\x1f\x7f\x80-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
# Stand-ins the renderers style as "not really text".
STAND_IN_RE = re.compile("[\u2400-\u2421]|⟨U\\+[0-9A-F]{4}⟩")


def _stand_in(m: re.Match[str]) -> str:
    c = m.group(0)
    code = ord(c)
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ … ␟ (Unicode "control pictures")
    if code == 0x7F:
        return "\u2421"  # ␡
    return f"⟨U+{code:04X}⟩"


def visible(text: str, tab: int = 4) -> str:
    """``text`` with every control character shown as a symbol and tabs expanded."""
    if "\t" in text:
        text = text.expandtabs(tab)
    return _CONTROL_RE.sub(_stand_in, text)


def visible_line(line: str) -> str:
    """One line of a file, its line ending dropped (a CR before it stays visible as ␍)."""
    if line.endswith("\n"):
        line = line[:-1]
    return visible(line)
