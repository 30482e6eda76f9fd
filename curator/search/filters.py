"""Filters applied inside every leg, before fusion: tag, path glob, namespace, date range."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Filters:
    tags: tuple[str, ...] = ()
    path: str | None = None
    namespace: str | None = None
    since: str | None = None
    until: str | None = None
    source: str | None = None

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
