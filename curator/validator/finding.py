"""Findings: what the validator reports, one stable code per rule family (SPEC §2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

RULES = {
    "KP001": "manifest",
    "KP002": "path escapes the vault",
    "KP003": "producer-owned path",
    "KP004": "managed region",
    "KP005": "does not apply",
    "KP006": "identity",
    "KP007": "Curator's own files",
    "KP008": "frontmatter",
    "KP009": "content",
    "KP010": "not a note",
    "KP011": "adds a secret (a warning)",
}


@dataclass(frozen=True)
class Finding:
    code: str
    path: str
    message: str
    line: int | None = None
    warning: bool = False
    """Reported but not blocking: something already wrong before the change (KP008 for a
    frontmatter that was invalid YAML in the committed version too), or something a person
    should see before deciding (KP011, a secret the change adds)."""

    def sort_key(self) -> tuple[str, int, str, str]:
        return (self.path, self.line or 0, self.code, self.message)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"code": self.code, "path": self.path}
        if self.line is not None:
            data["line"] = self.line
        data["message"] = self.message
        if self.warning:
            data["warning"] = True
        return data


def blocking(findings: list[Finding]) -> bool:
    return any(not f.warning for f in findings)


def ordered(findings: list[Finding]) -> list[Finding]:
    return sorted(set(findings), key=Finding.sort_key)
