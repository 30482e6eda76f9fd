"""A JSONL corpus: one document per line (``_id`` or ``id``, ``title``, ``text``,
optional ``source``/``url``/``commit``). Malformed lines are counted and skipped."""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field

from curator.errors import NotFound


@dataclass(frozen=True)
class CorpusDoc:
    id: str
    title: str
    text: str
    url: str | None = None


@dataclass
class Tally:
    read: int = 0
    malformed: int = 0
    malformed_lines: list[int] = field(default_factory=list)


def _open(path: str):  # type: ignore[no-untyped-def]
    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8", errors="replace")
    return open(path, encoding="utf-8", errors="replace")


def read(path: str, tally: Tally | None = None) -> Iterator[CorpusDoc]:
    if not os.path.exists(path):
        raise NotFound(f"no corpus at {path}")
    tally = tally if tally is not None else Tally()
    with _open(path) as f:
        for no, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                doc_id = data.get("_id", data.get("id"))
                text = data.get("text")
                if doc_id is None or not isinstance(text, str):
                    raise ValueError("no id or text")
            except (ValueError, AttributeError):
                tally.malformed += 1
                if len(tally.malformed_lines) < 20:
                    tally.malformed_lines.append(no)
                continue
            tally.read += 1
            title = data.get("title") if isinstance(data.get("title"), str) else ""
            url = data.get("url") if isinstance(data.get("url"), str) else None
            yield CorpusDoc(str(doc_id), title or "", text, url)
