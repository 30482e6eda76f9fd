"""Telling a text's language: script first, then function words; nothing when it does not say."""

from __future__ import annotations

import pytest

from curator.index.detect import TRADITIONAL, detect
from curator.languages import normalise_code


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
