"""``proposals/v1``: the only write path (SPEC §2)."""
