"""Note HTML to text: both parsers give the same text, and deep nesting stays linear."""

from __future__ import annotations

import pytest

from curator.sources import html

CASES = [
    ("<p>One</p><p>Two <b>bold</b> &amp; more<br>next line</p>", "One\n\nTwo bold & more\nnext line"),
    ("<ul><li>first</li><li>second</li></ul>", "- first\n\n- second"),
    ("<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>", "a | b\n\nc | d"),
    ("<p>kept</p><script>alert(1)</script><style>p{}</style>", "kept"),
    ("<p>unclosed <b>bold <i>both</b> after</i></p></div></span>", "unclosed bold both after"),
    ("<h1>Heading</h1>text after", "Heading\n\ntext after"),
    ("<p>nul\x00 and escape \x1b[31m codes</p>", "nul and escape [31m codes"),
    ("plain text, no markup\n\n\n\nat all", "plain text, no markup\n\nat all"),
    ("<p>&lt;not a tag&gt; &nbsp; spaced</p>", "<not a tag> spaced"),
]


@pytest.mark.parametrize(("source", "text"), CASES)
def test_html_to_text(source: str, text: str) -> None:
    assert html.to_text(source) == text
    assert html._tokenized(source) == text


def test_deep_nesting_goes_through_the_linear_tokenizer() -> None:
    deep = "<div>" * 60_000 + "the bottom" + "</div>" * 60_000
    assert len(deep) > html.TOKENIZE_FROM
    assert html.to_text(deep) == "the bottom"
