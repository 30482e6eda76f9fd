"""``curator proposals``: the queue, with each proposal's verdict, drift, revision chain and any
request for changes.

Verdicts come from ``validator.verdicts``: judged once, then read back while the proposal, HEAD,
the config and the work tree stay as they were (a 6,500-note proposal takes seconds to judge).
A decided proposal (``--all``) shows its decision where a pending one shows its verdict: the
validator's "valid" of a rejected proposal speaks of its record, not of the change.
"""

from __future__ import annotations

from typing import Any

from curator import clock, output
from curator.commands.app import App
from curator.proposals import revision, store
from curator.proposals.events import PENDING
from curator.validator.state import RepoState
from curator.validator.verdicts import Verdict, verdict


def _row(v: Verdict, links: dict[str, revision.Link], newer: dict[str, str]) -> dict[str, Any]:
    link = links.get(v.id)
    chain = revision.chain_of(v.id, links, newer)
    asked = v.requested if v.status == PENDING else None
    return {
        "id": v.id,
        "title": v.title,
        "author": v.author,
        "created": v.created,
        "status": v.status,
        "verdict": v.verdict,
        "auto_applicable": v.auto_applicable,
        "drift": v.drift,
        "changes": [{"op": op, "path": path} for op, path in v.changes],
        "findings": [f.to_json() for f in v.findings],
        "changes_requested": None if asked is None else {"at": asked.at, "by": asked.by, "reason": asked.reason},
        "supersedes": v.supersedes,
        "version": link.version if link is not None and len(chain) > 1 else 1,
        "chain": chain if len(chain) > 1 else [],
    }


def _shown(r: dict[str, Any]) -> str:
    """The verdict column: the validator's word on a pending proposal, the decision on a decided one."""
    status, verdict = str(r["status"]), str(r["verdict"])
    if status != PENDING:
        return status if verdict == "valid" else f"{status}, record rejected"
    return verdict + (", auto" if r["auto_applicable"] else "")


def run(app: App, all_: bool) -> int:
    vault = app.vault()
    state = RepoState(vault, app.settings())
    kept = app.verdicts()
    now = clock.now()
    limits = state.settings.limits
    found = [verdict(state, store.load_within(vault.root, pid, limits), kept) for pid in store.list_ids(vault.root)]
    # Chains are drawn from every proposal, decided ones too: a pending v2 names the v1 it revises.
    links = revision.chains({v.id: v.supersedes for v in found})
    newer = {link.supersedes: link.id for link in links.values() if link.supersedes}
    rows = [_row(v, links, newer) for v in found if all_ or v.status == PENDING]
    if app.json:
        output.emit_json({"schema": "queue/v1", "proposals": rows})
        return 0
    if not rows:
        output.line("no pending proposals" if not all_ else "no proposals")
        return 0
    # Fixed-width columns, each as wide as its longest cell, so an empty drift cell keeps the
    # author and title columns in line.
    cells = []
    for r in rows:
        drift = f"drift:{r['drift']}" if r["drift"] and r["drift"] != "clean" else ""
        cells.append((r, clock.age(r["created"], now), _shown(r), drift))
    width = [max(len(c[i]) for c in cells) for i in range(1, 4)]
    for r, age, shown, drift in cells:
        columns = [f"{age:>{width[0]}}", f"{shown:<{width[1]}}"]
        columns += [f"{drift:<{width[2]}}"] if width[2] else []
        version = f"v{r['version']} " if r["chain"] else ""
        title = r["title"] or "(unreadable manifest)"
        output.line(f"{r['id']}  {'  '.join(columns)}  {r['author'] or '?'}  {version}{title}")
        if r["chain"]:
            output.line(f"    revisions: {' → '.join(r['chain'])}")
        asked = r["changes_requested"]
        if asked is not None:
            output.line(f"    changes requested by {asked['by']} {clock.age(asked['at'], now)} ago: {asked['reason']}")
        for f in r["findings"][:3]:
            output.line(f"    {f['code']} {f['path']}: {f['message']}")
    return 0
