"""Revisions: a new proposal (a new ULID) that supersedes an earlier one.

A revision is an ordinary proposal whose manifest says ``supersedes: OLD``; the old one
gets a ``superseded`` event whose reason names the new one and says how it came about
(``HOW``). Five ways make one, all staged by ``curator.operations.revise``:

- ``rebased``: ``curator rebase``, the change redone against the files as they are now;
- ``partly accepted``: a reviewer keeps some files or hunks (``curator apply --only`` or
  ``--hunks``, space and ``f`` in ``curator review``); the author stays, the reviewer is
  ``revised_by``;
- ``edited``: a reviewer edits the proposed file before applying (``e`` in the review);
  the revision is the reviewer's own;
- ``revised``: the author's answer to a request for changes (``kp_propose`` with
  ``revises``).

This module is the format's side: which hunks a selection keeps (``Selection``, and the
``--hunks`` syntax), the diff section holding only those hunks, and the revision chains
the queue shows (v1 → v2).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from curator.errors import UsageError
from curator.vault.paths import escape_reason

if TYPE_CHECKING:
    from curator.proposals.diff import FilePatch

HOW = {
    "rebase": "rebased",
    "partial": "partly accepted",
    "edit": "edited",
    "answer": "revised",
}
"""How a revision came about, as the old proposal's ``superseded`` reason says it."""


def superseded_reason(how: str, new: str) -> str:
    """The ``superseded`` event's reason: it names the new revision (the validator checks that)."""
    return f"{HOW[how]} into {new}"


HUNKS_SYNTAX = "PATH:N[,N...] (hunk numbers as the diff shows them, from 1; a range N-M)"
_NUMBERS = re.compile(r"^\s*\d+\s*(-\s*\d+\s*)?$")


@dataclass
class Selection:
    """What a reviewer keeps of a proposal: whole files, and numbered hunks of others."""

    whole: set[str] = field(default_factory=set)
    hunks: dict[str, set[int]] = field(default_factory=dict)
    """Path → the 1-based numbers of the hunks kept (as the diff view numbers them)."""

    @property
    def empty(self) -> bool:
        return not self.whole and not any(self.hunks.values())

    def paths(self) -> list[str]:
        return sorted(self.whole | {p for p, n in self.hunks.items() if n})

    def kept(self, path: str, count: int) -> list[int]:
        """The hunk numbers kept of ``path``, which has ``count`` hunks (all of them for a whole file)."""
        if path in self.whole:
            return list(range(1, count + 1))
        return sorted(self.hunks.get(path, ()))

    def describe(self, counts: Mapping[str, int]) -> str:
        """One line: what is kept, e.g. ``notes/a.md hunk 1 of 2; notes/b.md``."""
        bits = []
        for path in self.paths():
            n = counts.get(path, 0)
            kept = self.kept(path, n)
            if path in self.whole or (n and len(kept) == n):
                bits.append(path)
            else:
                nums = ", ".join(str(k) for k in kept)
                bits.append(f"{path} hunk{'s' * (len(kept) != 1)} {nums} of {n}")
        return "; ".join(bits)


def parse_hunks(spec: str) -> tuple[str, set[int]]:
    """``PATH:1,3`` or ``PATH:2-4`` → the path and its hunk numbers; UsageError on anything else."""
    path, sep, numbers = spec.rpartition(":")
    if not sep or not path or not numbers.strip():
        raise UsageError(f"--hunks {spec!r}: expected {HUNKS_SYNTAX}")
    chosen: set[int] = set()
    for part in numbers.split(","):
        if not _NUMBERS.match(part):
            raise UsageError(f"--hunks {spec!r}: {part.strip()!r} is not a hunk number or range; expected {HUNKS_SYNTAX}")
        first, _, last = part.partition("-")
        lo, hi = int(first), int(last or first)
        if lo < 1 or hi < lo:
            raise UsageError(f"--hunks {spec!r}: hunks are numbered from 1, and a range goes up (N-M with N <= M)")
        if hi - lo > 100_000:
            raise UsageError(f"--hunks {spec!r}: the range {lo}-{hi} is larger than any diff")
        chosen.update(range(lo, hi + 1))
    return path, chosen


