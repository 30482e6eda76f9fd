"""``escape_reason``: a path with an unsafe character is refused, whatever the character, and only those."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from curator.unsafe import first_unsafe
from curator.vault.paths import escape_reason

UNSAFE_CODES = [*range(0x20), 0x7F, *range(0x80, 0xA0), 0x61C, 0x200E, 0x200F, 0x2028, 0x2029, *range(0x202A, 0x202F)]


def test_every_unsafe_character_and_only_those_is_refused() -> None:
    for code in [*range(0x300), 0x2028, 0x2029, 0x202E, 0x2066, 0xFEFF, 0x200D, 0xA0, 0x10FFFF]:
        reason = escape_reason(f"notes/a{chr(code)}b.md")
        refused = reason is not None and "(control and reordering characters are not allowed in names)" in reason
        assert refused is (first_unsafe(chr(code)) is not None), (hex(code), reason)


def test_c1_controls_line_separators_and_bidi_overrides_are_refused() -> None:
    """The terminal and the review UI call them unsafe: a path holding one is no path of the vault."""
    for code in UNSAFE_CODES:
        assert escape_reason(f"notes/a{chr(code)}b.md") is not None, hex(code)
    for ordinary in ("\u200d", "\xa0", "é", "日本"):  # a zero-width joiner and a no-break space are text
        assert escape_reason(f"notes/a{ordinary}b.md") is None, repr(ordinary)


def test_a_name_longer_than_a_file_system_allows_is_refused() -> None:
    assert "bytes long" in (escape_reason("notes/" + "a" * 256 + ".md") or "")
    assert escape_reason("notes/" + "a" * 251 + ".md") is None
    assert "bytes long" in (escape_reason("notes/" + "日" * 90 + ".md") or "")  # 270 bytes in UTF-8


@given(
    st.text(
        alphabet=st.sampled_from(["a", "G", "İ", "ß", ".", " ", ":", "~", "\u200c", "\u202a", "\u206f", "\ufeff", "é"]),
        max_size=12,
    )
)
def test_folding_drops_exactly_the_code_points_hfs_ignores(part: str) -> None:
    from curator.vault.paths import _HFS_IGNORED, folded, same_as

    plain = "".join(c for c in part if ord(c) not in _HFS_IGNORED).casefold()
    assert folded(part) == plain.split(":", 1)[0].rstrip(" .")
    assert same_as(part, ".git") == (plain == ".git" or folded(part) in (".git", "git~1"))
