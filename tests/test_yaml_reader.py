"""Nested YAML through every surface that reads it: never a crash, bounded work and memory.

A note of 80 KB (``x: `` and 40,000 ``[``) used to kill every process that read it (exit 139:
ruamel's C loader recursing off the end of the stack). The one reader (``curator.yaml_reader``)
measures nesting on the parser's event stream before a tree is built. Here hypothesis draws
shapes of nesting (depth, width, style, closed or not) and a separate process
(``tests/yaml_depth_worker.py``) feeds each to the reader and to every command that reads a
note's frontmatter, the config, a proposal.yaml or a source; a crash kills that process, not
pytest, and is reported with its shape.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from curator import yaml_reader
from tests.conftest import ROOT

LIMIT = yaml_reader.MAX_DEPTH
PEAK_MB = 400
"""The worker reads a 1 MB shape in about 70 MB; a parse that built the tree of a deep one
would not stay under this (and the worker's address space is capped besides)."""

FLOW = ("flow-seq", "flow-map", "mixed")
BLOCK = ("block-seq", "block-map", "explicit-key")


class Worker:
    """The worker process, started again after a crash so the next shape still runs."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[str] | None = None

    def ask(self, shape: dict[str, Any]) -> dict[str, Any]:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tests.yaml_depth_worker"],
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(shape) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            code = self.proc.wait()
            err = self.proc.stderr.read() if self.proc.stderr else ""
            raise AssertionError(f"the worker died (exit {code}) on {shape}: {err[-1500:]}")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait(timeout=60)


@pytest.fixture(scope="module")
def worker() -> Iterator[Worker]:
    w = Worker()
    yield w
    w.close()


@st.composite
def shapes(draw: st.DrawFn) -> dict[str, Any]:
    style = draw(st.sampled_from([*FLOW, *BLOCK, "alias-chain"]))
    if style == "block-map":  # each level indents one more column: depth² bytes
        depth = draw(st.integers(1, 900))
    elif style == "alias-chain":
        depth = draw(st.integers(1, 300))
    else:
        depth = draw(
            st.one_of(st.integers(1, 2 * LIMIT), st.integers(2 * LIMIT, 5000), st.sampled_from([40_000, 200_000]))
        )
    width = draw(st.integers(0, 3 if depth > 5000 else 12))
    return {"style": style, "depth": depth, "width": width, "closed": draw(st.booleans())}


def _nests(shape: dict[str, Any]) -> int:
    """Collections from the document's root to the deepest, once aliases are followed."""
    extra = {"explicit-key": 0, "block-map": 1, "alias-chain": 2}.get(shape["style"], 0)
    if shape["style"] in ("mixed",):
        return 1 + 2 * shape["depth"]
    return 1 + shape["depth"] + extra


def _check_reader(shape: dict[str, Any], reader: dict[str, Any]) -> None:
    outcome, width = reader["outcome"], shape["width"]
    closed_flow = shape["closed"] or shape["style"] not in FLOW
    if _nests(shape) + 1 <= LIMIT and closed_flow:
        # a mapping used as a key (``? ? leaf``) is valid YAML that Python cannot hold: refused
        unhashable = shape["style"] == "explicit-key" and outcome == "refused: found unhashable key"
        assert outcome == "read" or unhashable, (shape, reader)
    elif _nests(shape) > LIMIT:
        assert outcome.startswith(f"too large: nests deeper than {LIMIT} levels"), (shape, reader)
    else:
        assert outcome == "read" or outcome.startswith(("too large", "refused")), (shape, reader)
    for events in reader["events"]:  # every walk linear in the text, whatever its shape
        assert events <= 2 * reader["bytes"] + 10, (shape, reader)
    if outcome.startswith("too large") and shape["style"] != "alias-chain":
        # refused on the event stream: stopped near the limit, no tree built
        assert reader["trees"] == 0, (shape, reader)
        assert max(reader["events"]) <= (LIMIT + 2) * (2 * width + 4) + 20, (shape, reader)


def _check_surfaces(shape: dict[str, Any], answer: dict[str, Any]) -> None:
    deep = answer["reader"]["outcome"].startswith("too large")
    for run in answer["surfaces"]:
        said = run["out"] + run["err"]
        assert run["code"] in (0, 1, 2), (shape, run)
        assert "Traceback" not in said and "internal error" not in said, (shape, run)
        if run["code"] == 2:
            assert len(run["err"].strip().splitlines()) == 1 or run["args"] == ["sources", "sync"], (shape, run)
    by = {" ".join(r["args"]): r for r in answer["surfaces"]}
    if deep:
        index = [r for r in answer["surfaces"] if r["args"] == ["index"]]
        assert "skipped deep.md: frontmatter nests deeper" in index[0]["out"], (shape, index[0])
        assert by["validate deep.md"]["code"] == 1 and "KP008" in by["validate deep.md"]["out"]
        assert by["read deep.md"]["code"] == 2 and "nests deeper" in by["read deep.md"]["err"]
        ci = [r for r in answer["surfaces"] if r["args"] == ["validate", "--commits", "HEAD~1..HEAD"]]
        assert "KP008" in ci[0]["out"] and "nests deeper" in ci[0]["out"], (shape, ci[0])
        # the config's commit is judged by its base's config, and named with the reader's reason
        assert "KP007" in ci[1]["out"] and "nests deeper" in ci[1]["out"], (shape, ci[1])
        assert "proposal.yaml nests deeper" in by["validate 01J0000000000000000000PRPD"]["out"]
        assert "nests deeper" in index[-1]["err"] and index[-1]["code"] == 2, (shape, index[-1])
    assert answer["peak_mb"] < PEAK_MB, (shape, answer["peak_mb"])


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(shape=shapes())
@example(shape={"style": "flow-seq", "depth": 40_000, "width": 0, "closed": True})  # the note
@example(shape={"style": "block-seq", "depth": 200_000, "width": 0, "closed": True})
@example(shape={"style": "mixed", "depth": 40_000, "width": 0, "closed": False})
def test_nesting_of_any_depth_and_width_is_read_or_refused_in_one_line_by_every_surface(
    worker: Worker, shape: dict[str, Any]
) -> None:
    answer = worker.ask(shape)
    _check_reader(shape, answer["reader"])
    _check_surfaces(shape, answer)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a: [[[1]]]\n", {"a": [[[1]]]}),
        ("a: " + "[" * (LIMIT - 1) + "]" * (LIMIT - 1) + "\n", None),
        ("a: &x [1]\nb: *x\n", {"a": [1], "b": [1]}),
    ],
)
def test_what_nests_within_the_bound_is_read_as_ruamel_reads_it(text: str, expected: Any) -> None:
    from ruamel.yaml import YAML

    data = yaml_reader.load(text)
    assert data == YAML(typ="safe", pure=True).load(text)
    if expected is not None:
        assert data == expected


