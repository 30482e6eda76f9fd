"""The vault: a git work tree of notes (SPEC §1)."""

from curator.vault.discover import Vault, find_vault

__all__ = ["Vault", "find_vault"]
