"""Does the digest follow now.md? The on-topic share of a digest on a realistic Obsidian vault.

The vault: 89 notes written over the 30 days before the digest's clock and a Home note
linking them (Obsidian's layout: daily notes, project and reading folders, properties such
as ``status:``, tags, some notes in German and Japanese), and a now.md that names three
topics and says "Not now: the garden". Every note is about one topic; whether a topic is on
topic is judged in ``JUDGED`` below, written before any run, from now.md alone. The first
digest covers every note (half-life 14 days); its on-topic share at 10 is the part of its
first 10 entries that are on topic. By chance alone (recency deciding) it is about a quarter:
22 of the 89 notes are on topic, spread over the same 30 days as the rest.

Each run is a fresh vault and index with one model, for this checkout and a peer (an older
revision unpacked beside it, run with its own code), so both are judged on the same notes:

    python benchmarks/digest_relevance.py [--peer REV] [--model all-MiniLM-L6-v2|multilingual-e5-small ...]

Prints, per checkout and model: the on-topic share at 10 and 20, where each on-topic note
ranks, and the nearest off-topic entries, as text and (``--json``) as JSON.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GIT_ENV, ROOT, peer_checkout

CLOCK = dt.datetime(2026, 12, 4, 7, 0, tzinfo=dt.UTC)
DAYS = 30
SEED = 30

NOW_MD = """---
title: Now
tags: [now]
---
# Now

What I am working on and care about these weeks:

- Shipping hybrid search in Curator: BM25 and vector search fused by rank, passage chunking
  at headings, citations that point at the lines they quote.
- SQLite under load: WAL mode, many readers and one writer, checkpoints and busy timeouts.
- Training for the Berlin marathon in April: long runs, interval sessions, then the taper.

