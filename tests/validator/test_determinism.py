"""Same input, same bytes; the validator only reads; hostile proposal folders never crash it."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curator.proposals import store
from curator.settings import Settings
from curator.validator.report import to_json, to_text
from curator.validator.state import RepoState
from curator.validator.verdict import validate_proposal
from curator.vault import find_vault
from tests.conftest import GitVault, run_process


def _digest_tree(root: Path) -> dict[str, str]:
    out = {}
    for folder, _dirs, names in os.walk(root):
        for name in names:
            p = Path(folder) / name
            out[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def test_output_is_byte_identical_and_nothing_is_written(example_vault: GitVault) -> None:
    before = _digest_tree(example_vault.root)
    runs = [
        run_process("--vault", example_vault.root, "validate", "--format", fmt)
        for fmt in ("json", "json", "text", "text")
    ]
    assert runs[0].stdout == runs[1].stdout and runs[2].stdout == runs[3].stdout
    assert all(r.returncode == 1 for r in runs)
    assert _digest_tree(example_vault.root) == before
    cache = Path(os.environ["XDG_CACHE_HOME"]) / "curator"
    assert not cache.exists() or not any(cache.rglob("*.sqlite"))


def test_findings_are_sorted(example_vault: GitVault) -> None:
    vault = find_vault(str(example_vault.root))
    state = RepoState(vault, Settings())
    for pid in store.list_ids(str(example_vault.root)):
        r = validate_proposal(state, store.load(str(example_vault.root), pid))
        assert r.findings == sorted(r.findings, key=lambda f: f.sort_key())


names = st.sampled_from(
    ["proposal.yaml", "changes.diff", "events.jsonl", "files/notes/x.md", "files/../x.md", "junk", "files/a/b.md"]
)
blobs = st.one_of(
    st.binary(max_size=200),
    st.sampled_from(
        [
            b"schema: proposals/v1\nid: 01J00000000000000000000000\n",
            b"schema: proposals/v1\nid: X\ntitle: t\nauthor: {kind: agent, name: a}\ncreated: 2026-01-01T00:00:00Z\nbase: "
            + b"a" * 40
            + b"\nchanges: [{op: modify, path: notes/x.md, base_blob: "
            + b"b" * 40
            + b"}]\n",
            b"schema: proposals/v1\nchanges: [{op: explode, path: '../../etc/passwd'}]\n",
            b"diff --git a/notes/x.md b/notes/x.md\n--- a/notes/x.md\n+++ b/notes/x.md\n@@ -1,3 +1,3 @@\n a\n-b\n",
            b"diff --git a/x b/x\nGIT binary patch\nliteral 0\n",
            b'{"at": "x", "event": "applied", "by": "me"}\n',
            b"- just\n- a list\n",
            b"\xff\xfe\x00garbage",
        ]
    ),
)


@pytest.fixture(scope="module")
def fuzz_vault(tmp_path_factory: pytest.TempPathFactory) -> GitVault:
    from tests.conftest import make_git_vault, note

    v = make_git_vault(tmp_path_factory.mktemp("fuzz") / "v")
    v.write("notes/x.md", note("kp:x", "X", "a\nb\nc\n"))
    v.commit()
    return v


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(st.dictionaries(names, blobs, max_size=5), st.sampled_from(["01J00000000000000000000000", "X", "not a ulid"]))
def test_any_proposal_folder_gives_sorted_deterministic_findings(
    fuzz_vault: GitVault, contents: dict, dirname: str
) -> None:
    folder = fuzz_vault.root / ".kp" / "proposals" / dirname
    shutil.rmtree(folder, ignore_errors=True)
    for rel, data in contents.items():
        target = (folder / rel).resolve()
        if not str(target).startswith(str(folder.resolve())):
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    folder.mkdir(parents=True, exist_ok=True)
    try:
        vault = find_vault(str(fuzz_vault.root))
        first = validate_proposal(RepoState(vault, Settings()), store.load(str(fuzz_vault.root), dirname))
        second = validate_proposal(RepoState(vault, Settings()), store.load(str(fuzz_vault.root), dirname))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert to_json([first], []) == to_json([second], [])
    assert to_text([first], []) == to_text([second], [])
    assert first.findings == sorted(first.findings, key=lambda f: f.sort_key())
    if not first.ok:
        assert all(f.code in {f"KP00{i}" for i in range(1, 10)} | {"KP010", "KP011"} for f in first.findings)
    assert first.ok is False or "proposal.yaml" in contents
