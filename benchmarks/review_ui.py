"""The review UI's speed: first paint with a queue of 500 pending proposals, and a 5,000-line diff.

    python benchmarks/review_ui.py [--queue 500] [--lines 5000] [--runs 5] [--peer-runs 1]

Each figure is the median of ``--runs`` fresh app runs (Textual headless, 120x40):

- first paint: from starting the app to the queue listing every proposal on screen; the
  validator then checks them in a worker (the time until all are checked is printed too);
- large diff: from highlighting a proposal that changes 5,000 lines to its first screen of diff
  drawn, and to the pre-flight's verdict (validation and drift check in a worker; ``a`` is
  disabled until then): once for a proposal the queue's validator has read already (the diff
  is drawn from that report), once as if it had not (the stored diff is read and drawn first);
- beside it, our diff pane alone (no validation), textual-diff-view's DiffView on the same change
  where that package is installed (it is not a Curator dependency: AGPL, and it builds every line
  up front), and the same rows rendered eagerly (every row turned into text).

With ``--adopt N``, instead: the verdict on screen for one ``curator adopt`` proposal of N notes
(a generated vault, as an Obsidian vault is before adopting): seconds from starting the app to
the queue's first frame and to the pre-flight's verdict on the status line (``a`` enabled), in a
fresh process per run with an empty cache folder (cold), and with one ``curator proposals`` run
before (its kept verdict there to take), for HEAD and, with ``--peer REV``, for that revision
(each ``git archive``d: committed code only), interleaved run by run:

    python benchmarks/review_ui.py --adopt 6500 --runs 3 --peer REV
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "benchmarks"))


def example_vault() -> Path:
    dest = Path(tempfile.mkdtemp(prefix="curator-bench-review-")) / "vault"
    subprocess.run([str(ROOT / "scripts" / "make-example-vault"), str(dest)], check=True, capture_output=True)
    return dest


def stage_queue(root: Path, count: int) -> None:
    """``count`` pending proposals, each a one-line change to one of the example's notes."""
    from curator.operations import gather as sources
    from curator.operations import stage
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
    from curator.operations import gather as sources
    from curator.operations import stage
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


class Frames:
    """When the app's frames are drawn, and the first frame that shows a given text.

    Each frame Textual composes goes through ``App._display`` (headless too: only the write to
    the terminal is skipped); a frame's time is taken as it arrives, before its text is looked
    at. Waiting is by polling with short sleeps, not Pilot's ``pause``: that waits until the
    process is idle (or a second has passed), and a review app has workers busy validating.
    """

    def __init__(self, app: object) -> None:
        self.wanted: Callable[[], str | None] = lambda: None
        self.seen: float | None = None
        display = app._display  # type: ignore[attr-defined]
        console = app.console  # type: ignore[attr-defined]

        def watched(screen: object, renderable: object) -> None:
            now = time.perf_counter()
            display(screen, renderable)
            if self.seen is None and renderable is not None and hasattr(renderable, "render_segments"):
                text = self.wanted()
                if text and text in _plain(renderable.render_segments(console)):
                    self.seen = now

        app._display = watched  # type: ignore[attr-defined]

    def want(self, text: Callable[[], str | None]) -> None:
        self.wanted, self.seen = text, None

    async def shown(self, timeout: float = 120) -> float:
        """When the wanted text was first on screen (the frame's time, not when this noticed)."""
        await poll(lambda: self.seen is not None, timeout)
        assert self.seen is not None
        return self.seen


_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _plain(frame: str) -> str:
    return _ESCAPES.sub("", frame)


def _checks(screen: object) -> object:
    """What owns the pre-flight's state: the screen's ``Preflight`` (its ``checking`` and
    ``models``), or the screen itself in checkouts from before it was a widget of its own."""
    return getattr(screen, "preflight", screen)


async def poll(condition: Callable[[], bool], timeout: float = 300) -> float:
    end = time.perf_counter() + timeout
    while not condition():
        if time.perf_counter() > end:
            raise TimeoutError("condition never held")
        await asyncio.sleep(0.002)
    return time.perf_counter()


