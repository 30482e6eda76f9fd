"""Counting work, not seconds: what a test asserts about cost.

A timed ratio inside a test fails on a busy machine (4x the input measured 9.6x the time at a
load of 13, with nothing quadratic in it). What ``counting`` measures is the same on any machine:

- ``lines``: lines of Curator's own code executed (``sys.settrace``, Curator's frames only), so a
  loop that runs once per character for every opener of a never-closed link is seen at once;
- ``scanned``: characters Curator's compiled regular expressions must have read: from where a
  search starts to the end of what it found (to the end of its window when it found nothing), a
  whole string for ``finditer``, ``findall``, ``sub`` and ``split`` (every module-level pattern of
  a loaded ``curator`` module is wrapped while counting); so searching to the end again from
  each position, the square of a line, is seen.

Not counted: work inside C code beyond what it is given (a regular expression that backtracks
within one call, a ``str.find`` from each position). Tests back the count up with
``cpu_seconds``, bounded a hundred times above the usual cost: the CPU time of this process,
which a busy machine does not lengthen as it lengthens the wall clock. ``benchmarks/`` times the
whole.
"""
from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import curator

PACKAGE = str(Path(curator.__file__).resolve().parent)
T = TypeVar("T")


@dataclass
class Work:
    lines: int = 0
    """Lines of Curator's own code executed."""
    scanned: int = 0
    """Characters handed to Curator's regular expressions (from where each call starts)."""

    @property
    def total(self) -> int:
        return self.lines + self.scanned


class _Counting:
    """A compiled pattern that adds what each call is given to scan to ``work.scanned``."""

    def __init__(self, pattern: re.Pattern[Any], work: Work) -> None:
        self._pattern, self._work = pattern, work

    def __getattr__(self, name: str) -> Any:
        return getattr(self._pattern, name)

    def _given(self, string: Any, pos: int = 0, endpos: int | None = None) -> None:
        end = len(string) if endpos is None else min(endpos, len(string))
        self._work.scanned += max(0, end - pos)

    def _looked_at(self, found: Any, string: Any, pos: int, endpos: int, anchored: bool) -> Any:
        """What one search or match must have read: up to the end of what it found, else (a
        search) its whole window, or (an anchored match that failed) its first character."""
        if found is not None:
            self._work.scanned += max(1, found.end() - pos)
        elif anchored:
            self._work.scanned += 1
        else:
            self._given(string, pos, endpos)
        return found

    def search(self, string, pos=0, endpos=sys.maxsize):  # type: ignore[no-untyped-def]
        return self._looked_at(self._pattern.search(string, pos, endpos), string, pos, endpos, False)

    def match(self, string, pos=0, endpos=sys.maxsize):  # type: ignore[no-untyped-def]
        return self._looked_at(self._pattern.match(string, pos, endpos), string, pos, endpos, True)

    def fullmatch(self, string, pos=0, endpos=sys.maxsize):  # type: ignore[no-untyped-def]
        return self._looked_at(self._pattern.fullmatch(string, pos, endpos), string, pos, endpos, True)

    def finditer(self, string, pos=0, endpos=sys.maxsize):  # type: ignore[no-untyped-def]
        self._given(string, pos, endpos)
        return self._pattern.finditer(string, pos, endpos)

    def findall(self, string, pos=0, endpos=sys.maxsize):  # type: ignore[no-untyped-def]
        self._given(string, pos, endpos)
        return self._pattern.findall(string, pos, endpos)

    def sub(self, repl, string, count=0):  # type: ignore[no-untyped-def]
        self._given(string)
        return self._pattern.sub(repl, string, count)

    def subn(self, repl, string, count=0):  # type: ignore[no-untyped-def]
        self._given(string)
        return self._pattern.subn(repl, string, count)

    def split(self, string, maxsplit=0):  # type: ignore[no-untyped-def]
        self._given(string)
        return self._pattern.split(string, maxsplit)


@contextmanager
def counting() -> Iterator[Work]:
    from curator.script_pattern import ScriptPattern

    work = Work()
    patched: list[tuple[Any, str, Any]] = []
    lazy: list[tuple[ScriptPattern, re.Pattern[str]]] = []
    for name, module in list(sys.modules.items()):
        if not (name == "curator" or name.startswith("curator.")):
            continue
        for attr, value in list(vars(module).items()):
            if isinstance(value, re.Pattern):
                patched.append((module, attr, value))
                setattr(module, attr, _Counting(value, work))
            elif isinstance(value, ScriptPattern) and not isinstance(value._compiled, _Counting):
                # Compiled now, so what it scans is counted (ASCII text it answers unread).
                lazy.append((value, value.compiled))
                value._compiled = _Counting(value.compiled, work)  # type: ignore[assignment]

    def local(frame: Any, event: str, arg: Any) -> Any:
        if event == "line":
            work.lines += 1
        return local

    def global_(frame: Any, event: str, arg: Any) -> Any:
        return local if frame.f_code.co_filename.startswith(PACKAGE) else None

    sys.settrace(global_)
    try:
        yield work
    finally:
        sys.settrace(None)
        for module, attr, value in patched:
            setattr(module, attr, value)
        for script, compiled in lazy:
            script._compiled = compiled


def work_of(fn: Callable[[], object]) -> Work:
    with counting() as work:
        fn()
    return work


def cpu_seconds(fn: Callable[[], object]) -> float:
    """The CPU time ``fn`` takes in this process (not the wall clock: another process's load does
    not count), the better of two runs."""
    best = float("inf")
    for _ in range(2):
        started = time.process_time()
        fn()
        best = min(best, time.process_time() - started)
    return best
