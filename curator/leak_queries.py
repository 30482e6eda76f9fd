"""The leak scanner's rules for a query: a line typed as a question and sent whole to a remote
embedder, where a note's rules (``curator.leak_rules``) miss what a question is shaped like.

A note's assignment rule wants ``password: value`` to end its line, because notes are full of
prose such as ``Password: required for login``; a question goes on after the value
(``token: ghp_Ab3dEf5gH7Ij9kL1 rejected``), names its key without a separator (``api key
c2VjcmV0a2V5MTIzNA==``) and pastes part of a token. Withholding a query costs one lexical-only
answer with a warning; sending a secret cannot be undone. So a query is judged more strictly,
by three more rules:

- a provider's prefix with at least eight characters after it, however short the rest is
  (``ghp_``, ``github_pat_``, ``glpat-``, ``xoxb-``, ``hf_``, ``npm_``, ``whsec_``, and ``sk-``
  when what follows mixes letters and digits: ``sk-learn-tutorial`` is a library);
- a word that names a secret (``key_names_secret``), then ``:``, ``=``, ``is`` or nothing, then a
  value: a password's value when it mixes letters and digits, any other key's when it looks
  random (``value_is_secret`` and ``_random_looking``), whatever words follow;
- base64 too short for the high-entropy rule's 20 characters: 12 or more, padded with ``=`` and
  decoding, or mixing upper case, lower case and two digits and changing class at least every
  other character (``iPhone15ProMax`` and ``ResNet50V2`` do not).
"""

from __future__ import annotations

import base64
import binascii
import math
import re

from curator.leak_entropy import class_changes, entropy
from curator.leak_rules import filler, key_names_secret, letters_and_digits, value_is_secret

QUERY_TOKEN = "Token in a Query"
QUERY_ASSIGNED = "Secret in a Query"
QUERY_BASE64 = "Base64 Key in a Query"

PREFIXED = re.compile(
    r"(?<![A-Za-z0-9_\-])(?:(gh[pousr]_|github_pat_|glpat-|xox[abposr]-|hf_|npm_|whsec_|[rs]k_(?:live|test)_)"
    r"|(sk-(?:proj-|ant-|live-|test-)?))([A-Za-z0-9_\-]{8,255})"
)
WORD = re.compile(r"[^\s]{1,256}")
SEPARATORS = frozenset({":", "=", ":=", "is", "was", "=>"})
SHORT_BASE64 = re.compile(r"(?<![A-Za-z0-9+/_\-])([A-Za-z0-9+/]{12,19})(={0,2})(?![A-Za-z0-9+/=_\-])")
_TRIM = "\"'`()[]{}<>,;.!?*"
WORDLIKE = re.compile(r"[A-Z][a-z]{2,}|[a-z]{3,}|[A-Z]{3,}(?![a-z])")
"""The words a name is made of (``Phone``, ``Pro``, ``MAX``): random base64 holds few of them."""


def query_secrets(query: str) -> list[str]:
    """The kinds of secret these rules find in ``query`` (empty when it reads as a question)."""
    kinds = set()
    for m in PREFIXED.finditer(query):
        if not filler(m[0]) and (m[1] or letters_and_digits(m[3])):
            kinds.add(QUERY_TOKEN)
    if _keyed_value(query):
        kinds.add(QUERY_ASSIGNED)
    if any(_short_base64(m[1], m[2]) for m in SHORT_BASE64.finditer(query)):
        kinds.add(QUERY_BASE64)
    return sorted(kinds)


def _keyed_value(query: str) -> bool:
    words = [w.strip(_TRIM) for w in WORD.findall(query)]
    for i, word in enumerate(words):
        key = word.rstrip(":=")
        names = key_names_secret(key) if key else None
        if names is None:
            continue
        rest = [w for w in words[i + 1 : i + 3] if w]
        while rest and rest[0].casefold() in SEPARATORS:
            rest = rest[1:]
        if not rest:
            continue
        value = rest[0].lstrip(":=")
        if not value or not value_is_secret(value, names, quoted=True):
            continue
        if letters_and_digits(value) if names == "password" else _looks_random(value):
            return True
    return False


def _looks_random(value: str) -> bool:
    core = value.rstrip("=")
    if _short_base64(core, value[len(core) :]):
        return True
    return len(core) >= 16 and letters_and_digits(core) and not _wordlike(core) and entropy(core) >= 3.0


def _wordlike(core: str) -> bool:
    return 2 * sum(len(m[0]) for m in WORDLIKE.finditer(core)) >= len(core)


def _short_base64(core: str, padding: str) -> bool:
    if len(core) < 12 or _wordlike(core):
        return False
    if padding and (len(core) + len(padding)) % 4 == 0:
        try:
            base64.b64decode(core + padding, validate=True)
        except (binascii.Error, ValueError):
            return False
        return letters_and_digits(core)
    if not (any(c.islower() for c in core) and any(c.isupper() for c in core)):
        return False
    if sum(c.isdigit() for c in core) < 2:
        return False
    changes = class_changes(core)
    return changes >= 0.5 and entropy(core) >= 0.85 * math.log2(len(core))
