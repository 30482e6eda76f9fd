"""Sources in the index: a Zotero library and a JSONL corpus beside a real git vault, through
the real CLI: searched, read, related, counted, kept incremental, and never written."""

from __future__ import annotations

import json
import os
from pathlib import Path

import apsw
import pytest

from tests.conftest import ROOT, GitVault, make_git_vault, note
from tests.sources.conftest import Sample, build_sample


@pytest.fixture(autouse=True)
def _fake_embedder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")


def _config(library: Path, extra: str = "") -> str:
    base = (ROOT / "curator" / "default_config.yaml").read_text()
    return base.replace("sources: []", f"sources:\n  - name: library\n    type: zotero\n    path: {library}\n{extra}")


@pytest.fixture
def lab(tmp_path: Path) -> tuple[GitVault, Sample]:
    """A vault whose notes cite the sample library by @citekey and by [[zotero:KEY]]."""
    (tmp_path / "Zotero").mkdir()
    sample = build_sample(tmp_path / "Zotero" / "zotero.sqlite")
    key = sample.keys["attention"]
    v = make_git_vault(tmp_path / "vault")
    v.write(".kp/config.yaml", _config(sample.path))
    v.write(
        "notes/transformers.md",
        note("kp:01J0000000000000000000TRNS", "Transformers", "Self-attention, as in @vaswani2017, p. 3.\n"),
    )
    v.write(
        "notes/reading-list.md",
        note("kp:01J0000000000000000000READ", "Reading list", f"First [[zotero:{key}]], then [[Transformers]].\n"),
    )
    v.write("notes/mentions.md", note("kp:01J0000000000000000000MENT", "Mentions", "Ping @someone by mail.\n"))
    v.commit()
    yield v, sample
    sample.library.close()


def _json(cli, *args: str | Path) -> dict:
    r = cli(*args)
    assert r.code == 0, r
    return json.loads(r.out)


def _index(cli, v: GitVault, *args: str) -> dict:
    return _json(cli, "--vault", v.root, "--json", "index", *args)


def _epoch_file() -> Path:
    cache = Path(os.environ["XDG_CACHE_HOME"]) / "curator"
    (current,) = list(cache.rglob("CURRENT"))
    return current.parent / "epochs" / current.read_text().strip()


def test_items_are_searched_read_related_and_counted_beside_notes(lab, cli) -> None:
    v, sample = lab
    key = sample.keys["attention"]
    report = _index(cli, v)
    (src,) = report["sources"]
    assert (src["name"], src["indexed"], src["removed"], src["error"]) == ("library", 6, 0, None)

    by_abstract = _json(cli, "--vault", v.root, "search", "sequence transduction convolutional", "--json")
    top = by_abstract["hits"][0]
    assert (top["cite"], top["kp_id"], top["source"]) == (f"zotero:{key}", f"zotero:{key}", "library")
    assert top["link"] == f"zotero://select/library/items/{key}"
    assert top["breadcrumb"] == "Attention Is All You Need › Abstract"

    by_author = _json(cli, "--vault", v.root, "search", "Kahneman", "--mode", "lexical", "--json")
    assert by_author["hits"][0]["cite"] == f"zotero:{sample.keys['thinking']}"
    only_notes = _json(cli, "--vault", v.root, "search", "attention", "--namespace", "kp", "--json")
    assert only_notes["hits"] and all(h["kp_id"].startswith("kp:") for h in only_notes["hits"])
    only_items = _json(cli, "--vault", v.root, "search", "attention", "--namespace", "zotero", "--json")
    assert only_items["hits"] and all(h["cite"].startswith("zotero:") for h in only_items["hits"])
    trashed = _json(cli, "--vault", v.root, "search", "cold fusion palladium", "--mode", "lexical", "--json")
    assert trashed["hits"] == []

    cited = _json(cli, "--vault", v.root, "relate", f"zotero:{key}", "--json")
    assert {b["path"] for b in cited["backlinks"]} == {"notes/transformers.md", "notes/reading-list.md"}
    citing = _json(cli, "--vault", v.root, "relate", "notes/transformers.md", "--json")
    assert [n["path"] for n in citing["links"]] == [f"zotero:{key}"]
    mentions = _json(cli, "--vault", v.root, "relate", "notes/mentions.md", "--json")
    assert mentions["unresolved"] == []  # @someone is no citation: not a broken link

    shown = cli("--vault", v.root, "read", f"zotero:{key}")
    assert shown.code == 0, shown
    assert shown.out.startswith(f"zotero:{key}  Attention Is All You Need  page 1/1\n")
    assert f"zotero://select/library/items/{key}" in shown.out and "Multi-head attention runs" in shown.out
    read_json = _json(cli, "--vault", v.root, "read", f"zotero:{key}", "--json")
    assert read_json["fields"]["citation_key"] == "vaswani2017" and read_json["source"] == "library"

    status = _json(cli, "--vault", v.root, "status", "--json")
    assert status["sources"] == {"library": 6} and status["unresolved_links"] == 0
    listed = _json(cli, "--vault", v.root, "sources", "ls", "--json")["sources"]
    assert [(s["name"], s["type"], s["items"], s["error"]) for s in listed] == [("library", "zotero", 6, None)]
    assert listed[0]["last_sync"]


