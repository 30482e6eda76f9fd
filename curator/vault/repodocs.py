"""A repository's own documents: README.md, CONTRIBUTING.md and the like, which need no kp_id.

They are notes (the include globs match them, search finds them), but ``adopt`` leaves them
alone, ``doctor`` does not ask them for a kp_id and the pre-commit hook lets a new one in
without one: what a forge shows at the top of the repository must not open with a
frontmatter table.
"""

from __future__ import annotations

import posixpath

REPOSITORY_DOCUMENTS = frozenset(
    {"CONTRIBUTING", "CHANGELOG", "CODE_OF_CONDUCT", "SECURITY", "SUPPORT", "GOVERNANCE", "AUTHORS"}
    | {"LICENSE", "LICENCE", "COPYING"}
)
"""Files a forge shows by their name, as forges write them (in capitals); README in any case."""


def repository_document(path: str) -> str | None:
    """Why ``path`` is the repository's own document rather than a note of the vault, or None.

    GitHub, GitLab and the like show these by name (a folder's README under its listing) and
    render a frontmatter block as a table on top, so a ``kp_id`` block would be the first
    thing every visitor reads. Judged by the name alone: ``README.md``, ``docs/readme.md``,
    ``CONTRIBUTING.md``; a note called ``Security.md`` is a note."""
    stem = posixpath.basename(path).split(".", 1)[0]
    if stem.casefold() != "readme" and stem not in REPOSITORY_DOCUMENTS:
        return None
    return (
        f"a repository document ({stem}: a forge shows it by name and would render a frontmatter block "
        "as a table on top); add a kp_id line by hand if it is a note"
    )
