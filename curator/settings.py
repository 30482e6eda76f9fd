"""Settings: a vault's ``.kp/config.yaml`` read into the settings models.

The models (frozen dataclasses, one docstring per field) live in ``curator.settings_models`` and
are imported from here. What a config may say is checked in ``curator.settings_checks``; its
parsed YAML is kept outside the vault by ``curator.settings_cache``, keyed by the config file's
bytes, so the YAML parser only runs when the file changes (``load``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from typing import Any

from curator import settings_cache, yaml_reader
from curator.errors import ConfigError
from curator.settings_checks import build, check_values
from curator.settings_models import (
    AttachmentSettings,
    DigestSettings,
    EmbedderSettings,
    IndexSettings,
    LimitSettings,
    NoteSettings,
    ProducerSettings,
    SearchSettings,
    Settings,
    SourceSettings,
)

__all__ = [
    "CONFIG",
    "AttachmentSettings",
    "DigestSettings",
    "EmbedderSettings",
    "IndexSettings",
    "LimitSettings",
    "NoteSettings",
    "ProducerSettings",
    "SearchSettings",
    "Settings",
    "SourceSettings",
    "config_data",
    "deprecated",
    "from_dict",
    "load",
    "parse",
]


def from_dict(data: Any) -> Settings:
    settings: Settings = build(Settings, data)
    check_values(settings)
    if not deprecated(data):
        # One list dates a note: the digest reads notes.date_keys unless the old key is set.
        digest = dataclasses.replace(settings.digest, created_keys=settings.notes.date_keys)
        settings = dataclasses.replace(settings, digest=digest)
    return settings


def deprecated(data: Any) -> list[str]:
    """Keys of a parsed config that still work but have a newer name, each with what to do."""
    digest = data.get("digest") if isinstance(data, dict) else None
    if isinstance(digest, dict) and "created_keys" in digest:
        return [
            "digest.created_keys is deprecated: notes.date_keys dates a note for search and the digest "
            "alike; move the list there and remove digest.created_keys (until then it still dates digests)"
        ]
    return []


def parse(raw: bytes) -> Settings:
    """Parse the bytes of ``.kp/config.yaml``."""
    return from_dict(config_data(raw))


def config_data(raw: bytes) -> Any:
    """The YAML of ``.kp/config.yaml`` as plain data (None for an empty file)."""
    if not raw.strip():
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(".kp/config.yaml is not UTF-8") from None
    try:
        return yaml_reader.load(text, pure=True)
    except yaml_reader.YamlTooLarge as e:
        raise ConfigError(f".kp/config.yaml {e.problem}") from None
    except yaml_reader.YamlRefused as e:
        raise ConfigError(f".kp/config.yaml is not valid YAML{e.where}: {e.problem}") from None


CONFIG = ".kp/config.yaml"
"""The vault's configuration, relative to its root."""


def load(vault_root: str, *, use_cache: bool = True) -> Settings:
    """Settings for the vault at ``vault_root``.

    What is cached is the config file's parsed YAML, keyed by its bytes, never the settings
    built from it: the defaults and checks are this release's (``from_dict`` runs every time),
    so a release that changes a default reaches every vault at once. Parsing is what the cache
    spares: importing ruamel.yaml and reading the default config with it cost a process
    about 22 ms here (more for a longer config), building the settings from the data 1 ms.
    """
    path = os.path.join(vault_root, *CONFIG.split("/"))
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        raw = b""
    except OSError as e:
        raise ConfigError(f"cannot read .kp/config.yaml: {e.strerror}") from None
    digest = hashlib.sha256(raw).hexdigest()
    kept = settings_cache.read(vault_root, digest) if use_cache else None
    if kept is not None:
        return from_dict(kept["data"])
    data = config_data(raw)
    settings = from_dict(data)
    if use_cache:
        settings_cache.write(vault_root, digest, data)
    return settings
