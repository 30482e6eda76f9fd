"""The console entry (`curator.cli.start`): what a command's process leaves to its exit."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import GitVault

EXIT_PROBE = """
import atexit, gc, sys
from curator.cli.start import main
atexit.register(lambda: print("FROZEN=%d" % gc.get_freeze_count()))
{call}
"""


def _run(vault: GitVault, call: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("CURATOR_VAULT", "CURATOR_INDEX_DIR")}
    env["CURATOR_EMBEDDER"] = "none"
    r = subprocess.run(
        [sys.executable, "-c", EXIT_PROBE.format(call=call)],
        cwd=vault.root,
        env=env,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_a_command_process_leaves_its_objects_to_exit_not_to_a_last_collection(example_vault: GitVault) -> None:
    """The console entry freezes what the command made, so the exit's collections walk none of it;
    a caller that passes its own arguments (a test, an embedding program) keeps its collector."""
    searched = _run(
        example_vault, "sys.argv = ['curator', '--json', 'search', 'database locked']\nraise SystemExit(main())"
    )
    assert '"hits"' in searched
    frozen = int(searched.rsplit("FROZEN=", 1)[1])
    assert frozen > 10_000, searched[-200:]
    indexed = _run(example_vault, "sys.argv = ['curator', 'index', '--quiet']\nraise SystemExit(main())")
    assert int(indexed.rsplit("FROZEN=", 1)[1]) > 10_000
    embedded = _run(example_vault, "raise SystemExit(main(['--json', 'search', 'database locked']))")
    assert embedded.rstrip().endswith("FROZEN=0"), embedded[-200:]
