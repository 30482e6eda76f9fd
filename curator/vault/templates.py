"""Template notes: the folders Obsidian's Templates core plugin and Templater copy new notes from.

A template is not a note with an identity of its own: every note made from it copies its
frontmatter, so a ``kp_id`` in a template turns into a duplicate in each of them. The folders
come from the vault's own settings, where those plugins keep them:

- ``.obsidian/templates.json``, ``{"folder": "Templates"}`` (the Templates core plugin);
- ``.obsidian/plugins/templater-obsidian/data.json``, ``{"templates_folder": "Templates"}``.

Neither plugin has a default folder. A vault whose settings name none (a repository without
``.obsidian/``, or one that keeps it out of git) still has templates by the name people give
their folder: a folder called ``Templates`` or ``Template``, in any case, after an ordering
prefix of digits or punctuation (``01 Templates``, ``_templates``, ``99 - Template``). The
settings win when they name a folder: then a folder named so is an ordinary folder.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass

SETTINGS = (
    (".obsidian/templates.json", "folder"),
    (".obsidian/plugins/templater-obsidian/data.json", "templates_folder"),
)
MAX_SETTINGS_BYTES = 1 << 20
NAMED_LIKE_TEMPLATES = re.compile(r"(?:[0-9]+[ ._-]*|[ _.~@!+-]+)?templates?", re.IGNORECASE)
"""A folder name that says "templates" when no setting names the folder: ``01 Templates``."""


@dataclass(frozen=True)
class TemplateFolder:
    folder: str
    """Vault-relative, without a trailing slash."""
    setting: str
    """The settings file that names it; empty for a folder known by its name alone."""

    def describe(self) -> str:
        if not self.setting:
            return f"{self.folder}/ is named as a template folder, and no Obsidian setting names another"
        return f"{self.folder}/ is the template folder in {self.setting}"


def folders(read: Callable[[str], bytes | None]) -> list[TemplateFolder]:
    """The template folders the settings read by ``read`` (vault path → bytes) name."""
    out: list[TemplateFolder] = []
    for setting, key in SETTINGS:
        try:
            raw = read(setting)
            data = json.loads(raw) if raw else None
        except (OSError, ValueError):
            continue  # unreadable settings name no folder
        value = data.get(key) if isinstance(data, dict) else None
        if not isinstance(value, str):
            continue
        folder = "/".join(p for p in value.strip().replace("\\", "/").split("/") if p and p != ".")
        if folder and ".." not in folder.split("/") and all(f.folder != folder for f in out):
            out.append(TemplateFolder(folder, setting))
    return out


def on_disk(root: str) -> list[TemplateFolder]:
    """The template folders a vault's work tree names."""

    def read(rel: str) -> bytes | None:
        path = os.path.join(root, *rel.split("/"))
        try:
            if os.path.getsize(path) > MAX_SETTINGS_BYTES:
                return None
            with open(path, "rb") as f:
                return f.read()
        except OSError:
            return None

    return folders(read)


def holding(path: str, found: list[TemplateFolder]) -> TemplateFolder | None:
    """The template folder ``path`` is in, if any: one of ``found`` (the folders the settings
    name), else, when they name none, the first folder on the way named like one."""
    if found:
        return next((f for f in found if path.startswith(f.folder + "/")), None)
    parts = path.split("/")[:-1]
    for i, name in enumerate(parts):
        if NAMED_LIKE_TEMPLATES.fullmatch(name):
            return TemplateFolder("/".join(parts[: i + 1]), "")
    return None
