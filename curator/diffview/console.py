"""``curator apply`` at a terminal: the proposal's coloured diff, then the question."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from curator.diffview.model import build
from curator.diffview.richtext import Renderer
from curator.diffview.visible import visible

if TYPE_CHECKING:
    from curator.validator.verdict import ProposalReport


def summary(report: ProposalReport) -> Text:
    """Title, author, verdict and drift of a proposal, as one line."""
    m = report.subject.manifest if report.subject else None
    text = Text(end="")
    text.append(report.id, style="bold")
    text.append(": ")
    text.append(visible(m.title) if m else "(no readable manifest)", style="bold")
    if m:
        text.append(f"  by {visible(str(m.author))}", style="grey62")
    verdict = "valid" if report.ok else "rejected"
    text.append(f"  [{verdict}", style="green" if report.ok else "red")
    if report.drift:
        text.append(f", {report.drift}", style="yellow" if report.drift != "clean" else "green")
    text.append("]", style="green" if report.ok else "red")
    return text


def print_proposal(
    report: ProposalReport, producers: tuple[str, ...] | list[str], console: Console | None = None
) -> None:
    console = console or Console(highlight=False, soft_wrap=False)
    console.print(summary(report))
    m = report.subject.manifest if report.subject else None
    if m and m.rationale.strip():
        for line in m.rationale.strip().splitlines():
            console.print(Text(f"  {visible(line)}", style="italic"))
    for f in report.findings:
        where = f"{f.path}:{f.line}" if f.line else f.path
        console.print(Text(f"  {f.code} {visible(where)}: {visible(f.message)}", style="red"))
    if report.subject is None:
        return
    model = build(report.subject.changes, producers)
    renderer = Renderer(model)
    for i in range(len(model.rows)):
        console.print(renderer.unified(i), soft_wrap=True)
