"""Printing results: JSON for scripts, plain lines for people.

Every path, title or other text from the vault that reaches a terminal goes
through ``escape``: a note named ``esc\\x1b[2Jname.md`` or a title with a newline
must not clear the screen, move the cursor or fake a line of Curator's output.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

# C0 and C1 controls, DEL, the line/paragraph separators and the bidi embedding,
# override and isolate characters (text that reorders itself on screen).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\udc80-\udcff]")
_UNSAFE_KEEP_LINES = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\udc80-\udcff]")
_UNSAFE_KEEP_TABS = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\udc80-\udcff]")


def _show(m: re.Match[str]) -> str:
    c = m.group(0)
    n = ord(c)
    if 0xDC80 <= n <= 0xDCFF:  # an undecodable file-name byte (surrogateescape)
        return f"\\x{n - 0xDC00:02x}"
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


def escape(text: str, *, lines: bool = False) -> str:
    """``text`` safe to print: control and reordering characters shown as ``\\xNN``/``\\uNNNN``.

    ``lines=True`` keeps newlines and tabs (a rationale, a multi-line reason).
    """
    return (_UNSAFE_KEEP_LINES if lines else _UNSAFE).sub(_show, text)


def emit_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2, default=str) + "\n")


def one_line(text: str) -> str:
    """``escape`` that keeps tabs: what ``line``, ``warn`` and ``note`` print."""
    return _UNSAFE_KEEP_TABS.sub(_show, text)


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
