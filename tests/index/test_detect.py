"""Telling a text's language: script first, then function words; nothing when it does not say."""

from __future__ import annotations

import pytest

from curator.index.detect import TRADITIONAL, detect, variant
from curator.languages import normalise_code, same_language


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("快捷键是 Obsidian 命令的可自定义键盘快捷方式。你可以为任何命令分配键盘组合。", "zh"),
        ("快捷鍵是 Obsidian 命令的可自訂鍵盤快捷方式。你可以為任何命令分配鍵盤組合。", TRADITIONAL),
        ("ホットキーは Obsidian のコマンドに割り当てるキーボードショートカットです。", "ja"),
        ("태그는 원하는 노트를 빠르게 찾을 수 있도록 도와주는 키워드예요.", "ko"),
        ("Die Tastenkürzel werden in den Einstellungen festgelegt und können geändert werden.", "de"),
        ("Les raccourcis clavier se trouvent dans les paramètres et vous pouvez les modifier.", "fr"),
        ("Горячие клавиши можно изменить в настройках, и это не сложно.", "ru"),
        ("Гарячі клавіші можна змінити в налаштуваннях, і це неважко.", "uk"),
        ("The hotkeys are set in the settings, and you can change them at any time.", "en"),
        ("Os atalhos de teclado estão nas definições e não é difícil mudá-los.", "pt"),
        ("קיצורי מקשים הם קיצורי דרך שניתן להתאים אישית לפקודות ב-Obsidian.", "he"),
    ],
)
def test_a_text_tells_its_language(text: str, language: str) -> None:
    assert detect(text) == language


def test_a_question_in_an_unspaced_script_with_a_latin_name_in_it() -> None:
    assert detect("Templater插件导致同步冲突", short=True) == "zh"
    assert detect("Evernote에서 노트를 가져오려면", short=True) == "ko"


def test_too_little_to_tell_says_nothing() -> None:
    assert detect("nested tags", short=True) is None  # no function word, no telling letter
    assert detect("PVE", short=True) is None
    assert detect("") is None
    # a page of code examples is in no language its readers speak
    assert detect("```yaml\nfilters:\n  and:\n    - file.hasTag('x')\n```") is None


def test_only_the_index_languages_are_candidates() -> None:
    assert detect("Die Einstellungen werden geladen und gespeichert.", frozenset({"en", "fr"})) is None


def test_traditional_chinese_tags_are_one_language() -> None:
    assert normalise_code("zh-TW") == normalise_code("zh-Hant") == normalise_code("zh_HK") == TRADITIONAL
    assert normalise_code("zh-CN") == normalise_code("zh") == "zh"


EUROPEAN = (
    "Para aceder à pasta de configuração, abra as definições da aplicação no seu telemóvel. "
    "O ficheiro fica guardado na secção de cada utilizador e pode partilhar o ficheiro com a sua equipa."
)
BRAZILIAN = (
    "Para acessar a pasta de configuração, abra o aplicativo no seu celular. O arquivo fica salvo na "
    "seção de cada usuário e você pode compartilhar o arquivo com a sua equipe."
)


def test_portuguese_is_told_european_or_brazilian_by_its_words() -> None:
    assert detect(EUROPEAN) == "pt-pt"
    assert detect(BRAZILIAN) == "pt-br"
    # a page that uses neither variant's words is Portuguese, which goes with both
    assert detect("Os atalhos de teclado estão na barra lateral e não é difícil mudá-los.") == "pt"


def test_one_word_tells_a_questions_variant_and_a_note_needs_three() -> None:
    assert variant("pt", "sincronizar notas com o telemóvel", short=True) == "pt-pt"
    assert variant("pt", "sincronizar notas com o celular", short=True) == "pt-br"
    assert variant("pt", "importar notas do Evernote", short=True) == "pt"
    assert variant("pt", "Uma nota no telemóvel, sobre o ficheiro.") == "pt"  # two words: not enough for a note
    # words of both, neither twice the other's: no variant
    assert variant("pt", "o ficheiro e o arquivo", short=True) == "pt"
    assert variant("es", "el celular", short=True) == "es"  # other languages have no variants here


def test_a_variant_is_a_candidate_where_the_index_holds_its_language() -> None:
    # an index of Brazilian and English notes: a European question is still Portuguese
    assert detect("onde ficam guardadas as definições do Obsidian", frozenset({"pt-br", "en"}), short=True) == "pt-pt"
    assert detect("onde ficam guardadas as definições do Obsidian", frozenset({"de", "en"}), short=True) is None


def test_variant_tags_are_read_as_the_variant() -> None:
    assert normalise_code("pt-BR") == normalise_code("pt_br") == "pt-br"
    assert normalise_code("pt-PT") == "pt-pt"
    assert normalise_code("pt") == "pt"
    assert normalise_code("pt-AO") == "pt"


@pytest.mark.parametrize(
    ("note", "question", "same"),
    [
        ("pt", "pt", True),
        ("pt-pt", "pt", True),  # a question that does not say its variant goes with both
        ("pt-br", "pt", True),
        ("pt", "pt-br", True),  # a note that does not say its variant answers both
        ("pt-pt", "pt-br", False),
        ("pt-br", "pt-pt", False),
        ("zh-hant", "zh", False),  # Traditional Chinese is a language of its own here
        ("es", "pt", False),
        (None, "pt", False),
        ("pt", None, False),
    ],
)
def test_same_language(note: str | None, question: str | None, same: bool) -> None:
    assert same_language(note, question) is same


HELP_LANGUAGES = frozenset({"en", "de", "fr", "es", "it", "pt", "pt-br", "pt-pt", "ru", "nl", "pl"})


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("quero publicar o meu vault na web", None),  # before: en (web, na)
        ("publicar no site", None),  # before: en (site)
        ("il mio sito web", None),  # before: en (web, il)
        ("importer mes pages Notion", "fr"),  # before: none (pages)
        ("how do I change a hotkey", "en"),
        ("where are my plugins and settings stored", "en"),
    ],
)
def test_a_word_every_language_borrows_does_not_tell_a_question_english(question: str, language: str | None) -> None:
    assert detect(question, HELP_LANGUAGES, short=True) == language


def test_a_note_is_still_told_english_by_the_whole_list() -> None:
    note = "The web page lists each site you visit. " * 3
    assert detect(note, HELP_LANGUAGES) == "en"
