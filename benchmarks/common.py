"""Shared set-up for the benchmark scripts: the vaults they run on (the powershell-docs tree,
generated notes, the example vault with a side for each checkout), a peer checkout to run beside
this one, and the one way a process is timed (``process_times``) and sides take turns
(``interleaved``)."""

from __future__ import annotations

import os
import random
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
GIT_ENV = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b", "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@b"}


def powershell_vault() -> Path:
    tarball = DATA / "powershell-docs.tar.gz"
    if not tarball.exists():
        sys.exit(f"missing {tarball}: the benchmarks read ../shared/data beside the project")
    work = Path(tempfile.mkdtemp(prefix="curator-bench-"))
    with tarfile.open(tarball) as tar:
        tar.extractall(work, filter="data")
    vault = next(p for p in work.iterdir() if p.is_dir())
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "b",
        "GIT_AUTHOR_EMAIL": "b@b",
        "GIT_COMMITTER_NAME": "b",
        "GIT_COMMITTER_EMAIL": "b@b",
    }
    subprocess.run(["git", "init", "-q"], cwd=vault, check=True)
    subprocess.run(["git", "add", "-A"], cwd=vault, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "docs"], cwd=vault, check=True, env=env)
    return vault


def peer_checkout(rev: str) -> str:
    """Older Curator to run beside this one (with PYTHONPATH): a checkout folder, or a git
    revision of this repository unpacked to a temp folder."""
    if os.path.isdir(rev):
        return os.path.abspath(rev)
    folder = tempfile.mkdtemp(prefix="curator-peer-")
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
    return folder


def process_times(cmd: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, stdout) of one process run to its end. CPU is user + system of
    the process and every process it waited for (``RUSAGE_CHILDREN``), which a busy machine
    inflates less than the wall clock. A process that fails ends the benchmark with its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    r = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({r.returncode}): {r.stdout}{r.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), r.stdout


def timed(cmd: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> tuple[float, str]:
    """(wall seconds, stdout) of one process (``process_times``)."""
    wall, _cpu, out = process_times(cmd, env, cwd)
    return wall, out


def interleaved(sides: dict[str, T], rounds: int) -> Iterator[tuple[int, str, T]]:
    """(round, name, side) for each side in each of ``rounds`` rounds, the order turned round
    every other round (this, peer, peer, this, ...), so that each side meets the same load and
    neither is always first."""
    order = list(sides.items())
    for n in range(rounds):
        for name, side in order if n % 2 == 0 else order[::-1]:
            yield n, name, side


def side_env(**extra: str) -> dict[str, str]:
    """The environment a measured Curator process runs with: this one's, without a vault named
    by CURATOR_VAULT, and writing its bytecode on its first run as an installed Curator does (a
    side that compiled its modules from source on every run would time Python's compiler, and a
    fresh ``git archive`` beside a checkout with bytecode would lose by that alone)."""
    env = {**os.environ, **extra}
    env.pop("CURATOR_VAULT", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def example_sides(tmp: Path, embedder: str, peer: str | None) -> tuple[Path, dict[str, dict[str, str]]]:
    """The example vault in ``tmp``, and the environment of each side that runs Curator on it:
    ``this`` checkout and, with ``peer`` (see ``peer_checkout``), that one by PYTHONPATH, each with
    its own XDG cache, where each side has indexed the vault. Run Curator from the vault's folder:
    ``python -m`` puts the working folder first on sys.path."""
    vault = tmp / "vault"
    subprocess.run([str(ROOT / "scripts" / "make-example-vault"), str(vault)], check=True, capture_output=True)
    base = side_env(CURATOR_EMBEDDER=embedder, HF_HUB_OFFLINE="1")
    sides = {"this": {**base, "XDG_CACHE_HOME": str(tmp / "cache")}}
    if peer:
        sides[f"peer {peer}"] = {**base, "XDG_CACHE_HOME": str(tmp / "cache-peer"), "PYTHONPATH": peer_checkout(peer)}
    for env in sides.values():
        subprocess.run([sys.executable, "-m", "curator", "--vault", str(vault), "index", "--quiet"], check=True, env=env, cwd=vault)
    return vault, sides


def median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


_VOCABULARY = (
    "garden tomato seedling compost harvest soil trellis basil pepper mulch river trail summit ridge "
    "forest camp kettle lantern meeting agenda budget review draft chapter reading library archive "
    "kernel module socket thread buffer cache index query shard replica backup restore deploy script "
    "recipe flour yeast oven sourdough starter proof crumb glaze travel ticket station platform "
    "museum gallery sketch canvas pigment journal morning evening weekly monthly project milestone"
)
WORDS = tuple(_VOCABULARY.split())
FOLDERS = (
    "daily",
    "projects",
    "reading",
    "garden",
    "recipes",
    "travel",
    "work/meetings",
    "work/notes",
    "ideas",
    "people",
)


def _sentence(rng: random.Random, words: int) -> str:
    text = " ".join(rng.choice(WORDS) for _ in range(words))
    return text[0].upper() + text[1:] + "."


def _note(rng: random.Random, i: int, titles: list[str]) -> str:
    """One note as a person keeps it in Obsidian: half with a frontmatter block (tags, aliases, a
    date), paragraphs each on one line, lists, wikilinks to other notes, now and then a code block."""
    lines: list[str] = []
    if rng.random() < 0.5:
        lines += ["---", f"title: {titles[i]}", f"tags: [{rng.choice(WORDS)}, {rng.choice(WORDS)}]"]
        if rng.random() < 0.3:
            lines += ["aliases:", f"  - {rng.choice(WORDS)} {i}"]
        lines += [f"created: 2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}", "---"]
    lines += [f"# {titles[i]}", ""]
    for _ in range(rng.randint(2, 6)):
        kind = rng.random()
        if kind < 0.5:
            para = " ".join(_sentence(rng, rng.randint(8, 20)) for _ in range(rng.randint(2, 6)))
            lines += [para.replace(".", f" [[{rng.choice(titles)}]].", 1), ""]
        elif kind < 0.8:
            lines += [f"- {_sentence(rng, rng.randint(3, 10))}" for _ in range(rng.randint(2, 8))] + [""]
        elif kind < 0.9:
            lines += [f"## {_sentence(rng, 3)[:-1]}", ""]
        else:
            lines += ["```sh", f"{rng.choice(WORDS)} --{rng.choice(WORDS)} {rng.randint(1, 99)}", "```", ""]
    return "\n".join(lines)


def generated_vault(count: int = 6500, seed: int = 28) -> Path:
    """A committed git vault of ``count`` generated notes, none with a ``kp_id`` (as a real
    Obsidian vault is before ``curator adopt``), ``curator init`` done and committed. The same
    ``seed`` gives the same notes."""
    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix="curator-bench-gen-"))
    vault = work / "vault"
    titles = [f"{_sentence(rng, 3)[:-1]} {i}" for i in range(count)]
    for i in range(count):
        path = vault / FOLDERS[i % len(FOLDERS)] / f"{titles[i]}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_note(rng, i, titles) + "\n", encoding="utf-8")
    env = {**os.environ, **GIT_ENV}
    subprocess.run(["git", "init", "-q"], cwd=vault, check=True)
    subprocess.run([sys.executable, "-m", "curator", "--vault", str(vault), "init"], check=True, capture_output=True)
    subprocess.run(["git", "add", "-A"], cwd=vault, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "notes"], cwd=vault, check=True, env=env)
    return vault
