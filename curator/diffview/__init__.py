"""The proposal diff, one model for two screens: ``curator apply`` (rich) and ``curator review`` (Textual).

``model`` turns a validated proposal into display rows; ``words`` finds the
changed words inside a changed line; ``richtext`` renders rows as rich ``Text``
built from plain strings (never markup: every byte shown comes from an
untrusted proposal); ``console`` prints a proposal for ``curator apply``.
Nothing here imports Textual.

Why not ``textual-diff-view`` (the diff widget from Textual's authors), weighed
first: it is AGPL-licensed (Curator is MIT); it diffs two whole texts with
difflib, where a reviewer must see the exact hunks libgit2 will apply (and a
proposal whose base blob is gone has no first text); it cannot mark
managed-region lines; it builds and highlights every line up front (on a
5,000-line change it did not reach a first paint within minutes under load,
where this pane's first screen takes about 0.1 s: ``benchmarks/review_ui.py``);
and ``curator apply`` must print the same diff without Textual.
"""
