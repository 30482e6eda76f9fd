"""``curator digest`` on a temporary vault with a fixed clock: ranking, grouping, summaries,
determinism, delivery and auto-apply, and the recency-only and lexical paths."""

from __future__ import annotations

import datetime as dt
import json
import math
import re
import statistics
import struct
from pathlib import Path

import pytest

from curator.index import db
from curator.index import epoch as epochs
from curator.locations import default_index_dir
from tests.conftest import GitVault
from tests.embedders.fakeserver import use_openai
from tests.librarian.conftest import CLOCK, NOTES, staged_digest, without_identity

NOW = dt.datetime(2026, 6, 15, 12, tzinfo=dt.UTC)


def _digest(cli, v: GitVault, *args: str):  # type: ignore[no-untyped-def]
    r = cli("--vault", v.root, "digest", "--now", CLOCK, "--json", *args)
    assert r.code == 0, r
    return json.loads(r.out)


def _created(text: str) -> dt.datetime:
    value = re.search(r"^created: (.+)$", text, re.M).group(1)  # type: ignore[union-attr]
    if len(value) == 10:  # a date counts from the end of its day
        return dt.datetime.fromisoformat(value).replace(tzinfo=dt.UTC) + dt.timedelta(days=1)
    return dt.datetime.fromisoformat(value)


def _stored_vectors(v: GitVault) -> dict[str, list[tuple[float, ...]]]:
    """Each note's passage vectors, read straight from the serving epoch."""
    ep = epochs.serving(default_index_dir(str(v.root)))
    assert ep is not None
    conn = db.connect(ep.path)
    out: dict[str, list[tuple[float, ...]]] = {}
    for path, emb in conn.execute(
        "SELECT d.path, v.embedding FROM documents d JOIN passages p ON p.doc_id = d.id "
        "JOIN passages_vec v ON v.rowid = p.id ORDER BY d.path, p.seq"
    ):
        out.setdefault(path, []).append(struct.unpack(f"{len(emb) // 4}f", emb))
    conn.close()
    return out


def _unit_mean(vectors: list[tuple[float, ...]]) -> list[float]:
    mean = [sum(col) / len(vectors) for col in zip(*vectors, strict=True)]
    norm = math.sqrt(sum(x * x for x in mean))
    return [x / norm for x in mean]


def test_ranking_is_calibrated_cosine_to_now_times_decay_from_the_stored_vectors(dvault: GitVault, cli) -> None:
    out = _digest(cli, dvault, "--k", "4", "--half-life-days", "7")
    vectors = _stored_vectors(dvault)
    anchor = _unit_mean(vectors["now.md"])
    cosines = {p: sum(a * b for a, b in zip(_unit_mean(vectors[p]), anchor, strict=True)) for p in NOTES}
    # The vault's own scale: its notes' closest cosine and their standard deviation.
    top, spread = max(cosines.values()), statistics.pstdev(cosines.values())
    assert out["method"]["calibration"] == {
        "notes": len(NOTES),
        "top": pytest.approx(top, abs=1e-6),
        "spread": pytest.approx(spread, abs=1e-6),
    }
    expected = []
    for path, text in NOTES.items():
        age = (NOW - _created(text)).total_seconds() / 86400
        score = math.exp((cosines[path] - top) / spread) * math.exp(-age / 7)
        expected.append((score, path))
    expected.sort(key=lambda sp: -sp[0])
    assert out["method"]["similarity"] == "cosine"
    assert out["candidates"] == len(NOTES)  # the first digest: every note but now.md
    assert [e["path"] for e in out["entries"]] == [p for _, p in expected[:4]]
    for e, (score, _) in zip(out["entries"], expected, strict=False):
        assert e["score"] == pytest.approx(score, abs=1e-6)


