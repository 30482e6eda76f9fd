"""Sync time for a generated Zotero library (default 10,000 items), first and no-change.

1. first `curator index` of a one-note vault with the library as a source (fresh index);
2. a no-change `curator index` with the source, against the same vault without it,
   interleaved, medians and their ratio: what a source costs when nothing changed;
3. `curator sources sync` with nothing changed: the library copied and read again, nothing
   re-indexed (median);
4. ten items edited in the library, then `curator index`: re-read, re-indexed, re-embedded.

    python benchmarks/sources_zotero.py [--items 10000] [--runs 7] [--embedder none|fake|local]

The library is written by the test suite's builder (Zotero's own tables and columns), with
three item types, two or three creators, tags, nested collections, an abstract of a few
sentences, and a child note on every third item.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import ROOT, median_ms, timed

from tests.sources.zotero_library import ZoteroLibrary

WORDS = [
    *("attention", "retrieval", "memory", "cortex", "protein", "lattice", "entropy", "gradient", "inference"),
    *("sampling", "river", "glacier", "market", "contract", "grammar", "syntax", "corpus", "archive"),
    *("theorem", "manifold", "enzyme", "tissue", "vaccine", "orbit", "plasma", "transistor", "compiler"),
    *("scheduler", "ledger", "harvest", "drought", "migration", "treaty", "dialect", "manuscript"),
]


def _sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def build_library(path: Path, items: int, seed: int = 7) -> tuple[ZoteroLibrary, list[str]]:
    rng = random.Random(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    lib = ZoteroLibrary(path)
    tops = [lib.add_collection(f"Topic {n}") for n in range(20)]
    subs = [lib.add_collection(f"Sub {n}", rng.choice(tops)) for n in range(60)]
    keys = []
    with lib.conn:  # one transaction: the builder's own commits nest as savepoints
        for n in range(items):
            kind = rng.choice(["journalArticle", "book", "conferencePaper"])
            fields: dict[str, object] = {
                "title": _sentence(rng, 8).rstrip("."),
                "abstractNote": " ".join(_sentence(rng, 18) for _ in range(5)),
                "date": f"{rng.randint(1950, 2025)}-00-00 {rng.randint(1950, 2025)}",
                "citationKey": f"key{n}",
            }
            if kind == "journalArticle":
                fields["publicationTitle"] = f"Journal of {rng.choice(WORDS).title()}"
                fields["DOI"] = f"10.1234/bench.{n}"
            creators = [(rng.choice(WORDS).title(), f"Author{rng.randint(1, 3000)}", "author") for _ in range(3)]
            notes = [f"<p>{_sentence(rng, 25)}</p><ul><li>{_sentence(rng, 8)}</li></ul>"] if n % 3 == 0 else []
            keys.append(
                lib.add_item(
                    kind,
                    fields,
                    creators=creators[: rng.randint(2, 3)],
                    tags=sorted({rng.choice(WORDS), rng.choice(WORDS)}),
                    collections=[rng.choice(subs)],
                    notes=notes,
                )
            )
    return lib, keys


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--items", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--embedder", default="none", choices=["none", "fake", "local"])
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="curator-bench-zotero-"))
    started = time.perf_counter()
    lib, keys = build_library(work / "Zotero" / "zotero.sqlite", args.items)
    built_s = time.perf_counter() - started
    size_mb = (work / "Zotero" / "zotero.sqlite").stat().st_size / 1e6

    config = (ROOT / "curator" / "default_config.yaml").read_text()
    vaults = {}
    for name, sources in (
        ("with", f"sources:\n  - name: library\n    type: zotero\n    path: {work / 'Zotero' / 'zotero.sqlite'}\n"),
        ("without", "sources: []\n"),
    ):
        v = work / f"vault-{name}"
        (v / ".kp").mkdir(parents=True)
        (v / ".kp" / "config.yaml").write_text(config.replace("sources: []\n", sources))
        (v / "reading.md").write_text("---\nkp_id: kp:01J0000000000000000000READ\n---\n# Reading\n\nSee @key1.\n")
        os.system(
            f"git -C {v} init -q && git -C {v} add -A && git -C {v} -c user.name=b -c user.email=b@b commit -qm v"
        )
        vaults[name] = v
    env = {**os.environ, "CURATOR_EMBEDDER": args.embedder, "XDG_CACHE_HOME": str(work / "cache")}
    cli = [sys.executable, "-m", "curator"]

    def index(vault: Path, *extra: str) -> tuple[float, dict]:
        secs, out = timed([*cli, "--vault", str(vault), "--json", *extra], env=env)
        return secs, json.loads(out)

    first_s, first = index(vaults["with"], "index")
    src = first["sources"][0]
    index(vaults["without"], "index")
    with_s, without_s = [], []
    for _ in range(args.runs):
        with_s.append(index(vaults["with"], "index")[0])
        without_s.append(index(vaults["without"], "index")[0])
    again = index(vaults["with"], "index")[1]
    sync_s, sync = [], {}
    for _ in range(max(3, args.runs // 2)):
        s, sync = index(vaults["with"], "sources", "sync")
        sync_s.append(s)
    lib.close()
    lib = ZoteroLibrary.__new__(ZoteroLibrary)  # reopen the built library to edit it as Zotero would
    import apsw

    lib.conn = apsw.Connection(str(work / "Zotero" / "zotero.sqlite"))
    lib.fields = dict(lib.conn.execute("SELECT fieldName, fieldID FROM fields").fetchall())
    for key in keys[:10]:
        lib.set_field(key, "abstractNote", "An edited abstract about glaciers and treaties.")
    lib.conn.close()
    edit_s, edited = index(vaults["with"], "index")

    print(
        f"library: {args.items} items, {size_mb:.1f} MB zotero.sqlite (built in {built_s:.1f}s); embedder {args.embedder}"
    )
    print(
        f"first sync (fresh index): {first_s:.2f}s process, {src['seconds']:.2f}s in the source "
        f"({src['indexed']} items, {first['passages']} passages, {first['embedded']} embedded)"
    )
    print(
        f"no-change `curator index`: with the source {median_ms(with_s):.0f} ms, without {median_ms(without_s):.0f} ms "
        f"(median of {args.runs}, interleaved; ratio {statistics.median(with_s) / statistics.median(without_s):.2f}); "
        f"source read: {again['sources'][0]['read']}"
    )
    s = sync["sources"][0]
    print(
        f"no-change `curator sources sync` (copy and read again): {median_ms(sync_s):.0f} ms median of {len(sync_s)}; "
        f"{s['indexed']} indexed, {s['unchanged']} unchanged, {sync['embedded']} embedded"
    )
    e = edited["sources"][0]
    print(
        f"ten items edited, `curator index`: {edit_s:.2f}s; {e['indexed']} re-indexed, {e['unchanged']} unchanged, "
        f"{edited['embedded']} passage(s) embedded"
    )
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
