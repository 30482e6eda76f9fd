"""A process that feeds nested YAML (and JSON) to every surface that reads it, for
``tests/test_yaml_reader.py``: a shape comes in on stdin as one JSON line, what each surface
did goes out as one. Run apart from pytest because the failure it looks for is a crash of the
process (ruamel's C loader overflowing the stack, exit 139), which no ``except`` catches.

What it counts, for the test to bound: the parser events each walk of the one reader pulls
(``YAML.parse``), the trees ruamel builds (``construct_document``), and the process's peak
memory. Its address space is capped, so a parse that tried to hold more fails here, loudly.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

MEMORY_CAP = 2 << 30
"""Address space, not resident memory: the interpreter with pygit2, apsw and ruamel maps about
600 MB before it reads anything."""

KP_ID = "kp:01J00000000000000000000DEP"
PROPOSAL = "01J0000000000000000000PRPD"


def value(shape: dict[str, Any], indent: int) -> str:
    """The YAML for the shape's value, to follow ``key:`` at ``indent`` columns."""
    style, depth, width, closed = shape["style"], shape["depth"], shape["width"], shape["closed"]
    pad = " " * (indent + 2)
    sib = "".join(f"s{i}, " for i in range(width))
    if style == "flow-seq":
        return " " + f"[{sib}" * depth + ("]" * depth if closed else "") + "\n"
    if style == "flow-map":
        return (
            " "
            + "".join(f"{{{sib.replace(', ', ': 1, ')}k: " for _ in range(depth))
            + "1"
            + ("}" * depth if closed else "")
            + "\n"
        )
    if style == "mixed":
        return " " + "[{a: " * depth + "1" + ("}]" * depth if closed else "") + "\n"
    if style == "block-seq":
        items = "".join(f"{pad}- s{i}\n" for i in range(width))
        return "\n" + items + pad + "- " * depth + "leaf\n"
    if style == "explicit-key":
        return "\n" + pad + "? " * depth + "leaf\n"
    if style == "block-map":
        out = []
        for level in range(depth):
            at = " " * (indent + 2 + level)
            out += [f"{at}s{i}: {i}\n" for i in range(width)] + [f"{at}k{level}:\n"]
        return "\n" + "".join(out) + " " * (indent + 2 + depth) + "leaf\n"
    if style == "alias-chain":  # shallow to the parser, deep once the aliases are followed
        lines = [f"{pad}a0: &a0 [leaf]\n"] + [f"{pad}a{i}: &a{i} [*a{i - 1}]\n" for i in range(1, depth)]
        return "\n" + "".join(lines)
    raise AssertionError(style)


def json_value(shape: dict[str, Any]) -> str:
    depth, width = shape["depth"], shape["width"]
    sib = "".join(f'"s{i}", ' for i in range(width))
    return f"[{sib}" * depth + "0" + "]" * depth


def note(shape: dict[str, Any]) -> str:
    return f"---\nkp_id: {KP_ID}\ntitle: Deep\nx:{value(shape, 0)}---\n# Deep\n\nnested words\n"


def config(shape: dict[str, Any]) -> str:
    return f"notes:\n  deep:{value(shape, 2)}"


def manifest(shape: dict[str, Any]) -> str:
    return (
        f"schema: proposals/v1\nid: {PROPOSAL}\ntitle: Deep\nrationale: nested\n"
        "author: {kind: librarian, name: digest}\ncreated: '2024-01-01T00:00:00Z'\nbase: HEAD\n"
        f"changes: []\nextra:{value(shape, 0)}"
    )


class Counts:
    def __init__(self) -> None:
        self.walks: list[int] = []
        self.trees = 0

    def install(self) -> None:
        from ruamel.yaml import constructor, main

        parse, construct = main.YAML.parse, constructor.BaseConstructor.construct_document
        counts = self

        def counted_parse(self: Any, stream: Any) -> Any:
            counts.walks.append(0)
            for event in parse(self, stream):
                counts.walks[-1] += 1
                yield event

        def counted_construct(self: Any, node: Any) -> Any:
            counts.trees += 1
            return construct(self, node)

        main.YAML.parse = counted_parse  # type: ignore[method-assign]
        constructor.BaseConstructor.construct_document = counted_construct  # type: ignore[method-assign]


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def run_cli(vault: Path, *args: str) -> dict[str, Any]:
    from curator.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--vault", str(vault), *args])
    return {"args": list(args), "code": code, "out": out.getvalue()[-2000:], "err": err.getvalue()[-2000:]}


