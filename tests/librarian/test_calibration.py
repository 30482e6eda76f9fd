"""The digest follows now.md whatever the model's cosine range: a cosine is placed on the vault's
own scale (its notes' closest cosine and their standard deviation) before it meets the decay.

The embedder here is a real OpenAI-compatible server on loopback whose vectors name each
note's topic, plus a shared direction of a chosen weight: weight 0 spreads cosines from 0 to
1 (as MiniLM spreads them), a heavy one squeezes every note into a tenth of that (as
multilingual-e5-small does). The digest must rank the same way under both."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from curator.librarian import scoring
from tests.conftest import GitVault, make_git_vault
from tests.embedders import fakeserver
from tests.embedders.fakeserver import EmbeddingServer, use_openai
from tests.librarian.conftest import config, dated

TOPICS = ("marathon", "wal", "ranking", "garden", "recipe", "ferry", "invoice")
NOW = "# Now\n\nMarathon training, WAL mode readers, ranking of search results.\n"
CLOCK = "2026-06-30T12:00:00Z"
# Three notes now.md names, written three weeks ago; four it does not, written this week.
NOTES = {
    "Running/long run.md": ("marathon", "2026-06-08"),
    "Curator/wal.md": ("wal", "2026-06-09"),
    "Curator/ranking.md": ("ranking", "2026-06-10"),
    "Garden/tomatoes.md": ("garden", "2026-06-27"),
    "Recipes/ragu.md": ("recipe", "2026-06-28"),
    "Travel/ferry.md": ("ferry", "2026-06-29"),
    "Work/invoices.md": ("invoice", "2026-06-29"),
}


def topic_vector(shared: float):  # type: ignore[no-untyped-def]
    def vector(text: str, dims: int) -> list[float]:
        words = text.casefold()
        return [shared] + [1.0 if t in words else 0.0 for t in TOPICS]

    return vector


def _vault(tmp_path: Path) -> GitVault:
    v = make_git_vault(tmp_path / "v")
    v.write(".kp/config.yaml", config())
    v.write("now.md", NOW)
    for path, (topic, created) in NOTES.items():
        v.write(path, dated(None, path.rsplit("/", 1)[1][:-3], created, [], f"A note about the {topic}."))
    v.commit()
    return v


def _ranked(tmp_path: Path, cli, monkeypatch: pytest.MonkeyPatch, shared: float) -> tuple[list[str], list[float]]:
    monkeypatch.setattr(fakeserver, "vector", topic_vector(shared))
    with EmbeddingServer(dims=8) as server:
        use_openai(monkeypatch, server.port, model="topics")
        v = _vault(tmp_path / f"shared-{shared}")
        r = cli("--vault", v.root, "digest", "--now", CLOCK, "--json", "--k", "7")
    assert r.code == 0, r
    out = json.loads(r.out)
    assert out["method"]["similarity"] == "cosine"
    return [e["path"] for e in out["entries"]], [e.get("cosine", e["similarity"]) for e in out["entries"]]


def test_now_md_decides_over_age_whatever_the_cosine_range(tmp_path: Path, cli, monkeypatch) -> None:
    wide, wide_cosines = _ranked(tmp_path, cli, monkeypatch, 0.0)
    narrow, narrow_cosines = _ranked(tmp_path, cli, monkeypatch, 3.0)
    assert max(wide_cosines) - min(wide_cosines) > 0.5
    assert max(narrow_cosines) - min(narrow_cosines) < 0.1  # the squeezed model: every note looks close
    named = {"Running/long run.md", "Curator/wal.md", "Curator/ranking.md"}
    assert set(wide[:3]) == named, wide
    assert narrow == wide  # the same digest from either model


def test_the_scale_is_the_vaults_whatever_the_range() -> None:
    cosines = [0.1, 0.2, 0.25, 0.3, 0.6]
    squeezed = [0.85 + c / 10 for c in cosines]  # shifted and stretched alike
    a, b = scoring.calibration(cosines), scoring.calibration(squeezed)
    assert a is not None and b is not None and a.notes == b.notes == 5
    for x, y in zip(cosines, squeezed, strict=True):
        assert a.relevance(x) == pytest.approx(b.relevance(y), abs=1e-9)
    assert a.relevance(0.6) == 1.0 and a.relevance(0.6 - a.spread) == pytest.approx(math.exp(-1))
    assert scoring.calibration([0.4, 0.4]) == scoring.Calibration(2, 0.4, 0.0)
    assert scoring.Calibration(2, 0.4, 0.0).relevance(0.4) == 1.0  # nothing to tell apart: age decides
    assert scoring.calibration([]) is None
