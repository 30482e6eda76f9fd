"""What ``.kp/config.yaml`` may say: every key known, every value of its field's type, and the
values checked against each other and the vault (``build``, ``check_values``). A config that breaks
one is a ``ConfigError`` naming the key; ``curator.settings`` builds its models through these.
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
import types
import typing
from typing import Any

from curator import clock
from curator.errors import ConfigError
from curator.languages import known, normalise_code
from curator.settings_models import Settings, SourceSettings

NORMALISATION_MODES = ("plain", "fold", "stem", "fold+stem")
EMBEDDER_PROVIDERS = ("local", "openai", "ollama", "none")
SOURCE_TYPES = ("zotero", "csl-json", "jsonl")
LOCAL_RUNTIMES = ("auto", "bf16", "fp32")
SOURCE_NAME_RE = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


def _check(value: Any, tp: Any, where: str) -> Any:
    origin = typing.get_origin(tp)
    if tp is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{where} must be true or false, not {value!r}")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ConfigError(f"{where} must be a non-negative integer, not {value!r}")
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise ConfigError(f"{where} must be a non-negative number, not {value!r}")
        return float(value)
    if tp is str:
        if not isinstance(value, str) or not value:
            raise ConfigError(f"{where} must be a non-empty string, not {value!r}")
        return value
    if origin is dict:
        if not isinstance(value, dict):
            raise ConfigError(f"{where} must be a mapping, not {value!r}")
        return {_check(k, str, f"{where} key"): _check(v, str, f"{where}[{k}]") for k, v in value.items()}
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        return None if value is None else _check(value, args[0], where)
    if origin is tuple:
        element = typing.get_args(tp)[0]
        if dataclasses.is_dataclass(element):
            if not isinstance(value, list):
                raise ConfigError(f"{where} must be a list of mappings, not {value!r}")
            return tuple(build(element, v, f"{where}[{i}]") for i, v in enumerate(value))
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            raise ConfigError(f"{where} must be a list, not {value!r}")
        return tuple(_check(v, str, f"{where}[{i}]") for i, v in enumerate(value))
    raise AssertionError(f"unhandled settings type {tp}")


def build(cls: Any, data: Any, where: str = "") -> Any:
    """An instance of the settings dataclass ``cls`` from parsed YAML, each key known and each value
    of its field's type; ``where`` is the dotted key it sits under (for the error)."""
    if data is None:
        return cls()
    if not isinstance(data, dict):
        raise ConfigError(f"{where or 'config'} must be a mapping, not {type(data).__name__}")
    hints = typing.get_type_hints(cls)
    known = {f.name for f in dataclasses.fields(cls)}
    # Every mistake of the file is said at once (in one line), not the first one per run.
    problems: list[ConfigError] = [
        ConfigError(
            f"unknown key {(where + '.' if where else '') + name} in .kp/config.yaml",
            hint="known: " + ", ".join(sorted(known)),
        )
        for name in sorted(set(map(str, data)) - known)
    ]
    kwargs = {}
    for name, value in data.items():
        if name not in known:
            continue
        sub = f"{where}.{name}" if where else name
        tp = hints[name]
        try:
            kwargs[name] = build(tp, value, sub) if dataclasses.is_dataclass(tp) else _check(value, tp, sub)
        except ConfigError as e:
            problems.append(e)
    if len(problems) == 1:
        raise problems[0]
    if problems:
        raise ConfigError("; ".join(p.message for p in problems), hint=next((p.hint for p in problems if p.hint), None))
    return cls(**kwargs)


def check_values(s: Settings) -> None:
    """What types cannot say: a value one of a few, a number at least so, a folder inside the vault."""
    if s.index.normalisation not in NORMALISATION_MODES:
        raise ConfigError(
            f"index.normalisation is {s.index.normalisation!r}",
            hint="one of " + ", ".join(NORMALISATION_MODES),
        )
    if s.embedder.provider not in EMBEDDER_PROVIDERS:
        raise ConfigError(
            f"embedder.provider is {s.embedder.provider!r}",
            hint="one of " + ", ".join(EMBEDDER_PROVIDERS),
        )
    if s.embedder.runtime not in LOCAL_RUNTIMES:
        raise ConfigError(f"embedder.runtime is {s.embedder.runtime!r}", hint="one of " + ", ".join(LOCAL_RUNTIMES))
    if s.embedder.batch_size < 1:
        raise ConfigError("embedder.batch_size must be at least 1")
    for key, value, example in (
        ("digest_dir", s.notes.digest_dir.rstrip("/"), "a folder inside the vault, such as digests"),
        ("now_note", s.notes.now_note, "a note inside the vault, such as now.md"),
    ):
        outside = value.startswith("/") or value.split("/")[0] in ("..", ".", ".kp", ".git")
        if not value or outside or posixpath.normpath(value) != value:
            raise ConfigError(f"notes.{key} is {getattr(s.notes, key)!r}", hint=example)
    if s.digest.k < 1:
        raise ConfigError("digest.k must be at least 1")
    if not s.digest.half_life_days > 0:
        raise ConfigError("digest.half_life_days must be more than 0")
    if not s.notes.include:
        raise ConfigError("notes.include is empty: no file would be a note")
    if s.notes.timezone:
        try:
            clock.zone(s.notes.timezone)
        except ValueError as e:
            raise ConfigError(f"notes.timezone: {e}", hint="leave it empty for the machine's zone") from None
    for key, least in (("max_pages", 1), ("max_seconds", 1), ("max_memory_mb", 64)):
        if getattr(s.attachments, key) < least:
            raise ConfigError(f"attachments.{key} must be at least {least}")
    _check_sources(s.sources)
    for where, code in [
        ("index.language", s.index.language),
        *((f"index.languages[{k}]", v) for k, v in s.index.languages.items()),
    ]:
        if not known(normalise_code(code)):
            raise ConfigError(
                f"{where} is {code!r}, not a language Curator knows", hint="an ISO 639-1 code such as en, de, zh"
            )


def _check_sources(sources: tuple[SourceSettings, ...]) -> None:
    names: set[str] = set()
    for i, src in enumerate(sources):
        where = f"sources[{i}]"
        for key in ("name", "type", "path"):
            if not getattr(src, key):
                raise ConfigError(f"{where} has no {key}", hint="each source needs a name, a type and a path")
        if not SOURCE_NAME_RE.fullmatch(src.name) or src.name in ("vault", "attachment"):
            raise ConfigError(
                f"{where}.name {src.name!r} is not a source name",
                hint="lower-case letters, digits, '-' and '_', at most 64, and not 'vault' or 'attachment'",
            )
        if src.name in names:
            raise ConfigError(f"{where}.name {src.name!r} is used twice", hint="give each source its own name")
        names.add(src.name)
        if src.type not in SOURCE_TYPES:
            raise ConfigError(f"{where}.type is {src.type!r}", hint="one of " + ", ".join(SOURCE_TYPES))
        if src.type != "zotero" and (src.collections or src.better_bibtex or not src.notes or src.attachments):
            raise ConfigError(
                f"{where} sets notes, collections, better_bibtex or attachments, which only zotero sources take"
            )
        if src.max_item_bytes < 1:
            raise ConfigError(f"{where}.max_item_bytes must be at least 1")
