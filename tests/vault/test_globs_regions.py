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


@pytest.mark.parametrize(
    ("path", "patterns", "expected"),
    [
        (".obsidian/workspace.json", [".obsidian/"], True),
        ("a/.obsidian/x.md", [".obsidian/"], True),
        (".obsidianx/x.md", [".obsidian/"], False),
        ("templates/a.md", ["templates/**", "!templates/keep.md"], True),
        ("templates/keep.md", ["templates/**", "!templates/keep.md"], False),
        ("templates/a.md", ["templates/**"], True),
        ("star*.md", ["star\\*.md"], True),
        ("starry.md", ["star\\*.md"], False),
        ("!bang.md", ["\\!bang.md"], True),
        ("keep.md", ["*.md", "!keep.md"], False),
        ("other.md", ["*.md", "!keep.md"], True),
    ],
)
def test_folders_escapes_and_negation(path: str, patterns: list[str], expected: bool) -> None:
    assert matches(path, patterns) is expected


def test_globs_agree_with_gits_wildmatch_as_pathspec_implements_it() -> None:
    pathspec = pytest.importorskip("pathspec")
    patterns = [
        ["*.md"],
        [".obsidian/"],
        ["docs/**"],
        ["a/*.txt"],
        ["a/**/b.md"],
        ["**/x/*.md"],
        ["*.md", "!keep.md"],
        ["notes/", "!notes/keep.md"],
        ["star\\*.md"],
        ["[ab].md"],
        ["?.md"],
        ["/top.md"],
        ["x/**/"],
    ]
    paths = [
        "a.md",
        "b.md",
        "keep.md",
        "top.md",
        "z/top.md",
        "a/b.md",
        "a/x/b.md",
        "a/c.txt",
        "a/d/c.txt",
        "docs/a/b.md",
        ".obsidian/w.json",
        "q/.obsidian/w.json",
        "x/y.md",
        "q/x/y.md",
        "notes/keep.md",
        "notes/a.md",
        "star*.md",
        "stars.md",
        "c.md",
        "ab.md",
        "x/a/b.md",
    ]
    for pats in patterns:
        spec = pathspec.GitIgnoreSpec.from_lines(pats)
        for path in paths:
            assert matches(path, pats) is spec.match_file(path), (pats, path)
