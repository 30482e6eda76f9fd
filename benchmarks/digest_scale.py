"""The digest at scale, as a user gets there: the powershell-docs tree unpacked into a git
repository, `curator init`, `curator index`, the first digest; then 1,000 new notes
committed since that digest and the next one.

Each digest is timed two ways, interleaved run by run, medians of --runs:

- the digest step: `curator digest` called in this process once its modules are
  loaded (the up-to-date check, candidates, scores, summaries, staging);
- the process: `python -m curator digest`, wall time, start-up and imports included,

beside a peer run on the same index in the same loop: a `curator search` process.
Each run's staged proposal is removed before the next, so every run stages one.

    python benchmarks/digest_scale.py [--runs 5] [--embedder none|local|fake] [--subset N] [--new 1000] [--keep]

`none` (the default) is the lexical path on the whole tree: BM25 to now.md's terms.
`local` embeds with all-MiniLM-L6-v2 on the CPU, some 8 minutes for the whole tree's
60,000 passages on two free cores: pass `--subset 300` to keep the first 300 files (sorted
by path) and say so. The 1,000 new notes are generated from a fixed seed: PowerShell
sentences, tags from a small set, `created` dates inside the new window.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import DATA, timed

IMPORTED = "2026-05-01T09:00:00Z"
FIRST_CLOCK = "2026-06-01T07:00:00Z"
NEW_COMMIT = "2026-06-14T18:00:00Z"
NEXT_CLOCK = "2026-06-15T07:00:00Z"
NOW_MD = """# Now

