"""`sources:` in .kp/config.yaml: each mistake is one clear line naming the entry."""

from __future__ import annotations

import json

import pytest

from curator import settings, settings_checks
from curator.errors import ConfigError
from curator.sources.all_sources import SOURCES, open_source
from curator.sources.base import resolve_path


def test_every_configurable_type_has_an_adapter() -> None:
    assert set(SOURCES) == set(settings_checks.SOURCE_TYPES)


def test_a_source_entry_and_its_round_trip_through_the_cache() -> None:
    s = settings.parse(
        b"sources:\n  - name: library\n    type: zotero\n    path: ~/Zotero/zotero.sqlite\n"
        b"    collections: [Reading/2024]\n    notes: false\n"
    )
    (src,) = s.sources
    assert (src.name, src.type, src.collections, src.notes) == ("library", "zotero", ("Reading/2024",), False)
    assert settings.from_dict(json.loads(json.dumps(s.to_dict()))) == s


@pytest.mark.parametrize(
    ("yaml", "message"),
    [
        ("sources: 3", "sources must be a list of mappings"),
        ("sources: [x]", "sources[0] must be a mapping"),
        ("sources:\n  - {name: a, type: jsonl}", "sources[0] has no path"),
        ("sources:\n  - {name: A b, type: jsonl, path: x}", "sources[0].name 'A b' is not a source name"),
        ("sources:\n  - {name: vault, type: jsonl, path: x}", "sources[0].name 'vault' is not a source name"),
        ("sources:\n  - {name: a, type: bibtex, path: x}", "sources[0].type is 'bibtex'"),
        ("sources:\n  - {name: a, type: jsonl, path: x, colour: red}", "unknown key sources[0].colour"),
        ("sources:\n  - {name: a, type: jsonl, path: x}\n  - {name: a, type: jsonl, path: y}", "used twice"),
        ("sources:\n  - {name: a, type: jsonl, path: x, collections: [c]}", "only zotero sources take"),
        ("sources:\n  - {name: a, type: jsonl, path: x, max_item_bytes: 0}", "max_item_bytes must be at least 1"),
    ],
)
def test_config_mistakes(yaml: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
        settings.parse(yaml.encode())


def test_paths_expand_home_and_start_at_the_vault_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/home/reader")
    assert resolve_path("/vault", "~/Zotero/zotero.sqlite") == "/home/reader/Zotero/zotero.sqlite"
    assert resolve_path("/vault", "refs/library.json") == "/vault/refs/library.json"
    assert resolve_path("/vault", "/data/c.jsonl") == "/data/c.jsonl"
    src = settings.parse(b"sources:\n  - {name: lib, type: zotero, path: z.sqlite, better_bibtex: bbt.sqlite}")
    adapter = open_source(src.sources[0], "/vault")
    assert adapter.files() == ["/vault/z.sqlite", "/vault/z.sqlite-wal", "/vault/bbt.sqlite"]
