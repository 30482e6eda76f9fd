"""`--json` output is valid JSON that no terminal acts on: the characters JSON itself leaves raw
(C1 controls such as CSI, bidi overrides, the line and paragraph separators, lone surrogates)
come out as ``\\uXXXX`` escapes, and a parser gets every value back unchanged."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from curator import output
from tests.builders import created, make_proposal
from tests.conftest import GitVault

# C1 CSI (ESC [ in one byte), NEL, a right-to-left override, the bidi isolates and marks, the
# line and paragraph separators (a line break in JavaScript and some terminals).
HOSTILE = "Sum \x9b2J\x85 of \u202eevil\u202c \u2066x\u2069\u200f and\u2028two\u2029lines"
RAW = ("\x9b", "\x85", "\u202e", "\u202c", "\u2066", "\u2069", "\u200f", "\u2028", "\u2029")
NAME = "notes/misleading.md"
RTL_NAME = "notes/rtl\u202edm.txt.md"
"""A name that reorders itself on screen is no note at all: the index skips it, read refuses it."""
YAML_TITLE = json.dumps(HOSTILE)  # a JSON string is a YAML double-quoted scalar: the escapes survive


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


@pytest.fixture
def hostile(vault: GitVault, cli, monkeypatch: pytest.MonkeyPatch) -> GitVault:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("CURATOR_EMBEDDER", "none")
    vault.write(
        NAME,
        f"---\nkp_id: kp:01J0000000000000000000RTLO\ntitle: {YAML_TITLE}\n---\n# Heading\n\n"
        f"Summary words: {HOSTILE}. Links to [[Alpha]] and [[no such {HOSTILE}]].\n",
    )
    vault.write(RTL_NAME, "---\nkp_id: kp:01J0000000000000000000RTLN\n---\n# Named to mislead\n")
    vault.commit("a note titled to mislead")
    c, f = created("notes/fine.md", "---\nkp_id: kp:01J0000000000000000000FINE\ntitle: Fine\n---\n")
    make_proposal(vault, [c], files=f, title="Fine")
    assert cli("--vault", vault.root, "index").code == 0
    return vault


COMMANDS = [
    ("ls",),
    ("search", "summary", "--mode", "lexical"),
    ("read", NAME),
    ("relate", NAME),
    ("doctor",),
    ("validate", NAME),
]


def test_json_output_escapes_what_a_terminal_would_act_on(hostile: GitVault, cli) -> None:  # type: ignore[no-untyped-def]
    for args in COMMANDS:
        r = cli("--vault", hostile.root, "--json", *args)
        code, out = r.code, r.out
        assert code in (0, 1), (args, out)
        raw = [hex(ord(c)) for c in RAW if c in out]
        assert not raw, (args, raw)
        values = _strings(json.loads(out))  # still JSON, and the values are the note's own
        assert any(NAME in s for s in values), (args, values)
        if args[0] in ("ls", "read", "search"):
            assert HOSTILE in values, (args, values)
        assert not any(RTL_NAME in s for s in values), (args, values)
    refused = cli("--vault", hostile.root, "--json", "read", RTL_NAME)
    assert refused.code == 2 and "U+202E" in refused.err and "\u202e" not in refused.err


@given(st.recursive(st.text() | st.integers() | st.none(), lambda xs: st.lists(xs) | st.dictionaries(st.text(), xs)))
@example("\U000e0041 a tag character, past the BMP")
def test_a_value_survives_the_escaping_unchanged(value: Any) -> None:
    text = output.dumps_json(value)
    assert json.loads(text) == value
    assert not any(c in text for c in RAW)
    text.encode("utf-8")  # a lone surrogate is escaped too, so the text can always be written
