from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from curator.index.chunker import MAX_CHARS, chunk


def test_split_at_headings_with_breadcrumbs_and_line_ranges() -> None:
    body = "# Title\n\nIntro.\n\n## Setup\n\nSteps.\n\n### Linux\n\nApt.\n\n## Use\n\nRun it.\n"
    ps = chunk(body, 5, "Title")
    assert [(p.breadcrumb, p.start_line, p.end_line) for p in ps] == [
        ("Title", 5, 7),
        ("Title › Setup", 9, 11),
        ("Title › Setup › Linux", 13, 15),
        ("Title › Use", 17, 19),
    ]
    assert ps[2].text == "### Linux\n\nApt."
    assert ps[2].embed_text.startswith("Title › Setup › Linux\n")


def test_never_split_inside_fenced_code() -> None:
    body = "# Doc\n\n```python\n# not a heading\ndef f():\n    pass\n```\n\nafter\n"
    ps = chunk(body, 1, "Doc")
    assert len(ps) == 1 and "# not a heading" in ps[0].text


def test_long_sections_split_at_blank_lines() -> None:
    para = ("word " * 60).strip()
    body = "# Long\n\n" + "\n\n".join(f"{para} {i}" for i in range(12)) + "\n"
    ps = chunk(body, 1, "Long")
    assert len(ps) > 1
    assert all(len(p.text) <= MAX_CHARS for p in ps)
    assert all(p.breadcrumb == "Long" for p in ps)
    lines = body.split("\n")
    for p in ps:
        assert "\n".join(lines[p.start_line - 1 : p.end_line]) == p.text


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(["# H1", "## H2", "text line", "", "```", "code", "more words here " * 30, "- item"]),
        max_size=60,
    )
)
def test_passages_are_exactly_their_lines(lines: list[str]) -> None:
    body = "\n".join(lines) + "\n"
    file_lines = body.split("\n")
    previous_end = 0
    for p in chunk(body, 1, "T"):
        assert 1 <= p.start_line <= p.end_line <= len(lines)
        assert p.start_line > previous_end  # no overlap, in order
        previous_end = p.end_line
        span = "\n".join(file_lines[p.start_line - 1 : p.end_line])
        if p.start_line == p.end_line and len(span) > MAX_CHARS:
            assert p.text in span  # a very long line is cut at sentences
        else:
            assert span == p.text  # exactly the cited lines
        assert p.text.strip()


def test_a_heading_alone_joins_the_section_it_heads() -> None:
    long_paragraph = " ".join(["A sentence about the setup of the tool."] * 45)  # one line over MAX_CHARS
    body = f"# Doc\n\nIntro.\n\n## Setup\n\n{long_paragraph}\n"
    ps = chunk(body, 1, "Doc")
    assert ps[0].breadcrumb == "Doc"
    assert not any(p.text.strip() == "## Setup" for p in ps)
    setup = [p for p in ps if p.breadcrumb == "Doc › Setup"]
    assert setup[0].start_line == 5 and setup[0].text.startswith("## Setup\n\nA sentence")


def test_comments_are_not_text_and_links_read_as_their_text() -> None:
    body = (
        "# Doc\n\nVisible %% hidden words %% text.\n<!-- an html\ncomment --> after\n\n"
        "## See [[Target page|the target]]\n\nBody.\n```\n%% code keeps this %%\n```\n"
    )
    ps = chunk(body, 1, "Doc")
    joined = "\n".join(p.text for p in ps)
    assert "hidden" not in joined and "html" not in joined and "Visible  text." in joined and "after" in joined
    assert "%% code keeps this %%" in joined
    assert ps[-1].breadcrumb == "Doc › See the target"
    assert [(p.start_line, p.end_line) for p in ps] == [(1, 5), (7, 12)]


def test_a_note_with_only_its_title_is_one_passage() -> None:
    (p,) = chunk("# Weekly review\n\n", 5, "Weekly review")
    assert (p.start_line, p.end_line, p.text, p.breadcrumb) == (5, 5, "# Weekly review", "Weekly review")
    assert chunk("\n\n", 5, "Empty") == []