def test_the_digest_note_groups_links_and_quotes_the_notes(dvault: GitVault, cli) -> None:
    out = _digest(cli, dvault, "--k", "10")
    path, text = staged_digest(dvault, out["id"])
    assert path == "digests/2026-06-15.md" == out["path"]
    by_path = {e["path"]: e for e in out["entries"]}
    # Each summary is one sentence of its note, verbatim.
    for note_path, e in by_path.items():
        assert e["summary"] and e["summary"] in " ".join(NOTES[note_path].split())
    assert by_path["search/hybrid.md"]["summary"] == (
        "Hybrid ranking fuses BM25 and vectors by rank."
    )  # shares more of now.md's terms than the sentence after it
    # Grouped by the tag most entries share: WAL mode (sqlite, search) goes under search.
    sections = re.findall(r"^## (.+)$", text, re.M)
    assert set(sections) == {"search", "garden", "Untagged"}
    search = text.split("## search\n", 1)[1].split("\n## ", 1)[0]
    for path, title in [
        ("search/hybrid", "Hybrid ranking"),
        ("search/chunking", "Chunking passages"),
        ("sqlite/wal", "WAL mode"),
    ]:
        assert f"[[{path}|{title}]]" in search  # by path, as Obsidian opens it
    # Groups follow their best entry; entries keep their rank inside a group.
    rank = {e["path"].removesuffix(".md"): e["rank"] for e in out["entries"]}
    layout = [
        (name, [rank[k] for k in re.findall(r"\[\[([^|\]]+)\|", body)])
        for name, body in re.findall(r"^## (.+)\n\n((?:- .*\n)+)", text, re.M)
    ]
    assert [name for name, _ in layout] == sections
    assert sorted(r for _, ranks in layout for r in ranks) == list(range(1, len(NOTES) + 1))
    assert all(ranks == sorted(ranks) for _, ranks in layout)
    assert [ranks[0] for _, ranks in layout] == sorted(ranks[0] for _, ranks in layout)
    assert "similarity: cosine" in text and 'embedder: "fake:hash-64/64"' in text
    assert "candidates: 6" in text and "since: null" in text and f'until: "{CLOCK}"' in text


def test_two_runs_give_the_same_text_but_for_the_identity(dvault: GitVault, cli) -> None:
    import shutil

    first = _digest(cli, dvault)
    # From nothing: the index and the remembered history are rebuilt before the second run.
    shutil.rmtree(default_index_dir(str(dvault.root)))
    second = _digest(cli, dvault, "--force")
    _, a = staged_digest(dvault, first["id"])
    path_b, b = staged_digest(dvault, second["id"])
    assert path_b == "digests/2026-06-15-2.md"  # the first one's path is taken by the pending proposal
    assert a != b and without_identity(a) == without_identity(b)
    # --force replaced the pending digest: a decision commit supersedes it.
    assert second["superseded"] == [first["id"]]
    message = dvault.git("log", "-1", "--format=%B").stdout
    assert f"Kp-Proposal: {first['id']}" in message and "Kp-Event: superseded" in message
    queue = json.loads(cli("--vault", dvault.root, "proposals", "--json").out)["proposals"]
    assert [p["id"] for p in queue] == [second["id"]]


def test_auto_apply_lands_a_commit_with_the_proposal_trailer(dvault: GitVault, cli) -> None:
    (dvault.root / "scratch.txt").write_text("my own uncommitted work\n")
    out = _digest(cli, dvault, "--auto-apply")
    assert out["auto_applicable"] and out["applied"]
    message = dvault.git("log", "-1", "--format=%B").stdout
    assert f"Kp-Proposal: {out['id']}" in message and "Kp-Author: librarian:digest" in message
    assert dvault.git("show", "--name-only", "--format=", "HEAD").stdout.split() == [
        f".kp/proposals/{out['id']}/events.jsonl",
        f".kp/proposals/{out['id']}/files/digests/2026-06-15.md",
        f".kp/proposals/{out['id']}/proposal.yaml",
        "digests/2026-06-15.md",
    ]
    assert (dvault.root / "scratch.txt").read_text() == "my own uncommitted work\n"
    # The applied digest closes the window: the same clock again finds nothing new.
    again = _digest(cli, dvault, "--auto-apply")
    assert again["status"] == "nothing-new" and "id" not in again


