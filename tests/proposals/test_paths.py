"""``escape_reason``: a proposal path with a control character is refused, whatever the character."""

from __future__ import annotations

from curator.vault.paths import escape_reason


def test_every_control_character_and_only_those_is_refused() -> None:
    for code in [*range(0x300), 0x2028, 0x2029, 0x202E, 0xFEFF, 0x10FFFF]:
        reason = escape_reason(f"notes/a{chr(code)}b.md")
        control = code < 32 or code == 127
        assert (reason == "the path contains control characters") is control, (hex(code), reason)