def test_nothing_changed_nothing_is_reindexed(lab, cli) -> None:
    v, _sample = lab
    _index(cli, v)
    db = _epoch_file()
    before = (db.stat().st_mtime_ns, db.read_bytes())
    again = _index(cli, v)
    assert again["sources"][0]["read"] is False and again["embedded"] == 0
    assert (db.stat().st_mtime_ns, db.read_bytes()) == before  # a stat per file, nothing written
    synced = _json(cli, "--vault", v.root, "--json", "sources", "sync")
    (src,) = synced["sources"]
    assert src["read"] is True and (src["indexed"], src["unchanged"], src["removed"]) == (0, 6, 0)
    assert synced["embedded"] == 0 and synced["passages_written"] == 0


def test_an_edited_item_reembeds_only_its_changed_passages(lab, cli) -> None:
    v, sample = lab
    first = _index(cli, v)
    assert first["embedded"] == first["passages"]
    sample.library.set_field(sample.keys["attention"], "abstractNote", "A rewritten abstract about attention.")
    sample.library.trash(sample.keys["case"])
    second = _index(cli, v)
    (src,) = second["sources"]
    assert (src["indexed"], src["unchanged"], src["removed"]) == (1, 4, 1)
    assert second["embedded"] == 1  # the abstract; its header and note passages kept their vectors
    hit = _json(cli, "--vault", v.root, "search", "rewritten abstract", "--mode", "lexical", "--json")["hits"][0]
    assert hit["cite"] == f"zotero:{sample.keys['attention']}"


def test_a_source_removed_from_the_config_leaves_the_index(lab, cli) -> None:
    v, sample = lab
    _index(cli, v)
    v.write(".kp/config.yaml", (ROOT / "curator" / "default_config.yaml").read_text())
    report = _index(cli, v)
    assert report["sources_dropped"] == ["library"]
    assert _json(cli, "--vault", v.root, "status", "--json")["sources"] == {}
    gone = cli("--vault", v.root, "read", f"zotero:{sample.keys['attention']}")
    assert gone.code == 2 and "no note" in gone.err
    links = _json(cli, "--vault", v.root, "relate", "notes/reading-list.md", "--json")
    assert f"zotero:{sample.keys['attention']}" in {u["target"] for u in links["unresolved"]}


def test_a_library_that_goes_missing_keeps_serving_its_items(lab, cli) -> None:
    v, sample = lab
    _index(cli, v)
    sample.library.close()
    moved = sample.path.with_name("moved.sqlite")
    sample.path.rename(moved)
    r = cli("--vault", v.root, "index")
    assert r.code == 0
    assert f"curator: warning: source library: no Zotero library at {sample.path}; its 6 indexed item(s)" in r.err
    found = _json(cli, "--vault", v.root, "search", "Kahneman", "--mode", "lexical", "--json")
    assert found["hits"][0]["cite"] == f"zotero:{sample.keys['thinking']}"
    failed = cli("--vault", v.root, "sources", "sync", "library")
    assert failed.code == 1 and f"no Zotero library at {sample.path}" in failed.err
    listed = cli("--vault", v.root, "sources", "ls")
    assert f"problem: no Zotero library at {sample.path}" in listed.out
    moved.rename(sample.path)
    back = _index(cli, v)
    assert back["sources"][0]["error"] is None


def test_sync_names_an_unknown_source(lab, cli) -> None:
    v, _ = lab
    r = cli("--vault", v.root, "sources", "sync", "nope")
    assert r.code == 2 and "no source named 'nope' in .kp/config.yaml (configured: library)" in r.err


