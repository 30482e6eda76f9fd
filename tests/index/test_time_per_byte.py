"""A fuzz test that bounds the work a byte costs (lines run, characters scanned; CPU time behind
them): a note made of one generated motif repeated (the shape every quadratic case found so far
had: ``[a](``, ``<!--``, ``**/``) costs its length, never its square, through everything that
reads a note's text: the index's reading of it (``from_note``: frontmatter, links, citations,
tags, passages, normalisation), the leak scanner and its redaction, and the display of its text."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from curator.index.documents import from_note
from curator.redaction import redact
from curator.settings import Settings
from curator.vault.links import display
from tests.work import cpu_seconds, work_of

SYNTAX = "[]()<>!#|:=@*_`~%{}^-+/\\\"' \tax1"
BYTES = 24_000
WORK_PER_BYTE = 400
"""Lines run and characters scanned a byte (``tests/work.py``): linear work here is at most 102 a
byte (``password=`` repeated: the leak scanner's rules each look at every one); the square of
24,000 is 12,000 a byte."""
PER_BYTE = 25e-6
"""25 µs of CPU a byte (0.6 s for the note), for the work the count cannot see (inside one C
call): linear work costs about 1 µs a byte; the square of 24,000 is seconds at the least."""

motifs = st.text(alphabet=SYNTAX, min_size=1, max_size=8)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(motif=motifs, lines=st.booleans(), frontmatter=st.booleans())
# The shapes found quadratic before, always tried as well as the generated ones.
@example(motif="[a](", lines=False, frontmatter=False)
@example(motif='[a](b "', lines=False, frontmatter=False)
@example(motif="<!--", lines=False, frontmatter=False)
@example(motif="[[x]", lines=False, frontmatter=False)
@example(motif="![", lines=False, frontmatter=False)
@example(motif="%%", lines=False, frontmatter=False)
@example(motif="``` ", lines=True, frontmatter=False)
@example(motif="password=", lines=False, frontmatter=False)
@example(motif="eyJ.", lines=False, frontmatter=False)
def test_a_note_of_one_repeated_motif_costs_its_length(motif: str, lines: bool, frontmatter: bool) -> None:
    unit = motif + ("\n" if lines else "")
    body = unit * (BYTES // len(unit))
    text = ("---\ntitle: Fuzz\n---\n" if frontmatter else "") + "# Fuzz\n\n" + body + "\n"
    raw = text.encode("utf-8")

    def read() -> None:
        from_note("fuzz.md", raw, len(raw), 0, Settings())
        redact(text)
        display(body)

    work = work_of(read).total
    assert work < WORK_PER_BYTE * len(raw), f"{motif!r} x {BYTES // len(unit)}: {work} steps for {len(raw)} bytes"
    seconds = cpu_seconds(read)
    assert seconds < PER_BYTE * len(raw), f"{motif!r} x {BYTES // len(unit)}: {seconds:.2f}s for {len(raw)} bytes"
