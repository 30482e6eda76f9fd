"""KP001 for the manifest's free text: it reaches terminals and commit messages.

A title is one line without control characters; a rationale may have lines but
no control characters and no line that could pass for a ``Kp-…:`` trailer
(only Curator writes trailers: a rationale saying ``Kp-Proposal: <other>`` would
make ``apply``'s commit claim another proposal).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from curator.operations.decisions import looks_like_trailer
from curator.output import escape
from curator.proposals.layout import MANIFEST
from curator.validator.finding import Finding

if TYPE_CHECKING:
    from curator.validator.subject import Subject

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_CONTROL_IN_LINES = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _shown(c: str) -> str:
    return {"\n": "a newline", "\r": "a carriage return", "\t": "a tab"}.get(c, escape(c))


def check(subject: Subject) -> Iterator[Finding]:
    m = subject.manifest
    if m is None:
        return
    where = f"{subject.proposal.rel_dir}/{MANIFEST}"
    found = _CONTROL.search(m.title)
    if found:
        yield Finding(
            "KP001",
            where,
            f"the title has {_shown(found.group(0))}; a title is one line of text without control characters "
            "(put details in the rationale)",
        )
    found = _CONTROL.search(m.author.name)
    if found:
        yield Finding("KP001", where, f"author.name has {_shown(found.group(0))}; a name is one line of plain text")
    found = _CONTROL_IN_LINES.search(m.rationale)
    if found:
        yield Finding(
            "KP001", where, f"the rationale has {_shown(found.group(0))}; only text, newlines and tabs belong there"
        )
    for no, line in enumerate(m.rationale.splitlines(), start=1):
        if looks_like_trailer(line):
            yield Finding(
                "KP001",
                where,
                f"rationale line {no} looks like a commit trailer ({line.split(':', 1)[0].strip()}:); "
                "trailers are written only by Curator: reword the line",
            )
