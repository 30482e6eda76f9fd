"""What every command receives: the global options, resolved lazily."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from curator import output, settings
from curator.errors import CuratorError
from curator.locations import default_index_dir, keep_private, verdicts_folder
from curator.operations import journal
from curator.vault import find_vault
from curator.vault.index_dir import configured_index_dir, explicit_index_dir

if TYPE_CHECKING:
    from curator.settings import Settings
    from curator.vault import Vault


@dataclass
class App:
    vault_arg: str | None = None
    index_dir_arg: str | None = None
    json: bool = False
    _vault: Vault | None = field(default=None, repr=False)
    _settings: Settings | None = field(default=None, repr=False)

    def vault(self) -> Vault:
        if self._vault is None:
            self._vault = find_vault(self.vault_arg)
            # An apply or propose killed halfway is finished or undone before any command
            # reads the tree (a few stat calls when there is none).
            if journal.pending(self._vault):
                from curator.operations.recovery import ensure  # only then: see tests/test_layers.py

                if journal.exists(self._vault, journal.THEN_APPLY):
                    from curator.operations import then_apply_journal  # heavy: the whole apply

                    then_apply_journal.register()
                ensure(self._vault)
            if self._vault.subfolder:
                # A vault is a whole git work tree (its index, config and proposals live
                # at the top); narrowing to a folder is what notes.exclude and --path do.
                output.warn(
                    f"{self._vault.subfolder}/ is a folder inside the git work tree {self._vault.root}; "
                    "Curator uses the whole work tree (keep folders out with notes.exclude, "
                    "or narrow a search with --path)"
                )
        return self._vault

    def settings(self, *, use_cache: bool = True) -> Settings:
        if self._settings is None:
            self._settings = settings.load(self.vault().root, use_cache=use_cache)
        return self._settings

    def index_dir(self, settings: Settings | None = None) -> str:
        """The index folder, refused when another local user could read or replace what it
        holds (``locations.keep_private``): a search reads it as much as an index writes it."""
        path = self._index_dir(settings)
        keep_private(path)
        return path

    def _index_dir(self, settings: Settings | None) -> str:
        explicit = self.index_dir_arg or os.environ.get("CURATOR_INDEX_DIR")
        if explicit:
            # click reads CURATOR_INDEX_DIR into --index-dir too: name what the person set.
            env = os.environ.get("CURATOR_INDEX_DIR")
            origin = (
                "CURATOR_INDEX_DIR"
                if env and os.path.expanduser(env) == os.path.expanduser(explicit)
                else "--index-dir"
            )
            return explicit_index_dir(self.vault(), explicit, origin)
        configured = (settings or self.settings()).index.dir
        if configured:
            return configured_index_dir(self.vault(), configured)
        return default_index_dir(self.vault().root)

    def verdicts(self) -> str | None:
        """Where verdicts are kept between runs (``validator.verdicts``): ``verdicts/`` in the
        index folder; None when that folder cannot be used (another user could write it, a bad
        ``--index-dir``), and every verdict is judged afresh."""
        try:
            return verdicts_folder(self.index_dir())
        except (CuratorError, OSError):
            return None

    def place(self) -> tuple[Vault, Settings, str]:
        """The vault, its settings and its index folder: what the layers below a command take."""
        settings = self.settings()
        return self.vault(), settings, self.index_dir(settings)
