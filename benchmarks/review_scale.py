"""Review at the scale of a real vault: one ``curator adopt`` proposal of thousands of notes, and
how long a person waits for each step of deciding it, beside a peer checkout in the same run.

    python benchmarks/review_scale.py [--vault generated|powershell] [--notes 6500] [--runs 3] [--peer DIR|REV]

The vault is either generated (``common.generated_vault``: ``--notes`` Obsidian-like notes, none
with a kp_id, half with frontmatter, paragraphs on one line, wikilinks) or the powershell-docs
tree (3,112 files, line endings renormalised as ``curator init`` advises). ``curator adopt`` (this
checkout's) stages one proposal giving every note a kp_id; each run then times, on a fresh copy
of that vault for each checkout, interleaved run by run (this, peer, peer, this, ...):

- ``proposals`` cold (no kept verdicts) and again (kept ones read back);
- ``validate ULID`` cold and again;
- the verdict in-process (``validator.verdicts.verdict``, what the review UI calls), cold and kept;
- ``apply ULID --yes``.

Each command runs as a process from the vault's folder with ``PYTHONPATH`` naming the checkout
(so ``python -m curator`` never picks up another), ``XDG_CACHE_HOME`` its own per run. Medians of
wall time and of CPU time (user + system of the process): on a loaded machine the CPU says more.
The peer (a checkout folder, or a revision ``git archive``d to a temp folder) has no kept
verdicts and no in-process verdict function: its "again" is a second cold run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GIT_ENV, ROOT, generated_vault, interleaved, peer_checkout, process_times, side_env
from large_proposal import prepared_vault

STEPS = (
    "proposals cold",
    "proposals again",
    "validate cold",
    "validate again",
    "verdict cold (in-process)",
    "verdict kept (in-process)",
    "apply --yes",
)

VERDICT = """
import sys, time
from curator.commands.app import App
from curator.proposals import store
from curator.validator.state import RepoState
from curator.validator.verdicts import verdict
app = App(vault_arg=sys.argv[1])
vault, settings = app.vault(), app.settings()
t = time.perf_counter()
found = verdict(RepoState(vault, settings), store.load_within(vault.root, sys.argv[2], settings.limits), app.verdicts())
print(time.perf_counter() - t, found.ok, found.kept)
"""


def adopted(kind: str, notes: int, peer: str | None) -> tuple[Path, str, int]:
    """A vault with one staged adopt proposal (made by this checkout): (vault, ULID, changes). With
    a peer, its default config is the vault's, committed: keys a newer Curator added would stop the
    older one reading the vault at all."""
    vault = generated_vault(notes) if kind == "generated" else prepared_vault()
    if peer is not None:
        shutil.copyfile(Path(peer) / "curator" / "default_config.yaml", vault / ".kp" / "config.yaml")
        # Empty when the two default configs are the same (a peer of a recent revision).
        git_commit = ["git", "commit", "-q", "--allow-empty", "-am", "the peer's config"]
        subprocess.run(git_commit, cwd=vault, check=True, env={**os.environ, **GIT_ENV})
    env = side_env(**GIT_ENV, PYTHONPATH=str(ROOT), CURATOR_EMBEDDER="none")
    env["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="curator-scale-adopt-")
    try:
        _wall, _cpu, out = process_times([sys.executable, "-m", "curator", "--json", "adopt"], env, vault)
    finally:
        shutil.rmtree(env["XDG_CACHE_HOME"], ignore_errors=True)
    data = json.loads(out)
    assert data["staged"], data
    return vault, data["staged"], len(data["adopted"])


def one_run(template: Path, ulid: str, env: dict[str, str], in_process: bool) -> dict[str, tuple[float, float]]:
    work = Path(tempfile.mkdtemp(prefix="curator-scale-run-"))
    vault = work / "vault"
    shutil.copytree(template, vault, symlinks=True)
    cache = work / "cache"
    env = {**env, "XDG_CACHE_HOME": str(cache)}
    curator = [sys.executable, "-m", "curator"]
    times: dict[str, tuple[float, float]] = {}
    try:
        for step, args in (("proposals", ["proposals"]), ("validate", ["validate", ulid])):
            shutil.rmtree(cache, ignore_errors=True)
            for when in ("cold", "again"):
                wall, cpu, out = process_times([*curator, *args], env, vault)
                assert ulid in out, out
                times[f"{step} {when}"] = (wall, cpu)
        if in_process:
            shutil.rmtree(cache, ignore_errors=True)
            for when in ("cold", "kept"):
                wall, cpu, out = process_times([sys.executable, "-c", VERDICT, str(vault), ulid], env, vault)
                seconds, ok, kept = out.split()
                assert ok == "True" and kept == str(when == "kept"), out
                times[f"verdict {when} (in-process)"] = (float(seconds), cpu)
        wall, cpu, out = process_times([*curator, "apply", ulid, "--yes"], env, vault)
        log = subprocess.run(["git", "log", "-1", "--format=%s"], cwd=vault, capture_output=True, text=True).stdout
        assert log.startswith("Adopt "), log
        times["apply --yes"] = (wall, cpu)
        return times
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--vault", choices=("generated", "powershell"), default="generated")
    ap.add_argument("--notes", type=int, default=6500, help="notes in a generated vault")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--peer", help="a checkout folder, or a git revision of this repository, to run beside this one")
    args = ap.parse_args()
    peer = peer_checkout(args.peer) if args.peer else None
    template, ulid, changes = adopted(args.vault, args.notes, peer)
    base = side_env(**GIT_ENV, CURATOR_EMBEDDER="none", HF_HUB_OFFLINE="1")
    runners = {"this": {**base, "PYTHONPATH": str(ROOT)}}
    if peer is not None:
        runners["peer"] = {**base, "PYTHONPATH": peer}
    results: dict[str, list[dict[str, tuple[float, float]]]] = {name: [] for name in runners}
    for run, name, env in interleaved(runners, args.runs):
        results[name].append(one_run(template, ulid, env, in_process=name == "this"))
        # Each run as it ends: on a loaded machine a run can take half an hour, and a cut-short
        # benchmark still shows the runs it finished.
        done = {step: [round(w, 2), round(c, 2)] for step, (w, c) in results[name][-1].items()}
        print(f"run {run + 1} {name}: {json.dumps(done)}", flush=True)
    print(f"one adopt proposal of {changes} changes ({args.vault} vault); medians of {args.runs} runs, wall / CPU seconds")
    header = f"{'step':<28}" + "".join(f"{name:>22}" for name in runners)
    print(header + ("   peer / this (wall, CPU)" if len(runners) == 2 else ""))
    for step in STEPS:
        meds = []
        for name in runners:
            got = [r[step] for r in results[name] if step in r]
            meds.append((statistics.median(w for w, _ in got), statistics.median(c for _, c in got)) if got else None)
        row = f"{step:<28}" + "".join(f"{m[0]:>13.2f} / {m[1]:>5.2f}" if m else f"{'-':>22}" for m in meds)
        if len(meds) == 2 and meds[0] and meds[1]:
            row += f"   {meds[1][0] / meds[0][0]:.1f}x, {meds[1][1] / meds[0][1]:.1f}x"
        print(row)
    shutil.rmtree(template.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
