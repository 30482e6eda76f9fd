"""A reader that stops early (`curator ... | head`) is not a failure."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import GitVault


@pytest.mark.parametrize("args", [["ls"], ["search", "WAL checkpoints", "--k", "20"], ["--json", "proposals", "--all"]])
def test_a_closed_pipe_exits_zero_without_a_traceback(example_vault: GitVault, args: list[str]) -> None:
    env = {**os.environ, "CURATOR_EMBEDDER": "fake"}
    subprocess.run([sys.executable, "-m", "curator", "--vault", str(example_vault.root), "index"], env=env, check=True)
    read_end, write_end = os.pipe()
    os.close(read_end)  # closed before Curator writes a byte: its first write is a broken pipe
    proc = subprocess.run(
        [sys.executable, "-m", "curator", "--vault", str(example_vault.root), *args],
        env=env,
        stdout=write_end,
        stderr=subprocess.PIPE,
        text=True,
    )
    os.close(write_end)
    assert proc.returncode == 0 and proc.stderr == ""
