"""KP009: content is UTF-8 text within the size limits.

A line the proposal adds that carries a terminal control (ESC, a C1 control: what starts an
escape sequence that recolours, hides or retitles) is a warning, not a rejection: Curator
shows it escaped everywhere (``curator.unsafe``), but a reviewer should know it is there,
and so should whoever opens the note with ``cat``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from curator.proposals import filters
from curator.proposals.layout import DIFF, FILES
from curator.unsafe import first_terminal_control
from curator.validator.finding import Finding

if TYPE_CHECKING:
    from curator.settings import LimitSettings
    from curator.validator.state import RepoState
    from curator.validator.subject import ChangeView, Subject


def _kib(n: int) -> str:
    return f"{n / 1024:.0f} KiB" if n < 1024 * 1024 else f"{n / (1024 * 1024):.1f} MiB"


def over_file_limit(path: str, size: int, limits: LimitSettings, what: str = "the result") -> Finding | None:
    """KP009 when one file of ``size`` bytes is over ``limits.max_file_bytes``: what the rule says
    of a proposal's file, and what ``kp_propose`` says before it diffs a content that big."""
    if size <= limits.max_file_bytes:
        return None
    return Finding("KP009", path, f"{what} is {_kib(size)}, over limits.max_file_bytes ({_kib(limits.max_file_bytes)})")


def over_proposal_limit(path: str, size: int, limits: LimitSettings, what: str = "the proposal") -> Finding | None:
    """KP009 when ``size`` bytes are over ``limits.max_proposal_bytes`` (a proposal, or a diff given for one)."""
    if size <= limits.max_proposal_bytes:
        return None
    return Finding(
        "KP009", path, f"{what} holds {_kib(size)}, over limits.max_proposal_bytes ({_kib(limits.max_proposal_bytes)})"
    )


def check(subject: Subject, state: RepoState) -> Iterator[Finding]:
    limits = state.settings.limits
    p = subject.proposal
    too_big = over_proposal_limit(p.rel_dir, p.total_bytes, limits)
    if too_big is not None:
        yield too_big
    if subject.diff_not_utf8:
        yield Finding("KP009", f"{p.rel_dir}/{DIFF}", "changes.diff is not UTF-8; notes are UTF-8 text")
    for rel, stored in sorted(p.files.items()):
        where = rel
        if stored.size > limits.max_file_bytes:
            yield Finding(
                "KP009", where, f"{_kib(stored.size)} is over limits.max_file_bytes ({_kib(limits.max_file_bytes)})"
            )
            continue
        data = stored.data or b""
        if b"\x00" in data:
            yield Finding("KP009", where, f"binary content (NUL bytes) in {FILES}/{rel}; notes are text")
            continue
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as e:
            line = data.count(b"\n", 0, e.start) + 1
            yield Finding("KP009", where, f"{FILES}/{rel} is not UTF-8 (invalid byte at line {line})", line)
    for view in subject.changes:
        if view.patch is not None and view.patch.binary:
            yield Finding("KP009", view.change.path, "a binary patch; notes are text")
        post = view.post_text if view.change.op == "modify" else None
        if post is None:
            continue
        over = over_file_limit(view.change.path, len(post.encode("utf-8")), limits)
        if over is not None:
            yield over
        if "\x00" in post:
            yield Finding("KP009", view.change.path, "the result contains NUL bytes; notes are text")
    for view in subject.changes:
        yield from _line_endings(view, state)
    for view in subject.changes:
        yield from _controls(view)


def _line_endings(view: ChangeView, state: RepoState) -> Iterator[Finding]:
    """KP009 for a modify that changes only line endings git does not keep (``*.md text eol=lf``):
    git stores the result as it stores the note now, so the apply would commit nothing and leave
    CRLF in the work tree. A change that also changes text is taken, its CRLF lines stored as LF
    as ``git add`` would store them; where no attribute converts, CRLF is the file's own."""
    if view.change.op != "modify":
        return
    post, pre = view.post_text, view.pre_text
    if post is None or pre is None or post == pre or "\r" not in post:
        return
    repo, path = state.vault.repo, view.change.path
    if filters.clean(repo, path, post.encode("utf-8")) != filters.clean(repo, path, pre.encode("utf-8")):
        return
    yield Finding(
        "KP009",
        path,
        "the change is only CRLF line endings, which git stores as LF here (.gitattributes: text eol=lf): "
        "applied, it would commit nothing and leave CRLF in the work tree; propose a change of the text",
    )


def _controls(view: ChangeView) -> Iterator[Finding]:
    """A warning for the first added line holding a terminal control."""
    if view.change.op == "create":
        text = view.post_text
        added = [(n, line) for n, line in enumerate((text or "").split("\n"), start=1)]
    elif view.patch is not None and not view.patch.binary:
        added = []
        for h in view.patch.hunks:
            new_line = h.new_start if h.new_len else h.new_start + 1
            for kind, line in h.lines:
                if kind == "+":
                    added.append((new_line, line))
                if kind != "-":
                    new_line += 1
    else:
        return
    for no, line in added:
        found = first_terminal_control(line.rstrip("\n"))
        if found is not None:
            what = "ESC" if found[1] == "\x1b" else f"U+{ord(found[1]):04X}"
            yield Finding(
                "KP009",
                view.change.path,
                f"line {no} carries a terminal control ({what}); Curator shows it escaped, but a terminal that "
                "prints the file acts on it: remove it unless it is meant",
                no,
                warning=True,
            )
            return
