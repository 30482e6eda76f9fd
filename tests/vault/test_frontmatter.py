"""Frontmatter: reading, and writing that touches only the keys it sets."""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curator.vault import frontmatter

WORDS = ["no", "yes", "on", "off", "null", "true", "1.5", "café", "日本語", "emoji 🚀", "a:b", "x-y_z", "Ünïcödé"]
key_st = st.text(alphabet=string.ascii_lowercase + "_", min_size=1, max_size=8).filter(lambda k: not k.startswith("_"))
plain_st = st.sampled_from(["alpha", "beta", "gamma", "hello world", "Ünïcödé", "no", "yes", "on", "café"])
word_st = st.sampled_from(WORDS)


@st.composite
def entry(draw: st.DrawFn, key: str) -> str:
    style = draw(st.sampled_from(["plain", "single", "double", "flow", "block", "nested", "comment_after", "int"]))
    w = draw(word_st)
    if style == "plain":
        return f"{key}: {draw(plain_st)}\n"
    if style == "single":
        return f"{key}: '{w}'\n"
    if style == "double":
        return f'{key}: "{w}"\n'
    if style == "flow":
        items = draw(st.lists(word_st, min_size=0, max_size=3))
        return f"{key}: [{', '.join(repr(i) if ' ' in i or ':' in i else i for i in items)}]\n".replace("'", '"')
    if style == "block":
        items = draw(st.lists(word_st, min_size=1, max_size=3))
        return f"{key}:\n" + "".join(f'  - "{i}"\n' for i in items)
    if style == "nested":
        return f"{key}:\n  sub: '{w}'\n  other: 2\n"
    if style == "int":
        return f"{key}: {draw(st.integers(-5, 5000))}\n"
    return f"{key}: '{w}'   # a comment, ü\n"


@st.composite
def document(draw: st.DrawFn) -> tuple[list[tuple[str, str]], str, str]:
    keys = draw(st.lists(key_st, min_size=1, max_size=6, unique=True))
    entries = []
    for k in keys:
        prefix = draw(st.sampled_from(["", "", "# a note about it\n", "\n"]))
        entries.append((k, prefix + draw(entry(k))))
    body = draw(
        st.sampled_from(["# Title\n\nBody text.\n", "", "no heading\n---\nnot frontmatter\n", "ü\r\nCRLF body\r\n"])
    )
    head_comment = draw(st.sampled_from(["", "# top comment\n"]))
    return entries, head_comment, body


def _render(entries: list[tuple[str, str]], head_comment: str, body: str) -> str:
    return "---\n" + head_comment + "".join(e for _, e in entries) + "---\n" + body


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(document(), st.data())
def test_writing_one_key_leaves_every_other_key_byte_identical(doc, data) -> None:
    entries, head_comment, body = doc
    text = _render(entries, head_comment, body)
    before, _ = frontmatter.read(text)
    op = data.draw(st.sampled_from(["set", "add", "remove"]))
    keys = [k for k, _ in entries]
    value = data.draw(st.sampled_from(["kp:01J00000000000000000000000", "new value", "no", "Ünïcödé", 42]))
    if op == "set":
        target = data.draw(st.sampled_from(keys))
        out = frontmatter.update(text, {target: value})
        expected = {**before, target: value}
    elif op == "add":
        target = data.draw(key_st.filter(lambda k: k not in keys))
        out = frontmatter.update(text, {target: value})
        expected = {**before, target: value}
    else:
        target = data.draw(st.sampled_from(keys))
        out = frontmatter.update(text, remove=[target])
        expected = {k: v for k, v in before.items() if k != target}
    after, s = frontmatter.read(out)
    assert after == expected
    assert s.body(out) == body
    # every untouched entry's exact bytes appear, in the original order
    cursor = 0
    for k, e in entries:
        if k == target:
            continue
        own = e.lstrip("\n") if not e.startswith("# ") else e
        at = out.find(own, cursor)
        assert at >= 0, (k, own, out)
        cursor = at + len(own)
    assert out.startswith("---\n" + head_comment)


def test_round_trip_without_changes_is_identity() -> None:
    text = "---\ntitle: 'x'  # keep\ntags: [a, b]\n---\nbody\n"
    assert frontmatter.update(text, {}) == text
    assert frontmatter.update(text, {"title": "x"}) == text  # equal value: the line is kept as written