def selection_of(only: Iterable[str], hunks: Iterable[str]) -> Selection:
    """The selection ``--only PATH`` and ``--hunks SPEC`` options give (paths checked later, against
    the proposal: ``check``)."""
    sel = Selection()
    for path in only:
        sel.whole.add(path)
    for spec in hunks:
        path, numbers = parse_hunks(spec)
        sel.hunks.setdefault(path, set()).update(numbers)
    return sel


def check(sel: Selection, ops: Mapping[str, str], counts: Mapping[str, int]) -> None:
    """Every path the selection names is one the proposal changes, and every hunk number is one
    of that file's; a one-line UsageError otherwise. ``ops``: path → op; ``counts``: path → hunks."""
    if sel.empty:
        raise UsageError("nothing selected: name at least one file (--only) or hunk (--hunks)")
    for path in sorted(sel.whole | set(sel.hunks)):
        why = escape_reason(path)
        if why is not None:
            raise UsageError(f"{path!r} is not a vault path ({why}); name a file the proposal changes")
        if path not in ops:
            shown = ", ".join(sorted(ops)[:5]) + (" …" if len(ops) > 5 else "")
            raise UsageError(f"{path} is not a file this proposal changes (it changes {shown})")
    for path, numbers in sorted(sel.hunks.items()):
        if path in sel.whole or not numbers:
            continue
        if ops[path] == "create":
            raise UsageError(f"{path} is a new note, taken whole or not at all: use --only {path}")
        n = counts.get(path, 0)
        beyond = sorted(k for k in numbers if k > n)
        if beyond:
            raise UsageError(
                f"{path} has {n} hunk{'s' * (n != 1)}; there is no hunk {beyond[0]} (hunks are numbered 1-{n})"
            )
        if ops[path] == "delete" and len(numbers) != n:
            raise UsageError(f"{path} is deleted whole or not at all: use --only {path}")


def section(fp: FilePatch, keep: Sequence[int]) -> str:
    """``fp``'s diff section holding only the hunks numbered ``keep`` (1-based), each as it was:
    the same lines at the same place in the base, the new side renumbered for the hunks left out."""
    from curator.proposals.diff import render_hunk  # unidiff: not for the queue's first paint

    lines = fp.text.splitlines(keepends=True)
    head = []
    for ln in lines:
        if ln.startswith("@@"):
            break
        head.append(ln)
    out = ["".join(head)]
    delta = 0
    wanted = set(keep)
    for n, h in enumerate(fp.hunks, start=1):
        if n not in wanted:
            continue
        old_start = h.old_start
        new_start = (old_start if h.old_len else old_start + 1) + delta
        out.append(render_hunk(h, old_start, new_start if h.new_len else new_start - 1))
        delta += h.new_len - h.old_len
    return "".join(out)


@dataclass(frozen=True)
class Link:
    """One proposal in a revision chain."""

    id: str
    version: int
    """1 for the first proposal, 2 for its first revision, and so on."""
    supersedes: str | None


def chains(supersedes: Mapping[str, str | None]) -> dict[str, Link]:
    """Each proposal's place in its revision chain, from what each manifest ``supersedes``.

    A chain that loops (hand-edited manifests) or names a proposal not in view is cut there."""
    links: dict[str, Link] = {}

    def version(ulid: str, seen: frozenset[str]) -> int:
        if ulid not in links:
            old = supersedes.get(ulid)
            if old is None:
                v = 1
            elif old not in supersedes:
                v = 2  # a revision of a proposal no longer in view
            elif old in seen:
                v = 1  # a loop: cut here
            else:
                v = version(old, seen | {ulid}) + 1
            links[ulid] = Link(ulid, v, old)
        return links[ulid].version

    for ulid in sorted(supersedes):
        version(ulid, frozenset())
    return links


def chain_of(ulid: str, links: Mapping[str, Link], newer: Mapping[str, str] | None = None) -> list[str]:
    """The ids of ``ulid``'s chain, oldest first, as far as the proposals in ``links`` reach."""
    out = [ulid]
    seen = {ulid}
    here = links.get(ulid)
    while here is not None and here.supersedes and here.supersedes not in seen:
        out.insert(0, here.supersedes)
        seen.add(here.supersedes)
        here = links.get(here.supersedes)
    by_old = dict(newer or {})
    if newer is None:
        for link in links.values():
            if link.supersedes:
                by_old.setdefault(link.supersedes, link.id)
    tip = ulid
    while tip in by_old and by_old[tip] not in seen:
        tip = by_old[tip]
        out.append(tip)
        seen.add(tip)
    return out
