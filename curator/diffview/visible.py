"""Untrusted text made safe to show in the review UI and ``apply``'s diff.

A proposal's title, paths and lines may carry escape sequences (ESC [ ... m
recolours or hides text, ESC ] can set the window title), carriage returns
that overwrite what came before, or bidirectional overrides that reorder what
a reviewer reads. None of them may reach the terminal: each is replaced by a
visible stand-in, so the reviewer sees that it is there. Which characters those
are is decided once, in ``curator.output`` (the CLI shows the same ones as
``\\xNN``); here they become symbols the renderers can style.
"""

from __future__ import annotations

import re

from curator.unsafe import shown

# Stand-ins the renderers style as "not really text" (see ``unsafe._picture``).
STAND_IN_RE = re.compile("[\u2400-\u2421]|⟨U\\+[0-9A-F]{4}⟩|⟨0x[0-9A-F]{2}⟩")


def visible(text: str, tab: int = 4) -> str:
    """``text`` with every control character shown as a symbol and tabs expanded."""
    if "\t" in text:
        text = text.expandtabs(tab)
    return shown(text, pictures=True)


def visible_line(line: str) -> str:
    """One line of a file, its line ending dropped (a CR before it stays visible as ␍)."""
    if line.endswith("\n"):
        line = line[:-1]
    return visible(line)
