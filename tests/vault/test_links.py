from __future__ import annotations

import pytest

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
        ("../other/delta.md", "markdown", 12, "part", "text"),
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
    resolved = [(r.resolve(link, "index.md").path, r.resolve(link, "index.md").how) for link in links]
    assert resolved == [
        ("a/alpha.md", "kp_id"),
        ("a/alpha.md", "name"),
        ("a/alpha.md", "name"),
        ("b/beta.md", "name"),
        ("a/alpha.md", "alias"),
        ("a/alpha.md", "title"),
        (None, ""),
        ("b/beta.md", "path"),
    ]


def test_attachment_links_are_not_note_links() -> None:
    r = Resolver([], ["attachments/pic.png"], ("*.md",))
    (present, missing) = extract("![[pic.png]] ![y](gone.pdf)")
    assert not r.is_note_target(present) and r.attachment_exists(present)
    assert not r.is_note_target(missing) and not r.attachment_exists(missing)


def _one(body: str):  # type: ignore[no-untyped-def]
    (link,) = extract(body)
    return link


def test_escaped_pipe_in_a_table_is_the_alias_separator() -> None:
    row = "| [[Install\\|Install it]] | ![[diagram.png\\|200]] |"
    link, embed = extract(row)
    assert (link.target, link.alias, link.kind) == ("Install", "Install it", "wikilink")
    assert (embed.target, embed.alias, embed.kind) == ("diagram.png", "200", "embed")


def test_wikilink_followed_by_parentheses_is_not_a_markdown_link() -> None:
    links = extract("See [[a]](b) and [c](d.md).")
    assert [(k.target, k.kind) for k in links] == [("a", "wikilink"), ("d.md", "markdown")]


def test_headings_blocks_and_markdown_hrefs_as_obsidian_writes_them() -> None:
    assert _one("[[Note#^abc123]]").block == "abc123"
    assert _one("[[Note#Setup#Linux]]").heading == "Setup#Linux"
    assert _one("[t](<My Note.md>)").target == "My Note.md"
    assert _one("[t](My%20Note.md#Part%20two)").target == "My Note.md"
    assert _one("[t](My%20Note.md#Part%20two)").heading == "Part two"
    assert _one("[t](Note)").target == "Note"


@pytest.mark.parametrize("body", ["[[]]", "[[#Heading]]", "[[|alias]]", "[[ ]]", "[[#]]", "[t](#x)", "[t](./)"])
def test_links_with_an_empty_target_point_at_no_other_note(body: str) -> None:
    assert extract(body) == []


def test_links_in_comments_are_not_links() -> None:
    body = "Kept [[A]] %% hidden [[B]] %% and <!-- [[C]]\n[[D]] --> then [[E]].\n```\n%% [[F]] %%\n```\n"
    assert [k.target for k in extract(body)] == ["A", "E"]
    assert [k.line for k in extract(body)] == [1, 2]


def test_a_dotted_name_is_a_note_unless_the_extension_is_an_attachments() -> None:
    notes = [Target("tools/scrybble.ink.md", None, "Scrybble"), Target("Node.js.md", None, "Node")]
    r = Resolver(notes, ["img/x.png"])
    for body, path in (("[[scrybble.ink]]", "tools/scrybble.ink.md"), ("[[Node.js]]", "Node.js.md")):
        link = _one(body)
        assert r.is_note_target(link) and r.resolve(link, "a.md").path == path
    png = _one("![[x.png]]")
    assert not r.is_note_target(png) and r.attachment_exists(png, "a.md")


def test_nearest_candidate_wins_and_the_others_are_listed() -> None:
    notes = [Target(p, None, "Install") for p in ("en/setup/install.md", "de/setup/install.md", "install.md")]
    r = Resolver(notes)
    got = r.resolve(_one("[[install]]"), "de/index.md")
    assert got.path == "de/setup/install.md" and got.ambiguous
    assert got.candidates == ("de/setup/install.md", "install.md", "en/setup/install.md")
    assert r.resolve(_one("[[install]]"), "en/setup/other.md").path == "en/setup/install.md"
    assert r.resolve(_one("[[install]]"), "top.md").path == "install.md"
    assert r.resolve(_one("[[setup/install]]"), "top.md").candidates == ("de/setup/install.md", "en/setup/install.md")
    assert r.resolve(_one("[[en/setup/install]]"), "de/index.md").path == "en/setup/install.md"


def test_notes_differing_only_in_case_in_two_folders() -> None:
    r = Resolver([Target("x/Note.md", None, "N1"), Target("y/note.md", None, "N2")])
    assert r.resolve(_one("[[note]]"), "x/ref.md").path == "x/Note.md"
    assert r.resolve(_one("[[Note]]"), "y/ref.md").path == "y/note.md"
    top = r.resolve(_one("[[note]]"), "ref.md")
    assert top.path == "y/note.md" and top.candidates == ("y/note.md", "x/Note.md")  # exact case breaks the tie


def test_a_folder_is_not_a_note() -> None:
    r = Resolver([Target("guides/setup/install.md", None, "Install")], ["guides/img/a.png"])
    got = r.resolve(_one("[[guides/setup]]"), "a.md")
    assert got.path is None and got.why == "folder"


def test_a_title_matches_only_when_nothing_else_does() -> None:
    r = Resolver([Target("a/setup.md", None, "Install"), Target("b/install.md", None, "Other")])
    assert r.resolve(_one("[[Install]]"), "x.md").how == "name"
    assert r.resolve(_one("[[Other]]"), "x.md").how == "title"