Not now: the garden (it is winter), woodworking, travel plans.
"""

JUDGED = {
    # topic: on topic for the now.md above? (judged from now.md alone, before any run)
    "search": True,
    "sqlite": True,
    "marathon": True,
    "garden": False,  # "Not now: the garden"
    "woodworking": False,  # "Not now"
    "travel": False,  # "Not now"
    "cooking": False,
    "books": False,
    "admin": False,
    "meetings": False,  # work meetings about billing and hiring, not search or SQLite
    "daily": False,  # daily notes about the day, not the three topics
}

SENTENCES = {
    "search": [
        "Reciprocal rank fusion with k=60 beats mixing raw BM25 and cosine scores.",
        "Chunking at headings keeps a passage's breadcrumb, so the vector knows what section it is in.",
        "The lexical leg needs to split camelCase and snake_case identifiers into sub-words.",
        "Citations should point at a line range in the file, not at the whole note.",
        "Lexical hits under five percent of the best score are noise and should leave the pool.",
        "Vector recall on short queries is weak; hybrid ranking saves them.",
        "Maximal marginal relevance could stop three passages of one note filling the top.",
        "Evaluate on SciFact: nDCG@10 for lexical, vector and hybrid modes.",
        "BM25 with stemming finds plural forms that the exact match misses.",
        "A query embedding must come from the same model as the stored passage vectors.",
        "Snippets should show the matched words with a little context around them.",
    ],
    "sqlite": [
        "In WAL mode readers never block the writer and the writer never blocks readers.",
        "A checkpoint copies pages from the WAL back into the database file.",
        "busy_timeout makes a second writer wait instead of failing with database is locked.",
        "Long-running read transactions stop the checkpoint from resetting the WAL file.",
        "FTS5 external content tables need triggers or a rebuild to stay in step.",
        "PRAGMA synchronous=NORMAL is safe in WAL mode and much faster than FULL.",
        "Only one writer at a time: batch the inserts in one transaction.",
        "sqlite-vec stores vectors in a virtual table beside the passages.",
        "The shared-memory file must be on a local disk, never on a network share.",
        "Measure how many readers the index serves while one indexer writes.",
    ],
    "marathon": [
        "Sunday long run: 28 km at easy pace, the last 5 km at marathon pace.",
        "Intervals on the track: 6 x 1000 m at 4:05 with 400 m jog recovery.",
        "The taper starts three weeks before Berlin: volume down, intensity kept.",
        "Carbohydrate loading in the last three days; test the gels on long runs first.",
        "Easy runs must stay easy: heart rate under 145.",
        "Tempo run of 12 km at threshold felt controlled today.",
        "New shoes need 50 km of easy running before the race.",
        "The training plan peaks at 80 km a week in March.",
        "Hill repeats build strength for the last ten kilometres.",
        "Sleep and recovery matter as much as the mileage.",
    ],
    "garden": [
        "Tomatoes want full sun and steady watering; pinch out the side shoots.",
        "The compost heap needs turning every two weeks and more brown material.",
        "Prune the apple tree in late winter while it is dormant.",
        "Order seeds for spring: beans, courgettes, two kinds of lettuce.",
        "Mulch the raspberry canes before the frost.",
        "The greenhouse thermometer read minus two this morning.",
        "Slugs ate the young lettuce again; try copper tape.",
        "Plant garlic cloves in November for a summer harvest.",
        "The rhubarb crowns should be divided every five years.",
        "Rainwater butts are full; the garden needs nothing now in winter.",
    ],
    "woodworking": [
        "Dovetails by hand: saw on the waste side of the line.",
        "Sharpen the plane iron at 30 degrees with a micro bevel.",
        "The oak table top cupped; it needs breadboard ends.",
        "Danish oil brings out the grain of walnut beautifully.",
        "Mortise and tenon joints for the workbench legs.",
        "Glue-up needs six clamps and a square check before it sets.",
        "Rough lumber should acclimatise in the shop for two weeks.",
        "A shooting board makes end grain square and clean.",
    ],
    "travel": [
        "Train to Lisbon via Paris and Madrid takes two days.",
        "Book the ferry to the islands before the summer prices.",
        "The museum pass covers twelve museums for three days.",
        "Pack light: one bag, three shirts, a rain jacket.",
        "The night train has sleeper cabins for two.",
        "Check the passport expiry before booking anything abroad.",
        "Hostels near the old town are cheaper midweek.",
        "Rent bikes for the coastal route, about 40 km a day.",
    ],
    "cooking": [
        "Sourdough: feed the starter the night before, bake at 250 degrees.",
        "The ragù needs three hours on a low flame.",
        "Roast the squash with cumin and chilli, then blend with stock.",
        "Risotto: add the stock one ladle at a time and keep stirring.",
        "Pickled red onions keep for two weeks in the fridge.",
        "Dumplings freeze well on a tray before they go into a bag.",
        "Marinate the tofu overnight in soy, garlic and ginger.",
        "Shortbread is one part sugar, two parts butter and three parts flour.",
    ],
    "books": [
        "The novel's second half drags, but the ending is worth it.",
        "Her narrator lies to the reader from the first page.",
        "A short story collection about a seaside town in the 1950s.",
        "The translation keeps the long sentences of the original.",
        "Reading group picks next month's book on Thursday.",
        "The detective series gets better from the third book on.",
        "Poetry is best read aloud, slowly.",
        "The memoir covers her childhood on a farm.",
    ],
    "admin": [
        "Tax return due on the last day of July; collect the receipts.",
        "Renew the home insurance before it lapses in January.",
        "The electricity tariff changes next month; compare offers.",
        "Car inspection booked for the 12th at nine.",
        "Cancel the unused gym membership.",
        "The landlord wants the meter readings by Friday.",
        "Update the address at the bank and the doctor's office.",
        "File the warranty papers for the new washing machine.",
    ],
    "meetings": [
        "Billing dashboard review: the invoice export is late again.",
        "Hiring sync: two candidates for the designer role move on.",
        "Quarterly budget: travel costs are over plan.",
        "Office move planned for March; pack the archive boxes.",
        "The support rota changes next week.",
        "Retro: standups run too long; keep them to fifteen minutes.",
        "Vendor call about the new laptops and their delivery date.",
        "All-hands: the holiday party is on the 18th.",
    ],
    "daily": [
        "Grey morning, coffee on the balcony anyway.",
        "Called my sister; the kids are fine.",
        "Groceries, laundry and a long walk by the river.",
        "Tired today, early night.",
        "Fixed the bike's brakes after work.",
        "Watched a film about mountain climbers.",
        "The neighbours had a party until late.",
        "Cleaned the kitchen and the windows.",
    ],
}
# Notes in other languages: the same topics, for a multilingual model to read.
FOREIGN = {
    ("search", "de"): [
        "Die Rangfusion verbindet BM25 und Vektorsuche nach Rang, nicht nach Punktzahl.",
        "Passagen werden an Überschriften geteilt, mit ihrem Pfad als Kontext.",
        "Zitate sollen auf die Zeilen zeigen, die sie zitieren.",
    ],
    ("marathon", "de"): [
        "Langer Lauf am Sonntag: 30 km ruhig, die letzten 5 km im Marathontempo.",
        "Intervalle auf der Bahn: 8 x 800 m mit Trabpause.",
        "Drei Wochen vor Berlin beginnt das Tapering.",
    ],
    ("garden", "de"): [
        "Die Tomaten brauchen viel Sonne und gleichmäßig Wasser.",
        "Der Kompost muss alle zwei Wochen umgesetzt werden.",
        "Im Spätwinter den Apfelbaum schneiden.",
    ],
    ("cooking", "de"): [
        "Sauerteig: den Ansatz am Vorabend füttern, bei 250 Grad backen.",
        "Das Ragù braucht drei Stunden auf kleiner Flamme.",
        "Kürbis mit Kreuzkümmel rösten und mit Brühe pürieren.",
    ],
    ("sqlite", "ja"): [
        "WALモードでは読み取りが書き込みをブロックしない。",
        "チェックポイントはWALのページをデータベースファイルに戻す。",
        "busy_timeoutを設定すると二つ目の書き込みは待機する。",
    ],
    ("marathon", "ja"): [
        "日曜日のロング走は28キロ、最後の5キロはレースペース。",
        "ベルリンマラソンの三週間前からテーパリングを始める。",
        "インターバル走、1000メートルを6本。",
    ],
    ("garden", "ja"): [
        "トマトは日当たりと水やりが大切。",
        "冬の間は庭仕事はほとんどない。",
        "春のために種を注文する。",
    ],
    ("travel", "ja"): [
        "リスボンまで夜行列車で行く。",
        "島へのフェリーを早めに予約する。",
        "荷物は少なく、雨具を忘れずに。",
    ],
}
COUNTS = {
    "search": 8,
    "sqlite": 7,
    "marathon": 7,
    "garden": 9,
    "woodworking": 6,
    "travel": 6,
    "cooking": 8,
    "books": 7,
    "admin": 7,
    "meetings": 8,
    "daily": 16,
}
FOLDER = {
    "search": "Projects/Curator",
    "sqlite": "Projects/Curator",
    "marathon": "Running",
    "garden": "Garden",
    "woodworking": "Workshop",
    "travel": "Travel",
    "cooking": "Recipes",
    "books": "Reading",
    "admin": "Admin",
    "meetings": "Work/Meetings",
}


def notes() -> list[tuple[str, str, str]]:
    """(path, topic, text) of every note, the same every run (a fixed seed)."""
    rng = random.Random(SEED)
    out: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for topic, count in COUNTS.items():
        pools = [("en", SENTENCES[topic])] * count
        foreign = [(lang, pool) for (t, lang), pool in FOREIGN.items() if t == topic]
        for i, (lang, pool) in enumerate(foreign):  # the last notes of a topic are in other languages
            pools[count - 1 - i] = (lang, pool)
        for lang, pool in pools:
            created = CLOCK - dt.timedelta(seconds=rng.randrange(DAYS * 86400))
            local = created.strftime("%Y-%m-%d %H:%M")
            body = " ".join(rng.sample(pool, 3))
            if topic == "daily":
                day = created.strftime("%Y-%m-%d")
                while f"Daily/{day}.md" in seen:
                    created -= dt.timedelta(days=1)
                    day = created.strftime("%Y-%m-%d")
                path, title = f"Daily/{day}.md", day
                text = f"---\ncreated: {local}\ntags: [daily]\n---\n# {day}\n\n{body}\n"
            else:
                title = _title(body, seen, FOLDER[topic])
                path = f"{FOLDER[topic]}/{title}.md"
                status = "\nstatus: active" if topic in ("search", "sqlite") else ""
                lang_line = "" if lang == "en" else f"\nlang: {lang}"
                text = (
                    f"---\ntitle: {title}\ncreated: {local}\ntags: [{topic}]{status}{lang_line}\n---\n"
                    f"# {title}\n\n{body}\n\nBack to [[Home]].\n"
                )
            seen.add(path)
            out.append((path, topic, text))
    return out


def _title(body: str, seen: set[str], folder: str) -> str:
    """A note's title as people give one: the first words of what it says (an unused file name)."""
    first = re.split(r"[.。]", body)[0]
    words = first.replace(":", "").replace("/", " ").split()
    title = " ".join(words[:5]) if len(words) > 1 else first[:12]
    n, name = 1, title
    while f"{folder}/{name}.md" in seen:
        n += 1
        name = f"{title} {n}"
    return name


