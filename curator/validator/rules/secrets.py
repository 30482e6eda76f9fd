"""KP011: a secret the proposal would add to the vault, named by its kind: a warning.

An agent (or a person) may stage a note that carries a key, a token or a password, pasted from
a shell session or a ``.env`` file; once applied it sits in git history for good. The leak
scanner (``curator.leaks``, the one judge of what is a secret) reads what the change adds: every
line of a created note, the lines a modify adds, and the values of frontmatter fields that are
new or changed (a ``key: value`` pair judged as the pair, so ``password: hunter2hunter2`` and a
multi-line value count). A secret that the note already held before the change (a line moved or
re-indented) is not added, and is not reported.

A modify is scanned where its hunks apply, not whole: each hunk's changed lines widened to the
lines the scanner judges them with (``leak_blocks.settles``), in the note before and after; what the
after holds that the before did not is what the change adds. Scanning whole notes before and
after was two thirds of validating a 6,500-note ``curator adopt`` proposal that adds one line to
each; a note holding a PEM block, whose lines belong together at any distance, is still scanned
whole. The before is the file the change applies to (the work tree's, else the base blob), so a
person's own uncommitted lines are not taken for the proposal's.

A warning, never an error: a person may mean it (a test key, a documented example the scanner
takes for a real one), and decides in ``curator review``. The finding names the kind of secret
and the line, never the secret itself; a frontmatter key is named as the scanner would show it
(a key that is itself a secret is redacted).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from curator import leak_blocks, leaks, redaction
from curator.validator.finding import Finding
from curator.vault import frontmatter

if TYPE_CHECKING:
    from curator.proposals.hunks import Placed
    from curator.validator.state import RepoState
    from curator.validator.subject import ChangeView, Subject

CODE = "KP011"
IDENTITY = "kp_id"
MAX_FIELDS = 2000
"""Frontmatter fields judged one by one in a note (a frontmatter is bounded on read; this bounds
the walk of a deep one too)."""


def check(subject: Subject, state: RepoState) -> Iterator[Finding]:
    for view in subject.changes:
        if not view.readable or view.change.op == "delete":
            continue
        pair = _before_after(view)
        if pair is None:
            continue
        pre, post, placed = pair
        fields = list(_in_frontmatter(view, post, pre))
        # A field warned for by its key is not warned for again by the lines its value spans.
        covered = {n for _finding, lines in fields for n in lines}
        identity = _identity_line(view, post)
        yield from _in_lines(view, _added(view, pre, post, placed, identity), identity, covered)
        yield from (finding for finding, _lines in fields)


def _before_after(view: ChangeView) -> tuple[str | None, str, Sequence[Placed]] | None:
    """(the text the change applies to, what it makes of it, where its hunks landed): None for
    the before of a create; None in all when there is no after to judge."""
    if view.change.op == "create":
        post = view.post_text
        return None if post is None else (None, post, ())
    if view.post_from_current is not None:
        return _text(view.current_bytes), view.post_from_current, view.current_placed
    if view.post_from_base is not None:
        return _text(view.base_bytes), view.post_from_base, view.base_placed
    return None


def _text(raw: bytes | None) -> str | None:
    try:
        return None if raw is None else raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


Around = tuple[range, set[int], range, set[int]]
"""A neighbourhood of a change: (lines of the before, those it removes, lines of the after,
those it adds), 0-based in each text."""


def _neighbourhoods(view: ChangeView, pre: str, post: str, placed: Sequence[Placed]) -> list[Around] | None:
    """The lines around each hunk's changed lines, widened to ``leak_blocks.settles`` lines and merged
    where they meet: outside them the two texts are the same lines, read alike. None: the note is
    to be scanned whole."""
    hunks = view.patch.hunks if view.patch is not None else []
    if len(placed) != len(hunks) or leak_blocks.has_blocks(pre) or leak_blocks.has_blocks(post):
        return None
    after = post.split("\n")
    out: list[Around] = []
    shift = 0  # lines the hunks above have added (less removed)
    for hunk, where in zip(hunks, placed, strict=True):
        old_at, new_at = where.at - shift, where.at
        shift += len(hunk.postimage) - len(hunk.preimage)
        removed: set[int] = set()
        added: set[int] = set()
        o, n = old_at, new_at
        for kind, _line in hunk.lines:
            if kind == "-":
                removed.add(o)
            elif kind == "+":
                added.add(n)
            o += kind != "+"
            n += kind != "-"
        if not removed and not added:
            continue
        # The changed lines' span in each text; above and below it the two agree line for line.
        top, bottom = _lead(hunk.lines), _trail(hunk.lines)
        new_first, new_stop = new_at + top, new_at + len(hunk.postimage) - bottom
        old_first, old_stop = old_at + top, old_at + len(hunk.preimage) - bottom
        start = next((i for i in range(new_first - 1, -1, -1) if leak_blocks.settles(after[i])), 0)
        stop = next((i for i in range(new_stop, len(after)) if leak_blocks.settles(after[i])), len(after))
        old = range(old_first - (new_first - start), old_stop + (stop - new_stop))
        new = range(start, stop)
        if out and new.start < out[-1][2].stop:
            last = out.pop()
            old, new = range(last[0].start, old.stop), range(last[2].start, new.stop)
            removed, added = removed | last[1], added | last[3]
        out.append((old, removed, new, added))
    return out


def _lead(lines: list[tuple[str, str]]) -> int:
    """Context lines at the top of a hunk."""
    return next((i for i, (kind, _text) in enumerate(lines) if kind != " "), len(lines))


def _trail(lines: list[tuple[str, str]]) -> int:
    """Context lines at the bottom of a hunk."""
    return next((i for i, (kind, _text) in enumerate(reversed(lines)) if kind != " "), len(lines))


def _found(lines: list[str], span: range, changed: set[int]) -> list[leaks.Leak]:
    """``leaks.scan`` of ``lines[span]`` judging only the ``changed`` lines alone (the others are
    the same in both texts), numbered as in the whole."""
    part = "\n".join(lines[span.start : span.stop])
    only = [n - span.start for n in changed]
    return [replace(k, line=k.line + span.start) for k in leaks.scan(part, only)]


def _added(
    view: ChangeView, pre: str | None, post: str, placed: Sequence[Placed], identity: int | None = None
) -> tuple[list[leaks.Leak], Counter[tuple[str, str]], list[str]]:
    """(what the scanner finds in the after where the change is, the same of the before as
    (kind, value) counts, the after's lines). The ``identity`` line, judged by KP006 and never
    warned for, is not read alone (``curator adopt`` adds one to every note)."""
    lines = post.split("\n")
    if pre is None:
        return list(leaks.scan(post)), Counter(), lines
    around = _neighbourhoods(view, pre, post, placed)
    if around is None:
        return list(leaks.scan(post)), _values(pre, leaks.scan(pre)), lines
    old_lines = pre.split("\n")
    found = [k for _old, _removed, new, added in around for k in _found(lines, new, added - {identity})]
    before: Counter[tuple[str, str]] = Counter()
    for old, removed, _new, _added_lines in around:
        before.update((k.kind, old_lines[k.line][k.start : k.end]) for k in _found(old_lines, old, removed))
    return found, before, lines


def _identity_line(view: ChangeView, text: str) -> int | None:
    """The 0-based line of the frontmatter's ``kp_id``: an identity, judged by KP006 (a ULID in
    mixed case reads as random text to the scanner, and is no secret)."""
    split = view.frontmatter(text).split or frontmatter.split(text)
    if split.yaml is None:
        return None
    return _line_of(text, IDENTITY, range(1, split.body_line - 2))


def _values(text: str, leaks_found: Sequence[leaks.Leak]) -> Counter[tuple[str, str]]:
    lines = text.split("\n")
    return Counter((k.kind, lines[k.line][k.start : k.end]) for k in leaks_found)


def _in_lines(
    view: ChangeView,
    added: tuple[list[leaks.Leak], Counter[tuple[str, str]], list[str]],
    identity: int | None,
    covered: set[int],
) -> Iterator[Finding]:
    """One warning a line that holds a secret the before did not (lines next to each other as
    one, so a key block added in the middle of a note is one warning); ``covered`` lines are a
    frontmatter field's, warned for by its key."""
    found, before, lines = added
    if not found:
        return
    by_line: dict[int, set[str]] = {}
    for leak in found:
        if leak.line == identity or leak.line in covered:
            continue
        value = (leak.kind, lines[leak.line][leak.start : leak.end])
        if before[value] > 0:
            before[value] -= 1  # the same secret as before, where the note already held it
            continue
        by_line.setdefault(leak.line, set()).add(leak.kind)
    runs: list[tuple[int, int, set[str]]] = []  # consecutive lines (a key block, a pasted .env): one warning
    for n, kinds in sorted(by_line.items()):
        if runs and runs[-1][1] == n - 1:
            runs[-1] = (runs[-1][0], n, runs[-1][2] | kinds)
        else:
            runs.append((n, n, set(kinds)))
    for first, last, kinds in runs:
        where = f"line {first + 1}" if first == last else f"lines {first + 1}-{last + 1}"
        yield _finding(view.change.path, first + 1, sorted(kinds), where)


