"""A regex of characters outside ASCII (a script's ranges), compiled when first needed.

Python's regex compiler builds a character class's map code point by code point: the CJK
classes of the language detector and the segmenter took 13 ms to compile in every process
(a `curator search` starts in about 150 ms), though most questions and most notes are ASCII.
Such a pattern cannot match ASCII text, so that text is answered without compiling it.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator


class ScriptPattern:
    """``re.compile(pattern)`` for a pattern that matches no ASCII character, compiled on the
    first text that holds a character outside ASCII."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern)
        return self._compiled

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return None if text.isascii() else self.compiled.search(text, pos, endpos)

    def findall(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> list[str]:
        return [] if text.isascii() else self.compiled.findall(text, pos, endpos)

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return iter(()) if text.isascii() else self.compiled.finditer(text, pos, endpos)
