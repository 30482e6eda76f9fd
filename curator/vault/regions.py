"""Managed regions: lines a producer re-renders (SPEC §1).

``<!-- curio:begin summary -->`` … ``<!-- curio:end summary -->``, inclusive,
for each producer named in the config. Marker matching is lenient about case
and spacing so that a near-miss forgery is still recognised as a marker.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

MARKER_RE = re.compile(
    r"<!--\s*([A-Za-z0-9_.-]+?)\s*:\s*(begin|end)\b\s*([\w.:/]+(?:-[\w.:/]+)*)?\s*-*>?", re.IGNORECASE
)


@dataclass(frozen=True)
class Region:
    producer: str
    name: str
    start_line: int
    """1-based line of the begin marker."""
    end_line: int
    """1-based line of the end marker (inclusive)."""


@dataclass(frozen=True)
class RegionProblem:
    line: int
    message: str


def marker_on(line: str, producers: Iterable[str]) -> tuple[str, str, str] | None:
    """(producer, begin|end, name) when the line carries a marker of a known producer."""
    if "<!--" not in line:  # every marker starts so; the regex search costs ten times more
        return None
    m = MARKER_RE.search(line)
    if not m:
        return None
    wanted = {p.lower() for p in producers}
    if m.group(1).lower() not in wanted:
        return None
    return m.group(1).lower(), m.group(2).lower(), m.group(3) or ""


def find(lines: list[str], producers: Iterable[str]) -> tuple[list[Region], list[RegionProblem]]:
    producers = tuple(producers)
    regions: list[Region] = []
    problems: list[RegionProblem] = []
    open_: tuple[str, str, int] | None = None
    for no, line in enumerate(lines, start=1):
        if "<!--" not in line:
            continue
        marker = marker_on(line, producers)
        if marker is None:
            continue
        producer, kind, name = marker
        if kind == "begin":
            if open_ is not None:
                problems.append(RegionProblem(no, f"{producer}:begin {name} inside region {open_[1]}"))
                continue
            open_ = (producer, name, no)
        else:
            if open_ is None or (open_[0], open_[1]) != (producer, name):
                problems.append(RegionProblem(no, f"{producer}:end {name} without its begin"))
                continue
            regions.append(Region(producer, name, open_[2], no))
            open_ = None
    if open_ is not None:
        problems.append(RegionProblem(open_[2], f"{open_[0]}:begin {open_[1]} is never closed"))
    return regions, sorted(problems, key=lambda p: p.line)


def line_in_regions(line: int, regions: Iterable[Region]) -> Region | None:
    for r in regions:
        if r.start_line <= line <= r.end_line:
            return r
    return None
