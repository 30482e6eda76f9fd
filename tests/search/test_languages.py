"""Every language searchable: words inside sentences of unspaced scripts, stemming by
each note's language, exact words still found."""

from __future__ import annotations

import json

import pytest

from tests.conftest import GitVault, make_git_vault

NOTES = {
    "zh/检索.md": ("zh", "全文检索", "本系统支持全文检索功能,用户可以在笔记中快速查找内容。配置文件位于根目录。"),
    "ja/検索.md": ("ja", "検索について", "このツールではノートの全文検索ができます。設定ファイルを編集してください。"),
    "ko/검색.md": ("ko", "검색", "이 도구는 노트를 빠르게검색할 수 있습니다."),
    "th/ค้นหา.md": ("th", "การค้นหา", "ระบบนี้รองรับการค้นหาข้อความในบันทึกทั้งหมด"),
    "de/einstellungen.md": (
        "de",
        "Einstellungen",
        "Die Konfigurationsdateien werden beim Start geladen. Mit dem Plugin Templater erstellt man Vorlagen.",
    ),
    "en/settings.md": ("en", "Settings", "The configuration files are loaded at start-up; running it twice is safe."),
    "mixed.md": (None, "Mixed", "Das Wort Kaffee (咖啡) und コーヒー in one line: café."),
    "odd-lang.md": ("klingon", "Unknown language", "Qapla' batlh tIn; the loaded files are here."),
}


@pytest.fixture(scope="module")
def multilingual(tmp_path_factory: pytest.TempPathFactory) -> GitVault:
    v = make_git_vault(tmp_path_factory.mktemp("langs") / "vault")
    v.write(".kp/config.yaml", "embedder:\n  provider: none\nindex:\n  languages:\n    'de/': de\n")
    for path, (lang, title, body) in NOTES.items():
        front = f"lang: {lang}\n" if lang and not path.startswith("de/") else ""
        v.write(path, f"---\ntitle: {title}\n{front}---\n# {title}\n\n{body}\n")
    v.commit()
    from curator.cli.main import main

    assert main(["--vault", str(v.root), "--index-dir", str(v.root.parent / "idx"), "index", "--quiet"]) == 0
    return v


def _paths(cli, v: GitVault, query: str) -> list[str]:  # type: ignore[no-untyped-def]
    r = cli("--vault", v.root, "--index-dir", v.root.parent / "idx", "--json", "search", query, "--mode", "lexical")
    assert r.code == 0, r
    return [h["path"] for h in json.loads(r.out)["hits"]]


@pytest.mark.parametrize(
    ("query", "path"),
    [
        ("检索功能", "zh/检索.md"),  # inside 本系统支持全文检索功能,
        ("配置文件", "zh/检索.md"),
        ("全文検索", "ja/検索.md"),  # inside ノートの全文検索ができます
        ("設定ファイル", "ja/検索.md"),
        ("빠르게검색", "ko/검색.md"),
        ("ข้อความ", "th/ค้นหา.md"),  # inside การค้นหาข้อความในบันทึก
        ("Konfigurationsdatei", "de/einstellungen.md"),  # German stem of -dateien
        ("geladen", "de/einstellungen.md"),
        ("Templater", "de/einstellungen.md"),  # the exact word, whatever the stemmer makes of it
        ("咖啡", "mixed.md"),
        ("コーヒー", "mixed.md"),
        ("Kaffee", "mixed.md"),
    ],
)
def test_a_query_finds_words_inside_sentences(multilingual: GitVault, cli, query: str, path: str) -> None:
    paths = _paths(cli, multilingual, query)
    assert paths and paths[0] == path, (query, paths)


def test_one_character_of_a_cjk_script_is_a_query(multilingual: GitVault, cli) -> None:
    assert _paths(cli, multilingual, "索")[0] == "zh/检索.md"
    assert _paths(cli, multilingual, "啡") == ["mixed.md"]


def test_stemming_follows_the_note_language(multilingual: GitVault, cli) -> None:
    # English rules stem the English note ("loaded" → "load"); German rules the German one
    assert _paths(cli, multilingual, "load")[0] == "en/settings.md"
    assert "de/einstellungen.md" in _paths(cli, multilingual, "Konfigurationsdateien laden")
    # a note whose lang is unknown is indexed by its words, unstemmed, and still found
    assert _paths(cli, multilingual, "Qapla") == ["odd-lang.md"]


def test_doctor_names_an_unknown_language(multilingual: GitVault, cli) -> None:
    r = cli(
        "--vault",
        multilingual.root,
        "--index-dir",
        multilingual.root.parent / "idx",
        "--json",
        "doctor",
        "--code",
        "unknown-language",
    )
    findings = json.loads(r.out)["findings"]
    assert [(f["path"], f["code"]) for f in findings] == [("odd-lang.md", "unknown-language")]
    assert "klingon" in findings[0]["message"]
