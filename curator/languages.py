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
UNSTEMMED = frozenset({"zh", "ja", "ko", "th", "lo", "km", "my", "vi", "he", "fa", "uk", "bg", "ka"})
"""Known languages without a stemmer here: their words are marked as they are."""

def normalise_code(value: Any) -> str | None:
    """``de-DE`` → ``de``; None for anything that is not a language tag."""
    if not isinstance(value, str):
        return None
    code = value.strip().replace("_", "-").split("-", 1)[0].casefold()
    return code if code.isalpha() and 2 <= len(code) <= 3 else None


def known(code: str | None) -> bool:
    return code is not None and (code == ENGLISH or code in STEMMERS or code in UNSTEMMED)
