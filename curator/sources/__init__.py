"""Read-only canonical sources beside the vault (SPEC §9)."""
