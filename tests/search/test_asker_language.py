"""Search as people type in every language: unspaced questions, Korean particles, the asker's
language first, a question stemmed in its own language only."""

from __future__ import annotations

import json

import pytest

from tests.conftest import GitVault, make_git_vault

LEXICAL = "embedder:\n  provider: none\n"

HOTKEYS_ZH = "快捷键是命令的键盘快捷方式。\n\n## 设置快捷键\n\n打开设置，选择快捷键，为命令分配键盘组合。"
HOTKEYS_TW = "快捷鍵是命令的鍵盤快捷方式。\n\n## 設定快捷鍵\n\n開啟設定，選擇快捷鍵，為命令分配鍵盤組合。"
HOTKEYS_JA = (
    "ホットキーはコマンドのキーボードショートカットです。\n\n## ホットキーを設定する\n\n設定を開いて快捷键を選びます。"
)
NOTES = {
    "zh/用户界面/快捷键.md": ("快捷键", HOTKEYS_ZH),
    "zh-TW/使用者介面/快捷鍵.md": ("快捷鍵", HOTKEYS_TW),
    "ja/ホットキー.md": ("ホットキー", HOTKEYS_JA),
    "zh/插件/白板.md": ("白板", "白板是一个无限的画布，你可以在上面添加卡片和笔记。"),
    "ko/편집/태그.md": ("태그", "태그는 노트를 빠르게 찾도록 도와주는 키워드예요. 중첩 태그는 슬래시로 써요."),
    "ko/플러그인/캔버스.md": ("캔버스", "캔버스는 카드를 자유롭게 배치하는 공간이에요."),
    "de/Tastenkürzel.md": (
        "Tastenkürzel",
        "Tastenkürzel sind Tastenkombinationen für Befehle. Du kannst sie in den Einstellungen ändern.",
    ),
    "fr/Raccourcis.md": (
        "Raccourcis clavier",
        "Les raccourcis clavier sont des combinaisons de touches pour les commandes. "
        "Vous pouvez les changer dans les paramètres.",
    ),
    "en/Hotkeys.md": (
        "Hotkeys",
        "Hotkeys are keyboard shortcuts for commands. You can change a hotkey in the settings at any time.",
    ),
    "en/Tags.md": ("Tags", "Tags are keywords. Nested tags use a slash, like inbox/to-read, and you can search them."),
    "fr/Tag.md": ("Tag", "Tag : un tag, des tags."),
}


def _index(root) -> None:  # type: ignore[no-untyped-def]
    from curator.cli.main import main

    assert main(["--vault", str(root), "--index-dir", str(root.parent / "idx"), "index", "--quiet"]) == 0


def _indexed(
    tmp_path_factory: pytest.TempPathFactory, name: str, files: dict[str, str], config: str = LEXICAL
) -> GitVault:
    """A vault of ``files`` (path → text) with ``config``, committed and indexed."""
    v = make_git_vault(tmp_path_factory.mktemp(name) / "vault")
    v.write(".kp/config.yaml", config)
    for path, text in files.items():
        v.write(path, text)
    v.commit()
    _index(v.root)
    return v


def _vault(tmp_path_factory: pytest.TempPathFactory, name: str, config: str) -> GitVault:
    return _indexed(
        tmp_path_factory, name, {path: f"# {title}\n\n{body}\n" for path, (title, body) in NOTES.items()}, config
    )


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> GitVault:
    """A vault that says nothing of its notes' languages, as most do."""
    return _vault(tmp_path_factory, "plain", "embedder:\n  provider: none\n")


@pytest.fixture(scope="module")
def configured(tmp_path_factory: pytest.TempPathFactory) -> GitVault:
    """The same vault with index.languages set for each folder, as the docs recommend."""
    folders = "".join(f"    '{code}/': {code}\n" for code in ("zh", "zh-TW", "ja", "ko", "de", "fr", "en"))
    return _vault(tmp_path_factory, "configured", f"embedder:\n  provider: none\nindex:\n  languages:\n{folders}")


def _search(cli, v: GitVault, query: str, *extra: str) -> dict:  # type: ignore[no-untyped-def]
    r = cli(
        "--vault", v.root, "--index-dir", v.root.parent / "idx", "--json", "search", query, "--mode", "lexical", *extra
    )
    assert r.code == 0, r
    return json.loads(r.out)


