from __future__ import annotations

import pytest

from curator.vault.globs import matches
from curator.vault.regions import find, marker_on


@pytest.mark.parametrize(
    ("path", "patterns", "expected"),
    [
        ("a.md", ["*.md"], True),
        ("deep/er/a.md", ["*.md"], True),
        ("a.md.bak", ["*.md"], False),
        (".curio/feeds/x.md", [".curio/**"], True),
        ("notes/.curio/x.md", [".curio/**"], False),
        ("digests/2026/x.md", ["digests/**"], True),
        ("digestsx/x.md", ["digests/**"], False),
        ("a/b.txt", ["a/*.txt"], True),
        ("a/c/b.txt", ["a/*.txt"], False),
        ("a/c/b.txt", ["a/**/*.txt"], True),
        ("a/b.txt", ["a/**/*.txt"], True),
    ],
)
def test_gitignore_style_globs(path: str, patterns: list[str], expected: bool) -> None:
    assert matches(path, patterns) is expected


def test_regions_are_found_with_inclusive_lines() -> None:
    lines = ["intro", "<!-- curio:begin related -->", "- a", "<!-- curio:end related -->", "outro"]
    regions, problems = find(lines, ["curio"])
    assert [(r.name, r.start_line, r.end_line) for r in regions] == [("related", 2, 4)]
    assert problems == []


def test_unbalanced_markers_are_problems() -> None:
    regions, problems = find(["<!-- curio:begin a -->", "x", "<!-- curio:end b -->"], ["curio"])
    assert regions == []
    assert [p.line for p in problems] == [1, 3]


def test_marker_recognition_is_lenient_about_case_and_spacing() -> None:
    assert marker_on("<!--CURIO : begin  x-->", ["curio"]) == ("curio", "begin", "x")
    assert marker_on("<!-- other:begin x -->", ["curio"]) is None
