"""What the parts of the review screen share: ``QueueScreen`` is made of mixins (the queue's
loading, the pre-flight, the decisions, the revisions), each a ``ScreenPart`` that may use the
screen's state and the methods its siblings define, declared here once for the type checker."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from textual.screen import Screen

if TYPE_CHECKING:
    from curator.diffview.model import DiffModel
    from curator.proposals.revision import Selection
    from curator.review.app import ReviewApp
    from curator.review.diff_pane import DiffPane
    from curator.review.entries import Entry
    from curator.review.queue_table import QueueTable


class ScreenPart(Screen[None]):
    """A part of the review screen (the screen itself is ``QueueScreen``)."""

    if TYPE_CHECKING:
        checking: set[str]
        """Proposals whose pre-flight result is not in yet (``a`` stays disabled)."""
        models: dict[str, DiffModel]
        _partial: dict[str, DiffModel]
        preflighting: set[str]
        _tokens: dict[str, object]
        queue_entries: dict[str, Entry]
        painted: threading.Event
        first_frame: threading.Event

        @property
        def review(self) -> ReviewApp: ...

        @property
        def queue(self) -> QueueTable: ...

        @property
        def diff(self) -> DiffPane: ...

        @property
        def closing(self) -> bool: ...

        def current(self) -> Entry | None: ...

        def _show(self, entry: Entry | None) -> None: ...

        def _empty_state(self) -> None: ...

        def _check(self, ulid: str, stored_first: bool = False) -> None: ...

        def _failed(self, ulid: str, message: str) -> None: ...

        def _decided(self, ulid: str, message: str, vault_changed: bool) -> None: ...

        def load_queue(self, select: str | None = None) -> object: ...

        def marked(self, entry: Entry | None) -> Selection | None: ...

        def ask_partial(self, entry: Entry, sel: Selection) -> None: ...
