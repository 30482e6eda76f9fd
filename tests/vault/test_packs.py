"""Many blobs stored as one pack: git itself reads back every byte, checks the pack and its index,
and the count of files written is one pack and one index, not one loose object per blob."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pygit2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curator.vault import packs
from tests.conftest import git


def _repo(path: Path) -> pygit2.Repository:
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return pygit2.Repository(str(path))


def _loose(path: Path) -> list[str]:
    objects = path / ".git" / "objects"
    return [f"{d.name}{f.name}" for d in objects.iterdir() if len(d.name) == 2 for f in d.iterdir()]


def _packs(path: Path) -> list[str]:
    return sorted(f.name for f in (path / ".git" / "objects" / "pack").iterdir())


def _cat(path: Path, ids: list[str]) -> list[bytes]:
    """Each blob's bytes as git's own ``cat-file --batch`` reads them."""
    out = subprocess.run(
        ["git", "cat-file", "--batch"],
        cwd=path,
        input="".join(f"{i}\n" for i in ids).encode(),
        capture_output=True,
        check=True,
    ).stdout
    got = []
    while out:
        header, out = out.split(b"\n", 1)
        _oid, kind, size = header.split()
        assert kind == b"blob", header
        got.append(out[: int(size)])
        out = out[int(size) + 1 :]
    return got


blob_lists = st.lists(st.binary(max_size=3000), min_size=packs.PACK_FROM, max_size=packs.PACK_FROM + 40)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(blobs=blob_lists)
def test_git_reads_every_blob_of_a_pack_back(tmp_path_factory: pytest.TempPathFactory, blobs: list[bytes]) -> None:
    path = tmp_path_factory.mktemp("repo")
    repo = _repo(path)
    ids = packs.write_blobs(repo, blobs)
    want = [
        subprocess.run(["git", "hash-object", "--stdin"], input=b, capture_output=True, check=True)
        .stdout.decode()
        .strip()
        for b in blobs[:3]
    ]
    assert ids[:3] == want
    assert _cat(path, ids) == blobs
    distinct = len(set(blobs))
    if distinct >= packs.PACK_FROM:
        assert _loose(path) == []
        assert [n.rsplit(".", 1)[1] for n in _packs(path)] == ["idx", "pack"]
        verify = git(path, "verify-pack", "-v", str(path / ".git" / "objects" / "pack" / _packs(path)[0]))
        assert f"non delta: {distinct} objects" in verify.stdout
    assert git(path, "fsck", "--strict", "--no-dangling").returncode == 0


def test_few_blobs_are_written_loose_as_git_would(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    blobs = [b"note %d\n" % i for i in range(packs.PACK_FROM - 1)]
    ids = packs.write_blobs(repo, blobs)
    assert sorted(_loose(tmp_path)) == sorted(ids)
    assert _packs(tmp_path) == []


def test_blobs_already_stored_are_not_written_again(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    blobs = [b"note %d\n" % i for i in range(2 * packs.PACK_FROM)]
    first = packs.write_blobs(repo, blobs)
    assert len(_packs(tmp_path)) == 2
    # Half stored already, half new: too few new ones for a pack of their own.
    again = packs.write_blobs(repo, blobs + [b"new %d\n" % i for i in range(packs.PACK_FROM // 2)])
    assert again[: len(first)] == first
    assert len(_packs(tmp_path)) == 2
    assert len(_loose(tmp_path)) == packs.PACK_FROM // 2


def test_a_linked_worktree_packs_into_the_common_object_store(tmp_path: Path) -> None:
    main = tmp_path / "main"
    _repo(main)
    git(main, "commit", "-q", "--allow-empty", "-m", "first")
    git(main, "worktree", "add", "-q", str(tmp_path / "wt"))
    repo = pygit2.Repository(str(tmp_path / "wt"))
    blobs = [b"note %d\n" % i for i in range(packs.PACK_FROM)]
    ids = packs.write_blobs(repo, blobs)
    assert len(_packs(main)) == 2
    assert _cat(main, ids) == blobs


def test_a_redirected_object_folder_gets_loose_objects_through_libgit2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path)
    monkeypatch.setenv("GIT_OBJECT_DIRECTORY", str(tmp_path / ".git" / "objects"))
    blobs = [b"note %d\n" % i for i in range(packs.PACK_FROM)]
    ids = packs.write_blobs(repo, blobs)
    assert _packs(tmp_path) == []
    assert sorted(_loose(tmp_path)) == sorted(ids)


def test_a_pack_that_git_cannot_see_falls_back_to_loose_objects(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the pack writer gets wrong, every blob ends up stored: each id is looked up after."""
    repo = _repo(tmp_path)
    monkeypatch.setattr(packs, "write_pack", lambda folder, blobs: os.path.join(folder, "nothing"))
    blobs = [b"note %d\n" % i for i in range(packs.PACK_FROM)]
    ids = packs.write_blobs(repo, blobs)
    assert sorted(_loose(tmp_path)) == sorted(ids)
    assert _cat(tmp_path, ids) == blobs


@pytest.mark.parametrize(("folder", "file"), [(0o700, 0o400), (0o755, 0o444), (0o2775, 0o444)])
def test_a_pack_is_read_only_and_as_private_as_its_folder(tmp_path: Path, folder: int, file: int) -> None:
    repo = _repo(tmp_path)
    pack_dir = tmp_path / ".git" / "objects" / "pack"
    pack_dir.chmod(folder)
    packs.write_blobs(repo, [b"note %d\n" % i for i in range(packs.PACK_FROM)])
    assert sorted(oct(p.stat().st_mode & 0o7777) for p in pack_dir.iterdir()) == [oct(file)] * 2
