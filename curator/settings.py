"""Settings: ``.kp/config.yaml`` as frozen dataclasses, one docstring per field.

Dataclasses rather than pydantic models because a no-change ``curator index``
must stay a stat walk: pydantic and ruamel.yaml together cost more than the walk
itself. The config's parsed YAML is cached outside the vault, keyed by the config
file's bytes, so the YAML parser only runs when the file changes (``load``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import posixpath
import re
import types
import typing
from dataclasses import dataclass, field
from typing import Any

from curator import clock, yaml_reader
from curator.errors import ConfigError, WriteRefused
from curator.fsutil import write_atomic
from curator.languages import known, normalise_code
from curator.locations import default_index_dir, make_private, shared_folder

NORMALISATION_MODES = ("plain", "fold", "stem", "fold+stem")
EMBEDDER_PROVIDERS = ("local", "openai", "ollama", "none")
SOURCE_TYPES = ("zotero", "csl-json", "jsonl")
LOCAL_RUNTIMES = ("auto", "bf16", "fp32")
SOURCE_NAME_RE = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


@dataclass(frozen=True)
class NoteSettings:
    include: tuple[str, ...] = ("*.md", "*.markdown", "*.mdx", "*.txt")
    """Globs of files that are notes (gitignore-style; a pattern without '/' matches any folder)."""
    exclude: tuple[str, ...] = (".github/", ".obsidian/", ".trash/")
    """Globs kept out of every command even when they match include (a trailing '/' is a folder; '!' takes back)."""
    digest_dir: str = "digests"
    """Folder the librarian writes digest notes into."""
    now_note: str = "now.md"
    """The note that says what the person cares about now (the digest's interest anchor)."""
    max_bytes: int = 10 * 1024 * 1024
    """Notes larger than this are skipped by the index and named."""
    date_keys: tuple[str, ...] = ("created", "date")
    """Frontmatter keys holding a note's date (the first one present wins): what --since/--until read."""
    timezone: str | None = None
    """The zone a note's date without an offset is read in (`created: 2026-12-04 08:05`, as
    Obsidian and Templater write it): an IANA name such as Europe/Berlin; None: the machine's."""


@dataclass(frozen=True)
class AttachmentSettings:
    include: tuple[str, ...] = ()
    """Globs of attachments whose text is indexed and searched: PDFs and Word files (.docx), e.g.
    ["*.pdf", "*.docx"]. Empty (the default): attachments are skipped and named. Needs the
    `attachments` extra."""
    max_bytes: int = 100 * 1024 * 1024
    """Attachments larger than this are skipped and named."""
    max_pages: int = 2000
    """A PDF with more pages is skipped and named."""
    max_seconds: int = 60
    """CPU seconds one attachment may take to read; one that takes more is stopped, skipped and named."""
    max_memory_mb: int = 1024
    """Memory one attachment may take to read; one that needs more is stopped, skipped and named."""


@dataclass(frozen=True)
class ProducerSettings:
    names: tuple[str, ...] = ("curio",)
    """Producers whose managed regions (<!-- NAME:begin X --> … <!-- NAME:end X -->) are theirs."""
    paths: tuple[str, ...] = (".curio/**",)
    """Globs of producer-owned paths that no proposal may touch."""
    lifecycle_keys: tuple[str, ...] = ("status",)
    """Frontmatter keys that hold lifecycle: no proposal may add one to a note a producer owns
    (its next render would drop it; lifecycle lives in the index). A person's own notes may
    carry them (a Dataview status:), and a person's commits are never refused for one."""


@dataclass(frozen=True)
class LimitSettings:
    max_file_bytes: int = 1024 * 1024
    """Largest file a proposal may write."""
    max_proposal_bytes: int = 10 * 1024 * 1024
    """Largest total size of a proposal's contents."""


@dataclass(frozen=True)
class IndexSettings:
    dir: str | None = None
    """Index directory; default $XDG_CACHE_HOME/curator/<vault key>. Keep it outside the vault."""
    normalisation: str = "fold+stem"
    """Lexical normalisation: plain, fold (accents), stem (by each note's language), fold+stem."""
    language: str = "en"
    """The language of notes that say none (frontmatter lang) and match no folder in languages."""
    languages: dict[str, str] = field(default_factory=dict)
    """Folder glob → language code, for notes without a frontmatter lang (e.g. {"de/": de})."""


@dataclass(frozen=True)
class EmbedderSettings:
    provider: str = "local"
    """local, openai, ollama or none (lexical only). CURATOR_EMBEDDER overrides it for one run."""
    model: str | None = None
    """Model name; None means the provider's default (local: all-MiniLM-L6-v2)."""
    dims: int | None = None
    """Vector size; None means the model's known size."""
    base_url: str | None = None
    """Endpoint for openai/ollama; environment variables win. Never put keys here."""
    batch_size: int = 64
    """Passages per embedding request."""
    runtime: str = "auto"
    """How the local model computes: auto (bf16 on CPUs with bfloat16 units, else fp32), bf16
    or fp32. Each is its own epoch: changing it means `curator index rebuild`."""


@dataclass(frozen=True)
class SearchSettings:
    k: int = 10
    """Hits returned by default."""
    links: bool = False
    """Add a third ranked list: link neighbours of the top hits."""
    mmr: bool = False
    """Diversify the fused list with maximal marginal relevance."""


@dataclass(frozen=True)
class DigestSettings:
    k: int = 10
    """Notes in a digest when --k is not given."""
    half_life_days: float = 14.0
    """A note's weight is exp(-age / half_life_days) (--half-life-days overrides it)."""
    created_keys: tuple[str, ...] = ("created", "date")
    """Deprecated: ``notes.date_keys`` dates a note for search and the digest alike. Set, it
    still wins for the digest (doctor says it is deprecated); unset, it is notes.date_keys."""


@dataclass(frozen=True)
class SourceSettings:
    """One read-only source beside the vault (a list entry under ``sources:``)."""

    name: str = ""
    """What it is called: in `curator sources`, and in corpus references (jsonl:NAME/ID).
    Lower-case letters, digits, '-' and '_'."""
    type: str = ""
    """zotero (a zotero.sqlite), csl-json (a Zotero or Better BibTeX CSL-JSON export) or
    jsonl (a corpus: one JSON document a line, gzip accepted)."""
    path: str = ""
    """The file; ~ is expanded and a relative path is taken from the vault root."""
    notes: bool = True
    """zotero: index each item's child notes with it."""
    collections: tuple[str, ...] = ()
    """zotero: only items in these collections ('Parent/Child' paths, subcollections
    included); empty means the whole library."""
    better_bibtex: str | None = None
    """zotero: Better BibTeX's database, for citation keys; default better-bibtex.sqlite
    beside the library."""
    max_item_bytes: int = 10 * 1024 * 1024
    """jsonl: a line longer than this is skipped and named."""
    attachments: bool = False
    """zotero: index the text of each item's PDF in Zotero's storage folder with the item, cited by
    page (zotero:KEY#page=3), read under the attachments.* limits. Needs the `attachments` extra."""


@dataclass(frozen=True)
class Settings:
    notes: NoteSettings = field(default_factory=NoteSettings)
    attachments: AttachmentSettings = field(default_factory=AttachmentSettings)
    producers: ProducerSettings = field(default_factory=ProducerSettings)
    limits: LimitSettings = field(default_factory=LimitSettings)
    index: IndexSettings = field(default_factory=IndexSettings)
    embedder: EmbedderSettings = field(default_factory=EmbedderSettings)
    search: SearchSettings = field(default_factory=SearchSettings)
    digest: DigestSettings = field(default_factory=DigestSettings)
    sources: tuple[SourceSettings, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


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
            return tuple(_build(element, v, f"{where}[{i}]") for i, v in enumerate(value))
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            raise ConfigError(f"{where} must be a list, not {value!r}")
        return tuple(_check(v, str, f"{where}[{i}]") for i, v in enumerate(value))
    raise AssertionError(f"unhandled settings type {tp}")


def _build(cls: Any, data: Any, where: str) -> Any:
    if data is None:
        return cls()
    if not isinstance(data, dict):
        raise ConfigError(f"{where or 'config'} must be a mapping, not {type(data).__name__}")
    hints = typing.get_type_hints(cls)
    known = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(map(str, data)) - known)
    if unknown:
        raise ConfigError(
            f"unknown key {(where + '.' if where else '') + unknown[0]} in .kp/config.yaml",
            hint="known: " + ", ".join(sorted(known)),
        )
    kwargs = {}
    for name, value in data.items():
        sub = f"{where}.{name}" if where else name
        tp = hints[name]
        if dataclasses.is_dataclass(tp):
            kwargs[name] = _build(tp, value, sub)
        else:
            kwargs[name] = _check(value, tp, sub)
    return cls(**kwargs)


def _semantic_checks(s: Settings) -> None:
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


def from_dict(data: Any) -> Settings:
    settings: Settings = _build(Settings, data, "")
    _semantic_checks(settings)
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
        at = f" at line {e.line}" if e.line is not None else ""
        raise ConfigError(f".kp/config.yaml is not valid YAML{at}") from None


CONFIG = ".kp/config.yaml"
"""The vault's configuration, relative to its root."""


def _cache_file(vault_root: str) -> str:
    return os.path.join(default_index_dir(vault_root), "settings.json")


def _read_cache(cache: str) -> Any:
    """The cached data when the file is this user's in a folder no one else may write in: the
    config decides what the validator allows, so a cache another user planted would decide it."""
    if shared_folder(os.path.dirname(cache)) is not None:
        return None
    fd = os.open(cache, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    with os.fdopen(fd, encoding="utf-8") as f:
        info = os.fstat(f.fileno())
        if info.st_uid != os.geteuid() or info.st_mode & 0o022:
            return None
        return json.load(f)


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
    cache = _cache_file(vault_root)
    if use_cache:
        try:
            cached = _read_cache(cache)
            if cached is not None and cached.get("sha256") == digest and "data" in cached:
                return from_dict(cached["data"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass
    data = config_data(raw)
    settings = from_dict(data)
    if use_cache:
        # The cache only saves time: a folder that cannot be kept private holds none.
        with contextlib.suppress(OSError, TypeError, ValueError, WriteRefused):
            encoded = json.dumps({"sha256": digest, "data": data}).encode("utf-8")
            if json.loads(encoded)["data"] != data:
                raise ValueError("JSON does not hold this YAML as it is (a date, a number as a key)")
            make_private(os.path.dirname(cache))  # the index's folder (locations.make_private)
            write_atomic(cache, encoded, 0o600)
    return settings
