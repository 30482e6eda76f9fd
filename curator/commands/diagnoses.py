"""What ``curator doctor`` finds: each check of the config, the notes, their links and the index,
as a ``Diagnosis`` with what to do; and the codes it can report. ``curator.commands.doctor``
prints them."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from curator import languages
from curator.commands.app import App
from curator.errors import ConfigError
from curator.index import language
from curator.index.derived import looks_like_item_ref
from curator.index.health import doctor_findings, missing_items
from curator.settings import Settings, config_data, deprecated, parse
from curator.vault import templates as tmpl
from curator.vault.anchors import Anchors
from curator.vault.anchors import describe as describe_anchor
from curator.vault.links import extract
from curator.vault.note import Note
from curator.vault.owners import lifecycle_keys, owner
from curator.vault.regions import find as find_regions
from curator.vault.repodocs import repository_document
from curator.vault.resolve import BY_TITLE, Resolver
from curator.vault.survey import survey
from curator.vault.tree import case_clashes

if TYPE_CHECKING:
    from curator.vault.links import Link


@dataclass(frozen=True, order=True)
class Diagnosis:
    path: str
    line: int
    code: str
    message: str
    fix: str

    def as_json(self) -> dict[str, object]:
        d = asdict(self)
        if not self.line:
            d.pop("line")
        return d


def _config_findings(app: App) -> tuple[Settings, list[Diagnosis]]:
    vault = app.vault()
    if not os.path.exists(vault.config_path):
        return Settings(), [
            Diagnosis(
                ".kp/config.yaml",
                0,
                "not-initialised",
                "the vault has no .kp/config.yaml",
                "run `curator init` and commit .kp/",
            )
        ]
    try:
        with open(vault.config_path, "rb") as f:
            raw = f.read()
        return parse(raw), _deprecations(raw)
    except ConfigError as e:
        return Settings(), [
            Diagnosis(
                ".kp/config.yaml", 0, "config", str(e), "fix the key in .kp/config.yaml (defaults are used until then)"
            )
        ]


def _deprecations(raw: bytes) -> list[Diagnosis]:
    data = config_data(raw)  # parse() read these bytes just before: they are valid YAML
    return [
        Diagnosis(".kp/config.yaml", 0, "deprecated-setting", message, "edit .kp/config.yaml as it says")
        for message in deprecated(data)
    ]


def check(app: App) -> list[Diagnosis]:
    settings, findings = _config_findings(app)
    vault = app.vault()
    s = survey(vault, settings)
    for skip in s.unreadable:
        findings.append(
            Diagnosis(
                skip.path,
                0,
                "unreadable-note",
                f"skipped: {skip.reason}",
                "save it as UTF-8 text, or move it out of the include globs",
            )
        )
    for skip in s.classified.skips:
        if skip.reason.startswith(("symlink loop", "symlink to a path outside", "broken symlink")):
            findings.append(
                Diagnosis(skip.path, 0, "symlink", skip.reason, "replace the symlink with the file itself, or remove it")
            )
        elif skip.reason.startswith("too large"):
            findings.append(
                Diagnosis(
                    skip.path,
                    0,
                    "too-large",
                    skip.reason,
                    "split the note, or raise notes.max_bytes in .kp/config.yaml",
                )
            )
    for group in case_clashes(s.classified.files):
        findings.append(
            Diagnosis(
                group[0],
                0,
                "case-clash",
                "paths differ only in case or spelling: " + ", ".join(group),
                "rename one; on macOS and Windows they are the same file",
            )
        )
    by_id: dict[str, list[str]] = {}
    item_links: list[tuple[str, Link]] = []
    resolver = s.resolver(settings)
    folders = tuple(settings.index.languages.items())
    templates = tmpl.on_disk(vault.root)
    by_path = {n.path: n for n in s.notes}
    cache: dict[str, Anchors] = {}

    def anchors_of(path: str) -> Anchors | None:
        if path not in cache and path in by_path:
            cache[path] = Anchors(by_path[path].text)
        return cache.get(path)

    producers = settings.producers.names
    for note in s.notes:
        template = tmpl.holding(note.path, templates)
        if template is not None:
            # A template is not a note to check: its links, dates and properties are
            # Templater's and the Templates plugin's to fill in (`[[Daily/<% tp.date.now() %>]]`,
            # `title: {{title}}`). Only its kp_id matters, since every note made from it copies it.
            if note.kp_id:
                by_id.setdefault(note.kp_id, []).append(note.path)
            continue
        for p in note.problems:
            fix = (
                "fix the YAML between the --- lines"
                if p.code == "malformed-frontmatter"
                else "set kp_id to NAMESPACE:ID, e.g. one `curator mint` prints"
            )
            findings.append(Diagnosis(note.path, p.line or 0, p.code, p.message, fix))
        if note.kp_id:
            by_id.setdefault(note.kp_id, []).append(note.path)
        elif (
            repository_document(note.path) is None
            and not any(p.code in ("malformed-frontmatter", "invalid-kp-id") for p in note.problems)
        ):
            findings.append(
                Diagnosis(
                    note.path,
                    0,
                    "unidentified-note",
                    "no kp_id in frontmatter",
                    "`curator adopt` gives committed notes one (a proposal to review), `curator mint PATH` a new "
                    "note not committed yet; identity falls back to the path until then",
                )
            )
        kept = lifecycle_keys(note.meta, settings.producers.lifecycle_keys)
        owned = owner(note.path, note.text, note.meta, settings) if kept else None
        if owned is not None:
            # A person's own status: is theirs (no finding); in a producer's note it is lost
            # at the next render, which is worth saying but breaks nothing today.
            findings.append(
                Diagnosis(
                    note.path,
                    0,
                    "status-field",
                    f"frontmatter has {kept[0]}: in a note producer {owned.producer} owns ({owned.why}); "
                    "its next render drops it",
                    "keep it in a note of your own, or leave it to the producer: lifecycle lives in the index",
                )
            )
        _regions, region_problems = find_regions(note.text.split("\n"), producers)
        for rp in region_problems:
            findings.append(
                Diagnosis(
                    note.path,
                    rp.line,
                    "managed-region",
                    rp.message,
                    "restore the producer's markers; let the producer re-render the region",
                )
            )
        findings.extend(_link_findings(note, resolver, item_links, anchors_of))
        code = language.of_note(note.meta, note.path, folders, settings.index.language)
        if not languages.known(code):
            findings.append(
                Diagnosis(
                    note.path,
                    0,
                    "unknown-language",
                    f"lang {code!r} is not a language Curator knows; the note is indexed by its words, unstemmed",
                    "set lang to an ISO 639-1 code (en, de, zh, ...), or remove it",
                )
            )
    for kp_id, paths in by_id.items():
        if len(paths) > 1:
            in_templates = [p for p in paths if tmpl.holding(p, templates)]
            for path in paths:
                others = ", ".join(x + (" (a template)" if x in in_templates else "") for x in paths if x != path)
                fix = (
                    "remove the kp_id line from the template (notes made from it copy it; Curator lets a "
                    "template lose its kp_id); in a new note that copied it, remove the line and run "
                    "`curator mint PATH`"
                    if in_templates
                    else "give all but the original note a new kp_id (`curator mint` prints one)"
                )
                findings.append(Diagnosis(path, 0, "duplicate-kp-id", f"kp_id {kp_id} is also used by {others}", fix))
    findings.extend(_item_link_findings(app, settings, item_links))
    findings.extend(_index_findings(app, settings))
    return sorted(set(findings))


def _item_link_findings(app: App, settings: Settings, links: list[tuple[str, Link]]) -> list[Diagnosis]:
    """Links to source items (``[[zotero:KEY]]``) that no note answers, checked against the index."""

    if not links:
        return []
    missing = missing_items(settings, app.index_dir(settings), {link.target for _, link in links})
    if not missing:
        return []
    fix = (
        "fix the key, or run `curator sources sync` if the item is new"
        if settings.sources
        else "add the library under `sources:` in .kp/config.yaml, or fix the link"
    )
    return [
        Diagnosis(path, link.line, "unresolved-link", f"{link.raw} matches no note and no source item", fix)
        for path, link in links
        if link.target in missing
    ]


def _link_findings(
    note: Note,
    resolver: Resolver,
    item_links: list[tuple[str, Link]],
    anchors_of: Callable[[str], Anchors | None] = lambda _p: None,
) -> list[Diagnosis]:
    """What the one resolver says about each link in ``note``; links that may name a source
    item (``[[zotero:KEY]]``) and no note are added to ``item_links`` for the index to answer."""

    out: list[Diagnosis] = []
    for link in extract(note.body, note.body_line, note.path):
        if not resolver.is_note_target(link):
            if not resolver.attachment_exists(link, note.path):
                out.append(
                    Diagnosis(
                        note.path,
                        link.line,
                        "missing-attachment",
                        f"{link.raw} points at a file that is not in the vault",
                        "add the file or fix the link",
                    )
                )
            continue
        r = resolver.resolve(link, note.path)
        if r.path is None and looks_like_item_ref(link.target):
            item_links.append((note.path, link))  # answered by a source item, if any
            continue
        if r.path is None:
            what = "a folder, not a note" if r.why == "folder" else "no note (kp_id, path, file name, alias or title)"
            out.append(
                Diagnosis(
                    note.path,
                    link.line,
                    "unresolved-link",
                    f"{link.raw} matches {what}",
                    "fix the target, add the note, or add an alias to the note meant",
                )
            )
        elif link.heading and (target := anchors_of(r.path)) is not None and target.find(link.heading) is None:
            out.append(
                Diagnosis(
                    note.path,
                    link.line,
                    "unresolved-anchor",
                    f"{link.raw}: {r.path} has no {describe_anchor(link.heading)}",
                    "fix the heading or block id (or add it to the note), or link the note without it",
                )
            )
        if r.path is not None and r.how == BY_TITLE:
            stem = posixpath.splitext(posixpath.basename(r.path))[0]
            out.append(
                Diagnosis(
                    note.path,
                    link.line,
                    "title-only-link",
                    f"{link.raw} matches only the title of {r.path} (its file name is {stem})",
                    "link by file name, or add the title to the note's aliases: "
                    "a link that matches a title is not a link in Obsidian, and changes target silently",
                )
            )
    return out


def _index_findings(app: App, settings: Settings) -> list[Diagnosis]:
    return [Diagnosis(*f) for f in doctor_findings(settings, app.index_dir(settings))]


CODES = (
    "not-initialised",
    "config",
    "deprecated-setting",
    "unreadable-note",
    "symlink",
    "too-large",
    "case-clash",
    "malformed-frontmatter",
    "invalid-kp-id",
    "unidentified-note",
    "duplicate-kp-id",
    "status-field",
    "managed-region",
    "unknown-language",
    "unresolved-link",
    "unresolved-anchor",
    "title-only-link",
    "missing-attachment",
    "index-corrupt",
    "embedder",
    "epoch-mismatch",
    "pending-embeddings",
)
"""Every code doctor can report, in the order docs/cli.md lists them (a test keeps the two equal,
and equal to the codes the checks above, the index's and the note parser's, can produce)."""
WARNINGS = frozenset({"title-only-link", "unknown-language", "unresolved-anchor", "deprecated-setting", "status-field"})
"""Codes that are shown but do not fail doctor on their own: the link works today."""
