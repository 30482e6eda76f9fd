"""The settings models: ``.kp/config.yaml`` as frozen dataclasses, one docstring per field.

Dataclasses rather than pydantic models because a no-change ``curator index`` must stay a stat
walk: pydantic and ruamel.yaml together cost more than the walk itself. ``curator.settings`` is
where they are read from a vault and imported from.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any


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
