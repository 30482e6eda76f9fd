"""The review UI's speed: first paint with a queue of 500 pending proposals, and a 5,000-line diff.

    python benchmarks/review_ui.py [--queue 500] [--lines 5000] [--runs 5] [--peer-runs 1]

Each figure is the median of ``--runs`` fresh app runs (Textual headless, 120x40):

- first paint: from starting the app to the queue listing every proposal on screen; the
  validator then checks them in a worker (the time until all are checked is printed too);
- large diff: from highlighting a proposal that changes 5,000 lines to its first screen of diff
  drawn (the pre-flight worker's validation, the rows built, the visible rows rendered);
- beside it, our diff pane alone (no validation), textual-diff-view's DiffView on the same change
  where that package is installed (it is not a Curator dependency: AGPL, and it builds every line
  up front), and the same rows rendered eagerly (every row turned into text).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def example_vault() -> Path:
    dest = Path(tempfile.mkdtemp(prefix="curator-bench-review-")) / "vault"
    subprocess.run([str(ROOT / "scripts" / "make-example-vault"), str(dest)], check=True, capture_output=True)
    return dest


def stage_queue(root: Path, count: int) -> None:
    """``count`` pending proposals, each a one-line change to one of the example's notes."""
    from curator.proposals import sources, stage
    from curator.proposals.manifest import Author
    from curator.settings import load
    from curator.vault import find_vault

    vault = find_vault(str(root))
    settings = load(vault.root)
    repo = vault.repo
    tree = repo.head.peel().tree
    notes = sorted(
        str(p.relative_to(root))
        for p in root.rglob("*.md")
        if not any(part.startswith(".") for part in p.relative_to(root).parts)
    )
    head = str(repo.head.target)
    author = Author(kind="agent", name="bench")
    for i in range(count):
        path = notes[i % len(notes)]
        old = bytes(repo[tree[path].id].data)
        new = old + f"\nA remark, number {i}.\n".encode()
        draft = stage.Draft("modify", path, base_blob=str(tree[path].id), diff=sources.unified(path, old, new))
        staged = stage.stage(
            vault, settings, [draft], title=f"Remark {i} on {path}", rationale="bench", author=author, base=head
        )
        assert staged.report.ok, staged.report.findings


def large_diff_vault(lines: int) -> tuple[Path, str]:
    from curator.proposals import sources, stage
    from curator.proposals.manifest import Author
    from curator.settings import load
    from curator.vault import find_vault

    root = example_vault()
    body = "".join(f"Line {i} of a long note, with a few words to compare.\n" for i in range(lines))
    text = "---\nkp_id: kp:01M8GX8VV0TCGJTD2GKCX64LNG\ntitle: Long\n---\n" + body
    (root / "long.md").write_text(text)
    subprocess.run(["git", "add", "long.md"], cwd=root, check=True)
    subprocess.run(["git", "commit", "-q", "--no-verify", "-m", "long"], cwd=root, check=True)
    new = text.replace("with a few words", "with some other words")
    vault = find_vault(str(root))
    oid = str(vault.repo.head.peel().tree["long.md"].id)
    draft = stage.Draft(
        "modify", "long.md", base_blob=oid, diff=sources.unified("long.md", text.encode(), new.encode())
    )
    staged = stage.stage(
        vault,
        load(vault.root),
        [draft],
        title="Reword every line",
        rationale="bench",
        author=Author(kind="agent", name="bench"),
        base=str(vault.repo.head.target),
    )
    assert staged.report.ok, staged.report.findings
    return root, staged.id


async def first_paint(root: Path, count: int) -> tuple[float, float, float]:
    """Seconds to the first frame showing the queue, to every row in the table, to every verdict."""
    from curator.app import App
    from curator.review.app import make_app
    from curator.review.queue_screen import QueueScreen

    start = time.perf_counter()
    app = make_app(App(vault_arg=str(root)))
    async with app.run_test(size=(120, 40)) as pilot:
        painted = listed = None
        while True:
            screen = app.screen
            if isinstance(screen, QueueScreen) and screen.queue.row_count:
                if painted is None:
                    await pilot.pause()  # the refresh that draws the first rows
                    painted = time.perf_counter() - start
                if listed is None and screen.queue.row_count >= count:
                    listed = time.perf_counter() - start
                if listed is not None and all(e.report is not None for e in screen.queue.entries.values()):
                    return painted, listed, time.perf_counter() - start
            await pilot.pause()


async def bare_table(count: int) -> float:
    """The peer: a bare Textual app whose DataTable gets ``count`` rows of six plain cells."""
    from textual.app import App as TextualApp
    from textual.app import ComposeResult
    from textual.widgets import DataTable, Footer

    class Bare(TextualApp[None]):
        def compose(self) -> ComposeResult:
            yield DataTable()
            yield Footer()

        def on_mount(self) -> None:
            table = self.query_one(DataTable)
            for c in "abcdef":
                table.add_column(c)
            for i in range(count):
                table.add_row(*[f"cell {i} {c}" for c in "abcdef"])

    start = time.perf_counter()
    async with Bare().run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        return time.perf_counter() - start


async def large_diff(root: Path, ulid: str, lines: int) -> float:
    from curator.app import App
    from curator.review.app import make_app
    from curator.review.queue_screen import QueueScreen

    app = make_app(App(vault_arg=str(root)))
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, QueueScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen.queue.select(next(k for k in screen.queue.entries if k != ulid))
        await app.workers.wait_for_complete()
        await pilot.pause()
        start = time.perf_counter()
        screen.queue.select(ulid)
        while screen.diff.model is None or screen.diff.model is not screen.models.get(ulid):
            await pilot.pause()
        await pilot.pause()  # the refresh that draws the first screen
        elapsed = time.perf_counter() - start
        assert screen.diff.row_count >= 2 * lines, screen.diff.row_count
        return elapsed


