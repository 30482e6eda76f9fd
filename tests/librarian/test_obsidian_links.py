"""The digest's links open in Obsidian: each names its note by path, in the vault's own link
style, and Curator's own Obsidian resolver (curator.vault.resolve) takes each to that note by
its path, never by a kp_id Obsidian cannot read; the kp_ids stay in the frontmatter."""

from __future__ import annotations

import json
from pathlib import Path

from curator.settings import parse as parse_settings
from curator.vault import find_vault, frontmatter
from curator.vault.links import extract
from curator.vault.resolve import BY_NAME, BY_PATH
from curator.vault.survey import survey
from tests.conftest import GitVault, make_git_vault
from tests.librarian.conftest import CLOCK, NOW_MD, config, dated, staged_digest

NOTES = {
    "Daily/2026-06-14.md": ("kp:01J0000000000000000000DAY1", "Sunday, 14 June 2026", ["daily"]),
    "Projects/Search engine.md": ("kp:01J0000000000000000000PSE1", "Search engine", ["search"]),
    "Projects/Garden.md": ("kp:01J0000000000000000000GRD1", "Garden", ["garden"]),
    "Archive/Projects/Garden.md": ("kp:01J0000000000000000000GRD2", "Old garden", ["garden"]),
    "Reading/Ranking (BM25) & fusion.md": (None, "Ranking and fusion", ["search"]),
}
BODY = "Hybrid ranking with BM25 and vectors; WAL mode readers; passages and citations."


def _vault(tmp_path: Path, links: str = "[[Projects/Garden]]") -> GitVault:
    v = make_git_vault(tmp_path / "v")
    v.write(".kp/config.yaml", config())
    v.write("now.md", NOW_MD)
    for path, (kp_id, title, tags) in NOTES.items():
        v.write(path, dated(kp_id, title, "2026-06-14", tags, f"{BODY} See {links}."))
    # A note inside the digest folder that a bare [[Projects/Garden]] from there would name first.
    v.write("digests/Projects/Garden.md", dated("kp:01J0000000000000000000GRD3", "Digest's own", None, [], "x"))
    v.commit()
    return v


def _digest(cli, v: GitVault) -> tuple[dict, str]:
    r = cli("--vault", v.root, "digest", "--now", CLOCK, "--k", "20", "--json")
    assert r.code == 0, r
    out = json.loads(r.out)
    return out, staged_digest(v, out["id"])[1]


def _resolved(v: GitVault, digest_path: str, text: str) -> list[tuple[str, str, str, str]]:
    """(kind, target, where Curator's resolver takes it, by which rule) for each link of the digest."""
    vault = find_vault(str(v.root))
    settings = parse_settings((v.root / ".kp" / "config.yaml").read_bytes())
    resolver = survey(vault, settings).resolver(settings)
    _meta, split = frontmatter.read(text)
    out = []
    for link in extract(text[split.body_start :], split.body_line, digest_path):
        r = resolver.resolve(link, digest_path)
        out.append((link.kind, link.target, r.path or "", r.how))
    return out


def test_wikilinks_by_path_that_curators_obsidian_resolver_opens(tmp_path: Path, cli, fake_embedder: None) -> None:
    v = _vault(tmp_path)
    out, text = _digest(cli, v)
    assert not any("[[kp:" in line for line in text.split("\n---\n", 1)[1].splitlines())
    links = _resolved(v, out["path"], text)
    by_path = {path: (kind, target, how) for kind, target, path, how in links}
    assert set(by_path) == set(NOTES)
    assert all(how in (BY_PATH, BY_NAME) for _kind, _target, how in by_path.values()), links
    assert by_path["Daily/2026-06-14.md"][:2] == ("wikilink", "Daily/2026-06-14")
    assert by_path["Projects/Search engine.md"][:2] == ("wikilink", "Projects/Search engine")
    assert by_path["Archive/Projects/Garden.md"][:2] == ("wikilink", "Archive/Projects/Garden")
    assert by_path["Reading/Ranking (BM25) & fusion.md"][:2] == ("wikilink", "Reading/Ranking (BM25) & fusion")
    # Another note answers [[Projects/Garden]] nearer the digest: a markdown link names one file.
    assert by_path["Projects/Garden.md"][:2] == ("markdown", "../Projects/Garden.md")
    assert "[[Daily/2026-06-14|Sunday, 14 June 2026]]" in text
    # The kp_ids, in the order the links come, where Curator reads identities.
    meta, _ = frontmatter.read(text)
    order = [path for _k, _t, path, _h in links]
    ids = {p: NOTES[p][0] or p for p in NOTES}
    assert meta["digest"]["notes"] == [ids[p] for p in order]


def test_a_vault_that_writes_markdown_links_gets_markdown_links(tmp_path: Path, cli, fake_embedder: None) -> None:
    v = _vault(tmp_path, links="[the garden](Projects/Garden.md) and [search](Projects/Search%20engine.md)")
    out, text = _digest(cli, v)
    links = _resolved(v, out["path"], text)
    assert {kind for kind, *_ in links} == {"markdown"}
    assert {path for _k, _t, path, _h in links} == set(NOTES)
    assert "[Search engine](../Projects/Search%20engine.md)" in text
    assert "[Ranking and fusion](../Reading/Ranking%20%28BM25%29%20%26%20fusion.md)" in text


def test_obsidians_own_setting_decides_the_style(tmp_path: Path, cli, fake_embedder: None) -> None:
    v = _vault(tmp_path)
    v.write(".obsidian/app.json", json.dumps({"useMarkdownLinks": True, "newLinkFormat": "relative"}))
    v.commit("settings")
    out, text = _digest(cli, v)
    assert {kind for kind, *_ in _resolved(v, out["path"], text)} == {"markdown"}
