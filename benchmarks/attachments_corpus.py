"""Real PDFs made from the SciFact corpus for the attachment benchmarks: each PDF is a few
abstracts typeset by ReportLab's layout engine (titles as headings with an outline, the
text justified and flowed across pages, one or two columns), as papers and reports are."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from common import DATA
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate, Paragraph

SCIFACT = DATA / "scifact" / "corpus.jsonl.gz"


def abstracts(count: int) -> list[dict[str, str]]:
    out = []
    with gzip.open(SCIFACT, "rt", encoding="utf-8") as f:
        for line in f:
            doc = json.loads(line)
            if doc["text"].strip():
                out.append(doc)
            if len(out) == count:
                break
    return out


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def build(folder: Path, pdfs: int, per_pdf: int = 6, columns: int = 1) -> dict[str, str]:
    """``pdfs`` PDFs of ``per_pdf`` abstracts each under ``folder``; returns each file's
    name and the text that was typeset in it (titles and abstracts, in reading order)."""
    folder.mkdir(parents=True, exist_ok=True)
    styles = getSampleStyleSheet()
    docs = abstracts(pdfs * per_pdf)
    sources: dict[str, str] = {}
    for n in range(pdfs):
        name = f"paper-{n:03}.pdf"
        group = docs[n * per_pdf : (n + 1) * per_pdf]
        template = BaseDocTemplate(str(folder / name), pagesize=A4, title=group[0]["title"], invariant=1)
        width = (template.width - 18 * (columns - 1)) / columns
        frames = [
            Frame(template.leftMargin + i * (width + 18), template.bottomMargin, width, template.height)
            for i in range(columns)
        ]
        template.addPageTemplates([PageTemplate(frames=frames)])
        story = []
        for doc in group:
            heading = Paragraph(_escape(doc["title"]), styles["Heading2"])
            heading._bookmarkName = f"d{doc['_id']}"  # an outline entry per abstract
            story.append(heading)
            story.append(Paragraph(_escape(doc["text"]), styles["BodyText"]))
        template.afterFlowable = lambda flowable, t=template: _outline(t, flowable)  # type: ignore[method-assign]
        template.build(story)
        sources[name] = "\n".join(f"{d['title']}\n{d['text']}" for d in group)
    return sources


def _outline(template: BaseDocTemplate, flowable: object) -> None:
    key = getattr(flowable, "_bookmarkName", None)
    if key and isinstance(flowable, Paragraph):
        template.canv.bookmarkPage(key)
        template.canv.addOutlineEntry(flowable.getPlainText()[:80], key, level=0)