def test_note_without_frontmatter_gets_a_block_and_keeps_its_body() -> None:
    out = frontmatter.update("# Hello\n\ntext\n", {"kp_id": "kp:01J00000000000000000000000"})
    assert out == "---\nkp_id: kp:01J00000000000000000000000\n---\n# Hello\n\ntext\n"


def test_crlf_block_keeps_crlf() -> None:
    text = "---\r\ntitle: x\r\n---\r\nbody\r\n"
    out = frontmatter.update(text, {"kp_id": "kp:abc"})
    assert out == "---\r\ntitle: x\r\nkp_id: kp:abc\r\n---\r\nbody\r\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("---\ntitle: [unclosed\n---\nbody\n", "invalid YAML"),
        ("---\n- a\n- b\n---\nbody\n", "frontmatter is a list, not a mapping"),
        ("---\njust a string\n---\nbody\n", "frontmatter is a str, not a mapping"),
        ("---\ntitle: x\nbody without a closing fence\n", "never closed"),
        ("---\na: 1\na: 2\n---\n", "invalid YAML"),
    ],
)
def test_malformed_frontmatter_is_named(text: str, message: str) -> None:
    with pytest.raises(frontmatter.FrontmatterError, match=message):
        frontmatter.read(text)


def test_yaml_error_line_points_into_the_file() -> None:
    with pytest.raises(frontmatter.FrontmatterError) as e:
        frontmatter.read("---\ntitle: ok\nbad: [\n---\n")
    assert e.value.line is not None and 3 <= e.value.line <= 5


def test_body_line_counts_the_fences() -> None:
    meta, s = frontmatter.read("---\na: 1\nb: 2\n---\nfirst body line\n")
    assert meta == {"a": 1, "b": 2}
    assert s.body_line == 5


simple_key = st.from_regex(r"[A-Za-z_][A-Za-z0-9_.\- ]{0,10}[A-Za-z0-9_]", fullmatch=True)
simple_value = st.one_of(
    st.from_regex(r"[A-Za-z0-9/:._\- #'\"@]{1,30}", fullmatch=True),
    st.sampled_from(
        [
            "05/13/2020",
            "2.0.0",
            "2020-01-01",
            "12",
            "1.5e3",
            "true",
            "No",
            "null",
            "~",
            "https://x.org/a?b=c",
            "a: b",
            "x #c",
            "-1",
            ".5",
            "0x1F",
            "en-US",
            "about_History",
            "value with: colon",
            "tail:",
            "7.5.0.0",
            "12:30",
            "1_000",
            "1e5",
            "3.",
            "190:20:30",
            "2.0.0-beta",
            "0.1.0",
            "[a, b]",
            "[]",
            "[ x ]",
            "[a b, c d]",
            "[x, ]",
            "[a,b]",
            "[a: b]",
            "[1, 2]",
            "[true, x]",
            "[a, [b]]",
            "[a]b",
            "[en-US, -x]",
            "[x #c]",
            "[?x]",
            "2025-03-14",
            "2025-02-30",
            "2025-3-14",
            "0",
            "0012",
            "99999999999999999999",
            "false",
            "True",
            "",
        ]
    ),
)


block = st.tuples(st.sampled_from(["", "  ", "    "]), st.lists(simple_value, min_size=0, max_size=3))


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(simple_key, st.one_of(simple_value, block)), min_size=1, max_size=6))
def test_the_fast_reader_agrees_with_ruamel(pairs: list[tuple[str, object]]) -> None:
    from ruamel.yaml import YAML

    text = ""
    for k, v in pairs:
        if isinstance(v, tuple):
            indent, items = v
            text += f"{k}:\n" + "".join(f"{indent}- {item}\n" for item in items)
        else:
            text += f"{k}: {v}\n"
    fast = frontmatter._simple_load(text)
    if fast is None:
        return  # ruamel reads it
    assert fast == YAML(typ="safe", pure=True).load(text)
    assert [type(v) for v in fast.values()] == [type(v) for v in YAML(typ="safe", pure=True).load(text).values()]
