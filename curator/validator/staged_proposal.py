"""A proposal as the candidate tree holds it (the git index, or a commit's tree), read by the
one proposal reader (``proposals.store.read``) through a ``Folder`` over git entries."""

from __future__ import annotations

import stat
from typing import TYPE_CHECKING

from curator.proposals import store
from curator.proposals.layout import PROPOSALS_DIR
from curator.proposals.store import ProposalDir
from curator.validator.candidate import LINK

if TYPE_CHECKING:
    from curator.validator.staged import TreeState


class TreeFolder:
    """A proposal folder as the candidate tree holds it (the git index, or a commit's tree): the
    ``proposals.store.Folder`` the one reader reads."""

    def __init__(self, state: TreeState, rel_dir: str) -> None:
        self.tree, self.rel_dir = state, rel_dir

    def state(self) -> str:
        if self.tree.entries.entry(self.rel_dir) is not None:
            return "not-a-folder"  # a file (or a link) where the folder should be
        return "folder" if self.tree.under(self.rel_dir) else "missing"

    def items(self) -> list[store.Item]:
        found = []
        for path in self.tree.under(self.rel_dir):
            oid, mode = self.tree.entries.entry(path) or ("", 0)
            rel = path[len(self.rel_dir) + 1 :]
            if mode == LINK:
                found.append(store.Item(rel, "link"))
            elif stat.S_ISREG(mode):
                found.append(store.Item(rel, "file", self.tree.size(oid)))
            else:
                found.append(store.Item(rel, "other"))
        return found

    def data(self, item: store.Item, cap: int) -> bytes | None:
        oid = self.tree.regular(f"{self.rel_dir}/{item.rel}")
        if oid is None or self.tree.size(oid) > cap:
            return None
        return self.tree.blob(oid)


def load_proposal(state: TreeState, ulid: str) -> ProposalDir:
    """Proposal ``ulid`` as the candidate holds it, read by the one proposal reader."""
    limits = state.settings.limits
    folder = TreeFolder(state, f"{PROPOSALS_DIR}/{ulid}")
    return store.read(folder, ulid, max_file=limits.max_file_bytes, max_total=limits.max_proposal_bytes)
