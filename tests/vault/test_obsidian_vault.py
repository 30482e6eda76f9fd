"""A multilingual documentation vault built from Obsidian's documented link forms: the
same pages in three language folders, whose links must stay within their language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import GitVault, make_git_vault

PAGES = {
    "en": ("Home", "Install", "Configure", "Templater"),
    "de": ("Startseite", "Installieren", "Konfigurieren", "Templater"),
    "zh": ("首页", "安装", "配置", "Templater"),
}


def _page(title: str, body: str) -> str:
    return f"---\ntitle: {title}\n---\n# {title}\n\n{body}\n"


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> GitVault:
    v = make_git_vault(tmp_path_factory.mktemp("docs") / "vault")
    v.write(".kp/config.yaml", "embedder:\n  provider: none\n")
    for lang, (home, install, configure, templater) in PAGES.items():
        v.write(
            f"{lang}/index.md",
            _page(
                home,
                "Start with [[install]], then [[setup/configure|configure it]].\n"
                "Read [the plugin page](plugins/templater.md) and [[templater#^usage]].\n"
                "| page | link |\n|---|---|\n| setup | [[configure\\|settings]] |\n"
                "See [[configure#Options]] and [[a]](b), [by name](install), ![[diagram.png\\|200]].",
            ),
        )
        v.write(f"{lang}/setup/install.md", _page(install, "Run the installer. Back to [[index]]."))
        v.write(f"{lang}/setup/configure.md", _page(configure, "Text.\n\n## Options\n\nSet them. Also [[configure]]."))
        v.write(f"{lang}/plugins/templater.md", _page(templater, "Use it.\n\nA block of usage. ^usage"))
    v.write("attachments/diagram.png", b"\x89PNG\r\n\x1a\n")
    v.write("tools/scrybble.ink.md", _page("Scrybble", "A tool."))
    v.write(
        "odd.md",
        _page(
            "Odd links",
            "[[]] [[#Options]] [[|alias]] [[en/setup]] [[scrybble.ink]] [[Installieren]] [[missing page]]\n"
            "%% [[commented out]] %%",
        ),
    )
    v.write(".obsidian/workspace.md", "[[not indexed]]\n")
    v.write(".trash/old.md", "# Old\n\n[[gone]]\n")
    v.commit("docs")
    return v


@pytest.fixture(scope="module")
def indexed(docs: GitVault) -> GitVault:
    from curator.cli.main import main

    assert main(["--vault", str(docs.root), "--index-dir", str(docs.root.parent / "idx"), "index", "--quiet"]) == 0
    return docs


def _json(cli, v: GitVault, *args: str) -> dict:  # type: ignore[no-untyped-def]
    r = cli("--vault", v.root, "--index-dir", v.root.parent / "idx", "--json", *args)
    assert r.code in (0, 1), r
    return json.loads(r.out)


def test_backlinks_stay_within_their_language(indexed: GitVault, cli) -> None:
    for lang in PAGES:
        data = _json(cli, indexed, "relate", f"{lang}/setup/install.md")
        # odd.md links [[Installieren]], the German page's title
        expected = {f"{lang}/index.md", "odd.md"} if lang == "de" else {f"{lang}/index.md"}
        assert {b["path"] for b in data["backlinks"]} == expected, lang
        assert [link["path"] for link in data["links"]] == [f"{lang}/index.md"]
        conf = _json(cli, indexed, "relate", f"{lang}/setup/configure.md")
        # [[setup/configure|…]], [[configure\|settings]] in a table, [[configure#Options]]; and its own link
        assert sorted(b["path"] for b in conf["backlinks"]) == sorted(
            [f"{lang}/index.md"] * 3 + [f"{lang}/setup/configure.md"]
        )
        plugin = _json(cli, indexed, "relate", f"{lang}/plugins/templater.md")
        # a markdown link by relative path, and [[templater#^usage]]
        assert [b["path"] for b in plugin["backlinks"]] == [f"{lang}/index.md"] * 2


def test_index_and_doctor_agree_link_by_link(indexed: GitVault, cli) -> None:
    home = _json(cli, indexed, "relate", "de/index.md")
    assert sorted(link["path"] for link in home["links"]) == sorted(
        ["de/setup/install.md"] * 2 + ["de/setup/configure.md"] * 3 + ["de/plugins/templater.md"] * 2
    )
    assert home["unresolved"] == [{"target": "a", "line": 11, "kind": "wikilink"}]
    doctor = _json(cli, indexed, "doctor")
    by_path: dict[str, set[tuple[str, int]]] = {}
    for f in doctor["findings"]:
        by_path.setdefault(f["path"], set()).add((f["code"], f.get("line", 0)))
    for lang in PAGES:
        assert by_path[f"{lang}/index.md"] - {("unidentified-note", 0)} == {("unresolved-link", 11)}
    odd = _json(cli, indexed, "relate", "odd.md")
    assert sorted(u["target"] for u in odd["unresolved"]) == ["en/setup", "missing page"]
    assert sorted(link["path"] for link in odd["links"]) == ["de/setup/install.md", "tools/scrybble.ink.md"]


def test_doctor_names_folder_links_and_title_only_links(indexed: GitVault, cli) -> None:
    doctor = _json(cli, indexed, "doctor")
    odd = {(f["code"], f["message"]) for f in doctor["findings"] if f["path"] == "odd.md"}
    assert ("unresolved-link", "[[en/setup]] matches a folder, not a note") in odd
    assert any(c == "title-only-link" and "[[Installieren]]" in m and "de/setup/install.md" in m for c, m in odd)
    assert not any("commented out" in m or "[[]]" in m or "[[|alias]]" in m or "#Options" in m for _, m in odd)
    assert not any(f["path"].startswith((".obsidian/", ".trash/")) for f in doctor["findings"])
    r = cli("--vault", indexed.root, "--index-dir", indexed.root.parent / "idx", "doctor")
    assert "1 warning(s) title-only-link: list them with `curator doctor --code title-only-link`" in r.out


def test_excluded_folders_are_in_no_command(indexed: GitVault, cli) -> None:
    listed = _json(cli, indexed, "ls")
    paths = {d["path"] for d in (listed if isinstance(listed, list) else listed.get("documents", []))}
    assert paths and not any(p.startswith((".obsidian/", ".trash/")) for p in paths)
    r = cli("--vault", indexed.root, "--index-dir", indexed.root.parent / "idx", "index", "rebuild")
    assert "skipped .obsidian/workspace.md: excluded by notes.exclude" in r.out
    assert "skipped .trash/old.md: excluded by notes.exclude" in r.out


def test_vault_option_on_a_subfolder_says_it_uses_the_whole_work_tree(docs: GitVault, cli, tmp_path: Path) -> None:
    r = cli("--vault", docs.root / "de", "--index-dir", tmp_path / "idx", "doctor", "--code", "case-clash")
    assert "de/ is a folder inside the git work tree" in r.err and "uses the whole work tree" in r.err