async def pane_alone(root: Path, ulid: str) -> float:
    """Our diff pane alone in a bare app: rows built and the first screen drawn (no validation)."""
    from textual.app import App as TextualApp
    from textual.app import ComposeResult

    from curator.diffview.model import build
    from curator.review.diff_pane import DiffPane
    from curator.review.entries import check
    from curator.settings import load
    from curator.vault import find_vault

    vault = find_vault(str(root))
    report = check(vault, load(vault.root), ulid)
    assert report.subject is not None

    class Bare(TextualApp[None]):
        def compose(self) -> ComposeResult:
            yield DiffPane()

    async with Bare().run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        start = time.perf_counter()
        pilot.app.query_one(DiffPane).show(build(report.subject.changes, ("curio",)))
        await pilot.pause()
        return time.perf_counter() - start


async def textual_diff_view(root: Path) -> float | None:
    """The peer, where installed: textual-diff-view's DiffView (AGPL, not a Curator dependency)."""
    try:
        from textual_diff_view import DiffView
    except ImportError:
        return None
    from textual.app import App as TextualApp
    from textual.containers import VerticalScroll

    old = subprocess.run(["git", "show", "HEAD:long.md"], cwd=root, capture_output=True, text=True, check=True).stdout
    new = old.replace("with a few words", "with some other words")

    class Bare(TextualApp[None]):
        def compose(self):  # type: ignore[no-untyped-def]
            yield VerticalScroll(id="box")

    async with Bare().run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        start = time.perf_counter()
        await pilot.app.query_one("#box").mount(DiffView("long.md", "long.md", old, new, split=False))
        await pilot.pause()
        return time.perf_counter() - start


def eager_render(root: Path, ulid: str) -> tuple[float, float]:
    """The same diff: rows built and every row rendered (eager), against the first 40 rows (lazy)."""
    from rich.console import Console

    from curator.diffview.model import build
    from curator.diffview.richtext import Renderer
    from curator.review.entries import check
    from curator.settings import load
    from curator.vault import find_vault

    vault = find_vault(str(root))
    report = check(vault, load(vault.root), ulid)
    console = Console(width=120, color_system="truecolor", force_terminal=True)
    start = time.perf_counter()
    model = build(report.subject.changes, ("curio",))
    r = Renderer(model)
    for i in range(40):
        list(r.unified(i).render(console))
    lazy = time.perf_counter() - start
    start = time.perf_counter()
    model = build(report.subject.changes, ("curio",))
    r = Renderer(model)
    for i in range(len(model.rows)):
        list(r.unified(i).render(console))
    return lazy, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--queue", type=int, default=500)
    ap.add_argument("--lines", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--peer-runs", type=int, default=1, help="runs of textual-diff-view, where installed")
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from curator.proposals import store

    root = example_vault()
    stage_queue(root, args.queue - len(store.list_ids(str(root))))  # the example's own make up the rest
    assert len(store.list_ids(str(root))) == args.queue
    paints, lists, checks, bares = [], [], [], []
    for _ in range(args.runs):
        # Interleaved with the peer, so both see the same machine.
        p, listed, c = asyncio.run(first_paint(root, args.queue))
        paints.append(p)
        lists.append(listed)
        checks.append(c)
        bares.append(asyncio.run(bare_table(args.queue)))
    med = statistics.median
    print(
        f"first paint, {args.queue} pending proposals: median {med(paints) * 1000:.0f} ms "
        f"(runs {', '.join(f'{x * 1000:.0f}' for x in paints)}); every row in the table: "
        f"{med(lists) * 1000:.0f} ms; every verdict in: {med(checks) * 1000:.0f} ms"
    )
    print(
        f"  peer, a bare Textual DataTable of {args.queue} rows painted: median {med(bares) * 1000:.0f} ms "
        f"(the review queue's first paint is {med(paints) / med(bares):.2f}x it)"
    )
    big, ulid = large_diff_vault(args.lines)
    diffs = [asyncio.run(large_diff(big, ulid, args.lines)) for _ in range(args.runs)]
    print(
        f"{args.lines}-line diff, highlight to first screen: median {statistics.median(diffs) * 1000:.0f} ms "
        f"(runs {', '.join(f'{x * 1000:.0f}' for x in diffs)})"
    )
    panes = [asyncio.run(pane_alone(big, ulid)) for _ in range(args.runs)]
    print(f"  our diff pane alone (rows built, first screen drawn): median {med(panes) * 1000:.0f} ms")
    # The peer builds every line up front: minutes a run under load, so it runs --peer-runs times.
    peers = [asyncio.run(textual_diff_view(big)) for _ in range(args.peer_runs)]
    if peers and all(p is not None for p in peers):
        peer = med([p for p in peers if p is not None])
        print(
            f"  peer, textual-diff-view's DiffView on the same change, mounted to first paint: "
            f"median {peer * 1000:.0f} ms of {len(peers)} run(s) ({peer / med(panes):.0f}x our pane)"
        )
    else:
        print("  (textual-diff-view not run: not installed, or --peer-runs 0)")
    lazies, eagers = zip(*(eager_render(big, ulid) for _ in range(args.runs)), strict=True)
    lazy, eager = statistics.median(lazies), statistics.median(eagers)
    print(
        f"render only: first screen {lazy * 1000:.0f} ms vs every row {eager * 1000:.0f} ms "
        f"(eager is {eager / lazy:.0f}x the lazy first screen)"
    )


if __name__ == "__main__":
    main()