def test_one_level_past_the_bound_is_refused_with_its_line() -> None:
    text = "a: 1\nb:\n  c: " + "[" * LIMIT + "]" * LIMIT + "\n"
    with pytest.raises(yaml_reader.YamlTooLarge) as e:
        yaml_reader.load(text)
    assert e.value.problem == f"nests deeper than {LIMIT} levels" and e.value.line == 3


def _depth(text: str) -> int | None:
    """How deep ``text`` nests, by ruamel's own parser; None when it is not YAML."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError
    from ruamel.yaml.events import CollectionEndEvent, CollectionStartEvent

    depth = deepest = 0
    try:
        for event in YAML(typ="safe", pure=True).parse(text):
            if isinstance(event, CollectionStartEvent):
                depth += 1
                deepest = max(deepest, depth)
            elif isinstance(event, CollectionEndEvent):
                depth -= 1
    except (YAMLError, ValueError, TypeError, AttributeError):
        return None
    return deepest


_PIECES = [
    "- ",
    "? ",
    ": ",
    "a",
    "b: ",
    "\n",
    "  ",
    " ",
    "[",
    "]",
    "{",
    "}",
    ", ",
    "-",
    "\t",
    "&x ",
    "*x",
    "!!seq ",
    "'q'",
    "|\n",
    "#c",
]


@pytest.mark.parametrize(
    "text",
    [
        "- - - - - a\n",
        "a:\n- b:\n  - c:\n    - d:\n      - e\n",
        "[a: [b: [c: [d: e]]]]\n",
        "{a: {b: [c, {d: [e: f]}]}}\n",
        "? - - a\n: - - b\n",
        "a:\n  b:\n    c:\n    - - d\n",
        "-\n - \n  - \n   - x\n",
        "schema: proposals/v1\nchanges:\n- op: modify\n  path: 'n [1].md'\n  base_blob: ab\n",
    ],
)
def test_the_depth_bound_is_never_below_the_depth_ruamel_parses(text: str) -> None:
    depth = _depth(text)
    assert depth is not None, text
    assert depth <= yaml_reader.depth_bound(text)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=60))
def test_any_text_nests_no_deeper_than_its_depth_bound(pieces: list[str]) -> None:
    text = "".join(pieces)
    depth = _depth(text)
    if depth is not None:
        assert depth <= yaml_reader.depth_bound(text), text


def test_a_large_manifest_is_not_walked_event_by_event() -> None:
    """A proposal's manifest has a lead of two columns and no brackets: 6,500 changes of it hold
    26,000 indicators, and walking its events was a twentieth of judging it."""
    changes = "".join(f"- op: modify\n  path: notes/n{i}.md\n  base_blob: {'a' * 40}\n" for i in range(2000))
    text = f"schema: proposals/v1\ntitle: 'Adopt: [all] notes'\nchanges:\n{changes}"
    assert sum(map(text.count, "[{-?:")) > 6000
    assert yaml_reader.depth_bound(text) < yaml_reader.MAX_DEPTH
