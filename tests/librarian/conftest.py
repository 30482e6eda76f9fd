"""A vault for digests: dated, tagged notes, a now.md, the hashing embedder, a fixed clock."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import ROOT, GitVault, make_git_vault

CLOCK = "2026-06-15T12:00:00Z"

NOW_MD = """---
kp_id: kp:01J0000000000000000000N0W0
title: Now
---
# Now

Search quality: hybrid ranking with BM25 and vectors, passage chunking, citations.
SQLite in WAL mode with many readers.
"""


def dated(kp_id: str | None, title: str, created: str | None, tags: list[str], body: str) -> str:
    lines = ["---"]
    if kp_id:
        lines.append(f"kp_id: {kp_id}")
    lines.append(f"title: {json.dumps(title)}")
    if created:
        lines.append(f"created: {created}")
    if tags:
        lines.append(f"tags: [{', '.join(tags)}]")
    lines += ["---", f"# {title}", "", body, ""]
    return "\n".join(lines)


NOTES = {
    "search/hybrid.md": dated(
        "kp:01J00000000000000000000HYB",
        "Hybrid ranking",
        "2026-06-14",
        ["search", "ranking"],
        "Hybrid ranking fuses BM25 and vectors by rank. It keeps citations to passages.\n\nMore words here.",
    ),
    "search/chunking.md": dated(
        "kp:01J00000000000000000000CHK",
        "Chunking passages",
        "2026-06-10",
        ["search"],
        "Passage chunking splits notes at headings. Each passage keeps its breadcrumb for citations.",
    ),
    "sqlite/wal.md": dated(
        "kp:01J00000000000000000000WAL",
        "WAL mode",
        "2026-06-12T08:30:00Z",
        ["sqlite", "search"],
        "In WAL mode many readers proceed while one writer appends. Checkpoints move pages back.",
    ),
    "garden/tomatoes.md": dated(
        "kp:01J00000000000000000000TOM",
        "Tomatoes",
        "2026-06-13",
        ["garden"],
        "Tomatoes want sun and steady water. Pinch the side shoots every week.",
    ),
    "inbox/untagged.md": dated(
        "kp:01J00000000000000000000UNT",
        "Loose thought",
        "2026-06-01",
        [],
        "A loose thought about readers and writers in a database.",
    ),
    "old/ancient.md": dated(
        "kp:01J00000000000000000000OLD",
        "Ancient",
        "2026-01-01",
        ["search"],
        "An old note about ranking that the last digest already covered.",
    ),
}


def config(extra: str = "") -> str:
    return (ROOT / "curator" / "default_config.yaml").read_text() + extra


@pytest.fixture
def fake_embedder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")


@pytest.fixture
def dvault(tmp_path: Path, fake_embedder: None) -> GitVault:
    v = make_git_vault(tmp_path / "vault")
    v.write(".kp/config.yaml", config())
    v.write("now.md", NOW_MD)
    for path, text in NOTES.items():
        v.write(path, text)
    v.commit("notes")
    return v


def staged_digest(v: GitVault, ulid: str) -> tuple[str, str]:
    """(path, text) of the digest note a proposal creates."""
    files = v.root / ".kp" / "proposals" / ulid / "files"
    found = [p for p in files.rglob("*.md")]
    assert len(found) == 1, found
    return found[0].relative_to(files).as_posix(), found[0].read_text(encoding="utf-8")


def without_identity(text: str) -> str:
    return "\n".join(line for line in text.split("\n") if not line.startswith("kp_id: "))