async def first_paint(root: Path, count: int) -> tuple[float, float, float]:
    """Seconds from building the app to the first frame showing the queue's first row, to every
    proposal in the table, and to every verdict in."""
    from curator.commands.app import App
    from curator.review.app import make_app
    from curator.review.queue_screen import QueueScreen

    start = time.perf_counter()
    app = make_app(*App(vault_arg=str(root)).place()[:2])
    frames = Frames(app)

    def first_row() -> str | None:
        screen = app.screen
        if not isinstance(screen, QueueScreen) or not screen.queue.row_count:
            return None
        e = screen.queue.visible_entries()[0]
        return (e.title or e.id)[:14]

    frames.want(first_row)
    async with app.run_test(size=(120, 40)):
        painted = await frames.shown() - start
        screen = app.screen
        assert isinstance(screen, QueueScreen)
        listed = await poll(lambda: screen.queue.row_count >= count) - start
        checked = await poll(lambda: all(e.report is not None for e in screen.queue.entries.values())) - start
        return painted, listed, checked


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
    app = Bare()
    frames = Frames(app)
    frames.want(lambda: "cell 0 a")
    async with app.run_test(size=(120, 40)):
        return await frames.shown() - start


async def large_diff(root: Path, ulid: str, lines: int, *, checked: bool) -> tuple[float, float]:
    """Seconds from highlighting the large proposal to the first frame showing its diff, and to
    the pre-flight's verdict in (``a`` enabled).

    ``checked``: the queue's validator has read it already (its diff is drawn from that while
    the pre-flight runs); otherwise as if it had not got there yet (the stored diff is read).
    """
    from curator.commands.app import App
    from curator.review.app import make_app
    from curator.review.queue_screen import QueueScreen

    app = make_app(*App(vault_arg=str(root)).place()[:2])
    frames = Frames(app)
    async with app.run_test(size=(120, 40)) as pilot:
        await poll(lambda: isinstance(app.screen, QueueScreen))
        screen = app.screen
        assert isinstance(screen, QueueScreen)
        await poll(lambda: bool(screen.queue.entries) and all(e.checked for e in screen.queue.entries.values()))
        other = next(k for k in screen.queue.entries if k != ulid)
        screen.queue.select(other)
        await poll(lambda: other not in _checks(screen).checking)  # type: ignore[attr-defined]
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not checked:
            screen.queue.entries[ulid].report = None
            _checks(screen).models.pop(ulid, None)  # type: ignore[attr-defined]
        frames.want(lambda: "of a long note")
        start = time.perf_counter()
        screen.queue.select(ulid)
        shown = await frames.shown() - start
        verdict = await poll(lambda: ulid not in _checks(screen).checking) - start  # type: ignore[attr-defined]
        await pilot.pause()
        assert screen.diff.row_count >= 2 * lines, screen.diff.row_count
        assert screen.check_action("apply", ()) is True
        return shown, verdict


async def pane_alone(root: Path, ulid: str) -> float:
    """Our diff pane alone in a bare app: rows laid out and the first frame drawn (no validation)."""
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

    app = Bare()
    frames = Frames(app)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        frames.want(lambda: "of a long note")
        start = time.perf_counter()
        app.query_one(DiffPane).show(build(report.subject.changes, ("curio",)))
        return await frames.shown() - start


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

    app = Bare()
    frames = Frames(app)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        frames.want(lambda: "of a long note")
        start = time.perf_counter()
        await app.query_one("#box").mount(DiffView("long.md", "long.md", old, new, split=False))
        return await frames.shown(timeout=3600) - start


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


VERDICT_PROBE = """
import asyncio, inspect, json, sys, time
start = time.perf_counter()
from curator.commands.app import App
from curator.review.app import make_app


async def probe() -> None:
    cli = App(vault_arg=sys.argv[1])
    vault, settings = cli.place()[:2]
    # As curator review builds it: with the folder verdicts are kept in, where this Curator takes it.
    kept = {"verdicts": cli.verdicts()} if "verdicts" in inspect.signature(make_app).parameters else {}
    app = make_app(vault, settings, **kept)
    async with app.run_test(size=(120, 40)):
        while not app.screen.__class__.__name__ == "QueueScreen" or not app.screen.queue.row_count:
            await asyncio.sleep(0.005)
        painted = time.perf_counter() - start
        screen = app.screen
        checks = getattr(screen, "preflight", screen)  # before the pre-flight was a widget of its own
        while True:
            ulid = screen.queue.chosen
            entry = screen.queue.entries.get(ulid) if ulid else None
            if entry is not None and ulid not in checks.checking and entry.checked:
                break
            await asyncio.sleep(0.01)
        verdict = time.perf_counter() - start
        status = str(screen.query_one("#status").render())
    print(json.dumps({"painted": painted, "verdict": verdict, "status": status}))


asyncio.run(probe())
"""

HOW = ("cold", "after proposals")


