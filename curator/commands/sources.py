"""``curator sources ls`` and ``curator sources sync [NAME ...]``: the read-only sources."""

from __future__ import annotations

from typing import Any

from curator import output
from curator.commands.app import App
from curator.commands.index import print_report, progress_bar
from curator.errors import CuratorError, UsageError
from curator.index.derived import counts as derived_counts
from curator.index.sources import state_of
from curator.sources.all_sources import open_source


def _check_names(app: App, names: tuple[str, ...]) -> None:
    configured = [s.name for s in app.settings().sources]
    for name in names:
        if name not in configured:
            known = ", ".join(configured) or "none"
            raise UsageError(f"no source named {name!r} in .kp/config.yaml (configured: {known})")


def run_sync(app: App, names: tuple[str, ...]) -> int:
    from curator.index.reconcile import reconcile

    _check_names(app, names)
    if not app.settings().sources and not names:
        output.note("no sources in .kp/config.yaml (see `sources:` there); reconciling the notes only")
    with progress_bar(not app.json) as progress:
        report = reconcile(app.vault(), app.settings(), app.index_dir(), progress, sync=names or True)
    print_report(report, False, app.json)
    failed = report.sources is not None and any(r.error for r in report.sources.sources)
    return 1 if failed else 0


def collect(app: App) -> dict[str, Any]:
    from curator.index.serving import open_serving

    settings = app.settings()
    state: dict[str, Any] = {}
    counts: dict[str, int] = {}
    warnings: list[str] = []
    try:
        opened = open_serving(*app.place(), refresh=False)
    except CuratorError as e:
        warnings.append(f"{e}: nothing is indexed yet")
    else:
        state = state_of(opened.conn)
        counts = derived_counts(opened.conn)
        warnings += output.texts(opened.warnings)
        opened.conn.close()
    rows = []
    for src in settings.sources:
        saved = state.get(src.name) or {}
        rows.append(
            {
                "name": src.name,
                "type": src.type,
                "path": open_source(src, app.vault().root).path,
                "items": counts.get(src.name, 0),
                "last_sync": saved.get("synced"),
                "last_try": saved.get("tried"),
                "error": saved.get("error"),
                "problems": saved.get("problems") or {"count": 0, "named": [], "warnings": [], "warning_count": 0},
                "configured": True,
            }
        )
    for name in sorted(set(state) | set(counts)):
        if name not in {s.name for s in settings.sources}:
            saved = state.get(name) or {}
            rows.append(
                {
                    "name": name,
                    "type": saved.get("type"),
                    "path": saved.get("path"),
                    "items": counts.get(name, 0),
                    "last_sync": saved.get("synced"),
                    "error": "no longer in the config: its items leave the index on the next sync",
                    "configured": False,
                }
            )
    return {"sources": rows, "warnings": warnings}


def run_ls(app: App) -> int:
    data = collect(app)
    if app.json:
        output.emit_json(data)
        return 0
    for w in data["warnings"]:
        output.warn(w)
    if not data["sources"]:
        output.line("no sources (add them under `sources:` in .kp/config.yaml)")
        return 0
    for s in data["sources"]:
        synced = f"synced {s['last_sync']}" if s.get("last_sync") else "never synced"
        output.line(f"{s['name']}  {s['type']}  {s['items']} item(s)  {synced}  {output.safe_path(str(s['path']))}")
        if s.get("error"):
            output.line(f"  problem: {s['error']}")
        problems = s.get("problems") or {}
        if problems.get("count"):
            output.line(f"  {problems['count']} skipped on the last read, first: {problems['named'][0]}")
        if problems.get("warning_count"):
            output.line(f"  {problems['warning_count']} warning(s), first: {problems['warnings'][0]}")
    return 0
