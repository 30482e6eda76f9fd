"""A script's pattern compiled on first need answers as the compiled regex does, and an English
search compiles none of the CJK classes (their compilation was 13 ms of every process)."""

from __future__ import annotations

import re
import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from curator.index import detect, segment
from curator.script_pattern import ScriptPattern
from tests.conftest import GitVault

texts = st.text(
    alphabet=st.sampled_from(["a", " ", "Z", "é", "中", "文", "한", "カ", "ק", "\u0e01", "\U00020001"]), max_size=12
)


@given(texts)
def test_a_script_pattern_finds_what_the_compiled_regex_finds(text: str) -> None:
    for lazy in (segment.RUN_RE, detect._CJK, detect._OTHER):
        compiled = re.compile(lazy.pattern)
        found, want = lazy.search(text), compiled.search(text)
        assert (found and found.span()) == (want and want.span())
        assert lazy.findall(text) == compiled.findall(text)
        assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in compiled.finditer(text)]


def test_ascii_text_never_compiles_the_pattern() -> None:
    lazy = ScriptPattern("[\u4e00-\u9fff]+")
    assert lazy.search("plain English") is None and lazy.findall("x") == [] and list(lazy.finditer("x")) == []
    assert lazy._compiled is None
    assert lazy.findall("中文 and more") == ["中文"] and lazy._compiled is not None


PROBE = """
import re, sys
from curator.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
# Python keeps every pattern it compiled (re._cache): count those of a Han range.
print("COMPILED=%d" % sum(1 for key in re._cache if isinstance(key[1], str) and "\u4e00" in key[1]))
"""


def test_an_english_search_compiles_no_script_class(example_vault: GitVault) -> None:
    root = str(example_vault.root)
    env_args = ["--vault", root]
    subprocess.run([sys.executable, "-m", "curator", *env_args, "index", "--quiet"], check=True, capture_output=True)
    r = subprocess.run(
        [sys.executable, "-c", PROBE, *env_args, "--json", "search", "why is the database locked", "--mode", "lexical"],
        capture_output=True,
        text=True,
    )
    assert '"hits"' in r.stdout and r.stdout.rstrip().endswith("COMPILED=0"), r.stdout[-300:] + r.stderr
    r = subprocess.run(
        [sys.executable, "-c", PROBE, *env_args, "--json", "search", "数据库锁定", "--mode", "lexical"],
        capture_output=True,
        text=True,
    )
    assert not r.stdout.rstrip().endswith("COMPILED=0"), r.stdout[-300:] + r.stderr


def test_no_script_pattern_matches_an_ascii_character() -> None:
    """What lets ASCII text skip the pattern: each of Curator's script patterns matches nothing
    in ASCII (a class that did would make the shortcut wrong)."""
    from curator import leak_rules
    from curator.librarian import summary

    found = [
        (module.__name__, name, value)
        for module in (segment, detect, leak_rules, summary)
        for name, value in vars(module).items()
        if isinstance(value, ScriptPattern)
    ]
    assert len(found) >= 7, found
    ascii_text = "".join(map(chr, range(128)))
    for module, name, pattern in found:
        assert re.compile(pattern.pattern).search(ascii_text) is None, (module, name)
