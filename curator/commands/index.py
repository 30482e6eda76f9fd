"""``curator index`` (reconcile) and ``curator index rebuild`` (a new epoch, swapped in)."""

from __future__ import annotations

import posixpath
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from curator import clock, output
from curator.commands.app import App
from curator.vault.paths import EXCLUDED, NOT_INCLUDED, never_news

NAMED_OTHERS = 10
"""Files that are not notes named one by one in a run's output; past this many, they are counted by kind."""

if TYPE_CHECKING:
    from curator.index.sources import SourceReport, SyncReport


LINE_EVERY = 60.0
"""Seconds between progress lines when stderr is not a terminal (a log under nohup, cron or a
redirect), where a bar cannot redraw: a first index embeds for many minutes."""
SHOWN = 200
"""A step of fewer items than this shows no progress: it is over before a bar would help."""


@contextmanager
def progress_bar(enabled: bool) -> Iterator[Callable[[str, int, int], None] | None]:
    """A progress bar on stderr for long runs; when stderr is not a terminal, a line a minute."""
    if not enabled:
        yield None
        return
    if not sys.stderr.isatty():
        yield progress_lines()
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TaskID,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Rate(ProgressColumn):
        """Passages (or notes) a second, as rich measures it over the last updates."""

        def render(self, task):  # type: ignore[no-untyped-def]
            unit = "passages" if task.description == "embedding" else "notes"
            return Text(f"{task.speed:.1f} {unit}/s" if task.speed else "")

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        Rate(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    tasks: dict[str, int] = {}

    def update(what: str, done: int, total: int) -> None:
        if total < SHOWN:
            return
        if what not in tasks:
            tasks[what] = bar.add_task(what, total=total)
        bar.update(TaskID(tasks[what]), completed=done)

    with bar:
        yield update


def progress_lines(now: Callable[[], float] = time.monotonic) -> Callable[[str, int, int], None]:
    """Progress as a line on stderr every ``LINE_EVERY`` seconds of a step: how far, how fast, and
    how long is left (``embedding: 768/6529 passages, 7.8/s, about 12 min left``)."""
    started: dict[str, float] = {}
    said: dict[str, float] = {}

    def update(what: str, done: int, total: int) -> None:
        if total < SHOWN:
            return
        t = now()
        began = started.setdefault(what, t)
        if done >= total or t - said.get(what, began) < LINE_EVERY:
            return
        said[what] = t
        rate = done / (t - began) if t > began else 0.0
        unit = " passages" if what == "embedding" else ""
        left = f", about {clock.duration((total - done) / rate)} left" if rate else ""
        output.note(f"{what}: {done}/{total}{unit}, {rate:.1f}/s{left}")

    return update


def print_report(report, quiet: bool, json_: bool) -> None:  # type: ignore[no-untyped-def]
    if json_:
        output.emit_json(
            {
                "epoch": report.epoch,
                "indexed": report.indexed,
                "unchanged": report.unchanged,
                "removed": report.removed,
                "passages": report.passages,
                "passages_written": report.written,
                "vectors_reused": report.reused,
                "embedded": report.embed.embedded,
                "seconds": round(report.seconds, 3),
                "workers": report.workers,
                "skipped": [{"path": p, "reason": r} for p, r in report.skips],
                "withheld": [{"path": p, "line": n, "secrets": k} for p, n, k in report.embed.withheld],
                "rejected": [{"path": p, "line": n, "reason": k} for p, n, k in report.embed.rejected],
                "warnings": report.warnings,
                "sources": [r.to_json() for r in report.sources.sources] if report.sources else [],
                "sources_dropped": report.sources.dropped if report.sources else [],
            }
        )
        return
    for w in report.warnings:
        output.warn(w)
    if quiet:
        if report.sources is not None:
            print_sync(report.sources, quiet=True)
        return
    extra = []
    if report.embed.embedded or report.reused:
        extra.append(f"{report.embed.embedded} embedded, {report.reused} reused")
    tail = f" ({'; '.join(extra)})" if extra else ""
    output.line(
        f"{report.indexed} indexed, {report.unchanged} unchanged, {report.removed} removed — "
        f"{report.passages} passages in {report.seconds:.2f}s{tail}"
    )
    for path, reason in _grouped(report.skips):
        output.line(f"skipped {output.safe_path(path)}: {reason}")
    for path, line, kinds in report.embed.withheld:
        output.line(f"lexical only {path}:{line}: carries a secret ({kinds}); not sent to the embedder")
    for path, line, why in report.embed.rejected:
        output.line(f"not embedded {path}:{line}: the embedder refused it ({why})")
    if report.sources is not None:
        print_sync(report.sources)


def print_sync(report: SyncReport, quiet: bool = False) -> None:
    """What a sync did, a line a source that was read; errors as warnings even when quiet."""
    for r in report.sources:
        if r.error:
            output.warn(f"source {r.name}: {r.error}; its {r.items} indexed item(s) keep serving")
        if quiet or not r.read:
            continue
        if not r.error:
            output.line(
                f"source {r.name} ({r.type}): {r.indexed} indexed, {r.unchanged} unchanged, "
                f"{r.removed} removed in {r.seconds:.2f}s"
            )
        _print_problems(r)
    for name in report.dropped:
        if not quiet:
            output.line(f"source {name}: no longer in the config; its items left the index")


def _print_problems(r: SourceReport) -> None:
    p = r.problems
    if p.count:
        output.line(f"  {p.count} problem(s), skipped:" if p.count > len(p.named) else "  skipped:")
        for what in p.named:
            output.line(f"    {output.safe_path(what)}")
    for what in p.warnings:
        output.line(f"  warning: {output.safe_path(what)}")
    if p.warning_count > len(p.warnings):
        output.line(f"  and {p.warning_count - len(p.warnings)} more warning(s)")


def _files_in(paths: list[str], folder: str) -> str:
    return paths[0] if len(paths) == 1 else f"{len(paths)} files in {folder}"


def _grouped(skips: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Skips to print: files kept out by notes.exclude shown once per top-level folder, and
    none of the files that are never notes (``never_news``: .gitignore, .gitattributes, a
    dotfile at the top), which every run would name again; ``--json`` lists every skip."""

    folders: dict[str, list[str]] = {}
    out: list[tuple[str, str]] = []
    for path, reason in skips:
        if never_news(path, reason):
            continue
        if reason == EXCLUDED and "/" in path:
            top = path.split("/", 1)[0] + "/"
            if top not in folders:
                folders[top] = []
                out.append((top, EXCLUDED))
            folders[top].append(path)
        else:
            out.append((path, reason))
    # Each group is named by the deepest folder its files share: powershell-docs/.github/, not the
    # powershell-docs/ that holds every note of the vault.
    shared = {top: posixpath.commonpath([posixpath.dirname(p) for p in paths]) + "/" for top, paths in folders.items()}
    # "skipped de/: excluded" would read as the folder kept out, when a pattern without a folder
    # (headings.txt) keeps out two files of it: the files are counted in the folder they share.
    grouped = [(_files_in(folders[p], shared[p]), r) if p in folders else (p, r) for p, r in out]
    excluded = [p for p in folders if len(folders[p]) > 1]
    if len(excluded) > NAMED_OTHERS:
        files = sum(len(folders[p]) for p in excluded)
        told = {_files_in(folders[p], shared[p]) for p in excluded}
        summary = (f"{files} files in {len(excluded)} folders", f"{EXCLUDED} (--json lists each)")
        grouped = [summary, *((p, r) for p, r in grouped if p not in told)]
    others = [p for p, r in grouped if r == NOT_INCLUDED]
    if len(others) <= NAMED_OTHERS:
        return grouped
    # An Obsidian vault keeps its images, PDFs and CSS beside the notes: hundreds of lines on
    # every run would bury what the run said. They are counted by kind instead.
    kinds = Counter(posixpath.splitext(p)[1].lower() or "(no extension)" for p in others)
    said = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])))
    summary = (f"{len(others)} files", f"{NOT_INCLUDED}: {said} (--json lists each)")
    return [summary, *((p, r) for p, r in grouped if r != NOT_INCLUDED)]


def run(app: App, quiet: bool) -> int:
    from curator.index.reconcile import reconcile

    vault = app.vault()
    announce = None if quiet or app.json else output.note
    with progress_bar(not quiet and not app.json) as progress:
        report = reconcile(vault, app.settings(), app.index_dir(), progress, announce=announce)
    print_report(report, quiet, app.json)
    return 0


def run_rebuild(app: App) -> int:
    from curator.index.reconcile import rebuild

    vault = app.vault()
    with progress_bar(not app.json) as progress:
        report = rebuild(vault, app.settings(), app.index_dir(), progress, None if app.json else output.note)
    if not app.json:
        output.line(f"new epoch {report.epoch} is serving")
    print_report(report, False, app.json)
    return 0
