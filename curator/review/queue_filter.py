"""``/``: the box that filters the queue by words, shown while it is used."""

from __future__ import annotations

from textual.message import Message
from textual.widgets import Input


class QueueFilter(Input):
    """Posts ``QueueFilter.Typed`` with the words typed; Enter keeps them and hides the box."""

    DEFAULT_CSS = """
    QueueFilter {
        display: none;
        height: 3;
    }
    QueueFilter.-shown {
        display: block;
    }
    """

    class Typed(Message):
        """The filter's words (stripped; empty: no filter)."""

        def __init__(self, words: str) -> None:
            super().__init__()
            self.words = words

    class Left(Message):
        """The box is hidden again: focus goes back to the queue."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            placeholder="filter: words in the title, author, verdict or drift (Enter keeps, Esc clears)", id=id
        )

    def open(self) -> None:
        self.add_class("-shown")
        self.focus()

    def close(self, filtering: bool) -> bool:
        """Esc: empty and hide the box when it is shown or a filter is on; True when it did."""
        if not self.has_class("-shown") and not filtering:
            return False
        self.value = ""
        self.remove_class("-shown")
        return True

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(self.Typed(event.value.strip()))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.remove_class("-shown")
        self.post_message(self.Left())