def test_without_now_md_the_digest_ranks_by_recency_and_says_so(dvault: GitVault, cli) -> None:
    (dvault.root / "now.md").unlink()
    dvault.commit("no anchor")
    out = _digest(cli, dvault, "--k", "10")
    assert out["method"]["similarity"] == "recency" and out["method"]["why"] == "there is no now.md"
    expected = sorted(NOTES, key=lambda p: NOW - _created(NOTES[p]))
    assert [e["path"] for e in out["entries"]] == expected
    for e in out["entries"]:
        age = (NOW - _created(NOTES[e["path"]])).total_seconds() / 86400
        assert e["similarity"] is None and e["score"] == pytest.approx(math.exp(-age / 14), abs=1e-6)
    _, text = staged_digest(dvault, out["id"])
    assert "Ranked by recency alone, exp(−age / 14 days): there is no now.md." in text
    # Recency ranks by date alone; each summary is then the note's first sentence.
    assert out["entries"][0]["summary"] == "Hybrid ranking fuses BM25 and vectors by rank."


def test_an_empty_now_md_is_recency_only_too(dvault: GitVault, cli) -> None:
    dvault.write("now.md", "---\ntitle: Now\n---\n# Now\n\n")
    out = _digest(cli, dvault)
    assert out["method"]["similarity"] == "recency" and out["method"]["why"] == "now.md is empty"


def test_the_none_embedder_ranks_by_bm25_to_now_md_and_says_so(dvault: GitVault, cli, monkeypatch) -> None:
    monkeypatch.setenv("CURATOR_EMBEDDER", "none")
    out = _digest(cli, dvault, "--k", "10")
    assert out["method"]["similarity"] == "bm25" and out["method"]["embedder"] == "none"
    assert "embedder: none" in out["method"]["why"]
    # Independently: each note's best passage BM25 for now.md's terms, over the best one, × decay.
    from curator.index.normalise import fts_query, query_terms
    from curator.vault.note import parse

    ep = epochs.serving(default_index_dir(str(dvault.root)))
    conn = db.connect(ep.path)
    terms = query_terms(parse("now.md", (dvault.root / "now.md").read_bytes()).body)
    best: dict[str, float] = {}
    for path, s in conn.execute(
        "SELECT d.path, -bm25(passages_fts, 1.5, 1.0, 0.5) FROM passages_fts f JOIN passages p ON p.id = f.rowid "
        "JOIN documents d ON d.id = p.doc_id WHERE passages_fts MATCH ?",
        (fts_query(terms),),
    ):
        if path in NOTES:
            best[path] = max(best.get(path, -1e9), s)
    conn.close()
    top = max(best.values())
    expected = {
        p: best.get(p, 0.0) / top * math.exp(-(NOW - _created(t)).total_seconds() / 86400 / 14)
        for p, t in NOTES.items()
    }
    assert [e["path"] for e in out["entries"]] == sorted(
        expected, key=lambda p: (-expected[p], NOW - _created(NOTES[p]))
    )
    for e in out["entries"]:
        assert e["score"] == pytest.approx(expected[e["path"]], abs=1e-6)
    _, text = staged_digest(dvault, out["id"])
    assert "Ranked by BM25 similarity to the terms of `now.md`" in text and "embedder: none" in text


def test_the_json_and_text_outputs_agree(dvault: GitVault, cli) -> None:
    r = cli("--vault", dvault.root, "digest", "--now", CLOCK, "--k", "2")
    assert r.code == 0, r
    lines = r.out.splitlines()
    assert lines[0].startswith("6 new note(s) (first digest); top 2 by cosine to now.md")
    assert re.match(r"\s+1\. \d\.\d{4}  \d{4}-\d\d-\d\d  \S+\.md  ", lines[1])
    assert "valid, auto-applicable — staged in .kp/proposals/" in r.out