def _in_frontmatter(view: ChangeView, post: str, pre: str | None) -> Iterator[tuple[Finding, range]]:
    """Fields whose value is a secret only as the value of its key (a multi-line value, or one the
    line scan cannot see as assigned), new or changed by the proposal; each with the 0-based lines
    it spans (its key's line and the deeper lines below it)."""
    read = view.frontmatter(post)
    meta, split = read.meta, read.split
    if not meta or split is None:
        return  # none, or KP008 says why it cannot be read
    old = set(_fields(view.meta(pre) or {})) if pre else set()
    yaml_lines = range(1, split.body_line - 2)  # 0-based lines of the frontmatter's YAML
    seen_in_lines: set[int] | None = None
    for key, value in _fields(meta):
        if (key, value) in old or key == IDENTITY:
            continue
        kinds = sorted({k.kind for k in leaks.scan_field(key, value)})
        if not kinds:
            continue
        line = _line_of(post, key, yaml_lines)
        if seen_in_lines is None:
            seen_in_lines = {k.line for k in leaks.scan(post)}
        if line is not None and line in seen_in_lines and "\n" not in value:
            continue  # the line scan named it already
        shown, _ = redaction.redact(key)
        finding = _finding(view.change.path, None if line is None else line + 1, kinds, f"frontmatter field {shown!r}")
        yield finding, range(0) if line is None else _extent(post.split("\n"), line, yaml_lines.stop)


