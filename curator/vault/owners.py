"""Which producer owns a note, and the lifecycle keys no proposal may add to one.

SPEC §1 keeps lifecycle out of frontmatter because a producer re-renders its files and
would drop a key nobody told it about. That is a reason about a producer's notes, not
about a person's: a Dataview user's ``status: todo`` is their own property, and their
own commits are never refused for a property name. So the line is drawn here, once, for
the validator (KP008) and for doctor:

- a proposal may not add a lifecycle key (``producers.lifecycle_keys``, default
  ``status``) to a note a producer owns;
- a producer owns a note under ``producers.paths`` (no proposal touches those at all,
  KP003), a note holding a managed region of a producer in ``producers.names``, and a
  note whose ``kp_id`` a producer minted: a namespace other than Curator's own ``kp:``
  (SPEC §1: "other producers use their own namespace").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from curator.settings import Settings
from curator.vault import kp_id as kp_id_reader
from curator.vault.identity import is_valid_kp_id, namespace
from curator.vault.paths import producer_owned
from curator.vault.regions import marker_on

CURATOR_NAMESPACE = "kp"


@dataclass(frozen=True)
class Owner:
    producer: str
    """The producer's name (a managed region's, a namespace, or ``producers.paths``)."""
    why: str
    """How the note is known to be the producer's, in words: "it holds curio's managed region"."""


def owner(path: str, text: str | None, meta: Mapping[str, Any] | None, settings: Settings) -> Owner | None:
    """The producer that owns the note at ``path`` (``text``, ``meta``: its content and
    frontmatter as they are, or will be), or None when it is nobody's but the person's."""
    if producer_owned(path, settings):
        return Owner("producers.paths", f"{path} is under producers.paths")
    kp_id = kp_id_reader.of_meta(meta)
    if kp_id is not None and is_valid_kp_id(kp_id) and namespace(kp_id) != CURATOR_NAMESPACE:
        ns = namespace(kp_id)
        return Owner(ns, f"its kp_id {kp_id} is in producer {ns}'s namespace")
    if text is not None and "<!--" in text:
        for line in text.split("\n"):
            marker = marker_on(line, settings.producers.names)
            if marker is not None:
                return Owner(marker[0], f"it holds {marker[0]}'s managed region")
    return None


def lifecycle_keys(meta: Mapping[str, Any] | None, keys: Iterable[str]) -> list[str]:
    """The lifecycle keys ``meta`` holds, as it spells them (keys compare casefolded, as
    Dataview and Obsidian's properties read them)."""
    if not meta:
        return []
    wanted = {k.casefold() for k in keys}
    return [str(k) for k in meta if str(k).casefold() in wanted]


def added_lifecycle_keys(
    after: Mapping[str, Any] | None, before: Mapping[str, Any] | None, keys: Iterable[str]
) -> list[str]:
    """The lifecycle keys ``after`` holds that ``before`` (None: a new note) did not."""
    keys = tuple(keys)
    had = {k.casefold() for k in lifecycle_keys(before, keys)}
    return [k for k in lifecycle_keys(after, keys) if k.casefold() not in had]
