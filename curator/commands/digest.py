"""``curator digest``: the librarian's digest of what is new, delivered as a proposal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from curator import clock, faults, output
from curator.commands.app import App
from curator.errors import EXIT_FAILED, UsageError
from curator.librarian import dates
from curator.operations import recovery
from curator.proposals.events import PENDING
from curator.vault.identity import new_ulid

if TYPE_CHECKING:
    from curator.librarian.compose import Composed


def run(
    app: App,
    now_text: str | None,
    k: int | None,
    half_life_days: float | None,
    auto_apply: bool,
    force: bool,
) -> int:
    from curator.librarian import deliver
    from curator.librarian.compose import Options, compose
    from curator.operations import apply as applier  # heavy: pygit2, as deliver
    from curator.operations import then_apply_journal

    vault, settings = app.vault(), app.settings()
    k = settings.digest.k if k is None else k
    half_life = settings.digest.half_life_days if half_life_days is None else half_life_days
    if k < 1:
        raise UsageError("--k must be at least 1")
    if not half_life > 0:
        raise UsageError("--half-life-days must be more than 0")
    now = dates.parse_clock(now_text) if now_text else None

    pending = deliver.pending_digests(vault, settings)
    if pending and not force:
        ids = ", ".join(p.id for p in pending)
        return _report(
            app,
            {"status": PENDING, PENDING: [p.id for p in pending]},
            [
                f"a digest proposal is still pending ({ids}): nothing staged",
                "apply or reject it first (curator apply ID / curator reject ID), or pass --force to stage one that supersedes it",
            ],
        )

    composed = compose(*app.place(), Options(now, k, half_life))
    if not app.json:
        output.tell(composed.warnings)
    data: dict[str, Any] = {
        "window": {
            "since": clock.iso(composed.window.since) if composed.window.since else None,
            "until": clock.iso(composed.window.until),
            "after": composed.window.last,
        },
        "candidates": composed.candidates,
        "warnings": output.texts(composed.warnings),
    }
    if not composed.entries:
        data["status"] = "nothing-new"
        return _report(app, data, [f"{_nothing_new(composed)}; nothing staged"])

    assert composed.method is not None
    m = composed.method
    data["method"] = {
        "similarity": m.kind,
        "embedder": m.embedder,
        "half_life_days": m.half_life_days,
        "k": m.k,
        "anchor": composed.anchor,
        "why": m.why,
        "calibration": None
        if m.calibration is None
        else {
            "notes": m.calibration.notes,
            "top": round(m.calibration.top, 6),
            "spread": round(m.calibration.spread, 6),
        },
    }
    data["entries"] = _entries(composed)
    lines = [_headline(composed)]
    for n, e in enumerate(composed.entries, start=1):
        c = e.scored.candidate
        alike = f"  (+{len(e.alike)} alike)" if e.alike else ""
        lines.append(f"{n:>3}. {e.scored.score:.4f}  {c.day}  {output.safe_path(c.doc.path)}  {c.doc.title}{alike}")

    rationale = (
        f"The librarian's digest of {composed.candidates} note(s) new in its window; "
        f"ranked by {m.kind}" + (f" ({m.why})" if m.why else "") + "."
    )
    done = None
    with recovery.locked(vault, "digest"):
        taken = {p for pending_one in pending for p in pending_one.paths}
        path = deliver.free_path(vault, settings, composed.window.until.date().isoformat(), taken)
        ulid = new_ulid()
        if auto_apply:
            # Journaled first: killed once the digest is staged, the next command applies it (while
            # the validator still finds it auto-applicable), as this one would have.
            then_apply_journal.save(vault, ulid, deliver.BY, auto_only=True)
        try:
            ulid, report = deliver.stage_digest(
                vault,
                settings,
                path,
                composed.text.encode("utf-8"),
                composed.kp_id,
                composed.title,
                rationale,
                replaces=pending,
                ulid=ulid,
            )
            faults.point("digest:after-staging")
            if auto_apply and report.auto_applicable:
                # The same decision as `curator apply`, under the same lock: re-validated, one commit.
                done = applier.apply(vault, settings, ulid, by=deliver.BY)
        finally:
            then_apply_journal.clear(vault)
    data.update(
        {
            "status": "staged",
            "id": ulid,
            "path": path,
            "kp_id": composed.kp_id,
            "auto_applicable": report.auto_applicable,
        }
    )
    verdict = "valid, auto-applicable" if report.auto_applicable else "valid"
    lines.append(f"{ulid}: {verdict} — staged in .kp/proposals/{ulid}/ (creates {path})")
    if pending:
        data["superseded"] = [p.id for p in pending]
        lines += [f"{p.id}: superseded by {ulid}" for p in pending]
    code = 0
    if done is not None:
        data.update({"applied": True, "commit": done.commit})
        lines.append(f"{ulid}: applied and committed {str(done.commit)[:12]}: {path}")
    elif auto_apply:
        data["applied"] = False
        lines.append(f"{ulid}: not auto-applicable, so not applied: it waits for review")
        code = EXIT_FAILED
    else:
        lines.append(f"next: curator apply {ulid} (or curator review)")
    _report(app, data, lines)
    return code


def _nothing_new(composed: Composed) -> str:
    since, until, last = composed.window.since, composed.window.until, composed.window.last
    if since is None:
        return f"nothing to digest: no note was created up to {clock.iso(until)}"
    if since >= until:
        return f"nothing new: the last digest ({last}) already covers up to {clock.iso(since)}"
    return f"nothing new since the last digest ({last}, up to {clock.iso(since)})"


def _entries(composed: Composed) -> list[dict[str, Any]]:
    out = []
    for n, e in enumerate(composed.entries, start=1):
        c, s = e.scored.candidate, e.scored
        out.append(
            {
                "rank": n,
                "path": c.doc.path,
                "source": c.doc.source,
                "kp_id": c.doc.kp_id,
                "title": c.doc.title,
                "created": clock.iso(c.created),
                "created_from": c.origin,
                "similarity": None if s.similarity is None else round(s.similarity, 6),
                "cosine": None if s.cosine is None else round(s.cosine, 6),
                "decay": round(s.decay, 6),
                "score": round(s.score, 6),
                "summary": e.summary,
                "alike": [
                    {"path": a.candidate.doc.path, "kp_id": a.candidate.doc.kp_id, "score": round(a.score, 6)}
                    for a in e.alike
                ],
            }
        )
    return out


def _headline(composed: Composed) -> str:
    m = composed.method
    assert m is not None
    since = f"since {clock.iso(composed.window.since)}" if composed.window.since else "(first digest)"
    how = {
        "cosine": f"cosine to {composed.anchor}",
        "bm25": f"BM25 to {composed.anchor}'s terms",
        "recency": "recency alone",
    }[m.kind]
    why = f" — {m.why}" if m.why else ""
    return (
        f"{composed.candidates} new note(s) {since}; top {len(composed.entries)} by {how} "
        f"× exp(−age / {m.half_life_days:g} d){why}"
    )


def _report(app: App, data: dict[str, Any], lines: list[str]) -> int:
    if app.json:
        output.emit_json(data)
    else:
        for line in lines:
            output.line(line)
    return 0
