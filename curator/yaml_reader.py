"""The one reader of YAML text: a note's frontmatter, ``.kp/config.yaml``, ``proposal.yaml``.

ruamel.yaml builds its tree by recursion (the C loader's composer in Cython, the pure loader's
in Python). 40,000 nested ``[`` (80 KB) overflow the C stack and kill the process, exit 139,
before any exception exists to catch. So the nesting is measured before a tree is built, on the
parser's event stream: libyaml's parser and ruamel's pure one keep their states on heap stacks
(no recursion), and the walk stops at the first collection past the limit, so a megabyte of
``[`` costs about 65 events and no more memory than a small file. Only text that passed is built,
and the tree built is walked once more, without recursion, to bound what aliases expand to
(a billion laughs is 400 bytes: a small graph of shared lists that any walker expands).

Every caller names its own limits and turns ``YamlRefused`` into its own one-line message.
"""

from __future__ import annotations

import re
import threading
from typing import Any

MAX_DEPTH = 64
"""Nesting of lists and mappings: 1,200 levels overflow every recursive walk (JSON, pydantic),
40,000 the C parser's own; no frontmatter, config or manifest a person writes needs 64."""


class YamlRefused(ValueError):
    """The text is not YAML this reader will hand on: ``line`` is 1-based within the text."""

    def __init__(self, problem: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.line = line
        self.column = column
        """1-based, where the parser saw the problem (None where it did not say)."""

    @property
    def where(self) -> str:
        """`` at line L, column C`` (or less), for a one-line error message."""
        if self.line is None:
            return ""
        return f" at line {self.line}" + (f", column {self.column}" if self.column is not None else "")


class YamlTooLarge(YamlRefused):
    """The text nests past ``max_depth`` or expands past ``max_nodes``: hostile, not mistyped."""


_parsers = threading.local()  # a YAML instance is not safe to share between threads


def _yaml(kind: str, pure: bool) -> Any:
    key = f"{kind}-{pure}"
    y = getattr(_parsers, key, None)
    if y is None:
        from ruamel.yaml import YAML

        y = YAML(typ=kind, pure=pure)
        setattr(_parsers, key, y)
    y.doc_infos.clear()  # each call appends one: a cached instance would keep them all
    return y


_INDICATORS = "[{-?:"
"""Every collection owns one of these at least: ``[`` or ``{`` (flow), ``-`` (a block list), ``:``
or ``?`` (a block mapping, a pair inside a flow list). A text holding fewer than N of them
cannot nest N deep (quoted ones only make the count larger)."""


_LEAD = re.compile(r"^[ \t?:-]*", re.MULTILINE)
"""What may stand before a line's first block collection: indentation and block indicators."""


def depth_bound(text: str) -> int:
    """A depth ``text`` cannot nest past, found without parsing it: the smaller of two bounds.

    - Every collection owns an indicator (``_INDICATORS``).
    - Down a chain of nested block collections each starts at a column no smaller than its
      parent's, and at the same column only once (a sequence that is a mapping's value at the
      key's column); a block collection starts where a line's indentation and block indicators
      (``- ``, ``? ``, ``: ``) end. So block collections nest at most twice the widest such
      lead plus two deep. Flow collections add one level for each ``[`` or ``{`` and one more
      for a pair inside a flow sequence (``[a: [b: c]]``): twice their number at the most.

    The first bound keeps flat frontmatter cheap, the second a 6,500-change ``proposal.yaml``
    (26,000 indicators, a lead of 2, no brackets: bound 6), whose event walk took 0.2 s."""
    indicators = sum(map(text.count, _INDICATORS))
    lead = max((len(m.group()) for m in _LEAD.finditer(text)), default=0)
    return min(indicators, 2 * (lead + 1) + 2 * (text.count("[") + text.count("{")))


def _nesting(y: Any, text: str, max_depth: int) -> None:
    """Raise ``YamlTooLarge`` at the first collection nested deeper than ``max_depth``.

    Text that ``depth_bound`` says cannot nest that deep is not walked: bounding it costs a
    hundredth of the walk, and most frontmatter and every manifest Curator writes is such text
    (measured on the 3,112 files of the PowerShell docs: the walk added 6 to 15% to reading the
    frontmatter that is not flat)."""
    if depth_bound(text) < max_depth:
        return
    from ruamel.yaml.events import CollectionEndEvent, CollectionStartEvent

    depth = 0
    events = y.parse(text)
    try:
        for event in events:
            if isinstance(event, CollectionStartEvent):
                depth += 1
                if depth > max_depth:
                    mark = event.start_mark
                    raise YamlTooLarge(f"nests deeper than {max_depth} levels", mark.line + 1 if mark else None)
            elif isinstance(event, CollectionEndEvent):
                depth -= 1
    finally:
        events.close()


def _expansion(data: Any, max_depth: int, max_nodes: int) -> None:
    """Refuse data that expands past ``max_nodes`` values or nests past ``max_depth`` once its
    aliases are followed; walked without recursion, a shared value counted each time it is met."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    seen = 0
    while stack:
        value, depth = stack.pop()
        seen += 1
        if seen > max_nodes:
            raise YamlTooLarge(f"expands to more than {max_nodes:,} values (YAML aliases?)")
        if depth > max_depth:
            raise YamlTooLarge(f"nests deeper than {max_depth} levels")
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for kv in value.items() for v in kv)
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)


def load(
    text: str,
    *,
    max_depth: int = MAX_DEPTH,
    max_nodes: int | None = None,
    roundtrip: bool = False,
    pure: bool = False,
) -> Any:
    """``text`` parsed as one YAML document (None when it is empty).

    ``max_nodes`` bounds the values once aliases are expanded; by default it is the length of the
    text plus a thousand, which YAML without aliases never reaches (every value costs a character
    or more). ``roundtrip`` gives ruamel's CommentedMap (comments and line numbers kept);
    ``pure`` the pure-Python parser. Raises ``YamlRefused`` with the problem and its line."""
    from ruamel.yaml.error import YAMLError

    y = _yaml("rt" if roundtrip else "safe", pure)
    try:
        _nesting(y, text, max_depth)
        data = _yaml("rt" if roundtrip else "safe", pure).load(text)
    except YamlRefused:
        raise
    except YAMLError as e:
        mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
        raise YamlRefused(str(problem), line, column) from None
    except RecursionError:  # pragma: no cover - the nesting walk refuses such text first
        raise YamlTooLarge(f"nests deeper than {max_depth} levels") from None
    except Exception as e:  # ruamel raises assorted errors on hostile input (a bad tag, a key)
        raise YamlRefused(str(e).splitlines()[0] if str(e) else type(e).__name__) from None
    _expansion(data, max_depth, len(text) + 1000 if max_nodes is None else max_nodes)
    return data