def adopt_vault(count: int) -> Path:
    """A generated vault of ``count`` notes without a kp_id, and its ``curator adopt`` proposal staged."""
    from common import generated_vault

    vault = generated_vault(count)
    r = subprocess.run(
        [sys.executable, "-m", "curator", "--vault", str(vault), "--json", "adopt"], capture_output=True, text=True
    )
    if r.returncode != 0:
        sys.exit(f"curator adopt failed: {r.stderr}")
    return vault


def _env(tree: str, cache: Path) -> dict[str, str]:
    from common import side_env

    return side_env(PYTHONPATH=tree, XDG_CACHE_HOME=str(cache), HF_HUB_OFFLINE="1")


def verdict_on_screen(tree: str, vault: Path, how: str) -> dict[str, float]:
    """One fresh process of the review app from ``tree`` on ``vault`` with an empty cache folder,
    after ``curator proposals`` (from the same tree, in its own process) when ``how`` says so."""
    cache = Path(tempfile.mkdtemp(prefix="curator-bench-cache-"))
    if how == "after proposals":
        cmd = [sys.executable, "-m", "curator", "--vault", str(vault), "proposals"]
        if subprocess.run(cmd, capture_output=True, env=_env(tree, cache), cwd=vault).returncode != 0:
            sys.exit(f"curator proposals from {tree} failed")
    # From the vault's folder: ``-c`` and ``-m`` put the working folder before PYTHONPATH, and this
    # checkout's folder would shadow the tree being timed.
    r = subprocess.run(
        [sys.executable, "-c", VERDICT_PROBE, str(vault)],
        capture_output=True,
        text=True,
        env=_env(tree, cache),
        cwd=vault,
    )
    if r.returncode != 0:
        sys.exit(f"the review app from {tree} failed: {r.stderr[-2000:]}")
    data = json.loads(r.stdout.strip().splitlines()[-1])
    if "Valid" not in data["status"]:
        sys.exit(f"the review app from {tree} showed no verdict: {data['status']}")
    return data


def adopt_main(count: int, runs: int, peer: str | None) -> None:
    from common import peer_checkout

    vault = adopt_vault(count)
    trees = {"HEAD": peer_checkout("HEAD")}  # committed code only: others' edits in progress stay out
    if peer:
        trees[f"peer {peer}"] = peer_checkout(peer)
    got: dict[tuple[str, str], list[dict[str, float]]] = {}
    for _ in range(runs):
        for name, tree in trees.items():  # interleaved, so both see the same machine
            for how in HOW:
                got.setdefault((name, how), []).append(verdict_on_screen(tree, vault, how))
    med = statistics.median
    print(f"curator review on one adopt proposal of {count:,} notes (median of {runs} runs, seconds from start):")
    verdicts: dict[tuple[str, str], float] = {}
    for (name, how), results in sorted(got.items()):
        painted = med(r["painted"] for r in results)
        verdicts[name, how] = med(r["verdict"] for r in results)
        each = ", ".join(f"{r['verdict']:.1f}" for r in results)
        print(f"  {name}, {how}: first frame {painted:.2f} s; verdict on screen {verdicts[name, how]:.1f} s ({each})")
    if peer:
        for how in HOW:
            ratio = verdicts[f"peer {peer}", how] / verdicts["HEAD", how]
            print(f"  {how}: the verdict is on screen {ratio:.1f}x sooner than with {peer}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--queue", type=int, default=500)
    ap.add_argument("--lines", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--peer-runs", type=int, default=1, help="runs of textual-diff-view, where installed")
    ap.add_argument("--adopt", type=int, default=0, help="time the verdict of one adopt proposal of this many notes")
    ap.add_argument("--peer", help="with --adopt: a revision (or checkout folder) of Curator to time beside this one")
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if args.adopt:
        adopt_main(args.adopt, args.runs, args.peer)
        return
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
    for checked, how in ((True, "already checked by the queue"), (False, "not yet checked")):
        runs = [asyncio.run(large_diff(big, ulid, args.lines, checked=checked)) for _ in range(args.runs)]
        shown = [r[0] for r in runs]
        verdicts = [r[1] for r in runs]
        print(
            f"{args.lines}-line diff ({how}), highlight to first screen: median {med(shown) * 1000:.0f} ms "
            f"(runs {', '.join(f'{x * 1000:.0f}' for x in shown)}); to the pre-flight's verdict "
            f"(a enabled): {med(verdicts) * 1000:.0f} ms"
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
