"""Whether the serving epoch may be used: opened with its integrity checked, written by this
Curator's chunker and normalisation, built with the model the config asks for."""

from __future__ import annotations

from typing import Any

import apsw

from curator.index import db
from curator.index import epoch as epochs


def open_checked(ep: epochs.Epoch) -> apsw.Connection:
    """The epoch's database, integrity-checked unless its sidecar vouches for it; CorruptError otherwise."""
    conn = db.connect(ep.path)
    if not epochs.trusted(ep):
        result = conn.execute("PRAGMA quick_check").fetchall()
        if result != [("ok",)]:
            conn.close()
            raise apsw.CorruptError(f"integrity check: {result[0][0] if result else 'no answer'}")
    if db.get_meta(conn, "fingerprint") is None:
        conn.close()
        raise apsw.CorruptError("not a Curator index (no fingerprint)")
    return conn


def outdated(fp: dict[str, object]) -> str | None:
    """What in ``fp`` an older Curator wrote (chunker or normalisation version), or None.

    Passages chunked or tokenised the old way must never sit beside new ones in one
    epoch: such an epoch is rebuilt, not written to."""
    norm = fp.get("normalisation")
    old: list[str] = []
    if fp.get("chunker") != epochs.CHUNKER_VERSION:
        old.append(f"chunker v{fp.get('chunker')}")
    if not isinstance(norm, dict) or norm.get("version") != epochs.NORMALISATION_VERSION:
        old.append(f"normalisation v{norm.get('version') if isinstance(norm, dict) else '?'}")
    return ", ".join(old) or None


def mismatch_message(serving: dict[str, Any], configured: dict[str, Any], conn: apsw.Connection | None = None) -> str:
    """What to do when the config and the serving epoch disagree. With the serving epoch's
    connection, how much a rebuild would embed (its passages, and the time at the rate the
    last embedding run measured); and when the serving epoch is lexical, how to stay so."""
    text = (
        f"the config asks for {epochs.describe(configured)} but the serving epoch is "
        f"{epochs.describe(serving)}; run `curator index rebuild`"
    )
    wanted = configured["embedder"]["provider"]
    # The same embedder (only the normalisation or chunking moved): a rebuild carries every
    # unchanged passage's vector over and embeds nothing of it.
    if wanted != "none" and conn is not None and serving.get("embedder") != configured.get("embedder"):
        from curator.commands.status import duration
        from curator.index import reading

        passages = reading.passage_count(conn)
        rate = reading.embed_rate(conn)
        eta = f", about {duration(round(passages / rate))} at {rate:.0f} passages/s" if rate else ""
        text += f" (it embeds {passages} passage(s){eta})"
    if wanted != "none" and serving["embedder"]["provider"] == "none":
        text += "; or, to stay lexical, set `embedder.provider: none` in .kp/config.yaml"
    return text