def build(root: Path, model: str | None) -> None:
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, check=True)
    (root / ".kp").mkdir()
    config = "notes:\n  timezone: UTC\n" + (f"embedder:\n  model: {model}\n" if model else "")
    (root / ".kp" / "config.yaml").write_text(config, encoding="utf-8")
    (root / "now.md").write_text(NOW_MD, encoding="utf-8")
    everything = notes()
    home = "# Home\n\n" + "\n".join(f"- [[{p[:-3]}]]" for p, topic, _ in everything if topic != "daily") + "\n"
    (root / "Home.md").write_text(home, encoding="utf-8")
    for path, _topic, text in everything:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    env = {
        **os.environ,
        **GIT_ENV,
        "GIT_AUTHOR_DATE": "2026-11-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2026-11-01T00:00:00Z",
    }
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, env=env)
    subprocess.run(["git", "commit", "-q", "-m", "vault"], cwd=root, check=True, env=env)


def run(checkout: str, model: str | None, work: Path) -> dict:
    vault = work / "vault"
    build(vault, model)
    env = {
        **os.environ,
        "PYTHONPATH": checkout,
        "XDG_CACHE_HOME": str(work / "cache"),
        "HF_HUB_OFFLINE": "1",
        "TZ": "UTC",
    }
    env.pop("CURATOR_EMBEDDER", None)
    cmd = [sys.executable, "-m", "curator", "--vault", str(vault)]
    index = subprocess.run([*cmd, "index", "--quiet"], env=env, cwd=checkout, capture_output=True, text=True)
    if index.returncode != 0:
        sys.exit(f"index failed: {index.stderr}")
    clock = CLOCK.strftime("%Y-%m-%dT%H:%M:%SZ")
    r = subprocess.run(
        [*cmd, "--json", "digest", "--now", clock, "--k", "20"], env=env, cwd=checkout, capture_output=True, text=True
    )
    if r.returncode != 0:
        sys.exit(f"digest failed: {r.stderr}")
    out = json.loads(r.stdout)
    topic_of = {path: topic for path, topic, _ in notes()}
    ranked = [e["path"] for e in out["entries"]]
    on = [JUDGED[topic_of[p]] if p in topic_of else False for p in ranked]
    return {
        "method": out["method"],
        "candidates": out["candidates"],
        "on_topic_at_10": sum(on[:10]) / 10,
        "on_topic_at_20": sum(on[:20]) / 20,
        "top10": [f"{topic_of.get(p, '?')}:{p}" for p in ranked[:10]],
        "on_topic_ranks": [n for n, hit in enumerate(on, start=1) if hit],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--peer", help="a git revision (or checkout folder) to run beside this checkout")
    ap.add_argument("--model", action="append", help="embedder.model (repeat); default: both local models")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    models = args.model or ["all-MiniLM-L6-v2", "multilingual-e5-small"]
    checkouts = [("this", str(ROOT))] + ([("peer", peer_checkout(args.peer))] if args.peer else [])
    total = len(notes())
    on_topic = sum(JUDGED[t] for _, t, _ in notes())
    results = []
    for model in models:
        for name, checkout in checkouts:
            work = Path(tempfile.mkdtemp(prefix="curator-relevance-"))
            try:
                got = run(checkout, None if model == "all-MiniLM-L6-v2" else model, work)
            finally:
                shutil.rmtree(work, ignore_errors=True)
            results.append({"checkout": name, "model": model, **got})
    if args.json:
        print(json.dumps({"notes": total, "on_topic_notes": on_topic, "results": results}, indent=2))
        return
    print(
        f"{total} notes, {on_topic} on topic ({on_topic / total:.0%} by chance); digest k=10 (and 20), half-life 14 d"
    )
    for r in results:
        print(
            f"{r['model']:<24} {r['checkout']:<5} on-topic@10 {r['on_topic_at_10']:.0%}  @20 {r['on_topic_at_20']:.0%}  "
            f"on-topic ranks {r['on_topic_ranks'][:10]}"
        )
        for line in r["top10"]:
            print(f"    {line}")


if __name__ == "__main__":
    main()