def surfaces(shape: dict[str, Any], root: Path) -> list[dict[str, Any]]:
    """Every command that reads a note's frontmatter, the config or a proposal.yaml, or a source."""
    default = (Path(__file__).resolve().parents[1] / "curator" / "default_config.yaml").read_text()
    vault = root / "vault"
    vault.mkdir()
    git(vault, "-c", "init.defaultBranch=main", "init", "-q")
    (vault / ".kp").mkdir()
    (vault / ".kp" / "config.yaml").write_text(default)
    (vault / "plain.md").write_text(
        "---\nkp_id: kp:01J00000000000000000000PLN\ntitle: Plain\n---\n# Plain\n\nnested words\n"
    )
    git(vault, "add", "-A")
    git(vault, "commit", "-qm", "base", "--no-verify")
    results = []
    # a note: every reader of notes, then CI over the commit that brought it
    (vault / "deep.md").write_text(note(shape))
    results.append(run_cli(vault, "validate", "deep.md"))
    git(vault, "add", "-A")
    git(vault, "commit", "-qm", "deep note", "--no-verify")
    for args in (
        ["index"],
        ["read", "deep.md"],
        ["search", "nested"],
        ["doctor"],
        ["validate", "--commits", "HEAD~1..HEAD"],
    ):
        results.append(run_cli(vault, *args))
    (vault / "deep.md").write_text(note(shape) + "an edit\n")
    results.append(run_cli(vault, "propose", "--title", "Edit", "deep.md"))
    # a proposal.yaml: the validator, the queue, the digest's look for pending digests
    folder = vault / ".kp" / "proposals" / PROPOSAL
    folder.mkdir(parents=True)
    (folder / "proposal.yaml").write_text(manifest(shape))
    for args in (["validate", PROPOSAL], ["proposals"], ["digest", "--now", "2024-02-01T00:00:00Z"]):
        results.append(run_cli(vault, *args))
    # sources: the JSON twins of the shape
    corpus = vault / "corpus.jsonl"
    corpus.write_text(json.dumps({"_id": "a", "text": "nested words"}) + "\n" + '{"_id": "b", "text": "t", "x": ')
    with corpus.open("a") as f:
        f.write(json_value(shape) + "}\n")
    (vault / "library.json").write_text(f'[{{"id": "c", "type": "book", "title": "T", "x": {json_value(shape)}}}]')
    sources = (
        "\nsources:\n  - name: papers\n    type: jsonl\n    path: corpus.jsonl\n"
        "  - name: exported\n    type: csl-json\n    path: library.json\n"
    )
    (vault / ".kp" / "config.yaml").write_text(default.replace("\nsources: []\n", "\n") + sources)
    results.append(run_cli(vault, "sources", "sync"))
    # the config itself: every command reads it first; CI reads it at each commit
    (vault / ".kp" / "config.yaml").write_text(config(shape))
    for args in (["doctor"], ["index"]):
        results.append(run_cli(vault, *args))
    git(vault, "add", "-A")
    git(vault, "commit", "-qm", "deep config", "--no-verify")
    results.append(run_cli(vault, "validate", "--commits", "HEAD~1..HEAD"))
    return results


def reader(shape: dict[str, Any], counts: Counts) -> dict[str, Any]:
    from curator import yaml_reader

    text = "x:" + value(shape, 0)
    walks, trees = len(counts.walks), counts.trees
    try:
        yaml_reader.load(text)
        outcome = "read"
    except yaml_reader.YamlTooLarge as e:
        outcome = f"too large: {e.problem}"
    except yaml_reader.YamlRefused as e:
        outcome = f"refused: {e.problem}"
    return {
        "outcome": outcome,
        "bytes": len(text),
        "events": counts.walks[walks:],
        "trees": counts.trees - trees,
    }


def peak_mb() -> int:
    """This process's peak resident memory: the kernel's high-water mark of its own memory map
    (``VmHWM``), which starts afresh at exec. ``ru_maxrss`` would not do: Linux carries it over
    fork and exec, so a worker started by a pytest process that holds a model would report the
    model's size."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) // 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def main() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    os.environ["CURATOR_EMBEDDER"] = "none"
    counts = Counts()
    counts.install()
    for line in sys.stdin:
        shape = json.loads(line)
        with tempfile.TemporaryDirectory() as tmp:
            os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
            answer = {"reader": reader(shape, counts), "surfaces": surfaces(shape, Path(tmp))}
        answer["peak_mb"] = peak_mb()
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
