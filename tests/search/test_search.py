"""Search, read and relate on the example vault (hashing embedder; the real model has its own test)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import GitVault

HIT_KEYS = {"kp_id", "path", "title", "breadcrumb", "start_line", "end_line", "cite", "score", "snippet", "also"}


@pytest.fixture
def indexed(example_vault: GitVault, cli, monkeypatch: pytest.MonkeyPatch) -> GitVault:
    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")
    assert cli("--vault", example_vault.root, "index").code == 0
    return example_vault


def _search(cli, v: GitVault, *args: str) -> dict:
    r = cli("--vault", v.root, "--json", "search", *args)
    assert r.code == 0, r
    return json.loads(r.out)


def test_hits_carry_citations_that_point_at_the_lines(indexed: GitVault, cli) -> None:
    data = _search(cli, indexed, "checkpoints long-lived readers", "--k", "3")
    assert set(data) >= {"query", "mode", "epoch", "hits"} and data["mode"] == "hybrid"
    hit = data["hits"][0]
    assert set(hit) == HIT_KEYS
    assert hit["path"] == "sqlite/wal-mode.md" and hit["breadcrumb"] == "WAL mode › Checkpoints"
    lines = (indexed.root / hit["path"]).read_text().split("\n")
    cited = "\n".join(lines[hit["start_line"] - 1 : hit["end_line"]])
    assert cited.startswith("## Checkpoints") and "long-lived readers" in cited
    assert hit["cite"] == f"sqlite/wal-mode.md:{hit['start_line']}-{hit['end_line']}"


def test_identifiers_are_found_by_their_parts_and_whole(indexed: GitVault, cli) -> None:
    for q in ("getUserName", "user", "get_user_name", "busy_timeout", "busytimeout"):
        paths = [h["path"] for h in _search(cli, indexed, q, "--mode", "lexical")["hits"]]
        assert "dev/config-loading.md" in paths[:3] or "sqlite/busy-timeout.md" in paths[:3], (q, paths)


def test_accents_fold_and_words_stem(indexed: GitVault, cli) -> None:
    assert (
        _search(cli, indexed, "memoire societe", "--mode", "lexical")["hits"][0]["path"]
        == "reading/mémoire-collective.md"
    )
    assert _search(cli, indexed, "checkpointing", "--mode", "lexical")["hits"][0]["path"] == "sqlite/wal-mode.md"


def test_a_barely_matching_query_gets_a_short_list(indexed: GitVault, cli) -> None:
    hits = _search(cli, indexed, "halbwachs frameworks the a of", "--mode", "lexical", "--k", "10")["hits"]
    assert 1 <= len(hits) < 10 and hits[0]["path"] == "reading/mémoire-collective.md"


def test_filters_apply_inside_the_legs(indexed: GitVault, cli) -> None:
    by_tag = _search(cli, indexed, "review", "--tag", "meeting", "--k", "20")["hits"]
    assert by_tag and all(h["path"].startswith("meetings/") for h in by_tag)
    by_path = _search(cli, indexed, "database", "--path", "sqlite/**", "--k", "20")["hits"]
    assert by_path and all(h["path"].startswith("sqlite/") for h in by_path)
    by_ns = _search(cli, indexed, "sqlite", "--namespace", "curio", "--k", "20")["hits"]
    assert [h["path"] for h in by_ns] == [".curio/feeds/hn-2026-11.md"]
    dated = _search(cli, indexed, "journal", "--since", "2026-11-01", "--until", "2026-11-21", "--k", "20")["hits"]
    assert dated and {h["path"] for h in dated} <= {"journal/2026-11-20.md", "meetings/2026-11-12-review-policy.md"}
    month = _search(cli, indexed, "journal", "--since", "2026-11", "--until", "2026-11", "--k", "20")["hits"]
    # a partial date is the whole month: the 25th is in, where the range above ended on the 21st
    assert {h["path"] for h in dated} | {"journal/2026-11-25.md"} == {h["path"] for h in month}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["wal", "--since", "2020-13-01"], "--since '2020-13-01' is not a date"),
        (["wal", "--until", "last week"], "--until 'last week' is not a date"),
        (["wal", "--since", "2026-12", "--until", "2026-11"], "--since 2026-12 is after --until 2026-11"),
        (["wal", "--since", "2026-11-29", "--until", "2026-11-28"], "--since 2026-11-29 is after --until 2026-11-28"),
        ([""], "the query has no words to search for"),
        (['" * -'], "the query has no words to search for"),
        (["wal", "--path", "**/" * 100 + "x.md"], "the path glob is 304 characters long; at most 256"),
        (["wal", "--path", "sqlite/[z-a].md"], "the path glob has a [...] class that cannot be read"),
    ],
)
def test_bad_query_or_filter_is_one_line_exit_2(indexed: GitVault, cli, args: list[str], message: str) -> None:
    r = cli("--vault", indexed.root, "search", *args)
    assert r.code == 2 and message in r.err and len(r.err.strip().splitlines()) == 1


def test_explain_shows_each_leg(indexed: GitVault, cli) -> None:
    hit = _search(cli, indexed, "WAL checkpoints", "--explain")["hits"][0]
    assert set(hit["explain"]) <= {"lexical", "vector", "links"} and "lexical" in hit["explain"]
    text = cli("--vault", indexed.root, "search", "WAL checkpoints", "--explain", "--k", "1").out
    assert "fused by rank" in text and "lexical #1 (BM25 " in text


def test_links_leg_and_mmr(indexed: GitVault, cli) -> None:
    plain = _search(cli, indexed, "reciprocal rank fusion", "--k", "8", "--mode", "lexical")["hits"]
    linked = _search(cli, indexed, "reciprocal rank fusion", "--k", "8", "--mode", "lexical", "--links", "--explain")[
        "hits"
    ]
    assert any("links" in h["explain"] for h in linked)
    assert {h["path"] for h in linked} != {h["path"] for h in plain} or len(linked) > len(plain)
    diverse = _search(cli, indexed, "WAL", "--k", "3", "--mmr")["hits"]
    assert len({h["path"] for h in diverse}) == 3


def test_read_pages_with_line_numbers(indexed: GitVault, cli) -> None:
    r = cli("--vault", indexed.root, "--json", "read", "kp:01M2HG3KW0N0GDH7KZP7PMFH67")
    data = json.loads(r.out)
    assert data["path"] == "sqlite/wal-mode.md" and data["pages"] == 1
    assert data["lines"][0] == {"n": 1, "text": "---"}
    assert data["frontmatter"]["title"] == "WAL mode" and len(data["blob"]) == 40
    by_title = json.loads(cli("--vault", indexed.root, "--json", "read", "write-ahead log").out)
    assert by_title["path"] == "sqlite/wal-mode.md"
    assert cli("--vault", indexed.root, "read", "no such note").code == 2
    assert cli("--vault", indexed.root, "read", "sqlite/wal-mode.md", "--page", "5").code == 2


def test_relate_lists_links_backlinks_and_unresolved(indexed: GitVault, cli) -> None:
    data = json.loads(cli("--vault", indexed.root, "--json", "relate", "projects/home-lab.md").out)
    assert [u["target"] for u in data["unresolved"]] == ["Proxmox cluster"]
    assert [link["path"] for link in data["links"]] == ["now.md"]
    assert "index.md" in [b["path"] for b in data["backlinks"]]
    wal = json.loads(cli("--vault", indexed.root, "--json", "relate", "WAL mode").out)
    assert {b["path"] for b in wal["backlinks"]} >= {"index.md", "sqlite/busy-timeout.md"}


def test_status_and_ls(indexed: GitVault, cli) -> None:
    status = json.loads(cli("--vault", indexed.root, "--json", "status").out)
    assert status["documents"] == 31 and status["pending_embeddings"] == 0 and status["unresolved_links"] == 1
    docs = json.loads(cli("--vault", indexed.root, "--json", "ls").out)["documents"]
    assert len(docs) == 31 and all(d["complete"] for d in docs)


def test_model_change_is_reported_everywhere(indexed: GitVault, cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CURATOR_EMBEDDER", "none")
    s = cli("--vault", indexed.root, "search", "WAL")
    assert "curator index rebuild" in s.err
    d = cli("--vault", indexed.root, "--json", "doctor")
    assert d.code == 1 and "epoch-mismatch" in d.out and "curator index rebuild" in d.out
    assert cli("--vault", indexed.root, "index", "rebuild").code == 0
    assert cli("--vault", indexed.root, "doctor").code == 1  # only the example's planted findings remain
    assert "epoch-mismatch" not in cli("--vault", indexed.root, "--json", "doctor").out
    data = json.loads(cli("--vault", indexed.root, "--json", "search", "WAL").out)
    assert data["mode"] == "lexical" and "no vectors" not in " ".join(data.get("warnings", []))


def test_a_lexical_only_index_says_so_where_asked_and_not_on_every_search(
    example_vault: GitVault, cli, monkeypatch
) -> None:
    """``embedder: none`` is how a vault stays lexical on purpose (docs/config.md): its searches
    are not warned about it each time; its JSON's mode, `status` and a search for vectors say so."""
    monkeypatch.setenv("CURATOR_EMBEDDER", "none")
    assert cli("--vault", example_vault.root, "index").code == 0
    text = cli("--vault", example_vault.root, "search", "WAL checkpoints")
    assert text.code == 0 and "lexical results only" not in text.err and "wal-mode.md" in text.out
    data = _search(cli, example_vault, "WAL checkpoints")
    assert data["mode"] == "lexical" and not any("lexical results only" in w for w in data.get("warnings", []))
    vector = cli("--vault", example_vault.root, "search", "WAL checkpoints", "--mode", "vector")
    assert vector.code == 0 and "this index has no vectors (embedder: none); lexical results only" in vector.err
    assert "embedder none: lexical search only" in cli("--vault", example_vault.root, "status").out
    assert json.loads(cli("--vault", example_vault.root, "--json", "status").out)["embedder"] == "none"


