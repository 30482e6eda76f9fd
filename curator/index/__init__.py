"""The index: derived, outside the vault, one SQLite database per epoch (SPEC §4)."""
