"""The detail pane: rationale, author, base, files with their drift, and the validator's findings."""

from __future__ import annotations

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from curator.diffview.visible import visible
from curator.proposals.events import PENDING
from curator.review.entries import Entry

_DRIFT = {"clean": "green", "drifted": "yellow", "conflicts": "bold red"}
# Lines of files and of findings drawn here: an adopt proposal changes thousands of files, and a
# pane of that many lines takes seconds to lay out. The diff (n/p) walks every file.
SHOWN = 200
_OPS = {"create": ("+ new", "green"), "modify": ("~ mod", "cyan"), "delete": ("- del", "red")}


def describe(entry: Entry | None) -> Text:
    """Everything the reviewer should read before deciding, as plain-text ``Text`` (no markup)."""
    if entry is None:
        return Text("No proposal selected.", style="italic grey62")
    text = Text()
    report = entry.report
    m = report.subject.manifest if report and report.subject else None
    text.append(entry.title or entry.id, style="bold")
    text.append(f"\n{entry.id}", style="grey62")
    if entry.gone:
        text.append("\n\nThis proposal's folder was removed while the queue was open.", style="bold red")
        return text
    if not entry.checked:
        text.append("\n\nChecking with the validator…", style="italic grey62")
        return text
    kept = entry.kept if report is None else None
    if kept is not None:  # a verdict kept from before: what it holds, until the report is in
        text.append(f"\nby {visible(entry.author)}" + (f" · {entry.created}" if entry.created else ""), style="grey62")
        if entry.supersedes:
            text.append(f"\nrevision of {entry.supersedes}", style="grey62")
    if m is not None:
        text.append("\nby ", style="grey62")
        text.append(visible(str(m.author)))
        text.append(f" · {m.created}", style="grey62")
        text.append(f"\nbase {m.base[:12]}", style="grey62")
        if m.supersedes:
            text.append(f" · revision of {m.supersedes}", style="grey62")
        if m.revised_by is not None:
            text.append(f"\nrevised by {visible(str(m.revised_by))}", style="grey62")
    if entry.chain:
        text.append("\n\nRevisions ", style="bold")
        for n, ulid in enumerate(entry.chain, start=1):
            if n > 1:
                text.append(" → ")
            text.append(f"v{n} {ulid[-6:]}", style="bold magenta" if ulid == entry.id else "")
        if entry.supersedes:
            text.append("\ni shows the diff against the revision this one supersedes", style="grey62")
    if entry.requested is not None and entry.status == PENDING:
        ask = entry.requested
        text.append("\n\nCHANGES REQUESTED", style="bold yellow")
        text.append(f" {ask.at} by {visible(ask.by)}")
        if ask.reason:
            text.append(f"\n{visible(ask.reason)}", style="italic")
    if entry.status != PENDING:
        ev = entry.event
        text.append(f"\n\n{entry.status.upper()}", style="bold")
        if ev is not None:
            text.append(f" {ev.at} by {visible(ev.by)}")
            if ev.commit:
                text.append(f" in {ev.commit[:12]}")
            if ev.reason:
                text.append(f"\n{visible(ev.reason)}", style="italic")
    if m is not None and m.rationale.strip():
        text.append("\n\n")
        text.append("\n".join(visible(line) for line in m.rationale.strip().splitlines()), style="italic")
    elif kept is not None:
        text.append("\n\nThe validator's verdict, kept from before; the rationale follows.", style="italic grey62")
    changes: list[tuple[str, str, str | None]]
    if report is not None and report.subject is not None:
        changes = [(v.change.op, v.change.path, v.drift) for v in report.subject.changes]
    else:
        changes = [(op, path, None) for op, path in (kept.changes if kept is not None else ())]
    if changes:
        text.append(f"\n\nFiles ({len(changes):,})\n" if len(changes) > SHOWN else "\n\nFiles\n", style="bold")
        for op, path, drift in changes[:SHOWN]:
            label, style = _OPS.get(op, (op, ""))
            text.append(f" {label} ", style=style)
            text.append(visible(path))
            if drift and entry.status == PENDING:  # decided: no drift to show
                text.append(f"  {drift}", style=_DRIFT.get(drift, ""))
            text.append("\n")
        if len(changes) > SHOWN:
            text.append(f" … and {len(changes) - SHOWN:,} more: n in the diff goes from file to file\n", style="grey62")
    findings = entry.findings
    if findings:
        heading = "Findings" if not entry.ok else "Warnings"
        text.append(
            f"\n{heading} ({len(findings):,})\n" if len(findings) > SHOWN else f"\n{heading}\n",
            style="bold red" if not entry.ok else "bold yellow",
        )
        for f in findings[:SHOWN]:
            where = f"{visible(f.path)}:{f.line}" if f.line else visible(f.path)
            text.append(f" {f.code} ", style="bold yellow" if f.warning else "bold red")
            text.append(where, style="underline")
            text.append(f"\n   {'warning: ' if f.warning else ''}{visible(f.message)}\n")
        if len(findings) > SHOWN:
            text.append(f" … and {len(findings) - SHOWN:,} more (curator validate lists them all)\n", style="grey62")
    if entry.status == PENDING and entry.ok:
        text.append("\nValid", style="bold green")
        if findings:
            text.append(" · with warnings: a person decides", style="yellow")
        source = report or kept
        if source is not None and source.auto_applicable:
            text.append(" · auto-applicable", style="green")
        text.append("\n")
    return text


class DetailPane(VerticalScroll, can_focus=False):
    """What a proposal is and what the validator says about it."""

    DEFAULT_CSS = """
    DetailPane {
        border: round $primary 40%;
        border-title-color: $text-muted;
        padding: 0 1;
    }
    DetailPane > Static {
        width: 1fr;
    }
    """

    chain: tuple[str, ...] = ()
    """The revision chain the detail names (shown again when the queue learns more of it)."""

    def compose(self):  # type: ignore[no-untyped-def]
        yield Static(describe(None), id="detail-text")

    def show(self, entry: Entry | None) -> None:
        self.chain = tuple(entry.chain) if entry is not None else ()
        self.query_one("#detail-text", Static).update(describe(entry))
        self.scroll_home(animate=False)
