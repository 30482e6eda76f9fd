"""No SQL outside ``curator/index/``: every reader goes through the index's own modules.

The one exception is ``curator/sources/zotero_db.py`` (and the private copy it reads,
``snapshot.py``): SQL against a copy of a Zotero library, someone else's storage, beside
the adapter that reads it, so the sources stay below the index that stores their items."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "curator"
SQL = re.compile(
    r"\b(SELECT\s.+\sFROM|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(VIRTUAL\s+)?TABLE|"
    r"PRAGMA\s+\w+|\w+\s+MATCH\s+\?)",
    re.IGNORECASE | re.DOTALL,
)


ZOTERO_STORAGE = {ROOT / "sources" / "zotero_db.py", ROOT / "sources" / "snapshot.py"}


def _offenders(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    where = path.relative_to(ROOT.parent) if path.is_relative_to(ROOT.parent) else path
    found = []
    for node in ast.walk(tree):
        call = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        if call and node.func.attr in ("execute", "executemany", "executescript"):  # type: ignore[attr-defined]
            found.append(f"{where}:{node.lineno}: .{node.func.attr}(")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.search(node.value):
            found.append(f"{where}:{node.lineno}: SQL text {node.value[:40]!r}")
        if isinstance(node, ast.JoinedStr):
            text = "".join(
                v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else " x " for v in node.values
            )
            if SQL.search(text):
                found.append(f"{where}:{node.lineno}: SQL f-string {text[:40]!r}")
    return found


def test_no_sql_outside_the_index_package() -> None:
    offenders = []
    for path in sorted(ROOT.rglob("*.py")):
        if path.is_relative_to(ROOT / "index") or path in ZOTERO_STORAGE:
            continue
        offenders += _offenders(path)
    assert offenders == [], "SQL outside curator/index/ (use curator.index.reading):\n" + "\n".join(offenders)


def test_the_check_sees_sql(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text('conn.execute("SELECT path FROM documents")\nq = f"SELECT {a} FROM passages"\n')
    assert len(_offenders(sample)) == 3
