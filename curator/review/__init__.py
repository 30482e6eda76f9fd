"""``curator review``: the Textual app where a person clears the proposal queue.

Only ``curator review`` imports this package (Textual is heavy; the validator
never loads it). ``entries`` is the queue without Textual; every widget sits
in a module of its own with its CSS beside it.
"""
