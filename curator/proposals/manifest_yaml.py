"""``proposal.yaml`` as plain data: the one parse of a manifest's YAML, shared in a process.

The review UI reads a large manifest three times at once: the queue's worker for its row, the
pre-flight's stored diff, and the validator. A 6,500-change ``curator adopt`` manifest is 0.7 s
of YAML each time, spent by threads taking the interpreter lock from one another while the
reviewer waits for the verdict. So a large manifest is parsed once per process and its data
shared, keyed by its bytes (the same bytes give the same data, whoever reads them). The data is
read, never changed, by every reader: pydantic validates from it, the queue's row reads its
title. No pydantic here: the queue's row must not pay its import.
"""

from __future__ import annotations

import threading
from typing import Any

from curator import yaml_reader

LARGE = 64 * 1024
"""Manifests this large and larger are kept parsed (a proposal of some 400 changes)."""
KEPT = 4
"""How many of them, the last parsed."""

_kept: dict[bytes, Any] = {}
_lock = threading.Lock()


def load(raw: bytes) -> Any:
    """The YAML of ``raw`` as data; ``UnicodeDecodeError`` or ``yaml_reader.YamlRefused`` (and
    ``YamlTooLarge``) as ``yaml_reader.load`` raises them. What it returns is shared: read it,
    never change it."""
    if len(raw) < LARGE:
        return yaml_reader.load(raw.decode("utf-8"))
    # Held while parsing: a second reader of the same bytes waits for the first's data
    # instead of parsing beside it.
    with _lock:
        if raw in _kept:
            return _kept[raw]
        data = yaml_reader.load(raw.decode("utf-8"))
        if len(_kept) >= KEPT:
            _kept.pop(next(iter(_kept)))
        _kept[raw] = data
        return data