def test_a_git_history_dates_notes_without_created(tmp_path: Path, cli, fake_embedder, monkeypatch) -> None:
    from tests.conftest import make_git_vault
    from tests.librarian.conftest import NOW_MD, config

    v = make_git_vault(tmp_path / "v")
    v.write(".kp/config.yaml", config())
    v.write("now.md", NOW_MD)
    v.write("a.md", "# Alpha\n\nAlpha was committed first, long ago.\n")
    monkeypatch.setenv("GIT_AUTHOR_DATE", "2026-05-01T10:00:00Z")
    v.commit("a")
    v.write("b.md", "# Beta\n\nBeta was committed later in the month.\n")
    monkeypatch.setenv("GIT_AUTHOR_DATE", "2026-06-14T10:00:00Z")
    v.commit("b")
    v.write("c.md", "# Gamma\n\nGamma was never committed at all.\n")
    r = cli("--vault", v.root, "digest", "--json", "--k", "5")  # the clock is now: c.md was just seen
    assert r.code == 0, r
    got = {e["path"]: (e["created"], e["created_from"]) for e in json.loads(r.out)["entries"]}
    assert got["a.md"] == ("2026-05-01T10:00:00Z", "git")
    assert got["b.md"] == ("2026-06-14T10:00:00Z", "git")
    assert got["c.md"][1] == "index"  # its first sighting by the index


def test_a_note_the_digest_s_own_reconcile_sights_is_inside_its_window(
    tmp_path: Path, cli, fake_embedder, monkeypatch
) -> None:
    """The clock is read once the index is up to date: a reconcile that crosses a second
    boundary (a slow machine, a big vault) does not push the notes it sights past ``until``."""
    import datetime as dt

    from curator import clock
    from tests.conftest import make_git_vault
    from tests.librarian.conftest import NOW_MD, config

    v = make_git_vault(tmp_path / "v")
    v.write(".kp/config.yaml", config())
    v.write("now.md", NOW_MD)
    v.commit("now")
    v.write("c.md", "# Gamma\n\nGamma was never committed at all.\n")
    ticks = iter(range(10_000))
    start = dt.datetime(2026, 12, 2, 10, 0, 0, tzinfo=dt.UTC)
    monkeypatch.setattr(clock, "now", lambda: start + dt.timedelta(seconds=next(ticks)))  # a second per reading
    r = cli("--vault", v.root, "digest", "--json", "--k", "5")
    assert r.code == 0, r
    out = json.loads(r.out)
    got = {e["path"]: e["created_from"] for e in out["entries"]}
    assert got == {"c.md": "index"}
    assert clock.parse(out["window"]["until"]) >= clock.parse(out["entries"][0]["created"])


def test_json_lists_the_window_and_the_warnings(dvault: GitVault, cli) -> None:
    out = _digest(cli, dvault)
    assert out["window"] == {"since": None, "until": CLOCK, "after": None}
    assert out["warnings"] == []


