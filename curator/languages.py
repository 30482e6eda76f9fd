"""The languages Curator knows: which have a Snowball stemmer here, and how a language tag is read.

Settings check ``index.language`` and ``index.languages`` against this list; the index
stems each note by it (``curator.index.language``).
"""

from __future__ import annotations

from typing import Any

ENGLISH = "en"
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


def normalise_code(value: Any) -> str | None:
    """``de-DE`` → ``de``, ``zh-TW`` → ``zh-hant``; None for anything that is not a language tag."""
    if not isinstance(value, str):
        return None
    parts = value.strip().replace("_", "-").casefold().split("-")
    code = parts[0]
    if not (code.isalpha() and 2 <= len(code) <= 3):
        return None
    if code == "zh" and _TRADITIONAL_TAGS.intersection(parts[1:]):
        return TRADITIONAL_CHINESE
    return code


def known(code: str | None) -> bool:
    return code is not None and (code == ENGLISH or code in STEMMERS or code in UNSTEMMED)
