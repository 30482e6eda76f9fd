"""``curator proposals``: the queue, with each proposal's verdict and drift."""

from __future__ import annotations

from typing import Any

from curator import clock, output
from curator.commands.app import App
from curator.proposals import store
from curator.validator.state import RepoState


def run(app: App, all_: bool) -> int:
    from curator.validator.verdict import validate_proposal

    vault = app.vault()
    state = RepoState(vault, app.settings())
    now = clock.now()
    rows: list[dict[str, Any]] = []
    for pid in store.list_ids(vault.root):
        report = validate_proposal(state, store.load_within(vault.root, pid, state.settings.limits))
        if report.status != "pending" and not all_:
            continue
        m = report.subject.manifest if report.subject else None
        rows.append(
            {
                "id": pid,
                "title": m.title if m else None,
                "author": str(m.author) if m else None,
                "created": m.created if m else None,
                "status": report.status,
                "verdict": "valid" if report.ok else "rejected",
                "auto_applicable": report.auto_applicable,
                "drift": report.drift,
                "changes": [
                    {"op": v.change.op, "path": v.change.path}
                    for v in (report.subject.changes if report.subject else [])
                ],
                "findings": [f.to_json() for f in report.findings],
            }
        )
    if app.json:
        output.emit_json({"schema": "queue/v1", "proposals": rows})
        return 0
    if not rows:
        output.line("no pending proposals" if not all_ else "no proposals")
        return 0
    # Fixed-width columns, each as wide as its longest cell, so an empty drift or status
    # cell keeps the author and title columns in line.
    cells = []
    for r in rows:
        verdict = r["verdict"] + (", auto" if r["auto_applicable"] else "")
        drift = f"drift:{r['drift']}" if r["drift"] and r["drift"] != "clean" else ""
        status = "" if r["status"] == "pending" else f"[{r['status']}]"
        cells.append((r, clock.age(r["created"], now), verdict, drift, status))
    width = [max(len(c[i]) for c in cells) for i in range(1, 5)]
    for r, age, verdict, drift, status in cells:
        columns = [f"{age:>{width[0]}}", f"{verdict:<{width[1]}}"]
        columns += [f"{text:<{w}}" for text, w in ((drift, width[2]), (status, width[3])) if w]
        output.line(f"{r['id']}  {'  '.join(columns)}  {r['author'] or '?'}  {r['title'] or '(unreadable manifest)'}")
        for f in r["findings"][:3]:
            output.line(f"    {f['code']} {f['path']}: {f['message']}")
    return 0
