"""Filters applied inside every leg, before fusion: tag, path glob, namespace, date range.

The SQL they become lives with the index (``curator.index.ranking.condition``)."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from curator.errors import UsageError
from curator.vault.globs import compile_glob

_PARTIAL_DATE = re.compile(r"\d{4}(-\d{2})?(-\d{2})?")


def _check_date(option: str, value: str) -> None:
    """A whole or partial ISO date: 2026, 2026-11 or 2026-11-29 (compared as text with notes' dates)."""
    if _PARTIAL_DATE.fullmatch(value):
        year, month, day = ([*map(int, value.split("-")), 1, 1])[:3]
        try:
            dt.date(year, month, day)
            return
        except ValueError:
            pass
    raise UsageError(f"{option} {value!r} is not a date", hint="give YYYY-MM-DD, YYYY-MM or YYYY")


@dataclass(frozen=True)
class Filters:
    tags: tuple[str, ...] = ()
    path: str | None = None
    namespace: str | None = None
    since: str | None = None
    until: str | None = None
    source: str | None = None
    path_as_shown: bool = False
    """Match ``path`` against each path with its secrets redacted, as the MCP server shows it."""
    templates: bool = False
    """Search template notes too (``curator.index.template_notes``): they leave search by default."""

    def __post_init__(self) -> None:
        if self.path:
            compile_glob(self.path)  # too long, or a class that matches nothing: said before searching
        if self.since:
            _check_date("--since", self.since)
        if self.until:
            _check_date("--until", self.until)
        if self.since and self.until:
            # The first day --since takes against the last --until takes, as text (ISO dates sort so).
            first = self.since + "-01-01"[: 10 - len(self.since)]
            last = self.until + "-12-31"[len(self.until) - 4 :]
            if first > last:
                raise UsageError(
                    f"--since {self.since} is after --until {self.until}: no date is in that range",
                    hint="swap them",
                )

    @property
    def active(self) -> bool:
        return bool(self.tags or self.path or self.namespace or self.since or self.until or self.source)


@dataclass
class Leg:
    name: str
    ranked: list[tuple[int, float]] = field(default_factory=list)
    """(passage id, leg score), best first."""
    deeper: list[tuple[int, float]] = field(default_factory=list)
    """The same, read past ``ranked``'s depth: the other sections a note may hold (see
    ``legs.rank_notes``)."""
