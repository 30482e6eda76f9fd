"""``curator bench DATASET_DIR``: retrieval quality and speed on a BEIR-format dataset."""

from __future__ import annotations

from curator import output
from curator.commands.app import App
from curator.errors import CuratorError
from curator.settings import Settings


def run(app: App, dataset: str, mode: str, baseline: bool, limit: int | None, fresh: bool) -> int:
    from curator.bench.runner import format_table, run_bench

    settings: Settings | None
    try:
        settings = app.settings()
    except CuratorError:  # a benchmark needs no vault: outside one, the defaults
        settings = None
    result = run_bench(
        dataset,
        modes=("lexical", "vector", "hybrid") if mode == "all" else (mode,),
        settings=settings,
        baseline=baseline,
        limit=limit,
        fresh=fresh,
        index_dir=app.index_dir_arg,
        say=output.note,
    )
    if app.json:
        output.emit_json(result)
    else:
        for row in format_table(result).splitlines():  # line() escapes a newline inside a line
            output.line(row)
    return 0
