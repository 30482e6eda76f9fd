"""Nothing from the vault reaches a terminal raw: paths and titles with escape sequences print escaped.

Each command runs as a process and its stdout and stderr bytes are checked, so no
layer in between (click, rich, a JSON encoder) can hide a raw ESC or BEL.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.builders import created, make_proposal
from tests.conftest import GitVault

BAD_NAME = "notes/esc\x1b[2Jname.md"
"""Not a note at all (a name with a control character): named, escaped, where it is skipped or refused."""
TITLED = "notes/hostile.md"
BAD_TITLE = "Clears \x1b[2J the \x1b]0;owned\x07 screen"
RAW = (b"\x1b", b"\x07", b"\x9b")


def _run(v: GitVault, *args: str) -> tuple[int, bytes]:
    env = {**os.environ, "CURATOR_EMBEDDER": "none"}
    r = subprocess.run(
        [sys.executable, "-m", "curator", "--vault", str(v.root), *args], capture_output=True, env=env, timeout=300
    )
    return r.returncode, r.stdout + r.stderr


@pytest.fixture
def hostile(vault: GitVault) -> GitVault:
    vault.write(BAD_NAME, f"---\nkp_id: kp:01J00000000000000000000ESC\ntitle: {BAD_TITLE}\n---\n# {BAD_TITLE}\n\nname words\n")
    vault.write(
        TITLED,
        f"---\nkp_id: kp:01J0000000000000000000TITL\ntitle: {BAD_TITLE}\n---\n# {BAD_TITLE}\n\n"
        "name words, [[no such \x1b[2J note]]\n",
    )
    vault.write("data/esc\x1b[2Jtable.csv", "a,b\n")  # index names what it skips
    vault.commit("a hostile note")
    c, f = created("notes/fine.md", "---\nkp_id: kp:01J0000000000000000000FINE\ntitle: Fine\n---\n")
    make_proposal(vault, [c], files=f, title=BAD_TITLE)
    return vault


COMMANDS = [
    ("index",),
    ("search", "name", "--mode", "lexical"),
    ("ls",),
    ("doctor",),
    ("proposals",),
    ("validate",),
    ("read", BAD_NAME),
    ("relate", BAD_NAME),
]


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(a[:1]) + f"-{i}" for i, a in enumerate(COMMANDS)])
def test_no_raw_control_bytes_reach_the_terminal(hostile: GitVault, args: tuple[str, ...]) -> None:
    if args[0] not in ("index", "doctor", "proposals", "validate"):
        assert _run(hostile, "index")[0] == 0
    code, out = _run(hostile, *args)
    assert code in (0, 1, 2), out  # read and relate refuse such a ref: the refusal is escaped too
    assert not any(raw in out for raw in RAW), out
    if args[0] != "doctor":  # doctor has nothing to say of this vault's titles
        assert b"\\x1b" in out, out  # the sequence is shown, escaped


def test_the_staged_hook_output_is_escaped(hostile: GitVault) -> None:
    hostile.write(TITLED, hostile.read(TITLED).replace("kp:01J0000000000000000000TITL", "kp:forged\x1b[2J"))
    hostile.git("add", TITLED)
    code, out = _run(hostile, "validate", "--staged")
    assert code == 1 and b"KP006" in out
    assert not any(raw in out for raw in RAW) and b"kp:forged\\x1b[2J" in out


def test_a_file_name_with_a_control_character_is_no_note_and_is_named_escaped(hostile: GitVault) -> None:
    code, out = _run(hostile, "index")
    assert code == 0 and b"skipped notes/esc\\x1b[2Jname.md: the path contains the character U+001B" in out, out
    code, out = _run(hostile, "--json", "ls")
    assert b"esc" not in out and b"hostile.md" in out


def test_escape_shows_controls_bidi_and_undecodable_bytes() -> None:
    from curator.output import escape, one_line

    assert escape("a\x1b[2Jb\nc\td\u202ee") == "a\\x1b[2Jb\\x0ac\\x09d\\u202ee"
    assert escape("a\nb\tc\x07", lines=True) == "a\nb\tc\\x07"
    assert one_line("a\tb\nc") == "a\tb\\x0ac"
    assert escape(b"caf\xe9.md".decode("utf-8", "surrogateescape")) == "caf\\xe9.md"
    assert escape("plain — ünïcode 字") == "plain — ünïcode 字"


def test_the_cli_and_the_review_ui_escape_the_same_characters() -> None:
    """One set of unsafe characters: what `escape` shows as ``\\xNN`` the review UI shows as a stand-in."""
    from curator.diffview.visible import visible
    from curator.output import escape

    for code in [*range(0x3000), *range(0xD800, 0xE000), *range(0xFE00, 0x10000)]:
        c = chr(code)
        if c != "\t":
            assert (escape(c) != c) == (visible(c) != c), hex(code)
    assert escape("\u061c\u200e\u200f") == "\\u061c\\u200e\\u200f"  # bidi marks, as the review UI had them
    undecodable = visible(b"caf\xe9.md".decode("utf-8", "surrogateescape"))
    assert undecodable == "caf⟨0xE9⟩.md"
    undecodable.encode("utf-8")  # a lone surrogate cannot be written to a terminal: none is left
