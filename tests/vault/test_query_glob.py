"""The path glob a person or an agent types (``curator search --path``, kp_search's ``path``):
the same gitignore-style globs as the config's, matched in time linear in the path, and bounded."""

from __future__ import annotations

import itertools
import re
import time

import pytest

from curator.errors import UsageError
from curator.vault.globs import MAX_GLOB, compile_glob, compile_globs

PATTERNS = [
    "*.md",
    "**/*.md",
    "notes/**",
    "notes/**/",
    "notes/",
    "a/*.txt",
    "a/**/b.md",
    "**/x/*.md",
    "star\\*.md",
    "[ab].md",
    "[!ab].md",
    "?.md",
    "/top.md",
    "x/**/",
    "**",
    "*",
    "a/**/**/**/b.md",
    "**/**/*",
    "a***b.md",
    "*/*/*.md",
    "!a.md",
    "",
]
PATHS = [
    "a.md",
    "b.md",
    "c.md",
    "top.md",
    "z/top.md",
    "a/b.md",
    "a/x/b.md",
    "a/x/y/b.md",
    "a/c.txt",
    "a/d/c.txt",
    "notes/a.md",
    "notes/deep/er/a.md",
    "notesx/a.md",
    "x/y.md",
    "q/x/y.md",
    "star*.md",
    "stars.md",
    "ab.md",
    "axxb.md",
    "a/b/c.md",
    "a/b/c/d.md",
]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_the_typed_glob_matches_what_the_config_globs_match(pattern: str) -> None:
    glob, regex = compile_glob(pattern), compile_globs((pattern,))
    for path in PATHS:
        assert glob.match(path) is bool(regex.match(path)), (pattern, path)


def test_the_typed_glob_agrees_with_the_config_globs_on_every_short_pattern() -> None:
    """Every pattern of up to four pieces over a small alphabet, on every path of up to four characters."""
    pieces = ["a", "/", "*", "**", "**/", "?", "[ab]"]
    paths = ["".join(p) for n in range(5) for p in itertools.product("ab/", repeat=n)]
    for n in range(1, 5):
        for parts in itertools.product(pieces, repeat=n):
            pattern = "".join(parts)
            glob, regex = compile_glob(pattern), compile_globs((pattern,))
            for path in paths:
                assert glob.match(path) is bool(regex.match(path)), (pattern, path)


@pytest.mark.parametrize(
    ("pattern", "path"),
    [
        ("*a" * 127 + "b", "a" * 4000),  # a regex backtracks here for longer than anyone waits
        ("**/" * 84 + "x.md", "a/" * 2000 + "y.md"),
        ("**" * 128, "a/" * 2000),
        ("*" * 255 + "x", "y" * 4000),
    ],
    ids=["star-a-repeated", "folders-repeated", "doublestar-repeated", "star-repeated"],
)
def test_a_glob_at_the_limit_matches_a_long_path_at_once(pattern: str, path: str) -> None:
    assert len(pattern) <= MAX_GLOB
    start = time.process_time()
    matched = compile_glob(pattern).match(path)
    assert time.process_time() - start < 0.5
    assert matched is (pattern == "**" * 128)


def test_a_glob_longer_than_the_limit_is_a_usage_error_naming_both_lengths() -> None:
    with pytest.raises(UsageError, match=rf"path glob is {MAX_GLOB + 1} characters long; at most {MAX_GLOB}"):
        compile_glob("*" * (MAX_GLOB + 1))


def test_a_class_that_cannot_be_read_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match=re.escape("[...] class")):
        compile_glob("notes/[z-a].md")


def test_repeated_wildcards_compile_to_a_short_regex_for_the_config_too() -> None:
    """``**/`` a thousand times in an include pattern is one ``**/``: no backtracking on a deep path."""
    regex = compile_globs(("**/" * 1000 + "x.md",))
    start = time.process_time()
    assert not regex.match("a/" * 2000 + "y.md")
    assert time.process_time() - start < 0.5
