from __future__ import annotations

from curator.vault.links import extract
from curator.vault.resolve import Resolver, Target


def test_every_link_form_is_extracted_with_its_line() -> None:
    body = (
        "See [[Alpha]] and [[beta|the second]].\n"
        "Heading link [[Gamma#Setup]] and embed ![[diagram.png]].\n"
        "By id [[kp:01J0000000000000000000ALPH]], relative [text](../other/delta.md#part).\n"
        "Web [x](https://example.org) and [anchor](#local) are not notes.\n"
    )
    links = extract(body, first_line=10, note_path="notes/here.md")
    got = [(link.target, link.kind, link.line, link.heading, link.alias) for link in links]
    assert got == [
        ("Alpha", "wikilink", 10, None, None),
        ("beta", "wikilink", 10, None, "the second"),
        ("Gamma", "wikilink", 11, "Setup", None),
        ("diagram.png", "embed", 11, None, None),
        ("kp:01J0000000000000000000ALPH", "wikilink", 12, None, None),
        ("other/delta.md", "markdown", 12, "part", "text"),
    ]


def test_links_in_code_are_not_links() -> None:
    body = "```\n[[NotALink]]\n```\nInline `[[Nope]]` but [[Yes]].\n~~~md\n[x](y.md)\n~~~\n"
    assert [link.target for link in extract(body)] == ["Yes"]


def test_resolution_precedence_and_case() -> None:
    notes = [
        Target("a/alpha.md", "kp:01J0000000000000000000ALPH", "Alpha Note", ("First",)),
        Target("b/beta.md", None, "Beta", ()),
        Target("c/alpha.md", None, "Other alpha", ()),
    ]
    r = Resolver(notes, ["img/x.png"], ("*.md",))
    links = extract(
        "[[kp:01J0000000000000000000ALPH]] [[a/alpha]] [[alpha]] [[BETA]] [[first]] [[alpha note]] [[missing]] [m](b/beta.md)",
        note_path="index.md",
    )
    resolved = [r.resolve(link) for link in links]
    assert resolved == [
        "a/alpha.md",
        "a/alpha.md",
        "a/alpha.md",
        "b/beta.md",
        "a/alpha.md",
        "a/alpha.md",
        None,
        "b/beta.md",
    ]


def test_attachment_links_are_not_note_links() -> None:
    r = Resolver([], ["attachments/pic.png"], ("*.md",))
    (present, missing) = extract("![[pic.png]] ![y](gone.pdf)")
    assert not r.is_note_target(present) and r.attachment_exists(present)
    assert not r.is_note_target(missing) and not r.attachment_exists(missing)
