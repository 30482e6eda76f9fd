"""KP004: managed regions belong to their producer, markers included."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from curator.proposals.hunks import Placed, old_lines, split_lines
from curator.validator.finding import Finding
from curator.vault.regions import find as find_regions
from curator.vault.regions import line_in_regions, marker_on

if TYPE_CHECKING:
    from curator.validator.state import RepoState
    from curator.validator.subject import ChangeView, Subject


def check(subject: Subject, state: RepoState) -> Iterator[Finding]:
    producers = state.settings.producers.names
    for view in subject.changes:
        if not view.readable:
            continue
        op = view.change.op
        if op == "create":
            yield from _created(view, producers)
        elif view.patch is not None:
            yield from _patched(view, producers)


def _created(view: ChangeView, producers: tuple[str, ...]) -> Iterator[Finding]:
    text = view.post_text
    if text is None:
        return
    for no, line in enumerate(split_lines(text), start=1):
        if marker_on(line, producers):
            yield Finding(
                "KP004", view.change.path, "adds a managed-region marker; only the producer writes its regions", no
            )


def _patched(view: ChangeView, producers: tuple[str, ...]) -> Iterator[Finding]:
    """Each hunk judged where it applies (``hunks.old_lines``), in the base and in the work tree's
    file alike, never where its header says: a header is the proposer's claim, and a hunk whose
    context matches inside a region elsewhere is applied there."""
    assert view.patch is not None
    hunks = view.patch.hunks
    images: list[tuple[str, list[Placed]]] = []
    base_text = _decode(view.base_bytes)
    if base_text is not None and view.base_conflict is None and len(view.base_placed) == len(hunks):
        images.append((base_text, view.base_placed))
    current_text = _decode(view.current_bytes)
    if current_text is not None and view.current_conflict is None and len(view.current_placed) == len(hunks):
        images.append((current_text, view.current_placed))
    if not images and view.pre_text is not None:
        # Applies nowhere (KP005 says so): judged at the header's lines, the only place it names.
        images.append((view.pre_text, []))
    seen: set[Finding] = set()
    for text, placed in images:
        for finding in _judged(view, producers, text, placed):
            if finding not in seen:
                seen.add(finding)
                yield finding


def _decode(raw: bytes | None) -> str | None:
    try:
        return None if raw is None else raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _judged(view: ChangeView, producers: tuple[str, ...], pre: str, placed: list[Placed]) -> Iterator[Finding]:
    path = view.change.path
    regions = find_regions(split_lines(pre), producers)[0]
    assert view.patch is not None
    hunks = view.patch.hunks
    starts = old_lines(hunks, placed) if placed else [h.old_start if h.old_len else h.old_start + 1 for h in hunks]
    for h, old_line in zip(hunks, starts, strict=True):
        for kind, text in h.lines:
            if kind == " ":
                old_line += 1
                continue
            if kind == "-":
                if marker_on(text, producers):
                    yield Finding(
                        "KP004",
                        path,
                        "removes a managed-region marker; the producer's region must stay whole",
                        old_line,
                    )
                elif line_in_regions(old_line, regions):
                    r = line_in_regions(old_line, regions)
                    assert r is not None
                    yield Finding(
                        "KP004",
                        path,
                        f"changes a line inside the {r.producer} region {r.name!r} (lines {r.start_line}-{r.end_line}); the producer re-renders it",
                        old_line,
                    )
                old_line += 1
            else:
                if marker_on(text, producers):
                    yield Finding(
                        "KP004",
                        path,
                        "adds a managed-region marker (forged); only the producer writes markers",
                        old_line,
                    )
                    continue
                # An added line lands between old_line-1 and old_line: inside a region
                # when both neighbours are in the same region.
                r = line_in_regions(old_line - 1, regions)
                if r is not None and r.start_line <= old_line - 1 < r.end_line:
                    yield Finding(
                        "KP004",
                        path,
                        f"adds a line inside the {r.producer} region {r.name!r} (lines {r.start_line}-{r.end_line}); the producer re-renders it",
                        old_line,
                    )
    if view.change.op == "delete" and regions:
        yield Finding(
            "KP004", path, "deletes a note with a managed region; the producer owns those lines", regions[0].start_line
        )
