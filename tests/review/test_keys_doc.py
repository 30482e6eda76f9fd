"""The review keys table (docs/review.md, which the README links to for its keys) and the ``?``
screen name exactly the keys the review screen binds."""

from __future__ import annotations

import re

from curator.review.help import KEYS
from curator.review.queue_screen import QueueScreen
from tests.conftest import ROOT

# Binding names as a person reads them on the keyboard.
SPOKEN = {
    "question_mark": "?",
    "slash": "/",
    "pagedown": "pgdn",
    "pageup": "pgup",
    "down": "↓",
    "up": "↑",
}
# Keys the table names that a widget binds, not the screen: the queue's arrows, and focus.
FROM_WIDGETS = {"↓", "↑", "tab"}
# Screen bindings the table explains inside another row (Esc clears the filter: the `/` row).
INSIDE_ROWS = {"escape"}


def _bound() -> set[str]:
    keys: set[str] = set()
    for b in QueueScreen.BINDINGS:
        assert not isinstance(b, tuple)
        for key in b.key.split(","):  # type: ignore[union-attr]
            keys.add(SPOKEN.get(key, key))
    return keys - INSIDE_ROWS


def _table_keys(text: str) -> set[str]:
    """The keys in the first column of the `| key | does |` table: each `code` span of it."""
    table = text.split("| key | does |", 1)[1].split("\n\n", 1)[0]
    keys: set[str] = set()
    for row in table.splitlines()[2:]:
        first = row.split("|")[1]
        keys.update(re.findall(r"`([^`]+)`", first))
    return keys


def _help_keys() -> set[str]:
    keys: set[str] = set()
    for names, _what in KEYS:
        for part in names.split(","):
            keys.update(k.strip() for k in part.split("/") if k.strip())
    # "/" itself is a key: a row named "/" splits into nothing
    if any(names.strip() == "/" for names, _ in KEYS):
        keys.add("/")
    return keys


def test_the_review_keys_table_names_every_key_the_screen_binds_and_no_other() -> None:
    documented = _table_keys((ROOT / "docs" / "review.md").read_text(encoding="utf-8"))
    assert documented - FROM_WIDGETS == _bound()


def test_the_readme_keys_table_when_it_has_one_matches_the_app() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/review.md" in readme  # where the README sends a reader for the keys
    if "| key | does |" in readme:
        assert _table_keys(readme) - FROM_WIDGETS == _bound()


def test_the_help_screen_names_the_same_keys() -> None:
    documented = _table_keys((ROOT / "docs" / "review.md").read_text(encoding="utf-8"))
    assert _help_keys() == documented