def test_a_jsonl_corpus_in_the_vault(tmp_path: Path, cli) -> None:
    v = make_git_vault(tmp_path / "vault")
    corpus = (
        json.dumps({"_id": "doc-1", "title": "Tides", "text": "The Moon raises tides.", "url": "https://e/1",
                    "source": "wiki", "commit": "c0ffee"}) + "\n"
        + "{oops\n"
        + json.dumps({"_id": "doc-1", "title": "Tides", "text": "The Moon and the Sun raise tides."}) + "\n"
    )  # fmt: skip
    v.write("corpora/facts.jsonl", corpus)
    config = (ROOT / "curator" / "default_config.yaml").read_text()
    v.write(
        ".kp/config.yaml",
        config.replace("sources: []", "sources: [{name: facts, type: jsonl, path: corpora/facts.jsonl}]"),
    )
    v.write("notes/a.md", note("kp:01J00000000000000000000AAA", "A", "Just a note.\n"))
    v.commit()
    r = cli("--vault", v.root, "sources", "sync")
    assert r.code == 0, r
    assert "source facts (jsonl): 1 indexed, 0 unchanged, 0 removed" in r.out
    assert "line 2: not JSON" in r.out
    assert "id 'doc-1' on line 1 appears again on line 3: the later line wins" in r.out
    shown = _json(cli, "--vault", v.root, "read", "jsonl:facts/doc-1", "--json")
    assert shown["fields"] == {"id": "doc-1"} and "Sun" in shown["lines"][0]["text"]
    hit = _json(cli, "--vault", v.root, "search", "tides", "--namespace", "jsonl", "--json")["hits"][0]
    assert hit["cite"] == "jsonl:facts/doc-1"


def test_an_epoch_from_before_citations_gains_them(lab, cli) -> None:
    v, sample = lab
    _index(cli, v)
    conn = apsw.Connection(str(_epoch_file()))
    with conn:
        conn.execute("DELETE FROM links WHERE kind = 'cite'")
        conn.execute("DELETE FROM meta WHERE key = 'links.version'")
    conn.close()
    _index(cli, v)
    cited = _json(cli, "--vault", v.root, "relate", f"zotero:{sample.keys['attention']}", "--json")
    assert "notes/transformers.md" in {b["path"] for b in cited["backlinks"]}


def test_the_library_is_never_written(lab, cli) -> None:
    v, sample = lab
    sample.library.close()
    folder = sample.path.parent
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir()}
    _index(cli, v)
    _json(cli, "--vault", v.root, "--json", "sources", "sync")
    assert {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir()} == before


def test_doctor_takes_a_synced_item_for_a_link_target(lab, cli) -> None:
    v, _sample = lab
    v.write("notes/broken.md", note("kp:01J0000000000000000000BRKN", "Broken", "See [[zotero:NOPE2345]].\n"))
    v.commit()
    _index(cli, v)
    r = cli("--vault", v.root, "--json", "doctor")
    findings = [(f["path"], f["code"], f["message"]) for f in json.loads(r.out)["findings"]]
    assert ("notes/broken.md", "unresolved-link", "[[zotero:NOPE2345]] matches no note and no source item") in findings
    assert not any(p == "notes/reading-list.md" for p, _c, _m in findings)  # its [[zotero:KEY]] is synced


def test_a_note_that_carries_an_items_id_wins_over_the_item(lab, cli) -> None:
    """A producer may render literature notes under the item's own id."""
    v, sample = lab
    key = sample.keys["attention"]
    v.write("literature/vaswani.md", note(f"zotero:{key}", "Literature note on attention", "Mine.\n"))
    v.commit()
    _index(cli, v)
    assert cli("--vault", v.root, "read", f"zotero:{key}").out.startswith("literature/vaswani.md")
    links = _json(cli, "--vault", v.root, "relate", "notes/reading-list.md", "--json")["links"]
    assert links[0]["path"] == "literature/vaswani.md"


def test_agents_read_and_relate_items_through_mcp(lab, cli) -> None:
    from curator.commands.app import App
    from curator.mcp.service import Service

    v, sample = lab
    key = sample.keys["attention"]
    _index(cli, v)
    service = Service(*App(vault_arg=str(v.root)).place())
    try:
        read = service.read(f"zotero:{key}")
        assert read.data["source"] == "library" and read.data["link"] == f"zotero://select/library/items/{key}"
        assert "not a note" in read.text and "<vault-data" in read.text and "Multi-head attention" in read.text
        related = service.relate(f"zotero:{key}")
        assert {b["path"] for b in related.data["backlinks"]} == {"notes/transformers.md", "notes/reading-list.md"}
    finally:
        service.close()
