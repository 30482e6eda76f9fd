"""KP011: a secret the proposal would add to the vault, named by its kind: a warning.

An agent (or a person) may stage a note that carries a key, a token or a password, pasted from
a shell session or a ``.env`` file; once applied it sits in git history for good. The leak
scanner (``curator.leaks``, the one judge of what is a secret) reads what the change adds: every
line of a created note, the lines a modify adds, and the values of frontmatter fields that are
new or changed (a ``key: value`` pair judged as the pair, so ``password: hunter2hunter2`` and a
multi-line value count). A secret that the note already held before the change (a line moved or
re-indented) is not added, and is not reported.

A warning, never an error: a person may mean it (a test key, a documented example the scanner
takes for a real one), and decides in ``curator review``. The finding names the kind of secret
and the line, never the secret itself; a frontmatter key is named as the scanner would show it
(a key that is itself a secret is redacted).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from curator import leaks, redaction
from curator.validator.finding import Finding
from curator.vault import frontmatter

if TYPE_CHECKING:
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
        post = view.post_text
        if post is None:
            continue
        pre = view.pre_text if view.change.op == "modify" else None
        fields = list(_in_frontmatter(view, post, pre))
        # A field warned for by its key is not warned for again by the lines its value spans.
        covered = {n for _finding, lines in fields for n in lines}
        yield from _in_lines(view, post, pre, _identity_line(post), covered)
        yield from (finding for finding, _lines in fields)


def _identity_line(text: str) -> int | None:
    """The 0-based line of the frontmatter's ``kp_id``: an identity, judged by KP006 (a ULID in
    mixed case reads as random text to the scanner, and is no secret)."""
    split = frontmatter.split(text)
    if split.yaml is None:
        return None
    return _line_of(text, IDENTITY, range(1, split.body_line - 2))


def _values(text: str, leaks_found: tuple[leaks.Leak, ...]) -> Counter[tuple[str, str]]:
    lines = text.split("\n")
    return Counter((k.kind, lines[k.line][k.start : k.end]) for k in leaks_found)


def _in_lines(
    view: ChangeView, post: str, pre: str | None, identity: int | None, covered: set[int]
) -> Iterator[Finding]:
    """One warning a line that holds a secret the pre-image did not (the whole post-image is scanned,
    so a key block added in the middle of a note is seen as one); ``covered`` lines are a
    frontmatter field's, warned for by its key."""
    found = leaks.scan(post)
    if not found:
        return
    before = _values(pre, leaks.scan(pre)) if pre else Counter()
    lines = post.split("\n")
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
    try:
        meta, split = frontmatter.read(post)
    except frontmatter.FrontmatterError:
        return  # KP008 says so
    if not meta:
        return
    old = set(_fields(frontmatter.meta_or_none(pre) or {})) if pre else set()
    seen_in_lines = {k.line for k in leaks.scan(post)}
    yaml_lines = range(1, split.body_line - 2)  # 0-based lines of the frontmatter's YAML
    for key, value in _fields(meta):
        if (key, value) in old or key == IDENTITY:
            continue
        kinds = sorted({k.kind for k in leaks.scan_field(key, value)})
        if not kinds:
            continue
        line = _line_of(post, key, yaml_lines)
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
