"""What ``curator doctor`` says about the index: epoch versus config, corruption, lag."""

from __future__ import annotations

from typing import TYPE_CHECKING

import apsw

from curator.embedders import base as embedders
from curator.errors import EmbedderError
from curator.index import db, derived

if TYPE_CHECKING:
    from curator.settings import Settings

Row = tuple[str, int, str, str, str]


def doctor_findings(settings: Settings, index_dir: str) -> list[Row]:
    from curator.index import epoch as epochs
    from curator.index.epoch import mismatch_message, open_checked

    ep = epochs.serving(index_dir)
    if ep is None:
        return []
    where = "(index)"
    try:
        conn = open_checked(ep)
        try:
            fp = db.get_json(conn, "fingerprint")
            pending = db.count(conn, "SELECT count(*) FROM passages WHERE vec = 0")
        finally:
            conn.close()
    except (apsw.Error, TypeError, ValueError) as e:
        return [
            (
                where,
                0,
                "index-corrupt",
                f"the index at {ep.path} cannot be trusted ({e})",
                "run `curator index`: it moves the file aside and rebuilds",
            )
        ]
    rows: list[Row] = []
    try:
        wanted = epochs.fingerprint(embedders.resolve(settings), settings.index.normalisation)
    except EmbedderError as e:
        rows.append((where, 0, "embedder", str(e), "fix embedder.* in .kp/config.yaml or the environment"))
    else:
        if wanted != fp:
            fix = "run `curator index rebuild`"
            said = mismatch_message(fp, wanted).removesuffix(f"; {fix}")  # the fix is its own column
            rows.append((where, 0, "epoch-mismatch", said, fix))
    if pending:
        rows.append(
            (
                where,
                0,
                "pending-embeddings",
                f"{pending} passage(s) have no vectors yet",
                "let a `curator index` that is embedding finish, else run one (once the embedder is available)",
            )
        )
    return rows


def missing_items(settings: Settings, index_dir: str, refs: set[str]) -> set[str] | None:
    """Which of ``refs`` (``zotero:KEY`` ...) no source item in the index answers; None when
    there is no index to ask and sources are configured (a sync will tell)."""

    from curator.index import epoch as epochs

    ep = epochs.serving(index_dir)
    if ep is None:
        return None if settings.sources else set(refs)
    try:
        conn = db.connect(ep.path, vectors=False)
        try:
            return refs - derived.existing(conn, refs)
        finally:
            conn.close()
    except apsw.Error:
        return None  # doctor_findings reports a broken index
