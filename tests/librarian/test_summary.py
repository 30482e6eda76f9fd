"""Summaries are sentences taken verbatim from a note (links shown as their text); rendered text from notes stays inert."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from curator.librarian import render, summary
from curator.librarian.summary import MAX_CHARS, choose, sentences


def _collapsed(text: str) -> str:
    return " ".join(text.split())


def test_prose_only_in_order() -> None:
    text = (
        "# Heading words are not prose\n\n"
        "First sentence of the note. Second one follows here!\n"
        "It wraps onto the next line.\n\n"
        "```\nCode lines are never sentences.\n```\n\n"
        "> Someone else's words, quoted here.\n\n"
        "| a table | row with words |\n\n"
        "- A list item with a marker. And a second sentence in it.\n"
        "1. A numbered item says something too.\n"
        "<!-- a comment holding words -->\n"
        "[ref]: https://example.org/some/link\n"
        "![[embedded.png]]\n"
    )
    assert sentences([text]) == [
        "First sentence of the note.",
        "Second one follows here!",
        "It wraps onto the next line.",
        "A list item with a marker.",
        "And a second sentence in it.",
        "A numbered item says something too.",
    ]


def test_the_sentence_sharing_most_of_now_wins_and_ties_go_to_the_first() -> None:
    text = "Gardens need water every day. Hybrid ranking fuses BM25 with vectors. Vectors and ranking again here."
    assert choose([text], ["hybrid", "ranking", "vectors"]) == "Hybrid ranking fuses BM25 with vectors."
    tie = "Ranking comes first in this text. Ranking comes second in this text."
    assert choose([tie], ["ranking"]) == "Ranking comes first in this text."
    assert choose([text], []) == "Gardens need water every day."


def test_lists_of_links_and_lead_ins_give_way_to_prose() -> None:
    text = "- [[WAL mode]], [[FTS5]], [[sqlite-vec]]\n\nQuotes worth keeping:\n\nThe real sentence is this one."
    assert choose([text], []) == "The real sentence is this one."
    assert choose(["Only a lead-in with words:"], []) == "Only a lead-in with words:"


def test_a_note_without_prose_has_no_summary() -> None:
    assert choose(["# Title\n\n```\ncode only\n```\n"], ["code"]) is None
    assert choose([""], []) is None


def test_a_long_sentence_is_used_only_when_there_is_no_other_and_is_cut() -> None:
    long = "word " * 100 + "end."
    assert choose([long + " Short one wins here."], []) == "Short one wins here."
    cut = choose([long], [])
    assert cut is not None and cut.endswith("…") and len(cut) <= MAX_CHARS
    assert _collapsed(long).startswith(cut[:-1])


_PIECES = st.sampled_from(
    [
        "# ",
        "## ",
        "- ",
        "1. ",
        "> ",
        "```",
        "~~~",
        "<!--",
        "-->",
        "[[",
        "]]",
        "|",
        "![[",
        "`",
        "*",
        "\n",
        "\n\n",
        " ",
        ".",
        "! ",
        "? ",
        "word",
        "Capital",
        "kp:01",
        "x",
        "\t",
        "\r",
        "。",
        "漢字",
        "<b>",
        "[a](b)",
        ":",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=60).map("".join), st.lists(st.sampled_from(["word", "capital", "x"]), max_size=3))
def test_a_summary_is_verbatim_one_line_and_inert(text: str, terms: list[str]) -> None:
    chosen = choose([text], terms)
    if chosen is None:
        return
    assert "\n" not in chosen and "\r" not in chosen
    assert "<!--" not in chosen and "-->" not in chosen and "![[" not in chosen
    body = chosen[:-1] if chosen.endswith("…") and len(chosen) >= MAX_CHARS - 1 else chosen
    # A sentence of the note, verbatim but for its link markup, inline tags and footnote marks.
    assert any(s in _collapsed(text) and summary.readable(s).startswith(body) for s in sentences([text]))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_labels_cannot_end_a_link_or_open_a_comment(title: str) -> None:
    label = render.label(title)
    assert label and "\n" not in label and not re.search(r"[\[\]|<>]", label)
    assert label == label.strip() and not any(0x202A <= ord(c) <= 0x202E for c in label)
    assert re.fullmatch(r"\[\[kp:X\|[^\[\]|\n]+\]\]", f"[[kp:X|{label}]]")


def test_module_limits_are_what_the_docs_say() -> None:
    assert summary.MIN_WORDS == 3 and MAX_CHARS == 300


def test_links_read_as_their_text_since_their_targets_would_not_resolve_from_the_digest() -> None:
    text = (
        "[Arrays][02] are a fundamental feature of most languages, see [the book](../Books/Rust%20book.md). "
        "It pins [[Rust/Pinning|pinned futures]] safely[^1] and <em>well</em> too. ^block-1\n\n"
        "[02]: https://example.org/arrays\n"
    )
    assert sentences([text])[0].startswith("[Arrays][02] are")  # the sentence itself, as written
    assert choose([text], []) == "Arrays are a fundamental feature of most languages, see the book."
    assert choose([text], ["pinned", "futures"]) == "It pins pinned futures safely and well too."
    assert choose(["Use `[[not a link]]` and `[x][y]` in code spans as they are."], []) == (
        "Use `[[not a link]]` and `[x][y]` in code spans as they are."
    )


def test_code_rows_addresses_headings_and_indented_code_are_not_summaries() -> None:
    text = (
        "Setext Heading With Many Words\n"
        "==============================\n\n"
        "`C:`, `D:`, `Temp:` ...\n\n"
        "https://without.boats/blog/some/long/path\n\n"
        "    Get-ChildItem -Path C:\\ -Recurse -Force\n\n"
        "Provides access to files and directories."
    )
    assert choose([text], ["get", "childitem", "path", "recurse", "setext", "heading", "blog"]) == (
        "Provides access to files and directories."
    )
    # Indented under a list item it is the item's paragraph, not code.
    assert choose(["- an item\n\n    Continued paragraph of the item, in prose."], []) == (
        "Continued paragraph of the item, in prose."
    )


def test_an_initial_or_eg_does_not_end_a_sentence() -> None:
    text = "It first appeared in the book by Mike F. Robbins, e.g. Chapter Two. Next sentence."
    assert sentences([text]) == [
        "It first appeared in the book by Mike F. Robbins, e.g. Chapter Two.",
        "Next sentence.",
    ]


def test_no_comment_marker_is_made_by_dropping_a_tag_or_a_link() -> None:
    text = "Forged <<b>!-- curio:begin x --<i>> here in words. Also [<!](x.md)-- too in words. Plain words at last."
    assert choose([text], ["forged", "also"]) == "Plain words at last."


def test_fragments_and_pointers_give_way_to_a_whole_sentence() -> None:
    text = (
        "- Create advanced functions\n\n"
        "For more, see [[Advanced functions]] and [[Writing modules|modules of advanced functions]].\n\n"
        "Functions take pipeline input once they are advanced."
    )
    # The list item and the pointer share more of now.md's terms; the whole sentence wins.
    assert (
        choose([text], ["advanced", "functions", "modules"]) == "Functions take pipeline input once they are advanced."
    )
    assert choose(["- Create advanced functions"], ["advanced"]) == "Create advanced functions"