def _finding(path: str, line: int | None, kinds: list[str], where: str) -> Finding:
    what = ", ".join(kinds)
    return Finding(
        CODE,
        path,
        f"{where} adds a secret to the vault ({what}); once applied it stays in git history: if it is real, "
        "take it out and keep it in a secret store",
        line,
        warning=True,
    )


def _fields(value: Any, key: str = "") -> list[tuple[str, str]]:
    """(dotted key, string value) for every scalar of a frontmatter mapping, lists under their key."""
    out: list[tuple[str, str]] = []
    stack: list[tuple[str, Any]] = [(key, value)]
    while stack and len(out) < MAX_FIELDS:
        where, item = stack.pop()
        if isinstance(item, dict):
            stack.extend((f"{where}.{k}" if where else str(k), v) for k, v in reversed(list(item.items())))
        elif isinstance(item, (list, tuple)):
            stack.extend((where, v) for v in reversed(item))
        elif item is not None and where:
            out.append((where, item if isinstance(item, str) else str(item)))
    return out


def _extent(lines: list[str], line: int, stop: int) -> range:
    """The lines of the field set on ``line``: it and every line below it indented deeper (or blank)."""

    def depth(text: str) -> int:
        return len(text) - len(text.lstrip(" -"))

    end = line + 1
    while end < min(stop, len(lines)) and (not lines[end].strip() or depth(lines[end]) > depth(lines[line])):
        end += 1
    return range(line, end)


def _line_of(text: str, key: str, within: range) -> int | None:
    """The 0-based line of the frontmatter where ``key``'s last part is set, if one line says it."""
    name = key.rsplit(".", 1)[-1]
    lines = text.split("\n")
    hits = [
        n
        for n in within
        if n < len(lines) and lines[n].lstrip(" -").startswith((f"{name}:", f'"{name}":', f"'{name}':"))
    ]
    return hits[0] if len(hits) == 1 else None
