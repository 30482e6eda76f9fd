"""The settings cache spares the YAML parser, never this release's defaults."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from curator import settings as settings_mod
from curator.locations import default_index_dir


@pytest.fixture
def vault_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = tmp_path / "v"
    (root / ".kp").mkdir(parents=True)
    return root


def _cache(root: Path) -> Path:
    return Path(default_index_dir(str(root))) / "settings.json"


def test_a_cache_from_a_release_with_other_defaults_does_not_keep_them(vault_root: Path) -> None:
    raw = b"notes:\n  now_note: focus.md\n"
    (vault_root / ".kp" / "config.yaml").write_bytes(raw)
    current = settings_mod.load(str(vault_root), use_cache=False)
    # What an earlier release left: every field, defaults filled in as that release had them.
    stale = current.to_dict()
    stale["notes"]["digest_dir"] = "an-old-default"
    cache = _cache(vault_root)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps({"sha256": hashlib.sha256(raw).hexdigest(), "settings": stale}))
    loaded = settings_mod.load(str(vault_root))
    assert loaded.notes.digest_dir == current.notes.digest_dir != "an-old-default"
    assert loaded.notes.now_note == "focus.md"


def test_the_cache_holds_the_config_as_written_and_serves_it(vault_root: Path) -> None:
    (vault_root / ".kp" / "config.yaml").write_text("notes:\n  now_note: focus.md  # the anchor\n")
    first = settings_mod.load(str(vault_root))
    cached = json.loads(_cache(vault_root).read_text())
    assert cached["data"] == {"notes": {"now_note": "focus.md"}}  # no default is stored
    assert settings_mod.load(str(vault_root)) == first
    # an edit of the config is read again, whatever the cache says
    (vault_root / ".kp" / "config.yaml").write_text("notes:\n  now_note: other.md\n")
    assert settings_mod.load(str(vault_root)).notes.now_note == "other.md"

