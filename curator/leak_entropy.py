"""The leak scanner's high-entropy rule: strings of 20 or more characters that read as random.

A token is flagged when it mixes upper case, lower case and digits, changes character class
often and has a Shannon entropy near the maximum for its length. Git object ids and ULIDs (all
one case) and camelCase names are not flagged; nor are data that are random but not secret: a
``data:…;base64,`` image, a lockfile's ``sha512-`` or ``h1:`` hash, an SSH public key (and,
``curator.leaks`` decides, the lines of a certificate or public key block).
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections import Counter

from curator.leak_patterns import lazy

HIGH_ENTROPY = "High-entropy String"

TOKEN = lazy(r"[A-Za-z0-9+/_\-]{20,}={0,2}")
# A ULID (Crockford base32, one case) standing as a whole path segment: proposal folders and
# kp_ids. Beside lower-case path words it reads as random mixed-case text, so a token such as
# ``proposals/01M8Q1N39VFH.../files`` is judged by the parts around it, not as one string.
ULID_SEGMENT = lazy(r"(?<![A-Za-z0-9+_\-])[0-9A-HJKMNP-TV-Z]{26}(?![A-Za-z0-9+_\-])")
# Set aside the same way: a UUID (``__DynamicModule_2ceb1d0a-990f-…``) and, in a URL, each ``/``
# (``github.com/PowerShell/PowerShell/pull/20369`` is a path of words, each judged alone).
UUID_SEGMENT = lazy(
    r"(?<![0-9A-Fa-f])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![0-9A-Fa-f])"
)
URL_SPAN = lazy(r"(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]{0,30}://\S+")
# Words, numbers and acronyms run together: a name in code (``Win32_ProcessStartTrace``,
# ``PeakPagedMemorySize64``), not random text, which soon has a lone lower-case letter. Atomic,
# so a run of digits or capitals is never split two ways (that backtracks exponentially).
IDENTIFIER = lazy(r"(?>[A-Z][a-z]{2,}|[a-z]{3,}|[A-Z]{2,}|\d+|[_\-./+])++")
SEPARATOR = lazy(r"[_\-./+]")
# Random but public: these are not high-entropy secrets (a token starting or preceded so).
NOT_SECRET_DATA = ("sha1-", "sha256-", "sha384-", "sha512-")
NOT_SECRET_BEFORE = ("base64,", "h1:", "SHA256:")
SSH_PUBLIC_KEY = lazy(
    r"\b(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d{3}|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)"
    r" AAAA[0-9A-Za-z+/]{1,16384}={0,3}"
)


def entropy(token: str) -> float:
    """Shannon entropy of ``token``'s characters, in bits a character."""
    counts = Counter(token)
    n = len(token)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def random_spans(line: str) -> list[tuple[int, int]]:
    """Spans of ``line`` that read as random text (public keys and public random data set aside)."""
    public = [m.span() for m in SSH_PUBLIC_KEY.finditer(line)] if "AAAA" in line else []
    urls = [m.span() for m in URL_SPAN.finditer(line)] if "://" in line else []
    spans: list[tuple[int, int]] = []
    for m in TOKEN.finditer(line):
        if _not_secret_data(line, m.start(), m[0]) or _inside(public, m.start()):
            continue
        spans.extend(_random_parts(line, m.start(), m.end(), urls))
    return spans


def high_entropy(token: str) -> bool:
    """Whether ``token`` reads as random: long, of mixed classes, changing class often."""
    core = token.rstrip("=")
    if len(core) < 20:
        return False
    if not (any(c.islower() for c in core) and any(c.isupper() for c in core) and any(c.isdigit() for c in core)):
        return False
    if sum(c.isdigit() for c in core) < 2 or IDENTIFIER.fullmatch(core):
        return False
    # A name of short parts (a model's ``all-MiniLM-L6-v2/384``, a version string): random
    # base64 holds a separator about once in 32 characters, never one every few.
    pieces = SEPARATOR.split(core)
    if len(pieces) >= 4 and max(map(len, pieces)) <= 8:
        return False
    # Random base64 of n characters has entropy near log2(min(n, 64)) and changes character
    # class (upper, lower, digit) at about two of three steps; identifiers and words repeat
    # letters and run in one class for several characters. Separators are not counted: in a
    # name they come between words (``What-s-New-in-PowerShell-74``), in random text anywhere.
    return class_changes(core) >= 0.4 and entropy(core) >= 0.75 * math.log2(min(len(core), 64))


def class_changes(token: str) -> float:
    """How often ``token`` changes character class (upper case, lower case, digit) from one
    letter or digit to the next, from 0 to 1; separators are not counted."""
    classes = ["u" if c.isupper() else "l" if c.islower() else "d" for c in token if c.isalnum()]
    return sum(a != b for a, b in itertools.pairwise(classes)) / max(len(classes) - 1, 1)


def _not_secret_data(line: str, start: int, token: str) -> bool:
    return token.startswith(NOT_SECRET_DATA) or any(line.startswith(p, start - len(p)) for p in NOT_SECRET_BEFORE)


def _inside(spans: list[tuple[int, int]], at: int) -> bool:
    """Whether ``at`` falls in one of ``spans`` (in order, not overlapping)."""
    i = bisect.bisect_right(spans, at, key=lambda span: span[0]) - 1
    return i >= 0 and spans[i][0] <= at < spans[i][1]


def _random_parts(line: str, start: int, end: int, urls: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
    """Spans of ``line[start:end]`` that read as random text, ULIDs and UUIDs set aside, and in a
    URL (one of ``urls``) the ``/`` between path segments."""
    cuts = [m.span() for m in ULID_SEGMENT.finditer(line, start, end)]
    if "-" in line[start:end]:
        cuts += [m.span() for m in UUID_SEGMENT.finditer(line, start, end)]
    if urls and "/" in line[start:end] and _inside(urls, start):
        cuts += [(i, i + 1) for i in range(start, end) if line[i] == "/"]
    if not cuts:
        return [(start, end)] if high_entropy(line[start:end]) else []
    parts, at = [], start
    for a, b in sorted(cuts):
        if a >= at:
            parts.append((at, a))
            at = b
    parts.append((at, end))
    return [(a, b) for a, b in parts if high_entropy(line[a:b])]
