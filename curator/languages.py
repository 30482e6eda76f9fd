"""The languages Curator knows: which have a Snowball stemmer here, and how a language tag is read.

Settings check ``index.language`` and ``index.languages`` against this list; the index
stems each note by it (``curator.index.language``).
"""

from __future__ import annotations

from typing import Any

ENGLISH = "en"
ENGLISH_FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "for",
        "from",
        "has",
        "have",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "so",
        "such",
        "that",
        "the",
        "their",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "was",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "why",
        "will",
        "with",
        "you",
        "your",
        "do",
        "does",
        "did",
        "can",
        "could",
        "should",
        "would",
        "not",
        "no",
    ]
)
"""The most frequent English function words: a question's stop words (``index.language``), and
the words that tell a question English (``index.detect``)."""
STEMMERS = {
    "ar": "arabic",
    "ca": "catalan",
    "cs": "czech",
    "da": "danish",
    "de": "german",
    "el": "greek",
    "es": "spanish",
    "et": "estonian",
    "eu": "basque",
    "fi": "finnish",
    "fr": "french",
    "ga": "irish",
    "hi": "hindi",
    "hu": "hungarian",
    "hy": "armenian",
    "id": "indonesian",
    "it": "italian",
    "lt": "lithuanian",
    "nb": "norwegian",
    "ne": "nepali",
    "nl": "dutch",
    "nn": "norwegian",
    "no": "norwegian",
    "pl": "polish",
    "pt": "portuguese",
    "pt-br": "portuguese",
    "pt-pt": "portuguese",
    "ro": "romanian",
    "ru": "russian",
    "sr": "serbian",
    "sv": "swedish",
    "ta": "tamil",
    "tr": "turkish",
    "yi": "yiddish",
}
"""Language code (ISO 639-1) → Snowball algorithm; English is FTS5's porter."""
TRADITIONAL_CHINESE = "zh-hant"
"""Chinese written in Traditional characters: a language of its own here, since a question in
Simplified characters is best answered by a page in them (``zh-TW``, ``zh-HK`` and ``zh-Hant``
are read as it)."""
UNSTEMMED = frozenset(
    {"zh", TRADITIONAL_CHINESE, "ja", "ko", "th", "lo", "km", "my", "vi", "he", "fa", "uk", "bg", "ka", "bn", "sk"}
)
"""Known languages without a stemmer here: their words are indexed as they are."""
_TRADITIONAL_TAGS = frozenset({"tw", "hk", "mo", "hant"})
VARIANTS = {"pt-pt": "pt", "pt-br": "pt"}
"""Written variants of one language told apart (``detect``): European and Brazilian Portuguese
name the same things with other words (``ficheiro``/``arquivo``, ``ecrã``/``tela``), and a
vault of translated pages holds both, where a question asked in one is best answered in it.
A note or question that shows neither is the language itself (``pt``), which goes with both."""


def base(code: str) -> str:
    """The language a variant is written in (``pt-br`` → ``pt``); any other code as it is."""
    return VARIANTS.get(code, code)


def same_language(note: str | None, question: str | None) -> bool:
    """Whether a note in language ``note`` is in the question's language: the same code, or the
    same language where one of the two does not say its variant (a ``pt`` note answers a
    ``pt-br`` question; a ``pt-pt`` note does not)."""
    if note is None or question is None:
        return False
    if note == question:
        return True
    return base(note) == base(question) and base(question) in (note, question)


def normalise_code(value: Any) -> str | None:
    """``de-DE`` → ``de``, ``zh-TW`` → ``zh-hant``, ``pt-BR`` → ``pt-br`` (``VARIANTS``); None for
    anything that is not a language tag."""
    if not isinstance(value, str):
        return None
    parts = value.strip().replace("_", "-").casefold().split("-")
    code = parts[0]
    if not (code.isalpha() and 2 <= len(code) <= 3):
        return None
    if code == "zh" and _TRADITIONAL_TAGS.intersection(parts[1:]):
        return TRADITIONAL_CHINESE
    if code == "pt" and parts[1:2] in (["br"], ["pt"]):
        return f"pt-{parts[1]}"
    return code


def known(code: str | None) -> bool:
    return code is not None and (code == ENGLISH or code in STEMMERS or code in UNSTEMMED)
