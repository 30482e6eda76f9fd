"""Filters applied inside every leg, before fusion: tag, path glob, namespace, date range."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from curator.errors import UsageError

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

    def __post_init__(self) -> None:
        if self.since:
            _check_date("--since", self.since)
        if self.until:
            _check_date("--until", self.until)

    @property
    def active(self) -> bool:
        return bool(self.tags or self.path or self.namespace or self.since or self.until or self.source)

    def sql(self) -> tuple[str, list[object]]:
        """A condition on documents ``d`` and its parameters."""
        where: list[str] = []
        params: list[object] = []
        for tag in self.tags:
            where.append("d.id IN (SELECT doc_id FROM tags WHERE tag = ?)")
            params.append(tag.lstrip("#").casefold())
        if self.path:
            where.append("kp_glob(?, d.path)")
            params.append(self.path)
        if self.namespace:
            where.append("d.namespace = ?")
            params.append(self.namespace.rstrip(":"))
        if self.since:
            where.append("d.date >= ?")
            params.append(self.since)
        if self.until:
            where.append("d.date <= ? || 'T99'")
            params.append(self.until)
        if self.source:
            where.append("d.source = ?")
            params.append(self.source)
        return (" AND ".join(where) or "1"), params

    def passage_ids_sql(self) -> tuple[str, list[object]]:
        cond, params = self.sql()
        return f"SELECT p.id FROM passages p JOIN documents d ON d.id = p.doc_id WHERE {cond}", params


@dataclass
class Leg:
    name: str
    ranked: list[tuple[int, float]] = field(default_factory=list)
    """(passage id, leg score), best first."""
