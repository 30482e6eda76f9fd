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
    from curator.embedders import base

    asked: list[bool] = []
    create = base.create

    def recording(spec: EmbedderSpec, *, few: bool = False):  # type: ignore[no-untyped-def]
        asked.append(few)
        return create(spec, few=few)

    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")
    monkeypatch.setattr(base, "create", recording)
    monkeypatch.setattr(base, "FEW_CHARS", 2_000)
    assert cli("--vault", example_vault.root, "index").code == 0  # 46 passages, ~13,000 characters
    note = example_vault.root / "sqlite" / "wal-mode.md"
    note.write_text(note.read_text() + "\nOne more line.\n")
    assert cli("--vault", example_vault.root, "index").code == 0  # one section re-embedded
    assert asked == [False, True]
