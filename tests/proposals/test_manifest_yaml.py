"""A large proposal.yaml is parsed once per process, whoever reads it (the queue's row, the stored
diff, the validator), and its data shared; small ones, and bytes that differ, are parsed again."""

from __future__ import annotations

import threading

import pytest

from curator import yaml_reader
from curator.proposals import manifest_yaml


def _manifest(changes: int, title: str = "Adopt") -> bytes:
    rows = "".join(f"- op: modify\n  path: notes/n{i}.md\n  base_blob: {'a' * 40}\n" for i in range(changes))
    return f"schema: proposals/v1\ntitle: {title}\nchanges:\n{rows}".encode()


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    monkeypatch.setattr(manifest_yaml, "_kept", {})
    counted: list[int] = []
    real = yaml_reader.load

    def counting(text: str, **kw: object) -> object:
        counted.append(len(text))
        return real(text, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(yaml_reader, "load", counting)
    return counted


def test_a_large_manifest_read_by_three_threads_at_once_is_parsed_once(parses: list[int]) -> None:
    raw = _manifest(800)
    assert len(raw) >= manifest_yaml.LARGE
    got: list[object] = []
    threads = [threading.Thread(target=lambda: got.append(manifest_yaml.load(raw))) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(parses) == 1 and len(got) == 3 and got[0] is got[1] is got[2]
    assert got[0]["changes"][799]["path"] == "notes/n799.md"  # type: ignore[index]


def test_other_bytes_and_small_manifests_are_parsed_again(parses: list[int]) -> None:
    a, b = _manifest(800, "A"), _manifest(800, "B")
    assert manifest_yaml.load(a)["title"] == "A" and manifest_yaml.load(b)["title"] == "B"
    small = _manifest(2)
    manifest_yaml.load(small)
    manifest_yaml.load(small)
    assert len(parses) == 4


def test_what_does_not_read_is_refused_every_time(parses: list[int]) -> None:
    bad = b"schema: [" + b"x" * manifest_yaml.LARGE
    for _ in range(2):
        with pytest.raises(yaml_reader.YamlRefused):
            manifest_yaml.load(bad)
    with pytest.raises(UnicodeDecodeError):
        manifest_yaml.load(b"title: \xff" + b" " * manifest_yaml.LARGE)
    assert len(parses) == 2
