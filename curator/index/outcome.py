"""What embedding the pending passages did: reported by a reconcile, a rebuild and the benchmark.

Apart from ``embedding`` (which loads the leak scanner and SQLite) so that a no-change
reconcile, which embeds nothing, reports without loading either.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class EmbedResult:
    embedded: int = 0
    withheld: list[tuple[str, int, str]] = field(default_factory=list)
    """(path, line, kinds) of passages kept from a remote embedder because they carry secrets."""
    rejected: list[tuple[str, int, str]] = field(default_factory=list)
    error: str | None = None
