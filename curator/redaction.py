"""Redaction: text, paths, fields and passages with each secret the leak scanner
(``curator.leaks``) finds replaced by ``[REDACTED: kind]``. The scanner decides what is a
secret; this module only decides how what it found is hidden, so every exit (MCP output, a
remote embedder's input, a path filter) hides it the same way."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterable
from typing import Any

from curator.leak_blocks import PRIVATE_KEY, key_blocks
from curator.leaks import Leak, numbered, scan, scan_field


def _merge(leaks: Iterable[Leak]) -> list[tuple[int, int, list[str]]]:
    spans: list[tuple[int, int, list[str]]] = []
    for leak in sorted(leaks, key=lambda k: (k.start, -k.end)):
        if spans and leak.start < spans[-1][1]:
            start, end, kinds = spans[-1]
            spans[-1] = (start, max(end, leak.end), kinds if leak.kind in kinds else [*kinds, leak.kind])
        else:
            spans.append((leak.start, leak.end, [leak.kind]))
    return spans


def redact_line(line: str, leaks: Iterable[Leak]) -> str:
    out, pos = [], 0
    for start, end, kinds in _merge(leaks):
        out.append(line[pos:start])
        out.append(f"[REDACTED: {', '.join(sorted(kinds))}]")
        pos = end
    out.append(line[pos:])
    return "".join(out)


def redact(text: str) -> tuple[str, list[str]]:
    """``text`` with every secret replaced by ``[REDACTED: kind]``, and the kinds removed."""
    return _redacted(text, scan(text))


def redact_path(path: str) -> tuple[str, list[str]]:
    """A vault-relative path redacted name by name, and the kinds removed: a secret in a file or
    folder name is hidden, and the names around it are kept (``keys/[REDACTED: AWS Access Key].md``,
    where the path scanned as one line loses ``keys/`` into a run of random-looking text). Only
    when the whole path holds a secret that is no name's own (a random string cut in two by a
    ``/``) is it redacted as one text. What an agent sees of a path and what a path filter matches
    (``kp_search``'s ``path``) are both this."""
    whole = scan(path)
    if not whole or "/" not in path:
        return _redacted(path, whole)
    names = path.split("/")
    starts = list(itertools.accumulate((len(n) + 1 for n in names[:-1]), initial=0))
    found = [scan(name) for name in names]

    def explained(leak: Leak) -> bool:  # it overlaps a name that holds a secret of its own
        spans = zip(starts, names, found, strict=True)
        return any(own and a < leak.end and leak.start < a + len(n) for a, n, own in spans)

    if not all(explained(leak) for leak in whole):
        return _redacted(path, whole)
    parts = [_redacted(name, leaks) for name, leaks in zip(names, found, strict=True)]
    return "/".join(clean for clean, _ in parts), sorted({k for _, kinds in parts for k in kinds})


def redact_field(key: str, value: str) -> tuple[str, list[str]]:
    """``value`` redacted as assigned to ``key`` (see ``scan_field``), and the kinds removed: what a
    caller showing a frontmatter field uses for its value (the key is redacted as text)."""
    return _redacted(value, scan_field(key, value))


def redact_fields(value: Any, key: str = "") -> tuple[Any, list[str]]:
    """A mapping of keys to values (a note's frontmatter) with each value judged as assigned to its
    key (``redact_field``): ``password: hunter2hunter2`` is a secret although neither string is one
    alone. Nested mappings are judged by their innermost key, a list's items by the list's key; a
    value that is not a string is judged as its text and kept as it is when clean. Keys are not
    judged here (a caller redacts them as text). Returns the value and the kinds removed, once for
    each value they were removed from."""
    kinds: list[str] = []

    def walk(value: Any, key: str) -> Any:
        if isinstance(value, dict):
            return {k: walk(v, str(k)) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [walk(v, key) for v in value]
        if value is None or isinstance(value, bool):
            return value
        text = value if isinstance(value, str) else str(value)
        clean, found = redact_field(key, text)
        kinds.extend(found)
        return clean if found or isinstance(value, str) else value

    clean = walk(value, key)
    return clean, sorted(kinds)


BLOB_RECEIPT = b"curator: a note with redacted values\0"


def shown_blob(blob: str, text: str, meta: dict[str, Any]) -> str:
    """The ``blob`` an agent is shown for a note (``text``, its frontmatter ``meta``; ``blob``, its
    git blob id): the blob id itself when nothing in the note is redacted, else a receipt, the
    SHA-1 of the note as redacted. The git id of a note is a hash of every byte the agent sees plus
    the secret it does not: with it, guesses at ``DB_PASSWORD=[REDACTED]`` are checked offline
    until one hashes right. The receipt is a hash of what the agent was shown, so it tells it
    nothing new, and ``kp_propose`` recomputes it from the note as it is now to see whether the
    note changed since it was read (a change to a redacted value alone goes unseen, and cannot
    matter to a change written from the redacted text)."""
    clean, kinds = redact(text)
    if not kinds and not redact_fields(meta)[1]:
        return blob
    return hashlib.sha1(BLOB_RECEIPT + clean.encode("utf-8")).hexdigest()


def _redacted(text: str, leaks: tuple[Leak, ...]) -> tuple[str, list[str]]:
    if not leaks:
        return text, []
    lines = text.split("\n")
    by_line: dict[int, list[Leak]] = {}
    for leak in leaks:
        by_line.setdefault(leak.line, []).append(leak)
    for n, found in by_line.items():
        lines[n] = redact_line(lines[n], found)
    return "\n".join(lines), sorted({leak.kind for leak in leaks})


def redact_lines(lines: list[str], context: str, first: int) -> tuple[list[str], list[str]]:
    """Lines ``first``… of the note ``context`` (0-based), redacted with the whole note in view:
    a page in the middle of a key block is redacted although its ``BEGIN`` line is elsewhere."""
    by_line: dict[int, list[Leak]] = {}
    kinds: set[str] = set()
    for leak in scan(context):
        if first <= leak.line < first + len(lines):
            by_line.setdefault(leak.line - first, []).append(leak)
            kinds.add(leak.kind)
    return [redact_line(line, by_line[i]) if i in by_line else line for i, line in enumerate(lines)], sorted(kinds)


def redact_passage(spans: list[tuple[int, int, str]], index: int) -> tuple[str, list[str]]:
    """Passage ``index`` of a note given as passages, redacted with the whole note in view."""
    first, lines = numbered(spans)
    start, end, text = spans[index]
    blocks = {n + first for a, b in key_blocks(lines) for n in range(a, b + 1)}
    parts = text.split("\n")
    kinds: set[str] = set()
    if blocks and len(parts) == end - start + 1:
        for i in range(len(parts)):
            if start + i in blocks:
                parts[i] = f"[REDACTED: {PRIVATE_KEY}]"
                kinds.add(PRIVATE_KEY)
    clean, more = redact("\n".join(parts))
    return clean, sorted(kinds | set(more))
