"""The validator on a 3,000-note vault (powershell-docs): per proposal, for a queue of 200,
the start-up of a `curator validate` process on a proposal and on a note, and the installed
pre-commit hook on three commits (an edited note, a new note, a CSV-only commit), beside the
same hook running other code when `--peer` names a checkout of it (PYTHONPATH=PEER, interleaved).

    python benchmarks/validate_proposals.py [--queue 200] [--runs 15] [--peer DIR] [--hook-only]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import interleaved, median_ms, powershell_vault, process_times, timed


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--queue", type=int, default=200)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--peer", help="a checkout of other code (e.g. main) whose hook runs beside this one's")
    ap.add_argument("--hook-only", action="store_true", help="time the pre-commit hook alone")
    args = ap.parse_args()
    root = powershell_vault()
    try:
        run(args, root)
    finally:
        shutil.rmtree(root.parent, ignore_errors=True)


def run(args: argparse.Namespace, root: Path) -> None:
    from curator.operations import gather as sources
    from curator.operations import stage
    from curator.proposals import store
    from curator.proposals.manifest import Author
    from curator.settings import Settings
    from curator.validator.state import RepoState
    from curator.validator.verdict import validate_proposal
    from curator.vault import find_vault
    from curator.vault.identity import mint

    notes = sorted(str(p.relative_to(root)) for p in root.rglob("*.md") if ".git" not in p.parts)
    if args.hook_only:
        staged_hook(root, notes, args.runs, args.peer)
        return
    vault = find_vault(str(root))
    repo = vault.repo
    head = repo.head.peel().tree
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
    """The installed pre-commit hook on three commits (an edited note, a new note, a CSV file),
    each timed with this code and, with ``--peer``, the peer's, interleaved in one loop."""
    import subprocess

    # An installed Curator has its bytecode compiled (pip does it): let the first run write it.
    env = {k: v for k, v in os.environ.items() if k not in ("CURATOR_VAULT", "PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    peer_env = {**env, "PYTHONPATH": peer} if peer else None

    def install(side_env: dict[str, str], name: str) -> list[str]:
        """Each side's own hook script, as its `hooks install` writes it (outside any checkout: no cwd import)."""
        cmd = [sys.executable, "-m", "curator", "--vault", str(root), "hooks", "install", "--force"]
        subprocess.run(cmd, check=True, capture_output=True, env=side_env, cwd=root.parent)
        kept = root / ".git" / f"bench-{name}-pre-commit"
        shutil.copyfile(root / ".git" / "hooks" / "pre-commit", kept)
        return ["sh", str(kept)]

    hook_peer = install(peer_env, "peer") if peer_env is not None else []
    hook = install(env, "ours")
    from curator.vault.identity import mint

    def edited() -> None:
        path = root / notes[0]
        path.write_text(path.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
        subprocess.run(["git", "add", notes[0]], cwd=root, check=True)

    def new_note() -> None:
        path = root / "bench" / "staged-new.md"
        path.parent.mkdir(exist_ok=True)
        path.write_text(f"---\nkp_id: {mint()}\ntitle: Staged\n---\n# Staged\n", encoding="utf-8")
        subprocess.run(["git", "add", str(path)], cwd=root, check=True)

    def csv_only() -> None:
        (root / "table.csv").write_text("a,b\n1,2\n", encoding="utf-8")
        subprocess.run(["git", "add", "table.csv"], cwd=root, check=True)

    cases = [
        ("one edited note", edited),
        ("one new note (every note's kp_id read)", new_note),
        ("a CSV-only commit (no Python)", csv_only),
    ]
    sides = {"this": (hook, env)} | ({"peer": (hook_peer, peer_env)} if peer_env is not None else {})
    lines = []
    for name, stage_it in cases:
        stage_it()
        times: dict[str, list[tuple[float, float]]] = {side: [] for side in sides}
        for n, side, (cmd, side_env) in interleaved(sides, runs + 1):
            wall, cpu, _out = process_times(cmd, side_env, root)
            if n:  # the first round writes each side's bytecode
                times[side].append((wall, cpu))
        ours, theirs = times["this"], times.get("peer", [])
        subprocess.run(["git", "reset", "-q", "--hard"], cwd=root, check=True)
        subprocess.run(["git", "clean", "-qfd", "bench", "table.csv"], cwd=root, check=True)
        wall, cpu = median_ms([w for w, _ in ours]), median_ms([c for _, c in ours])
        line = f"  {name}: median {wall:.0f} ms ({cpu:.0f} ms CPU)"
        if theirs:
            peer_wall, peer_cpu = median_ms([w for w, _ in theirs]), median_ms([c for _, c in theirs])
            line += f"; {peer}: {peer_wall:.0f} ms ({peer_cpu:.0f} ms CPU); ratio {peer_wall / wall:.2f}"
        lines.append(line)
    print(
        f"pre-commit hook on the {len(notes)}-note tree ({runs} runs each, interleaved; "
        "CPU is user+sys of the hook and all it starts, less sensitive to a loaded machine than wall time):"
    )
    print("\n".join(lines))


if __name__ == "__main__":
    main()
