"""Which language a text is written in: its script first, then votes of its function words.

A note says its language in its frontmatter (``lang``) or by the ``index.languages`` folder it
is in; a note that says nothing, and every question, is told by this module. The script decides
most: Hangul is Korean, kana is Japanese, Han without kana is Chinese, Simplified or Traditional
by which of the characters the two write differently it uses; Greek, Hebrew, Thai, Khmer and
the Indic scripts have one language each here. Text in the Latin or Cyrillic script is told by
its function words (the stop-word lists of the ``stop-words`` package), each word's vote shared
among the languages that use it, and by letters that one language alone writes (``ß``, ``ñ``,
``ã``, ``ı``, ``ї``). Too few votes, or a tie, says nothing: a two-word question such as
``nested tags`` has no language here, and nothing is preferred for it.

Why not a statistical detector: py3langid (the one such registry package that ships its model
and downloads nothing) took 2.5 s to load and 2.7 ms a note here, which would add about 8 s to a
first index of the 3,112-note powershell-docs tree and 2.5 s to every search, and it still named
10 of the 100 questions of ``benchmarks/multilingual_help`` wrongly (``recuperar un archivo
borrado`` as Galician, ``nested tags`` as Danish). These rules take about 40 µs a note and tell
every folder of Obsidian's help vault in the languages they know (see ``docs/benchmarks.md``).
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

import stop_words

from curator.languages import ENGLISH_FUNCTION_WORDS, base
from curator.script_pattern import ScriptPattern

SAMPLE = 4000
"""Characters of a note read to tell its language: the start says it as well as the whole."""
TRADITIONAL = "zh-hant"
"""Chinese in Traditional characters (zh-TW, zh-HK): another language here than ``zh``."""
VOTED: tuple[str, ...] = ("en", "de", "fr", "es", "it", "pt", "nl", "ca", "sv", "da", "nb", "pl", "cs")
VOTED += ("sk", "ro", "hu", "fi", "tr", "id", "vi", "ru", "uk", "bg", "ar", "fa")
"""Languages told by their function words (a stop-word list in the ``stop-words`` package)."""
_NAMES = {"nb": "norwegian"}

# Characters Simplified and Traditional Chinese write differently, among the most frequent in
# text: each pair is (Simplified, Traditional). A page of either uses dozens of them.
_HAN_PAIRS = (
    "这這 个個 们們 为為 说說 会會 时時 来來 对對 后後 发發 么麼 过過 经經 学學 动動 还還 进進 实實 现現 "
    "开開 关關 问問 题題 点點 设設 笔筆 记記 链鏈 图圖 键鍵 页頁 签簽 览覽 择擇 项項 显顯 档檔 库庫 "
    "导導 从從 与與 将將 请請 击擊 单單 钮鈕 编編 辑輯 据據 该該 样樣 种種 无無 储儲 户戶 态態 间間 "
    "务務 应應 护護 联聯 络絡 线線 场場 认認 证證 码碼 传傳 输輸 选選 复複 转轉 换換 载載 软軟 体體 "
    "类類 级級 条條 语語 书書 长長 话話 车車 东東 门門 马馬 见見 风風 飞飛 龙龍 云雲"
)
_SIMPLIFIED = frozenset(p[0] for p in _HAN_PAIRS.split() if p[0] != p[1])
_TRADITIONAL = frozenset(p[1] for p in _HAN_PAIRS.split() if p[0] != p[1])
# Characters of Chinese that Japanese does not write: the Simplified forms above but those
# Japanese shares (来 学 点 与 将 体 条), and function words.
_CHINESE_ONLY = ScriptPattern(f"[{''.join(sorted(_SIMPLIFIED - set('来学点与将体条')))}的了吗怎么这们您吧呢哪把被给]")

# Letters one language (of those voted) writes and its neighbours do not.
_LETTERS = {
    "ß": "de",
    "ñ": "es",
    "ã": "pt",
    "õ": "pt",
    "ł": "pl",
    "ř": "cs",
    "ů": "cs",
    "ő": "hu",
    "ű": "hu",
    "ı": "tr",
    "ğ": "tr",
    "ș": "ro",
    "ț": "ro",
    "ø": "da",
    "æ": "da",
    "ї": "uk",
    "є": "uk",
    "ґ": "uk",
    "і": "uk",
    "ы": "ru",
    "э": "ru",
    "ъ": "ru",
    "ё": "ru",
}

# Words European and Brazilian Portuguese write differently for the same thing in a help page or a
# question (``ficheiro``/``arquivo``, ``ecrã``/``tela``, ``telemóvel``/``celular``): each is a vote
# for its variant. Words both write in either (``padrão``, ``você``, ``configurações`` turn up in
# European pages too) are left out. On Obsidian's help vault none of its 173 pt pages is told
# Brazilian and none of its 173 pt-br pages European; the shortest say neither.
_PT_WORDS = (
    "ficheiro ficheiros utilizador utilizadores ecrã ecrãs telemóvel telemóveis equipa equipas registo registos "
    "secção secções aceder contacto contactos partilhar partilha predefinição predefinições predefinido "
    "predefinida gerir separador separadores premir prima aplicação definições",
    "arquivo arquivos usuário usuários tela telas celular celulares equipe equipes registro registros seção "
    "seções acessar contato contatos compartilhar compartilhamento gerenciar aba abas aplicativo aplicativos",
)
_EUROPEAN, _BRAZILIAN = (frozenset(words.split()) for words in _PT_WORDS)

_CJK = ScriptPattern(
    "[\u1100-\u11ff\u3041-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9d\U00020000-\U0002fa1f]"
)
_HANGUL = ScriptPattern("[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")
_KANA = ScriptPattern("[\u3041-\u3096\u30a1-\u30fa\u31f0-\u31ff\uff66-\uff9d]")
_OTHER = ScriptPattern("[\u0370-\u03ff\u0590-\u06ff\u0900-\u09ff\u0e00-\u0e7f\u1780-\u17ff]")
_OTHER_SCRIPTS = (  # (last code point, language); None: a script of several languages here
    (0x03FF, "el"),
    (0x05FF, "he"),
    (0x06FF, None),
    (0x097F, "hi"),
    (0x09FF, "bn"),
    (0x0E7F, "th"),
    (0x17FF, "km"),
)
_ASCII_NON_LETTERS = bytes(b for b in range(128) if not chr(b).isalpha())
# Punctuation and digits become spaces, so words split at them (a regex is 4x slower here).
_SPACES = str.maketrans({c: " " for c in "\"'`.,;:!?()[]{}<>|/\\*#=+~^%$&@0123456789_-–—…«»„“”‘’¿¡·•→›"})
VOTE_SAMPLE = 1500
"""Characters of a note whose words vote: hundreds of words, plenty for a clear majority."""


ENGLISH_IN_QUESTIONS = ENGLISH_FUNCTION_WORDS | frozenset(
    [
        "about",
        "after",
        "all",
        "also",
        "am",
        "any",
        "because",
        "been",
        "before",
        "between",
        "both",
        "doing",
        "each",
        "had",
        "just",
        "me",
        "more",
        "most",
        "my",
        "other",
        "our",
        "out",
        "some",
        "than",
        "them",
        "those",
        "through",
        "too",
        "under",
        "until",
        "up",
        "very",
        "we",
        "while",
        "without",
    ]
)
"""The English words a question's vote counts: the ``stop-words`` package's English list (1,333
words) also holds words every language borrows (``web``, ``site``, ``computer``, ``online``) and
two-letter codes (``il``, ``na``, ``de``), one of which told ``quero publicar o meu vault na web``
and ``il mio sito web`` English. A note has hundreds of words to outvote them; a question has a
few."""


@lru_cache(maxsize=2)
def _votes(question: bool = False) -> dict[str, tuple[tuple[str, float], ...]]:
    """Each function word → the languages that use it, each with its share of the vote;
    ``question``: English by its function words alone (``ENGLISH_IN_QUESTIONS``)."""
    users: dict[str, list[str]] = {}
    for code in VOTED:
        for word in stop_words.get_stop_words(_NAMES.get(code, code)):
            word = word.casefold()
            if not (question and code == "en" and word not in ENGLISH_IN_QUESTIONS):
                users.setdefault(word, []).append(code)
    return {word: tuple((code, 1.0 / len(codes)) for code in codes) for word, codes in users.items()}


def _chinese(text: str) -> str:
    simplified = sum(map(text.count, _SIMPLIFIED))
    traditional = sum(map(text.count, _TRADITIONAL))
    return TRADITIONAL if traditional > simplified else "zh"


def detect(text: str, among: frozenset[str] | None = None, *, short: bool = False) -> str | None:
    """The language ``text`` is written in, or None when it does not say.

    ``among``: the languages it may be (an index's notes' languages); ``short``: a question,
    where one vote may decide (a note needs three)."""
    sample = text[:SAMPLE]
    needed = 1.0 if short else 3.0
    if sample.isascii() or max(sample) < "\u0370":
        return _told(sample, among, short)
    # Counted in C (a regex over every character would cost more than the rest of indexing a
    # note): ASCII letters, and the characters outside ASCII.
    ascii_only = sample.encode("ascii", "ignore")
    letters = len(ascii_only.translate(None, _ASCII_NON_LETTERS)) + len(sample) - len(ascii_only)
    cjk = "".join(_CJK.findall(sample)) if max(sample) >= "\u1100" else ""
    # An ideograph says as much as a word ("Templater插件导致同步冲突" is Chinese), and a page
    # quotes code in Latin letters: a sixth of its letters in these scripts tell.
    if cjk and 6 * len(cjk) >= letters:
        hangul, kana = len(_HANGUL.findall(cjk)), len(_KANA.findall(cjk))
        if 2 * hangul >= len(cjk):
            return _allowed("ko", among)
        if kana * 10 >= len(cjk) - hangul:
            return _allowed("ja", among)
        if short and not _CHINESE_ONLY.search(cjk):
            return None  # a few ideographs (全文検索) are Japanese as often as Chinese
        return _allowed(_chinese(cjk), among)
    other = _OTHER.findall(sample)
    # A page in Hebrew or Thai often quotes more code than prose: a sixth of its letters tell.
    if 6 * len(other) >= letters:
        blocks = Counter(next(code for last, code in _OTHER_SCRIPTS if ord(c) <= last) for c in other[:200])
        code = blocks.most_common(1)[0][0]
        if code is None:  # the Arabic script: Arabic or Persian by their words
            return _voted(sample[:VOTE_SAMPLE], frozenset({"ar", "fa"}) & (among or {"ar", "fa"}), needed)
        return _allowed(code, among)
    return _told(sample, among, short)


def _told(sample: str, among: frozenset[str] | None, short: bool) -> str | None:
    code = _voted(sample[:VOTE_SAMPLE], among, 1.0 if short else 3.0)
    return variant(code, sample, short=short) if code else None


def _allowed(code: str, among: frozenset[str] | None) -> str | None:
    return code if among is None or code in among else None


def _voted(sample: str, among: frozenset[str] | None, needed: float) -> str | None:
    votes = _votes(question=needed <= 1.0)
    lowered = sample.casefold()
    words = Counter(lowered.translate(_SPACES).split())
    tally: dict[str, float] = {}
    # Only the function words the text holds (a set intersection in C) are looked at.
    for word in words.keys() & votes.keys():
        n = words[word]
        for code, share in votes[word]:
            tally[code] = tally.get(code, 0.0) + n * share
    for letter, code in _LETTERS.items():
        if letter in lowered:
            tally[code] = tally.get(code, 0.0) + lowered.count(letter)
    bases = None if among is None else {base(code) for code in among}
    ranked = sorted(((n, code) for code, n in tally.items() if bases is None or code in bases), reverse=True)[:2]
    if not ranked or ranked[0][0] < needed:
        return None
    if len(ranked) > 1 and ranked[1][0] * 1.5 >= ranked[0][0]:
        return None  # too close to call
    return ranked[0][1]


def variant(code: str, text: str, *, short: bool = False) -> str:
    """``code`` as the variant ``text`` is written in: Portuguese as European (``pt-pt``) or
    Brazilian (``pt-br``) when its words say which, by as many votes as ``detect`` needs for a
    language and twice the other's; else ``code`` itself, which goes with both."""
    if code != "pt":
        return code
    needed = 1.0 if short else 3.0
    words = Counter(text[:SAMPLE].casefold().translate(_SPACES).split())
    european = sum(words[w] for w in _EUROPEAN.intersection(words))
    brazilian = sum(words[w] for w in _BRAZILIAN.intersection(words))
    if european >= needed and european >= 2 * brazilian:
        return "pt-pt"
    if brazilian >= needed and brazilian >= 2 * european:
        return "pt-br"
    return code
