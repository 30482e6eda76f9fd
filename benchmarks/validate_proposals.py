"""The validator on a 3,000-note vault (powershell-docs): per proposal, for a queue of 200,
the start-up of a `curator validate` process on a proposal and on a note, and the pre-commit
hook on a staged note edit (`validate --staged`), beside the old work-tree path when `--peer`
names a checkout of older code (run with PYTHONPATH=PEER, interleaved).

    python benchmarks/validate_proposals.py [--queue 200] [--runs 15] [--peer DIR]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import median_ms, powershell_vault, timed


def main() -> None:
    from curator.proposals import sources, stage, store
    from curator.proposals.lock import vault_lock
    from curator.proposals.manifest import Author
    from curator.settings import Settings
    from curator.validator import validate_proposal
    from curator.validator.state import RepoState
    from curator.vault import find_vault
    from curator.vault.identity import mint

    ap = argparse.ArgumentParser()
    ap.add_argument("--queue", type=int, default=200)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--peer", help="a checkout of older code to time `validate NOTE` from, for comparison")
    args = ap.parse_args()
    root = powershell_vault()
    vault = find_vault(str(root))
    repo = vault.repo
    head = repo.head.peel().tree
    notes = sorted(str(p.relative_to(root)) for p in root.rglob("*.md") if ".git" not in p.parts)
    rng = random.Random(7)
    author = Author(kind="agent", name="bench")
    base = str(repo.head.target)
    settings = Settings()
    ids = []
    for i in range(args.queue):
        if i % 4 == 3:
            path = f"bench/new-{i}.md"
            text = f"---\nkp_id: {mint()}\ntitle: New {i}\n---\n# New {i}\n\nBody.\n".encode()
            drafts = [stage.Draft("create", path, content=text)]
        else:
            path = rng.choice(notes)
            old = bytes(repo[head[path].id].data)
            lines = old.decode("utf-8").split("\n")
            lines.insert(len(lines) // 2, f"An edit made by proposal {i}.")
            new = "\n".join(lines).encode()
            drafts = [stage.Draft("modify", path, base_blob=str(head[path].id), diff=sources.unified(path, old, new))]
        with vault_lock(vault, "bench"):
            staged = stage.stage(vault, settings, drafts, title=f"p{i}", rationale="bench", author=author, base=base)
        assert staged.ok, staged.report.findings
        ids.append(staged.id)

    single = []
    for pid in ids[: args.runs * 2]:
        t = time.perf_counter()
        report = validate_proposal(RepoState(vault, settings), store.load(str(root), pid))
        single.append(time.perf_counter() - t)
        assert report.ok, report.findings
    state = RepoState(vault, settings)
    t = time.perf_counter()
    per = []
    for pid in ids:
        a = time.perf_counter()
        validate_proposal(state, store.load(str(root), pid))
        per.append(time.perf_counter() - a)
    queue = time.perf_counter() - t
    creates = [s for i, s in enumerate(single) if i % 4 == 3]
    modifies = [s for i, s in enumerate(single) if i % 4 != 3]
    print(f"vault: {len(notes)} notes")
    print(
        f"one proposal, fresh state each time: median {median_ms(single):.1f} ms "
        f"(modify {median_ms(modifies):.1f} ms, create {median_ms(creates):.1f} ms; a create reads every note's kp_id)"
    )
    print(
        f"queue of {len(ids)} sharing one state: {queue:.2f}s total, median {median_ms(per):.1f} ms a proposal, "
        f"p95 {sorted(per)[int(0.95 * len(per))] * 1000:.1f} ms"
    )

    start, created, on_note, bare = [], [], [], []
    validate = [sys.executable, "-m", "curator", "--vault", str(root), "validate"]
    for _ in range(args.runs):
        start.append(timed([*validate, ids[0]])[0])
        created.append(timed([*validate, ids[3]])[0])
        on_note.append(timed([*validate, notes[0]])[0])
        bare.append(timed([sys.executable, "-c", "pass"])[0])
    print(
        f"`curator validate ULID` process: median {median_ms(start):.0f} ms a modify, "
        f"{median_ms(created):.0f} ms a create; `curator validate NOTE` (a commit of note edits): "
        f"median {median_ms(on_note):.0f} ms (bare python start {median_ms(bare):.0f} ms; "
        f"{args.runs} runs each, interleaved)"
    )
    # One sample of a 1-2 s process on a loaded machine varies by half: take the median.
    every = [timed([*validate, "--all"])[0] for _ in range(args.runs)]
    print(
        f"`curator validate --all` ({len(ids)} proposals) process: median {statistics.median(every):.2f}s "
        f"(min {min(every):.2f}s, {args.runs} runs)"
    )
    staged_hook(root, notes, args.runs, args.peer)


def staged_hook(root: Path, notes: list[str], runs: int, peer: str | None) -> None:
    """A commit of one edited note through the installed hook, the staged view and the old work-tree path."""
    import subprocess

    env = dict(os.environ)
    env.pop("CURATOR_VAULT", None)
    subprocess.run(
        [sys.executable, "-m", "curator", "--vault", str(root), "hooks", "install", "--force"],
        check=True,
        capture_output=True,
    )
    hook = str(root / ".git" / "hooks" / "pre-commit")
    edited = root / notes[0]
    edited.write_text(edited.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    subprocess.run(["git", "add", notes[0]], cwd=root, check=True)
    new = root / "bench" / "staged-new.md"
    new.parent.mkdir(exist_ok=True)
    hook_runs, staged, staged_new, peer_runs, csv_runs = [], [], [], [], []
    validate = [sys.executable, "-m", "curator", "--vault", str(root), "validate"]
    peer_env = {**env, "PYTHONPATH": peer} if peer else None
    for _ in range(runs):
        hook_runs.append(timed(["sh", hook], cwd=root)[0])
        staged.append(timed([*validate, "--staged"], cwd=root)[0])
        if peer_env is not None:
            peer_runs.append(timed([*validate, notes[0]], env=peer_env, cwd=root)[0])
    subprocess.run(["git", "reset", "-q"], cwd=root, check=True)
    from curator.vault.identity import mint

    new.write_text(f"---\nkp_id: {mint()}\ntitle: Staged\n---\n# Staged\n", encoding="utf-8")
    subprocess.run(["git", "add", str(new)], cwd=root, check=True)
    for _ in range(runs):
        staged_new.append(timed([*validate, "--staged"], cwd=root)[0])
    subprocess.run(["git", "reset", "-q"], cwd=root, check=True)
    (root / "table.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    subprocess.run(["git", "add", "table.csv"], cwd=root, check=True)
    for _ in range(runs):
        csv_runs.append(timed(["sh", hook], cwd=root)[0])
    subprocess.run(["git", "reset", "-q"], cwd=root, check=True)
    print(
        f"pre-commit hook, one edited note staged: median {median_ms(hook_runs):.0f} ms "
        f"(`validate --staged` alone {median_ms(staged):.0f} ms"
        + (f"; the old work-tree `validate NOTE` from {peer}: {median_ms(peer_runs):.0f} ms" if peer_runs else "")
        + f"); a new note staged (every note's kp_id read from the index): {median_ms(staged_new):.0f} ms; "
        f"a CSV-only commit (no Python): {median_ms(csv_runs):.0f} ms ({runs} runs each, interleaved)"
    )


if __name__ == "__main__":
    main()
