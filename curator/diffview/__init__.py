"""The proposal diff, one model for two screens: ``curator apply`` (rich) and ``curator review`` (Textual).

``model`` turns a validated proposal into display rows; ``words`` finds the
changed words inside a changed line; ``richtext`` renders rows as rich ``Text``
built from plain strings (never markup: every byte shown comes from an
untrusted proposal); ``console`` prints a proposal for ``curator apply``.
Nothing here imports Textual.
"""
