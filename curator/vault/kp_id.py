"""The one reader of a note's ``kp_id``: its frontmatter as YAML reads it, whatever the spelling.

``kp_id: kp:01J…``, quoted, with a comment after it, folded (``>-``), through an anchor, or
in a flow mapping ``{kp_id: …}``: the value is what the frontmatter loader
(``vault.frontmatter.load``) gives, the same loader the index, ``read`` and every
validator rule use. So the identity the validator checks a new note against is the one
the index will give it. What is compared is ``canonical``: a ULID in either case is one id.
"""

from __future__ import annotations

import os
from typing import Any

from curator.vault import frontmatter
from curator.vault.identity import canonical, is_valid_kp_id

KEY = "kp_id"
"""The frontmatter key that holds a note's identity (SPEC §1)."""

UNREADABLE: Any = object()
"""What ``of_text`` says of a frontmatter that cannot be read."""

HEAD_BYTES = 4096
"""A note's first bytes: the frontmatter of almost every note fits."""


def of_meta(meta: Any) -> Any:
    """The raw ``kp_id`` value of a loaded frontmatter mapping: None when it has none, or holds
    only an empty value (``kp_id:`` or ``kp_id: ""``, as a template leaves it)."""
    value = meta.get(KEY) if isinstance(meta, dict) else None
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return value


def of_text(text: str | None) -> Any:
    """The raw ``kp_id`` value of a note's text: None when it has none, ``UNREADABLE`` when its
    frontmatter cannot be read."""
    meta = frontmatter.meta_or_none(text)
    return UNREADABLE if meta is None else of_meta(meta)


def added(text: str, kp_id: str) -> str:
    """``text`` with ``kp_id: KP_ID`` in its frontmatter (a block made for it when there is none,
    an empty value replaced), every other byte kept: the one writer of a new identity, for
    ``mint``, ``adopt``, ``propose`` and ``kp_propose``.

    Raises ``frontmatter.FrontmatterError`` when the block cannot take the line or the new
    value would not read back (a flow mapping ``{a: 1}`` is named, not broken)."""
    new_text = frontmatter.update(text, {KEY: kp_id})
    if of_text(new_text.removeprefix("\ufeff")) != kp_id:
        raise frontmatter.FrontmatterError("the new kp_id would not read back")
    return new_text


def _may_name_kp_id(raw: bytes) -> bool:
    """Whether YAML could read a ``kp_id`` key from these bytes: they spell it, or they hold an
    escape (``"kp\\u005fid"``, ``"\\x6bp_id"``, a quoted key continued after ``\\`` on the next
    line), the only way YAML spells a key without its letters. The test spares the parse."""
    return b"kp_id" in raw or b"\\" in raw


def read(raw: bytes) -> str | None:
    """The valid kp_id (canonical) of a note's bytes, or None (none, invalid, unreadable)."""
    if not raw.startswith((b"---", b"\xef\xbb\xbf---")) or not _may_name_kp_id(raw):
        return None
    value = of_text(raw.decode("utf-8", "replace").removeprefix("\ufeff"))
    return canonical(value) if is_valid_kp_id(value) else None


def read_file(full_path: str) -> str | None:
    """``read`` of the file at ``full_path``, reading as little as possible (frontmatter sits at
    the top): the first 4 KB, and the rest only when the frontmatter runs past them."""
    # os.read rather than open(): a create reads the head of every note in the vault, and
    # a buffered file object costs as much as the read itself.
    try:
        fd = os.open(full_path, os.O_RDONLY | os.O_NOFOLLOW)
        try:
            head = os.read(fd, HEAD_BYTES)
            if not head.startswith((b"---", b"\xef\xbb\xbf---")):
                return None
            # Closed as the frontmatter loader closes it: a line that is only ``---`` or ``...``,
            # ended by a newline within these bytes (``---x: 1`` is a key, and a line cut at the
            # 4 KB mark may go on).
            text = head.decode("utf-8", "replace")
            split = frontmatter.split(text)
            closed = len(head) < HEAD_BYTES or (split.yaml is not None and text[: split.body_start].endswith("\n"))
            if closed and not _may_name_kp_id(head):
                return None
            if not closed:
                head += b"".join(iter(lambda: os.read(fd, 1 << 16), b""))
        finally:
            os.close(fd)
    except OSError:
        return None
    return read(head)