def _paths(cli, v: GitVault, query: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [h["path"] for h in _search(cli, v, query)["hits"]]


def test_an_unspaced_question_finds_the_page_its_words_find(plain: GitVault, cli) -> None:
    # the question's bigrams are separate terms ranked by BM25, not one phrase the note must hold
    assert _paths(cli, plain, "设置快捷键")[0] == "zh/用户界面/快捷键.md"
    assert _paths(cli, plain, "怎么设置快捷键")[0] == "zh/用户界面/快捷键.md"
    assert _paths(cli, plain, "白板里怎么添加卡片")[0] == "zh/插件/白板.md"


def test_adjacent_characters_rank_above_scattered_ones(plain: GitVault, cli) -> None:
    # 快捷键 in a row (the zh page) ranks above a page holding 快捷 and 键 apart
    paths = _paths(cli, plain, "快捷键")
    assert paths.index("zh/用户界面/快捷键.md") < paths.index("ja/ホットキー.md")


def test_a_korean_word_with_its_particle_finds_the_word(plain: GitVault, cli) -> None:
    # 태그를 (tag + object particle) finds the page that writes 태그는 and 태그
    assert _paths(cli, plain, "태그를 중첩해서 쓰는 방법")[0] == "ko/편집/태그.md"
    assert _paths(cli, plain, "캔버스에 카드를 추가하려면")[0] == "ko/플러그인/캔버스.md"


def test_the_askers_language_comes_first_and_the_others_stay(plain: GitVault, cli) -> None:
    # Simplified Chinese: the zh page before the zh-TW and ja copies, which stay in the list
    data = _search(cli, plain, "怎么设置快捷键", "--explain")
    paths = [h["path"] for h in data["hits"]]
    assert paths[0] == "zh/用户界面/快捷键.md", paths
    assert "zh-TW/使用者介面/快捷鍵.md" in paths
    assert data["language"] == {"question": "zh", "told_by": "text"}
    assert data["hits"][0]["explain"]["language"] == {"note": "zh", "boost": 1.2}
    # Traditional: the zh-TW page first
    assert _paths(cli, plain, "怎麼設定快捷鍵")[0] == "zh-TW/使用者介面/快捷鍵.md"


def test_a_question_told_by_the_notes_its_words_are_in(plain: GitVault, cli) -> None:
    # no function word says German; only German notes hold these words
    data = _search(cli, plain, "Tastenkürzel ändern", "--explain")
    assert data["language"] == {"question": "de", "told_by": "notes"}
    assert data["hits"][0]["path"] == "de/Tastenkürzel.md"


def test_explain_shows_the_language_on_the_command_line(plain: GitVault, cli) -> None:
    r = cli("--vault", plain.root, "--index-dir", plain.root.parent / "idx", "search", "怎么设置快捷键", "--explain")
    assert r.code == 0, r
    assert "question's language: zh (told by its text)" in r.out
    assert "×1.2 in the question's language (zh)" in r.out


@pytest.mark.parametrize("query", ["nested tags", "how do I change a hotkey"])
def test_index_languages_do_not_make_an_english_question_worse(
    plain: GitVault, configured: GitVault, cli, query: str
) -> None:
    # stemmed in every configured language, "tags" became French "tag0" and the French page
    # holding "tag" four times came first; stemmed in its own language it stays English
    first = _paths(cli, plain, query)[0]
    assert first.startswith("en/")
    assert _paths(cli, configured, query)[0] == first


def test_an_exact_word_counts_for_more_than_its_stem(tmp_path_factory: pytest.TempPathFactory, cli) -> None:
    # the same stem (einstell): the short note says it inflected, the long one as asked
    files = {
        "de/kurz.md": "# Kurz\n\nDie Einstellung.\n",
        "de/lang.md": "# Lang\n\nHier stehen die Einstellungen für alles, was man hier ändern kann, und mehr.\n",
    }
    v = _indexed(tmp_path_factory, "exact", files, LEXICAL + "index:\n  languages:\n    'de/': de\n")
    assert _paths(cli, v, "die Einstellungen")[0] == "de/lang.md"


def test_a_word_one_language_writes_and_another_quotes_tells_the_first(
    tmp_path_factory: pytest.TempPathFactory, cli
) -> None:
    # "modello" is Italian; one English page quotes it. Shared equally between the languages
    # of the notes holding it, it told nothing; shared by the share of each language's notes
    # holding it, it tells Italian, and the question is stemmed in Italian (giornaliero0
    # finds "giornaliera")
    italian = [
        ("Modelli", "Un modello è una nota che puoi inserire più volte nelle tue note."),
        ("Nota giornaliera", "La nota giornaliera si apre ogni giorno con un modello scelto da te."),
        ("Cartelle", "Ogni modello e ogni nota stanno in una cartella del tuo archivio."),
    ]
    files = {
        f"it/{title}.md": f"# {title}\n\n{body} Non è difficile: per questo basta che tu lo apra.\n"
        for title, body in italian
    }
    files.update(
        {
            f"en/Page {i}.md": f"# Page {i}\n\nThis page is about the settings of the app, number {i}.\n"
            for i in range(6)
        }
    )
    files["en/Translations.md"] = (
        "# Translations\n\nThe Italian help calls a template a modello: it is the same thing, and you can use it.\n"
    )
    v = _indexed(tmp_path_factory, "quoted", files)
    data = _search(cli, v, "modello giornaliero", "--explain")
    assert data["language"] == {"question": "it", "told_by": "notes"}
    paths = [h["path"] for h in data["hits"]]
    assert set(paths[:2]) == {"it/Modelli.md", "it/Nota giornaliera.md"}, paths


def test_a_question_too_close_to_call_is_stemmed_in_each_language_it_may_be(
    tmp_path_factory: pytest.TempPathFactory, cli
) -> None:
    # "importar" is Spanish and Portuguese alike: the question's language is not told, and it
    # was stemmed in none, so "importada" never found "importadas"; stemmed in both it does,
    # and neither language is preferred
    files = {
        "es/Importar.md": "# Importar\n\nPuedes importar tus archivos desde otra aplicación, y en la bóveda.\n",
        "pt/Importar.md": "# Importar\n\nPode importar os seus ficheiros de outra aplicação, e no cofre.\n",
        "es/Carpetas.md": "# Carpetas\n\nLas notas importadas quedan en una carpeta de la bóveda, y puedes moverlas "
        "desde otra aplicación.\n",
        "en/Import.md": "# Import\n\nYou can import your files from another app, and they are in the vault.\n",
    }
    v = _indexed(tmp_path_factory, "close", files)
    data = _search(cli, v, "importar nota importada")
    assert "language" not in data  # not told
    assert "es/Carpetas.md" in [h["path"] for h in data["hits"]]


def test_notes_of_no_known_language_vote_as_one(tmp_path_factory: pytest.TempPathFactory, cli) -> None:
    # the Catalan note is too short for the detector; only it holds "quines", "enllacen",
    # "aquesta", while Spanish notes hold "nota": the untold note's words outvote the one word
    # Spanish shares, so the question is not told Spanish and the Catalan note stays first
    files = {"ca/Retroenllaços.md": "# Retroenllaços\n\nQuines notes enllacen aquesta nota.\n"}
    for i, topic in enumerate(("las etiquetas", "los enlaces", "las carpetas")):
        files[f"es/Nota {i}.md"] = (
            f"# Nota {i}\n\nUna nota sobre {topic} de la bóveda, y lo que puedes hacer con ella.\n"
        )
    files["en/Links.md"] = "# Links\n\nA link points to another page, and you can see the links in the app.\n"
    v = _indexed(tmp_path_factory, "untold", files)
    data = _search(cli, v, "quines notes enllacen a aquesta nota", "--explain")
    assert data.get("language", {}).get("question") is None, data.get("language")
    assert data["hits"][0]["path"] == "ca/Retroenllaços.md"


def test_a_question_in_a_vault_of_one_other_language_is_stemmed_by_its_rules(
    tmp_path_factory: pytest.TempPathFactory, cli
) -> None:
    # every note is French (told by its text, no lang: said): the question was stemmed in no
    # language, so "raccourci" found "raccourcis" only when no word of the question was found
    # as written ("thème" is)
    files = {
        "Raccourcis.md": "# Raccourcis clavier\n\nLes raccourcis clavier se changent dans les paramètres, et vous "
        "pouvez les modifier.\n",
        "Thèmes.md": "# Thèmes\n\nUn thème change l'apparence de l'application, et vous pouvez le choisir.\n",
    }
    v = _indexed(tmp_path_factory, "french", files)
    data = _search(cli, v, "thème raccourci")
    assert sorted(h["path"] for h in data["hits"]) == ["Raccourcis.md", "Thèmes.md"]
    assert "language" not in data  # nothing preferred


def test_a_european_question_is_answered_by_the_european_copy_first(
    tmp_path_factory: pytest.TempPathFactory, cli
) -> None:
    # A help vault holds each page in European (pt/) and Brazilian (pt-br/) Portuguese, one
    # language to its function words. The Brazilian copy says "sincronizar notas" more often; a
    # question typed in Portugal ("telemóvel") gets the European copy first, the other below it.
    files = {
        "pt/Sincronizar.md": "# Sincronizar\n\nPode sincronizar as notas entre dispositivos. O utilizador escolhe "
        "os ficheiros a enviar, e a aplicação mostra no ecrã o ficheiro que mudou.\n",
        "pt-br/Sincronizar notas.md": "# Sincronizar notas\n\nVocê pode sincronizar notas entre dispositivos: "
        "sincronizar notas no celular e sincronizar notas no computador. O usuário escolhe os arquivos, e o "
        "aplicativo mostra na tela o arquivo que mudou.\n",
        "en/Sync.md": "# Sync\n\nYou can sync your notes between your devices, and the app shows which file changed.\n",
    }
    v = _indexed(tmp_path_factory, "variants", files)
    data = _search(cli, v, "sincronizar notas no telemóvel", "--explain")
    paths = [h["path"] for h in data["hits"]]
    assert paths[:2] == ["pt/Sincronizar.md", "pt-br/Sincronizar notas.md"], paths
    assert data["language"] == {"question": "pt-pt", "told_by": "notes"}
    assert data["hits"][0]["explain"]["language"] == {"note": "pt-pt", "boost": 1.2}
    assert data["hits"][1]["explain"]["language"] == {"note": "pt-br", "boost": 1.0}  # not preferred
    # a question that says neither variant prefers both copies alike: the one that matches more leads
    data = _search(cli, v, "sincronizar notas", "--explain")
    assert data["language"]["question"] == "pt"
    assert [h["path"] for h in data["hits"]][:2] == ["pt-br/Sincronizar notas.md", "pt/Sincronizar.md"]
    assert [h["explain"]["language"]["boost"] for h in data["hits"][:2]] == [1.2, 1.2]


def test_a_variant_said_in_frontmatter_is_the_notes_variant(tmp_path_factory: pytest.TempPathFactory, cli) -> None:
    # the two copies say their variant (`lang: pt-BR`, `lang: pt-PT`) and write the same words
    body = "Pode sincronizar as notas entre dispositivos e escolher as notas a enviar.\n"
    files = {
        "br.md": f"---\nlang: pt-BR\n---\n# Sincronizar notas\n\n{body}",
        "pt.md": f"---\nlang: pt-PT\n---\n# Sincronizar\n\n{body}",
        "en/Sync.md": "# Sync\n\nYou can sync your notes between your devices, and choose which notes to send.\n",
    }
    v = _indexed(tmp_path_factory, "said", files)
    data = _search(cli, v, "sincronizar notas no telemóvel", "--explain")
    assert [h["path"] for h in data["hits"]][:2] == ["pt.md", "br.md"]
    assert data["hits"][0]["explain"]["language"] == {"note": "pt-pt", "boost": 1.2}
    data = _search(cli, v, "sincronizar notas no celular", "--explain")
    assert [h["path"] for h in data["hits"]][:2] == ["br.md", "pt.md"]


def test_of_copies_in_two_variants_the_askers_stands_for_both(tmp_path_factory: pytest.TempPathFactory, cli) -> None:
    # a section kept word for word in the European and the Brazilian page: one hit, in the asker's
    # variant, the other copy listed under it
    shared = "## Sincronizar\n\nSincronizar as notas entre dispositivos com o Obsidian Sync.\n"
    files = {
        "pt-br/Sincronizar.md": "# Sincronizar\n\nO usuário escolhe os arquivos no aplicativo e na tela, e não "
        "precisa de mais nada.\n\n" + shared,
        "pt/Sincronizar.md": "# Sincronizar\n\nO utilizador escolhe os ficheiros na aplicação e no ecrã, e não "
        "precisa de mais nada.\n\n" + shared,
        "en/Sync.md": "# Sync\n\nYou can sync your notes between your devices, and the app shows which file changed.\n",
    }
    v = _indexed(tmp_path_factory, "copies", files)
    for question, lead, copy in (
        ("sincronizar notas no telemóvel", "pt/Sincronizar.md", "pt-br/Sincronizar.md"),
        ("sincronizar notas no celular", "pt-br/Sincronizar.md", "pt/Sincronizar.md"),
    ):
        hits = _search(cli, v, question)["hits"]
        assert hits[0]["path"] == lead and [c["path"] for c in hits[0]["copies"]] == [copy], hits[0]
