"""The leak scanner's patterns for known token shapes: detect-secrets' pattern plugins, run
directly over each line, and the shapes those plugins do not know or cut short (``EXTRA``).

Every pattern here, and the scanner's others, is compiled the first time a scan uses it
(``lazy``): a process that imports the scanner and never scans (``curator validate`` on notes,
the pre-commit hook) compiles none of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, cast


class LazyPattern:
    """A regular expression compiled the first time one of its methods is asked for: the
    scanner's own two dozen patterns cost 4 ms to compile (11 ms on a busy machine), which every
    process importing the scanner paid, scanning or not. After that first use the compiled
    pattern's methods are this object's own attributes, so a scan calls them as directly as
    before. Hand-written: ``re`` has no lazy compile."""

    METHODS = ("finditer", "search", "match", "fullmatch", "split", "sub", "findall")

    def __init__(self, source: str) -> None:
        self.source = source

    def __getattr__(self, name: str) -> Any:
        compiled = re.compile(self.source)
        for method in self.METHODS:
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)


def lazy(source: str) -> re.Pattern[str]:
    """``source`` compiled on first use; what the scanner calls of a pattern (``METHODS``)
    behaves as the compiled pattern's own."""
    return cast("re.Pattern[str]", LazyPattern(source))


EXTRA: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("AWS Access Key", lazy(r"\b(?:A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("Google API Key", lazy(r"\bAIza[0-9A-Za-z_\-]{35}")),
    ("Hugging Face Token", lazy(r"\bhf_[A-Za-z0-9]{30,}")),
    ("npm Token", lazy(r"\bnpm_[A-Za-z0-9]{36}")),
    ("GitHub Token", lazy(r"\b(?:gh[pousr]_[A-Za-z0-9_]{36,}|github_pat_[A-Za-z0-9_]{22,})")),
    ("OpenAI-style Key", lazy(r"\bsk-(?:proj-|live-|test-|ant-)?[A-Za-z0-9_\-]{20,}")),
    ("Stripe Access Key", lazy(r"\b(?:[rs]k_(?:live|test)_[0-9A-Za-z]{24,}|whsec_[0-9A-Za-z]{24,})")),
    ("age Secret Key", lazy(r"\bAGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}\b")),
    ("AWS Signature", lazy(r"(?<=X-Amz-Signature=)[0-9a-f]{64}\b")),
    ("JSON Web Token", lazy(r"(?<![A-Za-z0-9_\-])eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*")),
)
SKIP_PLUGINS = {
    "Base64HighEntropyString",
    "HexHighEntropyString",
    "IPPublicDetector",
    "KeywordDetector",
    "BasicAuthDetector",
    "NpmDetector",
    "JwtTokenDetector",
}
"""The entropy plugins only look inside quotes and flag prose; the keyword, basic-auth, npm and
JWT plugins are replaced by hand-written rules (see ``curator.leaks``'s docstring)."""

# Cheap tests that a line could match a plugin at all: these five plugins' patterns open with
# look-behinds that are tried at every position of every line, about 90% of the scan's time.
_ASSIGNMENT: Callable[[str], bool] = lambda line: "=" in line or ":" in line  # noqa: E731
PRECHECK: dict[str, Callable[[str], bool]] = {
    "IbmCloudIamDetector": _ASSIGNMENT,
    "IbmCosHmacDetector": _ASSIGNMENT,
    "CloudantDetector": _ASSIGNMENT,
    "SoftlayerDetector": _ASSIGNMENT,
    "ArtifactoryDetector": lambda line: "AKC" in line or "AP" in line,
    "MailchimpDetector": lambda line: "-us" in line,
}
