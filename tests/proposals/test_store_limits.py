"""Reading a proposal never loads more than its size limits: sizes come from stat first."""

from __future__ import annotations

import os
import tracemalloc

from curator.proposals import store
from curator.settings import Settings
from curator.validator.state import RepoState
from curator.validator.verdict import validate_proposal
from curator.vault import find_vault
from tests.builders import make_proposal
from tests.conftest import GitVault

MB = 1024 * 1024


def test_thirty_sparse_60mb_files_are_rejected_without_being_read(vault: GitVault) -> None:
    changes = [{"op": "create", "path": f"notes/big{i}.md"} for i in range(30)]
    pid = make_proposal(vault, changes)
    files = vault.root / ".kp" / "proposals" / pid / "files" / "notes"
    files.mkdir(parents=True)
    for i in range(30):
        with open(files / f"big{i}.md", "wb") as f:
            f.truncate(60 * MB)  # sparse: no disk, but 60 MB to read
    settings = Settings()
    tracemalloc.start()
    proposal = store.load(
        str(vault.root),
        pid,
        max_file=settings.limits.max_file_bytes,
        max_total=settings.limits.max_proposal_bytes,
    )
    report = validate_proposal(RepoState(find_vault(str(vault.root)), settings), proposal)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 32 * MB, peak
    assert not report.ok and "KP009" in {f.code for f in report.findings}
    assert all(f.data is None for f in proposal.files.values())


def test_the_validate_command_reads_within_the_limits(vault: GitVault, cli) -> None:
    pid = make_proposal(vault, [{"op": "create", "path": "notes/big.md"}])
    folder = vault.root / ".kp" / "proposals" / pid / "files" / "notes"
    folder.mkdir(parents=True)
    with open(folder / "big.md", "wb") as f:
        f.truncate(60 * MB)
    r = cli("--vault", vault.root, "validate", pid)
    assert r.code == 1 and "KP009" in r.out and "max_file_bytes" in r.out
    assert os.path.getsize(folder / "big.md") == 60 * MB