def test_the_link_leg_never_lifts_a_hit_over_one_both_legs_prefer() -> None:
    from curator.search.filters import Leg
    from curator.search.fuse import keep_agreement, rrf

    lexical = Leg("lexical", [(1, 9.0), (2, 8.0), (3, 7.0), (4, 6.0)])
    vector = Leg("vector", [(1, 0.9), (3, 0.8), (2, 0.7), (4, 0.6)])
    links = Leg("links", [(4, 3.0), (5, 2.0)])  # 4 is ranked last by both legs
    fused = rrf([lexical, vector, links])
    assert [pid for pid, _ in fused].index(4) < [pid for pid, _ in fused].index(2)  # plain RRF lifts it
    kept = [pid for pid, _ in keep_agreement(fused, [lexical, vector])]
    assert kept.index(4) > max(kept.index(1), kept.index(2), kept.index(3))
    assert 5 in kept  # a neighbour neither leg ranked still joins
    # where the legs disagree, the link leg may still decide
    assert keep_agreement(rrf([lexical, vector]), [lexical, vector]) == rrf([lexical, vector])


def test_a_filter_is_checked_against_what_match_finds_not_looked_up_passage_by_passage(
    tmp_path, cli, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """`--path` over most of a vault: FTS5 reads each term's doclist once, as without a filter,
    rather than seeking every passage of the filter in each (1.6 s against 0.04 s on one
    powershell-docs version). Counted as the index pages FTS5 asks SQLite for."""
    import apsw

    from tests.conftest import make_git_vault

    monkeypatch.setenv("CURATOR_EMBEDDER", "none")
    v = make_git_vault(tmp_path / "v")
    for i in range(300):
        v.write(f"ref/{i:03}.md", f"# Cmdlet {i}\n\nOpens a remote session number {i} on a computer.\n")
    v.commit()
    where = ("--vault", v.root, "--index-dir", tmp_path / "idx")
    assert cli(*where, "index", "--quiet").code == 0
    seeks = [0]

    def hook(conn: apsw.Connection) -> None:
        conn.set_profile(lambda sql, _ns: seeks.__setitem__(0, seeks[0] + ("passages_fts_idx" in sql)))

    monkeypatch.setattr(apsw, "connection_hooks", [*apsw.connection_hooks, hook])
    r = cli(*where, "--json", "search", "remote session", "--mode", "lexical", "--path", "ref/**")
    assert r.code == 0 and json.loads(r.out)["hits"], r
    assert seeks[0] < 50, seeks  # before: 1,200 (per passage of the filter, per term)