PowerShell remoting to many servers: sessions, credentials and the double hop.
Writing advanced functions and modules with proper error handling and pipeline input.
Desired State Configuration for the build agents.
"""
SUBJECTS = [
    "remoting",
    "the pipeline",
    "error handling",
    "a module manifest",
    "Desired State Configuration",
    "PSSession options",
    "script signing",
    "the execution policy",
    "background jobs",
    "parameter binding",
    "CIM sessions",
    "the help system",
    "string formatting",
    "hash tables",
    "the registry provider",
]
VERBS = ["needs", "breaks on", "works well with", "was slow with", "should document", "depends on"]
OBJECTS = [
    "the build agents",
    "our CI runners",
    "the second hop",
    "credential delegation",
    "long-running sessions",
    "the nightly reports",
    "PowerShell 7.4",
    "Windows PowerShell 5.1",
    "the staging servers",
]
TAGS = ["powershell", "ops", "ci", "dsc", "remoting", "modules", "reading"]
GIT_ENV = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b", "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@b"}


def _git(vault: Path, *args: str, when: str) -> None:
    env = {**os.environ, **GIT_ENV, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    subprocess.run(["git", *args], cwd=vault, env=env, check=True, capture_output=True)


def vault_from_tarball(subset: int | None) -> tuple[Path, int]:
    work = Path(tempfile.mkdtemp(prefix="curator-digest-scale-"))
    with tarfile.open(DATA / "powershell-docs.tar.gz") as tar:
        tar.extractall(work, filter="data")
    vault = next(p for p in work.iterdir() if p.is_dir())
    files = sorted(p for p in vault.rglob("*") if p.is_file())
    if subset is not None:
        for p in files[subset:]:
            p.unlink()
        files = files[:subset]
    subprocess.run(["git", "-c", "init.defaultBranch=main", "init", "-q"], cwd=vault, check=True)
    (vault / "now.md").write_text(NOW_MD, encoding="utf-8")
    _git(vault, "add", "-A", when=IMPORTED)
    _git(vault, "commit", "-q", "-m", "the docs", when=IMPORTED)
    return vault, len(files)


def new_notes(vault: Path, count: int) -> None:
    """``count`` notes under journal/, the same bytes on every run (a fixed seed)."""
    rng = random.Random(20260601)
    for n in range(count):
        subject = rng.choice(SUBJECTS)
        sentences = [
            f"{subject[0].upper()}{subject[1:]} {rng.choice(VERBS)} {rng.choice(OBJECTS)}.",
            *(
                f"On day {k + 1}, {rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} "
                f"when {rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)}."
                for k in range(rng.randint(2, 8))
            ),
        ]
        day = 2 + n % 13  # June 2nd to 14th: inside (FIRST_CLOCK, NEXT_CLOCK]
        tags = sorted(set(rng.sample(TAGS, rng.randint(1, 3))))
        text = (
            f"---\ntitle: Log {n:04d} on {subject}\ncreated: 2026-06-{day:02d}T{n % 24:02d}:{n % 60:02d}:00Z\n"
            f"tags: [{', '.join(tags)}]\n---\n# Log {n:04d} on {subject}\n\n" + " ".join(sentences) + "\n\n"
            "```powershell\nGet-PSSession | Remove-PSSession\n```\n"
        )
        path = vault / "journal" / f"{n // 100:02d}" / f"log-{n:04d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _in_process(vault: Path, clock: str) -> tuple[float, dict]:
    from curator.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--vault", str(vault), "digest", "--now", clock, "--json"])
    elapsed = time.perf_counter() - start
    if code != 0:
        sys.exit(f"digest failed ({code}): {err.getvalue()}")
    return elapsed, json.loads(out.getvalue())


def _unstage(vault: Path, result: dict) -> None:
    if result.get("id"):
        shutil.rmtree(vault / ".kp" / "proposals" / str(result["id"]))


def measure(curator: list[str], env: dict[str, str], vault: Path, clock: str, runs: int) -> dict:
    step, proc, peer = [], [], []
    last: dict = {}
    _unstage(vault, _in_process(vault, clock)[1])  # modules loaded, history walked and remembered
    for _ in range(runs):
        t, last = _in_process(vault, clock)
        _unstage(vault, last)
        step.append(t)
        t, out = timed([*curator, "digest", "--now", clock, "--json"], env)
        _unstage(vault, json.loads(out))
        proc.append(t)
        peer.append(timed([*curator, "search", "remoting sessions and credentials"], env)[0])
    return {"step": step, "process": proc, "peer": peer, "result": last}


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.0f} ms ({min(values) * 1000:.0f}-{max(values) * 1000:.0f})"


def report(label: str, m: dict, runs: int) -> None:
    r = m["result"]
    process, peer = statistics.median(m["process"]), statistics.median(m["peer"])
    print(
        f"{label}: {r['candidates']} candidates, top {len(r['entries'])} by {r['method']['similarity']}; "
        f"medians of {runs} runs: digest step {_ms(m['step'])}; `curator digest` process {_ms(m['process'])}; "
        f"a `curator search` process beside it {_ms(m['peer'])} (digest/search {process / peer:.2f})"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--embedder", default="none", choices=["none", "local", "fake"])
    ap.add_argument("--subset", type=int, default=None, help="keep the first N files (sorted by path)")
    ap.add_argument("--new", type=int, default=1000)
    ap.add_argument("--keep", action="store_true", help="leave the vault and its index in place")
    args = ap.parse_args()
    cache = tempfile.mkdtemp(prefix="curator-digest-scale-cache-")
    env = {**os.environ, "CURATOR_EMBEDDER": args.embedder, "HF_HUB_OFFLINE": "1", "XDG_CACHE_HOME": cache}
    os.environ.update({k: env[k] for k in ("CURATOR_EMBEDDER", "HF_HUB_OFFLINE", "XDG_CACHE_HOME")})
    vault, files = vault_from_tarball(args.subset)
    which = "the whole tree" if args.subset is None else f"the first {files} files (sorted by path)"
    curator = [sys.executable, "-m", "curator", "--vault", str(vault)]
    timed([*curator, "init"], env)
    _git(vault, "add", "-A", when=IMPORTED)
    _git(vault, "commit", "-q", "-m", "curator init", when=IMPORTED)
    t, out = timed([*curator, "--json", "index"], env)
    index = json.loads(out)
    print(
        f"powershell-docs, {which}: {files} files; `curator index` ({args.embedder}): "
        f"{index['indexed']} notes, {index['passages']} passages in {t:.1f}s"
    )

    first = measure(curator, env, vault, FIRST_CLOCK, args.runs)
    report("first digest", first, args.runs)
    applied = json.loads(timed([*curator, "digest", "--now", FIRST_CLOCK, "--auto-apply", "--json"], env)[1])
    assert applied.get("applied"), applied

    new_notes(vault, args.new)
    _git(vault, "add", "-A", when=NEW_COMMIT)
    _git(vault, "commit", "-q", "-m", f"{args.new} notes", when=NEW_COMMIT)
    t, out = timed([*curator, "--json", "index"], env)
    print(
        f"{args.new} new notes committed after that digest; `curator index`: {json.loads(out)['indexed']} in {t:.1f}s"
    )
    nxt = measure(curator, env, vault, NEXT_CLOCK, args.runs)
    report(f"next digest (+{args.new})", nxt, args.runs)

    shown = json.loads(timed([*curator, "digest", "--now", NEXT_CLOCK, "--json"], env)[1])
    text = (vault / ".kp" / "proposals" / shown["id"] / "files" / shown["path"]).read_text(encoding="utf-8")
    body = text.split("\n---\n", 1)[1]
    print(f"the staged {shown['path']}, first lines:")
    for line in body.splitlines()[:12]:
        print(f"  {line}")
    if args.keep:
        print(f"kept: {vault} (index in {cache})")
    else:
        shutil.rmtree(vault.parent, ignore_errors=True)
        shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
