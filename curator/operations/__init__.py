"""Operations on the vault through proposals: stage, apply, reject, rebase, and the lock and
journals that make each one all-or-nothing (SPEC §2). They sit above the validator, which
each calls before it writes; the proposal format they read and write is ``curator.proposals``."""
