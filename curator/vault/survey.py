"""Read every note once: the shared starting point of ``doctor`` and link resolution."""

from __future__ import annotations

from dataclasses import dataclass

from curator.settings import Settings
from curator.vault.discover import Vault
from curator.vault.note import NotANote, Note, parse
from curator.vault.resolve import Resolver, Target
from curator.vault.tree import Classified, Skip, read_bytes, scan


@dataclass
class Survey:
    classified: Classified
    notes: list[Note]
    unreadable: list[Skip]
    """Files that match the include globs but cannot be notes (binary, not UTF-8, unreadable)."""

    def resolver(self, settings: Settings) -> Resolver:
        return Resolver(
            (Target(n.path, n.kp_id, n.title, tuple(n.aliases)) for n in self.notes),
            self.classified.files,
            settings.notes.include,
        )


def survey(vault: Vault, settings: Settings) -> Survey:
    classified = scan(vault, settings)
    notes: list[Note] = []
    unreadable: list[Skip] = []
    for f in classified.notes:
        try:
            notes.append(parse(f.path, read_bytes(vault, f.path)))
        except NotANote as e:
            unreadable.append(Skip(f.path, e.reason, f.size, f.mtime_ns))
        except OSError as e:
            unreadable.append(Skip(f.path, f"cannot read: {e.strerror}", f.size, f.mtime_ns))
    return Survey(classified, notes, unreadable)