def test_derived_documents_group_under_their_source(dvault: GitVault, cli) -> None:
    corpus = [
        {
            "_id": "p1",
            "title": "Hybrid retrieval | a paper",
            "text": "Hybrid ranking with BM25 and vectors improves search.",
        },
        {"_id": "odd]]|#id", "title": "Another paper", "text": "Dense retrieval of passages for citations and search."},
    ]
    dvault.write("corpora/papers.jsonl", "".join(json.dumps(d) + "\n" for d in corpus))
    dvault.write(
        ".kp/config.yaml",
        (dvault.root / ".kp/config.yaml")
        .read_text()
        .replace("sources: []", "sources:\n  - name: papers\n    type: jsonl\n    path: corpora/papers.jsonl"),
    )
    dvault.commit("a corpus")
    assert cli("--vault", dvault.root, "index").code == 0
    # A derived document is new from when the index first saw it (its own date is when it was published).
    clock = (dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    r = cli("--vault", dvault.root, "digest", "--now", clock, "--k", "20", "--json")
    assert r.code == 0, r
    out = json.loads(r.out)
    papers = [e for e in out["entries"] if e["source"] == "papers"]
    assert {e["kp_id"] for e in papers} == {"jsonl:papers/p1", "jsonl:papers/odd]]|#id"}
    assert {e["created_from"] for e in papers} == {"index"}
    _, text = staged_digest(dvault, out["id"])
    section = text.split("## Source: papers\n\n", 1)[1].split("\n\n", 1)[0]
    assert "- [[jsonl:papers/p1|Hybrid retrieval - a paper]] (" in section
    assert "— Hybrid ranking with BM25 and vectors improves search." in section
    # A reference that could end a wikilink is shown as text, made inert.
    assert "- Another paper (jsonl:papers/odd))-#id) (" in section


def test_an_embedder_that_is_down_falls_back_to_bm25_and_says_so(dvault: GitVault, cli, monkeypatch) -> None:
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    use_openai(monkeypatch, port, "test-embed", key="sk-test")
    r = cli("--vault", dvault.root, "digest", "--now", CLOCK, "--json")
    assert r.code == 0, r
    out = json.loads(r.out)
    assert out["method"]["similarity"] == "bm25" and out["method"]["embedder"] == "openai:test-embed/8"
    assert out["method"]["why"] == "6 of the 6 candidates have no vectors yet (run `curator index`)"
    assert any(w.startswith("6 of the 6 candidates have no vectors yet") for w in out["warnings"])
    _, text = staged_digest(dvault, out["id"])
    assert "Ranked by BM25 similarity to the terms of `now.md`" in text and "have no vectors yet" in text


def test_a_now_md_the_index_does_not_hold_is_embedded_with_the_epochs_model(dvault: GitVault, cli) -> None:
    from curator.embedders.base import EmbedderSpec
    from curator.embedders.fake import HashEmbedder
    from curator.index.chunker import chunk
    from curator.vault.note import parse

    dvault.write(".gitignore", "now.md\n")  # git ignores it, so the index never holds it
    dvault.git("rm", "-q", "--cached", "now.md")
    dvault.commit("ignore now.md")
    out = _digest(cli, dvault, "--k", "10")
    assert out["method"]["similarity"] == "cosine"
    vectors = _stored_vectors(dvault)
    assert "now.md" not in vectors
    note = parse("now.md", (dvault.root / "now.md").read_bytes())
    embedded = HashEmbedder(EmbedderSpec("fake", "hash-64", 64)).embed(
        [p.embed_text for p in chunk(note.body, note.body_line, note.title)]
    )
    anchor = _unit_mean([struct.unpack("64f", v) for v in embedded])
    for e in out["entries"]:
        note_vec = _unit_mean(vectors[e["path"]])
        assert e["cosine"] == pytest.approx(sum(a * b for a, b in zip(note_vec, anchor, strict=True)), abs=1e-6)


TEMPLATE = """---
created: 2026-06-14
tags: [daily]
---
# {{date:YYYY-MM-DD}}

{{date:YYYY-MM-DD}} Daily note with search, ranking and passages for the day.
"""


@pytest.mark.parametrize(
    ("settings", "template"),
    [
        ({".obsidian/templates.json": '{"folder": "Templates"}'}, "Templates/Daily.md"),
        ({}, "01 Templates/Daily.md"),  # no Obsidian settings: the folder's name says it
    ],
)
def test_templates_are_never_candidates(dvault: GitVault, cli, settings: dict[str, str], template: str) -> None:
    for path, text in settings.items():
        dvault.write(path, text)
    dvault.write(template, TEMPLATE)
    dvault.commit("a template")
    out = _digest(cli, dvault, "--k", "10")
    assert out["candidates"] == len(NOTES)
    assert template not in [e["path"] for e in out["entries"]]
    _path, text = staged_digest(dvault, out["id"])
    assert "{{date" not in text
