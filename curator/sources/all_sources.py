"""Every source type Curator reads, by the ``type`` a config entry names."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from curator.settings import SourceSettings
from curator.sources.base import Source, resolve_path
from curator.sources.csl_json import CslJsonSource
from curator.sources.jsonl import JsonlSource
from curator.sources.zotero import ZoteroSource

Factory = Callable[[SourceSettings, str, str | None], Source]
"""(the config entry, its resolved path, a scratch folder for copies) to an adapter."""

SOURCES: dict[str, Factory] = {
    "zotero": lambda s, path, scratch: ZoteroSource(
        s.name,
        path,
        notes=s.notes,
        collections=s.collections,
        better_bibtex=s.better_bibtex,
        scratch=scratch,
        attachments=s.attachments,
    ),
    "csl-json": lambda s, path, scratch: CslJsonSource(s.name, path),
    "jsonl": lambda s, path, scratch: JsonlSource(s.name, path, max_item_bytes=s.max_item_bytes),
}


def open_source(settings: SourceSettings, vault_root: str, scratch: str | None = None) -> Source:
    """The adapter for a configured source (its type was checked when the config was read)."""
    better_bibtex = settings.better_bibtex
    if better_bibtex:
        settings = dataclasses.replace(settings, better_bibtex=resolve_path(vault_root, better_bibtex))
    return SOURCES[settings.type](settings, resolve_path(vault_root, settings.path), scratch)
