"""KP001 for the manifest's free text: it reaches terminals and commit messages.

A title is one line without control characters; a rationale may have lines but
no control characters and no line that could pass for a ``Kp-…:`` trailer
(only Curator writes trailers: a rationale saying ``Kp-Proposal: <other>`` would
make ``apply``'s commit claim another proposal).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from curator.output import escape
from curator.proposals.layout import MANIFEST
from curator.proposals.trailers import looks_like_trailer
from curator.unsafe import first_unsafe
from curator.validator.finding import Finding

if TYPE_CHECKING:
    from curator.validator.subject import Subject



def _shown(c: str) -> str:
    return {"\n": "a newline", "\r": "a carriage return", "\t": "a tab"}.get(c, escape(c))


def check(subject: Subject) -> Iterator[Finding]:
    m = subject.manifest
    if m is None:
        return
    where = f"{subject.proposal.rel_dir}/{MANIFEST}"
    found = first_unsafe(m.title)
    if found:
        yield Finding(
            "KP001",
            where,
            f"the title has {_shown(found)}; a title is one line of text without control characters "
            "(put details in the rationale)",
        )
    found = first_unsafe(m.author.name)
    if found:
        yield Finding("KP001", where, f"author.name has {_shown(found)}; a name is one line of plain text")
    found = first_unsafe(m.rationale, keep="\n\t")
    if found:
        yield Finding(
            "KP001", where, f"the rationale has {_shown(found)}; only text, newlines and tabs belong there"
        )
    for no, line in enumerate(m.rationale.splitlines(), start=1):
        if looks_like_trailer(line):
            yield Finding(
                "KP001",
                where,
                f"rationale line {no} looks like a commit trailer ({line.split(':', 1)[0].strip()}:); "
                "trailers are written only by Curator: reword the line",
            )
