"""The librarian's digest on the powershell-docs tree (3,112 files), with a real history.

The tree is committed one file a commit (3,112 commits an hour apart, by git
fast-import), so every note is dated by the commit that added it (its frontmatter
has only `ms.date`). Then:

1. the first digest (every note a candidate): a `curator digest` process with the
   history not yet walked, then the median of --runs with it remembered;
2. that digest applied, 1,000 new notes committed (100 commits of 10), indexed,
   and the next digest: median of --runs `curator digest` processes;
3. the history walk itself against git's own one-walk peer
   (`git log --reverse --diff-filter=A --name-only`), interleaved medians, and what
   asking git file by file would cost (20 files timed, scaled to the vault).

    python benchmarks/digest_powershell.py [--runs 7] [--embedder fake|local|none]

`fake` (the hashing test double) stores as many vectors as the real model without
an hour of CPU time; `local` runs all-MiniLM-L6-v2.
"""

from __future__ import annotations

import argparse
import json
import os
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
from common import DATA, median_ms, timed

T0 = 1767225600  # 2026-01-01T00:00:00Z
FIRST_CLOCK = "2026-06-01T00:00:00Z"
NEXT_CLOCK = "2026-06-20T00:00:00Z"
NEW_FROM = 1780531200  # 2026-06-04T00:00:00Z
NOW_MD = """# Now

PowerShell remoting to many servers: sessions, credentials and the double hop.
Writing advanced functions and modules with proper error handling and pipeline input.
Desired State Configuration for the build agents.
"""


def _fast_import(vault: Path, files: list[str], start: int, step: int, per_commit: int, parent: bool) -> None:
    """Commit ``files`` (already in the work tree) ``per_commit`` at a time, ``step`` seconds apart."""
    chunks = []
    for n in range(0, len(files), per_commit):
        when = start + (n // per_commit) * step
        batch = files[n : n + per_commit]
        msg = f"add {batch[0]}".encode()
        chunks.append(b"commit refs/heads/main\n")
        chunks.append(b"author b <b@b> %d +0000\ncommitter b <b@b> %d +0000\n" % (when, when))
        chunks.append(b"data %d\n%s\n" % (len(msg), msg))
        if n == 0 and parent:
            chunks.append(b"from refs/heads/main^0\n")
        for path in batch:
            data = (vault / path).read_bytes()
            chunks.append(b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(data), data))
    subprocess.run(["git", "fast-import", "--quiet"], cwd=vault, input=b"".join(chunks), check=True)
    subprocess.run(["git", "reset", "-q"], cwd=vault, check=True)


def history_vault() -> tuple[Path, list[str]]:
    work = Path(tempfile.mkdtemp(prefix="curator-digest-bench-"))
    with tarfile.open(DATA / "powershell-docs.tar.gz") as tar:
        tar.extractall(work, filter="data")
    vault = next(p for p in work.iterdir() if p.is_dir())
    subprocess.run(["git", "-c", "init.defaultBranch=main", "init", "-q"], cwd=vault, check=True)
    (vault / "now.md").write_text(NOW_MD, encoding="utf-8")
    files = sorted(p.relative_to(vault).as_posix() for p in vault.rglob("*") if p.is_file() and ".git" not in p.parts)
    _fast_import(vault, files, T0, 3600, 1, parent=False)
    subprocess.run(["git", "symbolic-ref", "HEAD", "refs/heads/main"], cwd=vault, check=True)
    return vault, files


def _clear_staged(vault: Path, result: dict[str, object]) -> None:
    if result.get("id"):
        shutil.rmtree(vault / ".kp" / "proposals" / str(result["id"]))


def _digests(
    curator: list[str], env: dict[str, str], vault: Path, clock: str, runs: int
) -> tuple[list[float], list[float], dict]:
    """Digest processes interleaved with a peer on the same index: a hybrid `curator search`."""
    times, peer, last = [], [], {}
    for _ in range(runs):
        t, out = timed([*curator, "digest", "--now", clock, "--json"], env)
        last = json.loads(out)
        _clear_staged(vault, last)
        times.append(t)
        peer.append(timed([*curator, "search", "remoting sessions and credentials"], env)[0])
    return times, peer, last


