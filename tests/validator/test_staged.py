"""The staged view's own answers about the git entries it stands on."""

from __future__ import annotations

import os

from curator.validator.staged import staged_state
from curator.vault import find_vault
from tests.conftest import GitVault, note


def test_what_stands_where_a_folder_of_a_path_should_be_is_named_by_its_kind(vault: GitVault) -> None:
    """A symlink and a submodule (a gitlink) in the index are each named at the first part of a
    path that is an entry, and only by the question asked of their kind; a regular file or no
    entry on the way is neither."""
    vault.write("real/n.md", note("kp:01J00000000000000000000RN1", "N"))
    os.symlink("real", vault.root / "linked")
    vault.git("add", "real/n.md", "linked")
    head = vault.git("rev-parse", "HEAD").stdout.strip()
    vault.git("update-index", "--add", "--cacheinfo", f"160000,{head},sub")
    state = staged_state(find_vault(str(vault.root)))

    asked = {
        path: (state.symlink_on_path(path), state.gitlink_on_path(path))
        for path in ("linked/n.md", "linked", "sub/deep/x.md", "sub", "real/n.md", "real/n.md/x", "none/x.md")
    }
    assert asked == {
        "linked/n.md": ("linked", None),
        "linked": ("linked", None),
        "sub/deep/x.md": (None, "sub"),
        "sub": (None, "sub"),
        "real/n.md": (None, None),
        "real/n.md/x": (None, None),
        "none/x.md": (None, None),
    }
