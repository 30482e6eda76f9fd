"""Embedding pending passages: batches of like lengths, each its own transaction."""

from __future__ import annotations

from pathlib import Path

from curator.embedders.base import EmbedderSpec
from curator.embedders.fake import HashEmbedder
from curator.index import db
from curator.index.chunker import Passage
from curator.index.embedding import WINDOW, embed_pending
from curator.index.writer import DocInput, Writer


class Recording(HashEmbedder):
    def __init__(self) -> None:
        super().__init__(EmbedderSpec("fake", "hash-64", 64))
        self.batches: list[list[str]] = []

    def embed(self, texts: list[str]) -> list[bytes]:
        self.batches.append(list(texts))
        return super().embed(texts)


def test_batches_group_passages_of_like_length_and_every_note_completes(tmp_path: Path) -> None:
    conn = db.connect(str(tmp_path / "epoch.sqlite"))
    db.create_schema(conn, tokenizer="unicode61", dims=64)
    writer = Writer(conn, vectors=True)
    lengths = [(n * 37) % 500 + 1 for n in range(60)]  # shuffled lengths, in file order
    with conn:
        for d in range(6):
            passages = [Passage(i, 1 + i, 1 + i, f"Note {d}", "w" * lengths[d * 10 + i]) for i in range(10)]
            writer.upsert(DocInput(source="vault", path=f"n{d}.md", title=f"Note {d}", passages=passages), {}, None)
    embedder = Recording()

    result = embed_pending(conn, embedder, batch_size=4)

    assert result.embedded == 60 and result.error is None
    assert all(len(b) <= 4 for b in embedder.batches)
    sent = [len(t) for b in embedder.batches for t in b]
    assert 4 * WINDOW >= 60 and sent == sorted(sent)  # one window: every batch in length order
    assert conn.execute("SELECT count(*) FROM passages WHERE vec != 1").fetchone()[0] == 0
    assert conn.execute("SELECT count(*) FROM passages_vec").fetchone()[0] == 60
    assert conn.execute("SELECT count(*) FROM documents WHERE complete = 0").fetchone()[0] == 0


def test_a_few_edits_take_the_light_embedder_and_a_large_change_the_bulk_one(example_vault, cli, monkeypatch) -> None:
    from curator.embedders import all_embedders, base

    asked: list[bool] = []
    create = all_embedders.create

    def recording(spec: EmbedderSpec, *, few: bool = False):  # type: ignore[no-untyped-def]
        asked.append(few)
        return create(spec, few=few)

    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")
    monkeypatch.setattr(all_embedders, "create", recording)
    monkeypatch.setattr(base, "FEW_CHARS", 2_000)
    assert cli("--vault", example_vault.root, "index").code == 0  # 46 passages, ~13,000 characters
    note = example_vault.root / "sqlite" / "wal-mode.md"
    note.write_text(note.read_text() + "\nOne more line.\n")
    assert cli("--vault", example_vault.root, "index").code == 0  # one section re-embedded
    assert asked == [False, True]


def _run(cli, root: Path, *args: str) -> dict:  # type: ignore[no-untyped-def]
    import json

    r = cli("--vault", root, "--json", "index", *args)
    assert r.code == 0, r
    out: dict = json.loads(r.out)
    return out


def _epoch_conn(root: Path):  # type: ignore[no-untyped-def]
    import os

    (current,) = list((Path(os.environ["XDG_CACHE_HOME"]) / "curator").rglob("CURRENT"))
    return db.connect(str(current.parent / "epochs" / current.read_text().strip()))


def _set_fingerprint(root: Path, change) -> None:  # type: ignore[no-untyped-def]
    conn = _epoch_conn(root)
    fp = db.get_json(conn, "fingerprint")
    change(fp)
    with conn:
        db.set_json(conn, "fingerprint", fp)
    conn.close()


def test_a_new_epoch_carries_the_vectors_of_unchanged_text_and_embeds_only_what_changed(
    example_vault, cli, monkeypatch
) -> None:
    sent: list[str] = []
    embed = HashEmbedder.embed

    def counting(self: HashEmbedder, texts: list[str]) -> list[bytes]:
        sent.extend(texts)
        return embed(self, texts)

    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")
    monkeypatch.setattr(HashEmbedder, "embed", counting)
    root = example_vault.root
    first = _run(cli, root)
    total = first["passages"]
    assert first["embedded"] == len(sent) == total > 40

    # Another normalisation is another epoch, with the same passages: nothing is embedded again.
    sent.clear()
    (root / ".kp").mkdir(exist_ok=True)
    (root / ".kp" / "config.yaml").write_text("index:\n  normalisation: plain\n")
    rebuilt = _run(cli, root, "rebuild")
    assert sent == [] and rebuilt["embedded"] == 0 and rebuilt["vectors_reused"] == rebuilt["passages"] == total
    conn = _epoch_conn(root)
    assert db.get_json(conn, "fingerprint")["normalisation"]["mode"] == "plain"
    assert conn.execute("SELECT count(*) FROM passages_vec").fetchone()[0] == total
    assert conn.execute("SELECT count(*) FROM documents WHERE complete = 0").fetchone()[0] == 0
    conn.close()

    # One section edited, then a new epoch: only the edited section's passage is embedded.
    note = root / "sqlite" / "wal-mode.md"
    note.write_text(note.read_text() + "\n## Lighthouses\n\nA keeper trims the lamp wick every evening.\n")
    (root / ".kp" / "config.yaml").write_text("index:\n  normalisation: fold\n")
    rebuilt = _run(cli, root, "rebuild")
    assert sent and all("lamp wick" in t for t in sent), sent
    assert rebuilt["embedded"] == len(sent) and rebuilt["vectors_reused"] == rebuilt["passages"] - len(sent)

    # An epoch an older Curator built is replaced by `curator index`, carrying its vectors too...
    sent.clear()
    _set_fingerprint(root, lambda fp: fp["normalisation"].update(version=1))
    upgraded = _run(cli, root)
    assert sent == [] and upgraded["vectors_reused"] == upgraded["passages"] > total

    # ...but never from another embedder's epoch: those vectors are of another model.
    _set_fingerprint(root, lambda fp: (fp["normalisation"].update(version=1), fp["embedder"].update(model="hash-65")))
    upgraded = _run(cli, root)
    assert len(sent) == upgraded["embedded"] == upgraded["passages"] and upgraded["vectors_reused"] == 0


def test_a_previous_epoch_that_cannot_be_read_carries_nothing_and_breaks_nothing(tmp_path: Path) -> None:
    from curator.index.embedding import carry_over

    conn = db.connect(str(tmp_path / "epoch.sqlite"))
    db.create_schema(conn, tokenizer="unicode61", dims=64)
    with conn:
        Writer(conn, vectors=True).upsert(
            DocInput(source="vault", path="a.md", title="A", passages=[Passage(0, 1, 1, "A", "words")]), {}, None
        )
    spec = EmbedderSpec("fake", "hash-64", 64).fingerprint()
    garbage = tmp_path / "old.sqlite"
    garbage.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    for previous in (garbage, tmp_path / "missing.sqlite", tmp_path):
        assert carry_over(conn, str(previous), spec) == 0
    assert not (tmp_path / "missing.sqlite").exists()  # read, never created
    assert conn.execute("SELECT count(*) FROM passages WHERE vec = 0").fetchone()[0] == 1