def _line(label: str, result: dict, cold: float, warm: list[float], peer: list[float], cold_what: str) -> str:
    d, p = statistics.median(warm), statistics.median(peer)
    return (
        f"{label} ({result['candidates']} candidates, {result['method']['similarity']}): {cold:.2f}s {cold_what}; "
        f"median {d:.2f}s ({min(warm):.2f}-{max(warm):.2f}, {len(warm)} runs); a hybrid `curator search` "
        f"process beside it {p:.2f}s; ratio {d / p:.1f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--embedder", default="fake", choices=["fake", "local", "none"])
    args = ap.parse_args()
    started = time.perf_counter()
    vault, files = history_vault()
    print(f"vault: {len(files)} files in {len(files)} commits (built in {time.perf_counter() - started:.1f}s)")
    env = {
        **os.environ,
        "CURATOR_EMBEDDER": args.embedder,
        "HF_HUB_OFFLINE": "1",
        "XDG_CACHE_HOME": tempfile.mkdtemp(prefix="curator-digest-cache-"),
    }
    curator = [sys.executable, "-m", "curator", "--vault", str(vault)]
    t, out = timed([*curator, "--json", "index"], env)
    report = json.loads(out)
    print(f"index ({args.embedder}): {report['indexed']} notes, {report['passages']} passages in {t:.1f}s")

    cold, first = timed([*curator, "digest", "--now", FIRST_CLOCK, "--json"], env)
    first_result = json.loads(first)
    _clear_staged(vault, first_result)
    warm, peer, result = _digests(curator, env, vault, FIRST_CLOCK, args.runs)
    print(_line("first digest", result, cold, warm, peer, "walking the history"))

    applied = json.loads(timed([*curator, "digest", "--now", FIRST_CLOCK, "--auto-apply", "--json"], env)[1])
    assert applied.get("applied"), applied
    new = []
    for n, path in enumerate(files[:1000]):
        target = f"new/{n:04d}-{Path(path).name}"
        dest = vault / target
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(f"<!-- copy {n} -->\n".encode() + (vault / path).read_bytes())
        new.append(target)
    _fast_import(vault, new, NEW_FROM, 3600, 10, parent=True)
    t, out = timed([*curator, "--json", "index"], env)
    print(f"1,000 new notes in 100 commits; reconcile: {json.loads(out)['indexed']} indexed in {t:.1f}s")
    cold, out = timed([*curator, "digest", "--now", NEXT_CLOCK, "--json"], env)
    _clear_staged(vault, json.loads(out))
    warm, peer, result = _digests(curator, env, vault, NEXT_CLOCK, args.runs)
    print(_line("next digest", result, cold, warm, peer, "walking the 100 new commits"))

    from curator.librarian.history import added_times
    from curator.vault import find_vault

    v = find_vault(str(vault))
    ours, peer = [], []
    for _ in range(args.runs):
        s = time.perf_counter()
        h = added_times(v, None)
        ours.append(time.perf_counter() - s)
        peer.append(
            timed(["git", "log", "--reverse", "--diff-filter=A", "--name-only", "--format=%at", "HEAD"], cwd=vault)[0]
        )
    o, p = median_ms(ours), median_ms(peer)
    print(
        f"history walk ({h.walked} commits, {len(h.added)} paths): pygit2 in-process median {o:.0f} ms; "
        f"`git log --diff-filter=A` process median {p:.0f} ms; ratio {o / p:.2f}"
    )
    sample = files[:: max(1, len(files) // 20)][:20]
    s = time.perf_counter()
    for path in sample:
        timed(["git", "log", "--diff-filter=A", "--format=%at", "--", path], cwd=vault)
    per_file = (time.perf_counter() - s) / len(sample)
    print(
        f"asking git file by file: {per_file * 1000:.0f} ms a file, about {per_file * (len(files) + 1000):.0f}s "
        f"for the {len(files) + 1000} notes ({per_file * (len(files) + 1000) / (o / 1000):.0f}x the one walk)"
    )
    shutil.rmtree(vault.parent, ignore_errors=True)
    shutil.rmtree(env["XDG_CACHE_HOME"], ignore_errors=True)


if __name__ == "__main__":
    main()
